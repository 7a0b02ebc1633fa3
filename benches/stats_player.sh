#!/usr/bin/env bash
# `bgedit stats --player NAME` over a library of N matches (10,000 by
# default), each analysed (bgedit's verdicts stored).
#
#     benches/stats_player.sh          (N=10000)
#     N=200 benches/stats_player.sh    (small)
#
# The library is built fast by benches/gen_stats_library.py: one real
# match (XG's .mat export of a 7-point match, tests/fixtures/mat) imported
# and analysed by gnubg at 0-ply, then copied N-1 times in SQL with the
# opponent renamed and the date moved (so each copy's file, hash and
# identity differ), with its decisions and bgedit's verdicts. The player
# is in every match. Timed: the first run (it computes every match's rates
# from the verdicts and keeps them) and the median of 5 runs after it
# (rates kept), wall and CPU time from /usr/bin/time. Goal: <= 100 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${BIN:-}" ] || cargo build --release --quiet
BIN=${BIN:-target/release/bgedit}
N=${N:-10000}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
LIB="$WORK/lib.sqlite"
FILE=tests/fixtures/mat/xg_export_charlot_7pt.mat

"$BIN" library --library "$LIB" import "$FILE" >/dev/null 2>&1
"$BIN" library --library "$LIB" analyse --plies 0 --jobs 2 >/dev/null
s=$(date +%s.%N)
python3 benches/gen_stats_library.py "$LIB" "$N"
echo "library: $N matches, $(du -h "$LIB" | cut -f1), built in $(echo "$(date +%s.%N) - $s" | bc | cut -c1-5) s"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

# "wall cpu" in seconds: wall to the microsecond from the clock around the
# run, CPU (user + sys) from /usr/bin/time (to the hundredth).
timed() {
    local s e
    s=$(date +%s.%N)
    /usr/bin/time -f '%U %S' -o "$WORK/time" "$@" >"$WORK/out" 2>"$WORK/err" \
        || { cat "$WORK/err" >&2; exit 1; }
    e=$(date +%s.%N)
    awk -v w="$(echo "$e - $s" | bc)" '{printf "%.3f %.2f\n", w, $1 + $2}' "$WORK/time"
}
run() { timed "$BIN" stats --player charlot1 --library "$LIB" --format json; }

read -r w c < <(run)
rows=$(($(wc -l < "$WORK/out") - 1))
printf 'first run (rates computed and kept): %s s wall, %s s cpu, %d matches\n' "$w" "$c" "$rows"
for _ in 1 2 3 4 5; do run; done | sort -n | awk '{a[NR]=$0} END {split(a[3], m, " "); \
    printf "kept rates, median of 5: %s s wall, %s s cpu\n", m[1], m[2]}'
