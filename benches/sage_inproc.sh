#!/usr/bin/env bash
# Open Sage in-process against its Python bridge and against Sage's own
# Python loop, in one run, on the same N positions (tests/fixtures/
# gen_sage_random.py's, fixed seed: checker plays, cube and take decisions,
# money and match), Sage's 1-ply (`--plies 0`), one job:
#   1. Sage's own loop: python benches/sage_loop.py (whole process, with
#      loading bgsage; the loop alone is printed too)
#   2. bgedit analyse --engine sage --plies 0 --jobs 1, in-process
#   3. the same through the Python bridge (BGEDIT_SAGE_BRIDGE=1)
# usage: benches/sage_inproc.sh [N]   (default 300; BGEDIT_BIN: a bgedit
# already built, else a release build is made)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
if [ -z "${BGEDIT_SAGE_PYTHON:-}" ] && [ -x target/sage-venv/bin/python ]; then
    export BGEDIT_SAGE_PYTHON=$PWD/target/sage-venv/bin/python
fi
py=${BGEDIT_SAGE_PYTHON:?needs bgsage: BGEDIT_SAGE_PYTHON}
if [ -n "${BGEDIT_BIN:-}" ]; then
    bin=$BGEDIT_BIN
else
    cargo build --release --quiet
    bin=target/release/bgedit
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$py" benches/sage_loop.py "$n" ids > "$work/ids.txt"

seconds() { # command... (reading the IDs) → wall seconds
    local start end
    start=$(date +%s.%N)
    "$@" < "$work/ids.txt" > "$work/out" 2>> "$work/err" || true
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

own=$(seconds "$py" benches/sage_loop.py "$n" loop)
inproc=$(seconds "$bin" analyse --engine sage --plies 0 --jobs 1 --format json)
grep -c '"in_process":true' "$work/out" > "$work/count" || true
inside=$(cat "$work/count")
bridge=$(BGEDIT_SAGE_BRIDGE=1 seconds "$bin" analyse --engine sage --plies 0 --jobs 1 --format json)
echo "$n positions, Sage 1-ply, one job (wall seconds, whole process):"
printf "  Sage's own Python loop:  %6.2f s  (%s)\n" "$own" "$(grep 'loop only' "$work/err" | tail -1)"
printf "  bgedit, in-process:      %6.2f s  (%s of %s answers in-process; %.1fx Sage's loop)\n" \
    "$inproc" "$inside" "$n" "$(echo "$own / $inproc" | bc -l)"
printf "  bgedit, Python bridge:   %6.2f s  (%.2fx Sage's loop)\n" "$bridge" "$(echo "$own / $bridge" | bc -l)"
