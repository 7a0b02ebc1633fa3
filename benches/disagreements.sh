#!/usr/bin/env bash
# `bgedit library disagreements` over N random positions (benches/
# gen_positions.py, fixed seed: moves to play and cube decisions, money and
# match) added to a fresh library, at gnubg's 0-ply (Sage's 1-ply: each
# engine's quickest, its raw network) unless PLIES is given, with JOBS jobs
# (one a core when not given). Prints the wall time of the whole command,
# the rate, and its closing line, which gives each engine's time a
# position (summed over the jobs, so it is each engine's own cost, not the
# wall time divided).
# usage: benches/disagreements.sh [N] [PLIES] [JOBS]   (default 200 0;
# BGEDIT_BIN: a bgedit already built, else a release build is made)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-200}
plies=${2:-0}
jobs=${3:-}
if [ -z "${BGEDIT_SAGE_PYTHON:-}" ] && [ -x target/sage-venv/bin/python ]; then
    export BGEDIT_SAGE_PYTHON=$PWD/target/sage-venv/bin/python
fi
: "${BGEDIT_SAGE_PYTHON:?needs bgsage: BGEDIT_SAGE_PYTHON}"
if [ -n "${BGEDIT_BIN:-}" ]; then
    bin=$BGEDIT_BIN
else
    cargo build --release --quiet
    bin=target/release/bgedit
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lib=$work/library.sqlite
python3 benches/gen_positions.py "$n" > "$work/ids.txt"
"$bin" library --library "$lib" add < "$work/ids.txt" > /dev/null
args=(library --library "$lib" disagreements --plies "$plies")
if [ -n "$jobs" ]; then
    args+=(--jobs "$jobs")
fi
start=$(date +%s.%N)
"$bin" "${args[@]}" > "$work/list" 2> "$work/err"
end=$(date +%s.%N)
wall=$(echo "$end - $start" | bc -l)
echo "library disagreements, $n positions, --plies $plies, jobs ${jobs:-one a core} ($(nproc) cores):"
printf "  wall %.1f s, %.1f positions/s, %s listed (gap >= 0.05)\n" \
    "$wall" "$(echo "$n / $wall" | bc -l)" "$(wc -l < "$work/list")"
echo "  $(tail -1 "$work/err")"
# Run again: everything is kept, nothing is asked again.
start=$(date +%s.%N)
"$bin" "${args[@]}" > /dev/null 2> "$work/err"
end=$(date +%s.%N)
printf "  again (all kept): %.2f s: %s\n" "$(echo "$end - $start" | bc -l)" "$(tail -1 "$work/err")"
# The filter word over the kept comparisons, as `library search` runs it.
start=$(date +%s.%N)
found=$("$bin" library --library "$lib" search --format json 'disagree>=0.05' | wc -l)
end=$(date +%s.%N)
printf "  library search 'disagree>=0.05': %s entries in %.2f s (the whole command)\n" \
    "$found" "$(echo "$end - $start" | bc -l)"
