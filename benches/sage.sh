#!/usr/bin/env bash
# Open Sage beside gnubg on the same varied positions (fixed seed), one job:
#   1. Sage 1-ply and 2-ply (`--plies 0` and `--plies 1` in gnubg's count)
#      against gnubg 0-ply and 1-ply: seconds for N positions, a position/s
#   2. Sage's rollout: trials a second with 1 and 2 threads (the opening 31,
#      5 candidates, truncated at 7 plies)
# usage: benches/sage.sh [N]   (default 1000; needs gnubg and bgsage, found as
# bgedit finds them: BGEDIT_SAGE_PYTHON, or target/sage-venv as .ci/run makes)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
if [ -z "${BGEDIT_SAGE_PYTHON:-}" ] && [ -x target/sage-venv/bin/python ]; then
    export BGEDIT_SAGE_PYTHON=$PWD/target/sage-venv/bin/python
fi
# BGEDIT_BIN: a bgedit already built (the engines' time dominates).
if [ -n "${BGEDIT_BIN:-}" ]; then
    bin=$BGEDIT_BIN
else
    cargo build --release --quiet
    bin=target/release/bgedit
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 benches/gen_positions.py "$n" > "$work/positions.txt"

seconds() { # command... → wall seconds
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1 || true
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

echo "$n varied positions, one job each:"
for plies in 0 1; do
    g=$(seconds "$bin" analyse --jobs 1 --plies "$plies" --format json < "$work/positions.txt")
    s=$(seconds "$bin" analyse --engine sage --jobs 1 --plies "$plies" --format json < "$work/positions.txt")
    printf "  gnubg %d-ply: %6.1f s (%5.0f/s)   Sage %d-ply: %6.1f s (%5.0f/s)\n" \
        "$plies" "$g" "$(echo "$n / $g" | bc -l)" "$((plies + 1))" "$s" "$(echo "$n / $s" | bc -l)"
done

trials=720
echo "Sage rollout, opening 31, 5 candidates x $trials trials, truncated at 7 plies:"
for threads in 1 2; do
    t=$(seconds "$bin" analyse --engine sage --rollout --trials "$trials" --truncate 7 --moves 5 \
        --threads "$threads" 4HPwATDgc/ABMA:cIkFAAAAAAAA)
    printf "  %d thread(s): %5.1f s, %5.0f trials/s\n" "$threads" "$t" "$(echo "5 * $trials / $t" | bc -l)"
done
