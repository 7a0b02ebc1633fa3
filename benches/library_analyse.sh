#!/usr/bin/env bash
# `bgedit library analyse` against gnubg's own `analyse match` on the same
# real matches at the same depth, side by side in one run.
#
#     benches/library_analyse.sh              (full: 0-ply and 2-ply)
#     SET=real benches/library_analyse.sh     (the two matches played by people)
#     DEPTHS=0 benches/library_analyse.sh     (0-ply only)
#     SIZE=small benches/library_analyse.sh   (0-ply on one match)
#     RUNS=5 benches/library_analyse.sh       (the median of 5 runs each)
#
# Files: the committed matches gnubg reads with `import mat` as they are
# (tests/fixtures/README): XG's own `.mat` exports of two 7-point matches
# played by people, and gnubg's self-play matches of 1 to 11 points
# (SET=real: the first two only). For each depth: bgedit's library analyse of a
# fresh library holding the matches with --jobs 1 and --jobs 2 (the import
# not timed), and gnubg -t -q running a command file per match (`import
# mat`, `set analysis ... plies P` for checker play and cube, `analyse
# match`), the matches one after the other. Wall and CPU time (user+sys,
# children included) from /usr/bin/time; with RUNS=N, the run of median
# wall time of N, the three commands taking turns (so that a slow spell of
# the machine falls on all three), and the ratio of the medians. The whole script
# takes about 2 minutes on 2 cores with SET=real, 6 with all.
# Goals: bgedit with 1 job no slower than gnubg; 2 jobs at least 1.8x one.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${BIN:-}" ] || cargo build --release --quiet
BIN=${BIN:-target/release/bgedit}
GNUBG=${BGEDIT_GNUBG:-/usr/games/gnubg}
FILES=(tests/fixtures/mat/xg_export_charlot_7pt.mat tests/fixtures/mat/xg_export_hsbt_paris_7pt.mat)
if [ "${SET:-all}" = all ]; then
    FILES+=(tests/fixtures/mat/selfplay_{1pt_seed37,3pt_seed23,5pt_seed7,7pt_seed19,9pt_seed31,11pt_seed41}.mat)
fi
DEPTHS=(${DEPTHS:-0 2})
if [ "${SIZE:-full}" = small ]; then
    FILES=("${FILES[0]}")
    DEPTHS=(0)
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Runs "$@" under /usr/bin/time; prints "wall cpu" in seconds.
timed() {
    /usr/bin/time -f '%e %U %S' -o "$WORK/time" "$@" >/dev/null 2>"$WORK/err" \
        || { cat "$WORK/err" >&2; exit 1; }
    awk '{printf "%.2f %.2f\n", $1, $2 + $3}' "$WORK/time"
}

# The line of median wall time among "wall cpu" lines on stdin.
median() {
    sort -n | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'
}

# One command file per match, run one after the other by one script, so
# /usr/bin/time counts every gnubg process.
gnubg_script() {
    local plies=$1 f k=0
    echo 'set -e' > "$WORK/gnubg.sh"
    for f in "${FILES[@]}"; do
        k=$((k + 1))
        printf '%s\n' "set analysis chequerplay evaluation plies $plies" \
            "set analysis cubedecision evaluation plies $plies" \
            "import mat $PWD/$f" "analyse match" > "$WORK/cmd$k"
        echo "LC_ALL=C '$GNUBG' -t -q < '$WORK/cmd$k'" >> "$WORK/gnubg.sh"
    done
}

bgedit_all() {
    local plies=$1 jobs=$2 lib="$WORK/lib-$1-$2.sqlite"
    rm -f "$lib"
    "$BIN" library --library "$lib" import "${FILES[@]}" >/dev/null 2>&1
    timed "$BIN" library --library "$lib" analyse --plies "$plies" --jobs "$jobs"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "matches: ${FILES[*]}"
printf '%-6s %-16s %8s %8s %8s\n' depth run "wall s" "cpu s" "speed-up"
RUNS=${RUNS:-1}
for plies in "${DEPTHS[@]}"; do
    gnubg_script "$plies"
    : > "$WORK/g"; : > "$WORK/b1"; : > "$WORK/b2"
    for _ in $(seq "$RUNS"); do
        timed bash "$WORK/gnubg.sh" >> "$WORK/g"
        bgedit_all "$plies" 1 >> "$WORK/b1"
        bgedit_all "$plies" 2 >> "$WORK/b2"
    done
    read -r gw gc < <(median < "$WORK/g")
    read -r w1 c1 < <(median < "$WORK/b1")
    read -r w2 c2 < <(median < "$WORK/b2")
    printf '%-6s %-16s %8s %8s %8s\n' "$plies" "gnubg" "$gw" "$gc" "1.00"
    printf '%-6s %-16s %8s %8s %8.2f\n' "$plies" "bgedit --jobs 1" "$w1" "$c1" "$(echo "$gw / $w1" | bc -l)"
    printf '%-6s %-16s %8s %8s %8.2f\n' "$plies" "bgedit --jobs 2" "$w2" "$c2" "$(echo "$gw / $w2" | bc -l)"
    printf '%-6s 2 jobs / 1 job: %.2fx\n' "$plies" "$(echo "$w1 / $w2" | bc -l)"
    if [ "$RUNS" -gt 1 ]; then
        printf '%-6s walls: gnubg %s; 1 job %s; 2 jobs %s\n' "$plies" \
            "$(cut -d' ' -f1 "$WORK/g" | paste -sd' ')" \
            "$(cut -d' ' -f1 "$WORK/b1" | paste -sd' ')" \
            "$(cut -d' ' -f1 "$WORK/b2" | paste -sd' ')"
    fi
done
