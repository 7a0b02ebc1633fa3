#!/usr/bin/env bash
# Streams a million random positions' IDs through the release binary on one
# core and reports IDs (or boards) a second, the CPU time a line and the
# peak resident memory: the figures the README quotes for `bgedit convert`
# and `bgedit show`.
#
# The input is varied, as real input is: examples/random_ids.rs prints
# random valid positions from a fixed seed (bars, stacks, borne-off
# checkers, both players on roll, money and every match state; three GNUBG
# IDs for every XGID). Never one ID repeated.
#
#   cargo build --release --bin bgedit --example random_ids && benches/stream_million.sh
#
# N=200000 for a shorter run; SEED to change the positions; RUNS for the
# number of runs of each (the median is shown); BIN to measure another build. Wall time on a shared machine varies; the CPU time (user +
# sys) is the steadier figure, and both are shown.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/bgedit}
GEN=${GEN:-target/release/examples/random_ids}
N=${N:-1000000}
SEED=${SEED:-2026}
# Each figure is the median of RUNS runs (a shared or virtual machine has
# slow first runs and noisy neighbours).
RUNS=${RUNS:-5}
INPUT=$(mktemp)
trap 'rm -f "$INPUT"' EXIT
"$GEN" "$N" mix "$SEED" > "$INPUT"
run() {
  local label=$1; shift
  local results=()
  for _ in $(seq "$RUNS"); do
    local t0 t1 stats
    t0=$(date +%s.%N)
    stats=$( { /usr/bin/time -f '%U %S %M' taskset -c 0 "$BIN" "$@" < "$INPUT" > /dev/null; } 2>&1 | tail -1)
    t1=$(date +%s.%N)
    results+=("$t0 $t1 $stats")
  done
  python3 - "$N" "$label" "${results[@]}" <<'PY'
import statistics, sys
n, label = int(sys.argv[1]), sys.argv[2]
runs = [list(map(float, r.split())) for r in sys.argv[3:]]
cpu = sorted(max(u + s, 1e-9) for _, _, u, s, _ in runs)
wall = sorted(t1 - t0 for t0, t1, *_ in runs)
rss = max(r[4] for r in runs)
med, best = statistics.median(cpu), cpu[0]
print(f"{label:<22} {n/med:>12,.0f} per CPU second, median of {len(runs)} ({med/n*1e9:.0f} ns a line; best {n/best:,.0f})"
      f"   {n/statistics.median(wall):>12,.0f} per wall second   peak RSS {rss/1024:.1f} MiB")
PY
}
# Peak RSS counts the file pages the kernel maps around each page the
# program touches (shared page cache: about 3 MiB of the program's own code
# and data, 1.2 MiB of the C library and loader); the stream's own memory is
# the anonymous part, read here at the end of a full stream while the input
# is held open.
anon() {
  local label=$1; shift
  ( cat "$INPUT"; sleep 2 ) | "$BIN" "$@" > /dev/null &
  local pid
  sleep 1
  while pid=$(pgrep -n -f "$BIN $*") && [ -n "$pid" ] &&
        [ "$(awk '/^State/ {print $2}' /proc/"$pid"/status)" = R ]; do sleep 0.2; done
  [ -n "$pid" ] && awk -v l="$label" '/^RssAnon/ {a=$2} /^VmHWM/ {h=$2}
    END {printf "%-22s anonymous memory %.1f MiB after the stream (peak RSS %.1f MiB)\n", l, a/1024, h/1024}' /proc/"$pid"/status
  wait
}
run "convert --to gnubg" convert -q --to gnubg
run "convert --to xgid" convert -q --to xgid
run "show" show -q
anon "convert --to gnubg" convert -q --to gnubg
anon "show" show -q
