#!/usr/bin/env bash
# Match analysis speed: `bgedit analyse --file` (gnubg's own `analyse match`
# on runs of pieces of the match's games, shared out to J gnubg processes, the
# decisions judged from gnubg's records) against gnubg's own `analyse match`
# on the same file at the same depth.
#
#     benches/match_analysis.sh        (needs gnubg; builds bgedit in release)
#     PLIES=1 benches/match_analysis.sh
#
# Files: the fixture matches of gen_gnubg_match_analysis.py and
# gen_gnubg_selfplay.py (7- and 9-point matches and a money session,
# gnubg-generated, with errors of every kind). Each side's median of 3
# whole runs, process starts included. gnubg is timed twice: as it comes
# (its analysis also rates every roll's luck, as bgedit's does) and with
# `set analysis luck off`. The goals: no slower than gnubg, and 2 jobs at least 1.7x one.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=target/release/bgedit
GNUBG=${BGEDIT_GNUBG:-/usr/games/gnubg}
PLIES=${PLIES:-0}
FILES=(tests/fixtures/analysis/m7_noisy.sgf tests/fixtures/selfplay/m9_driven.sgf
       tests/fixtures/selfplay/m7_selfplay_a.sgf tests/fixtures/selfplay/money_driven.sgf)

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }

gnubg_run() {
    local file=$1 luck=$2 script
    script=$(mktemp)
    printf '%s\n' "set analysis chequerplay evaluation plies $PLIES" \
        "set analysis cubedecision evaluation plies $PLIES" "set analysis luck $luck" \
        "load match $file" "analyse match" > "$script"
    LC_ALL=C "$GNUBG" -t -q < "$script"
    rm -f "$script"
}

printf '%-18s %5s %9s %9s %9s %9s %8s %8s\n' file decis "1 job s" "2 jobs s" "gnubg s" "no luck" "2j/1j" "gnubg/2j"
for f in "${FILES[@]}"; do
    n=$($BIN analyse --file "$f" --format json --plies "$PLIES" --jobs 2 | grep -c '"kind"')
    one=$(for _ in 1 2 3; do timed $BIN analyse --file "$f" --plies "$PLIES" --jobs 1; done | median)
    two=$(for _ in 1 2 3; do timed $BIN analyse --file "$f" --plies "$PLIES" --jobs 2; done | median)
    g=$(for _ in 1 2 3; do timed gnubg_run "$f" on; done | median)
    gl=$(for _ in 1 2 3; do timed gnubg_run "$f" off; done | median)
    printf '%-18s %5d %9.2f %9.2f %9.2f %9.2f %8.2f %8.2f\n' "$(basename "$f")" "$n" "$one" "$two" "$g" "$gl" \
        "$(echo "$one / $two" | bc -l)" "$(echo "$g / $two" | bc -l)"
done
