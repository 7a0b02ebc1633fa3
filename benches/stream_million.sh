#!/usr/bin/env bash
# Streams a million random positions' IDs through the release binary on one
# core and reports IDs (or boards) a second, the CPU time a line and the
# peak resident memory: the figures the README quotes for `bgedit convert`
# and `bgedit show`; and gnubg 1.07 on the same positions, so that each
# figure is also a ratio to gnubg measured in the same run (a shared
# machine's speed drifts; the ratio holds).
#
# The input is varied, as real input is: examples/random_ids.rs prints
# random valid positions from a fixed seed (bars, stacks, borne-off
# checkers, both players on roll, money and every match state; three GNUBG
# IDs for every XGID). Never one ID repeated.
#
#   cargo build --release --bin bgedit --example random_ids && benches/stream_million.sh
#
# N=200000 for a shorter run; SEED to change the positions; RUNS for the
# number of runs of each (the median is shown; the commands take turns, one
# run of each in a round, so that a noisy minute costs each alike); BIN to
# measure another build; GNUBG (default /usr/games/gnubg, empty to leave it
# out) and N_GNUBG (default 100,000: gnubg is slower) for gnubg's side:
# `set gnubgid ID` or `set xgid ID` for each of the first N_GNUBG lines,
# each of which prints gnubg's board with its Position and Match IDs, its
# `show board` and its conversion at once. Wall time on a shared machine
# varies; the CPU time (user + sys) is the steadier figure, and both are
# shown.
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
"$GEN" "$N" mix "$SEED" > "$INPUT"
GNUBG=${GNUBG-/usr/games/gnubg}
N_GNUBG=${N_GNUBG:-100000}
GNUBG_INPUT=$(mktemp)
trap 'rm -f "$INPUT" "$GNUBG_INPUT"' EXIT
head -n "$N_GNUBG" "$INPUT" | awk '/^XGID=/ {print "set xgid " $0; next} {print "set gnubgid " $0}' > "$GNUBG_INPUT"
# One run of a command: "t0 t1 user sys maxrss" (time's figures).
once() {
  local input=$1; shift
  local t0 t1 stats
  t0=$(date +%s.%N)
  stats=$( { /usr/bin/time -f '%U %S %M' taskset -c 0 "$@" < "$input" > /dev/null; } 2>&1 | tail -1)
  t1=$(date +%s.%N)
  echo "$t0 $t1 $stats"
}
report() {
  python3 - "$@" <<'PY'
import statistics, sys
n, label, ref = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
runs = [list(map(float, r.split())) for r in sys.argv[4:]]
cpu = sorted(max(u + s, 1e-9) for _, _, u, s, _ in runs)
wall = sorted(t1 - t0 for t0, t1, *_ in runs)
rss = max(r[4] for r in runs)
med, best = statistics.median(cpu), cpu[0]
ratio = f"   {n / med / ref:5.1f}x gnubg" if ref > 0 else ""
print(f"{label:<22} {n/med:>12,.0f} per CPU second, median of {len(runs)} ({med/n*1e9:.0f} ns a line; best {n/best:,.0f}){ratio}"
      f"   {n/statistics.median(wall):>12,.0f} per wall second   peak RSS {rss/1024:.1f} MiB")
print(f"{'':<22} CPU seconds of each run: {' '.join(f'{u + s:.3f}' for _, _, u, s, _ in runs)}")
PY
}
declare -a G SHOW CONV_G CONV_X
for _ in $(seq "$RUNS"); do
  [ -n "$GNUBG" ] && G+=("$(once "$GNUBG_INPUT" "$GNUBG" -t -q)")
  CONV_G+=("$(once "$INPUT" "$BIN" convert -q --to gnubg)")
  CONV_X+=("$(once "$INPUT" "$BIN" convert -q --to xgid)")
  SHOW+=("$(once "$INPUT" "$BIN" show -q)")
done
REF=0
if [ -n "$GNUBG" ]; then
  report "$N_GNUBG" "gnubg set + board" 0 "${G[@]}"
  REF=$(python3 -c 'import statistics,sys; n=int(sys.argv[1]); print(n/statistics.median(max(float(a.split()[2])+float(a.split()[3]),1e-9) for a in sys.argv[2:]))' "$N_GNUBG" "${G[@]}")
fi
report "$N" "convert --to gnubg" "$REF" "${CONV_G[@]}"
report "$N" "convert --to xgid" "$REF" "${CONV_X[@]}"
report "$N" "show" "$REF" "${SHOW[@]}"
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
anon "convert --to gnubg" convert -q --to gnubg
anon "show" show -q
