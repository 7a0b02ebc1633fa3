#!/usr/bin/env bash
# Open Sage in-process against its Python bridge and against Sage's own
# Python loop, in one run, on the same N positions (tests/fixtures/
# gen_sage_random.py's, fixed seed: checker plays, cube and take decisions,
# money and match), Sage's 1-ply (`--plies 0`), one job:
#   1. Sage's own loop: python benches/sage_loop.py (whole process, with
#      loading bgsage; the loop alone is printed too)
#   2. bgedit analyse --engine sage --plies 0 --jobs 1, in-process
#   3. the same through the Python bridge (BGEDIT_SAGE_BRIDGE=1)
# then one rollout of a checker play and one of a cube decision, the same
# settings and seed, in-process and through the bridge:
#   4. bgedit analyse --engine sage --rollout --trials T --truncate 7
#      --seed 1 --threads 2 (T = 360 by default: ROLLOUT_TRIALS)
# Wall and CPU seconds (user + system, children included) of each whole
# process. Under 5 minutes at N = 1000 on 2 cores.
# usage: benches/sage_inproc.sh [N]   (default 1000; BGEDIT_BIN: a bgedit
# already built, else a release build is made)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
trials=${ROLLOUT_TRIALS:-360}
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

timed() { # input command... → "wall cpu" seconds; its output in $work/out
    local input=$1
    shift
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" < "$input" > "$work/out" 2>> "$work/err" || true
    awk '{ printf "%.2f %.2f", $1, $2 + $3 }' "$work/time"
}

line() { # label "wall cpu" note
    local wall cpu
    read -r wall cpu <<< "$2"
    printf "  %-28s %7.2f s wall %7.2f s CPU  %s\n" "$1" "$wall" "$cpu" "$3"
}

ratio() { # "wall cpu" of the reference, "wall cpu" of this → "N.Nx"
    local a b
    a=${1%% *}
    b=${2%% *}
    echo "$a / $b" | bc -l | xargs printf "%.1fx"
}

own=$(timed "$work/ids.txt" "$py" benches/sage_loop.py "$n" loop)
inproc=$(timed "$work/ids.txt" "$bin" analyse --engine sage --plies 0 --jobs 1 --format json)
inside=$(grep -c '"in_process":true' "$work/out" || true)
bridge=$(BGEDIT_SAGE_BRIDGE=1 timed "$work/ids.txt" "$bin" analyse --engine sage --plies 0 --jobs 1 --format json)
echo "$n positions, Sage 1-ply, one job (whole process):"
line "Sage's own Python loop" "$own" "($(grep 'loop only' "$work/err" | tail -1))"
line "bgedit, in-process" "$inproc" "($inside of $n answers in-process; $(ratio "$own" "$inproc") faster than Sage's loop)"
line "bgedit, Python bridge" "$bridge" "($(ratio "$own" "$bridge") Sage's loop)"

echo "Sage rollouts, $trials trials, truncated at 7, seed 1, 2 threads (whole process):"
echo > "$work/none"
for id in 4HPwATDgc/ABMA:cAkFAAAAAAAE 4HPwATDgc/ABMA:cAkAAAAAAAAA; do
    ro=(analyse --engine sage --rollout --trials "$trials" --truncate 7 --seed 1 --threads 2
        --moves 5 --format json "$id")
    inside=$(timed "$work/none" "$bin" "${ro[@]}")
    grep -q '"in_process":true' "$work/out" || echo "  (not in-process!)"
    cp "$work/out" "$work/inside.json"
    outside=$(BGEDIT_SAGE_BRIDGE=1 timed "$work/none" "$bin" "${ro[@]}")
    same=$("$py" -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
def nums(v):
    if "moves" in v:
        return [m["equity"] for m in v["moves"]]
    c = v.get("cube") or v.get("take") or {}
    return [x for x in c.values() if isinstance(x, float)]
d = max(abs(x - y) for x, y in zip(nums(a), nums(b)))
print("the same numbers within %.0e" % d if d < 1e-5 else "numbers differ by %.2e" % d)
' "$work/inside.json" "$work/out" 2>/dev/null || echo "?")
    echo " $id:"
    line "in-process" "$inside" "($(ratio "$outside" "$inside") faster than the bridge; $same)"
    line "Python bridge" "$outside" ""
done
