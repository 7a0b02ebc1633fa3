#!/usr/bin/env bash
# Issue 41's two figures:
#
# 1. `bgedit library matches` over a library of N matches (10,000 by
#    default), each analysed by bgedit: the library grown from one real
#    match by benches/gen_stats_library.py (as benches/stats_player.sh
#    does). Timed: the first run (it computes every match's rates from the
#    verdicts and keeps them) and the median of 5 runs after it, text and
#    JSON, wall and CPU time from /usr/bin/time. Goal: <= 100 ms.
#
# 2. Opening a stored 25-point match in the editor: gnubg 1.07 plays a
#    25-point match against itself at 0-ply (fixed seed), bgedit imports it
#    and analyses it (`library analyse --plies 0`), and the criterion bench
#    `open_stored_match` (benches/editor.rs) times the editor's way in:
#    the library worker reads the kept file, replays it and reads the kept
#    verdicts, the reducer opens the match with them, and the first frame
#    is drawn at 200x60. Goal: <= 200 ms.
#
#     benches/library_matches.sh          (N=10000)
#     N=200 benches/library_matches.sh    (small)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${BIN:-}" ] || cargo build --release --quiet
BIN=${BIN:-target/release/bgedit}
N=${N:-10000}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
LIB="$WORK/lib.sqlite"
FILE=tests/fixtures/mat/xg_export_charlot_7pt.mat
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

"$BIN" library --library "$LIB" import "$FILE" >/dev/null 2>&1
"$BIN" library --library "$LIB" analyse --plies 0 --jobs 2 >/dev/null
python3 benches/gen_stats_library.py "$LIB" "$N"
echo "library: $N matches, $(du -h "$LIB" | cut -f1)"

timed() {
    local s e
    s=$(date +%s.%N)
    /usr/bin/time -f '%U %S' -o "$WORK/time" "$@" >"$WORK/out" 2>"$WORK/err" \
        || { cat "$WORK/err" >&2; exit 1; }
    e=$(date +%s.%N)
    awk -v w="$(echo "$e - $s" | bc)" '{printf "%.3f %.2f\n", w, $1 + $2}' "$WORK/time"
}
for format in text json; do
    run() { timed "$BIN" library --library "$LIB" matches --format "$format"; }
    read -r w c < <(run)
    printf '%s, first run (rates computed and kept): %s s wall, %s s cpu, %d lines\n' \
        "$format" "$w" "$c" "$(wc -l < "$WORK/out")"
    for _ in 1 2 3 4 5; do run; done | sort -n | awk -v f="$format" '{a[NR]=$0} END \
        {split(a[3], m, " "); printf "%s, kept rates, median of 5: %s s wall, %s s cpu\n", f, m[1], m[2]}'
done

# 2: a 25-point match gnubg plays, stored with bgedit's verdicts.
STORED="$WORK/stored.sqlite"
cat <<GNUBG | timeout 900 /usr/games/gnubg -t -q >/dev/null 2>&1
set player 0 gnubg
set player 1 gnubg
set player 0 chequerplay evaluation plies 0
set player 1 chequerplay evaluation plies 0
set player 0 cubedecision evaluation plies 0
set player 1 cubedecision evaluation plies 0
set seed 41
new match 25
save match $WORK/m25.sgf
GNUBG
"$BIN" library --library "$STORED" import "$WORK/m25.sgf" | tail -1
"$BIN" library --library "$STORED" analyse --plies 0 --jobs 2 | tail -1
BGEDIT_BENCH_STORED="$STORED" cargo bench --quiet --bench editor -- open_stored_match 2>&1 \
    | grep -E 'open_stored_match|time:'
