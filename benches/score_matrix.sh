#!/usr/bin/env bash
# The score matrix of a 7-point match at 0-ply (60 cells), timed whole:
# bgedit with 1 and 2 gnubg jobs, against one gnubg process doing the same
# 60 cube evaluations (`set gnubgid` + `cfevaluate` a cell, in its Python).
#
#     benches/score_matrix.sh        (needs gnubg; builds bgedit in release)
#
# Three positions (a bear-off, the opening position, a middle game); each
# run's median of 5 is printed. Process starts are included on both sides:
# they are part of what a user waits for.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=target/release/bgedit
GNUBG=${BGEDIT_GNUBG:-/usr/games/gnubg}
IDS=(dwcAANwdAAAAAA:cAkAAAAAAAAA 4HPwATDgc/ABMA:cAkAAAAAAAAA HEDe4QE+AxwRGQ:MAEAAAAAAAAA)

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() { local s e; s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }

script=$(mktemp --suffix=.py)
trap 'rm -f "$script"' EXIT
cat >"$script" <<'PY'
import gnubg, os, sys
sys.path.insert(0, os.environ["FIXTURES"])
from gnubg_ids import match_id
pos, on_roll = os.environ["POS"], int(os.environ["ON_ROLL"])
for c in ("set display off", "set player 0 human", "set player 1 human",
          "set evaluation cubedecision evaluation plies 0"):
    gnubg.command(c)
L = 7
cells = [(a, b, 0) for a in range(2, L + 1) for b in range(2, L + 1)]
cells += [c for a in range(2, L + 1) for c in ((1, a, 1), (1, a, 0), (a, 1, 1), (a, 1, 0))]
for mine, theirs, crawford in cells:
    away = [0, 0]
    away[on_roll], away[1 - on_roll] = mine, theirs
    gid = "%s:%s" % (pos, match_id(on_roll=on_roll, crawford=crawford, length=L,
                                   score=(L - away[0], L - away[1])))
    gnubg.command("set gnubgid " + gid)
    try:
        gnubg.cfevaluate()
    except Exception:
        pass  # no cube decision here (Crawford, a dead cube)
PY
printf '%-32s %10s %10s %10s\n' position "bgedit -j1" "bgedit -j2" "gnubg"
for id in "${IDS[@]}"; do
    on_roll=1; [[ $id == *:MAE* ]] && on_roll=0
    j1=$(for _ in 1 2 3 4 5; do timed $BIN analyse --score-matrix --length 7 --jobs 1 --gnubg "$GNUBG" "$id"; done | median)
    j2=$(for _ in 1 2 3 4 5; do timed $BIN analyse --score-matrix --length 7 --jobs 2 --gnubg "$GNUBG" "$id"; done | median)
    g=$(for _ in 1 2 3 4 5; do POS=${id%%:*} ON_ROLL=$on_roll FIXTURES=$PWD/tests/fixtures LC_ALL=C timed "$GNUBG" -t -q -r -p "$script"; done | median)
    printf '%-32s %9.2fs %9.2fs %9.2fs\n' "$id" "$j1" "$j2" "$g"
done
