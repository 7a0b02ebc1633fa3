#!/usr/bin/env bash
# Rollout speed: `bgedit analyse --rollout` (gnubg's own rollout, run by the
# bridge in chunks so the editor can show it converging) against gnubg's
# command line rolling out the same candidates with the same settings in
# one go (`hint`, `analyse rollout move 1 2 3` / `analyse rollout cube`).
#
#     benches/rollout.sh        (needs gnubg; builds bgedit in release)
#
# Three positions (the reply to the opening with 43 in money play, a
# bear-off with 21 to play, the cube decision at the start); 72 trials, seed 1,
# 0-ply players, three candidates. Each side's median of 3 whole runs
# (process start included) and trials a second (trials × candidates / s).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=target/release/bgedit
GNUBG=${BGEDIT_GNUBG:-/usr/games/gnubg}
TRIALS=${TRIALS:-72}
IDS=(4HPwATDgc/ABMA:cAkOAAAAAAAA dwcAANwdAAAAAA:cIkKAAAAAAAE 4HPwATDgc/ABMA:cAkAAAAAAAAA)

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }

gnubg_script() {
    local id=$1 what
    if [[ $id == *:cAkAAAAAAAAA ]]; then what="analyse rollout cube"; else what="analyse rollout move 1 2 3"; fi
    printf '%s\n' "set rollout trials $TRIALS" "set rollout seed 1" \
        "set rollout chequerplay plies 0" "set rollout cubedecision plies 0" \
        "set evaluation chequerplay evaluation plies 0" \
        "set evaluation cubedecision evaluation plies 0" \
        "set player 0 human" "set player 1 human" "new game" \
        "set gnubgid $id" "hint" "$what" "hint"
}

printf '%-30s %9s %9s %8s %12s\n' position "bgedit s" "gnubg s" ratio "bgedit tr/s"
for id in "${IDS[@]}"; do
    b=$(for _ in 1 2 3; do timed $BIN analyse --rollout --trials "$TRIALS" --moves 3 --gnubg "$GNUBG" "$id"; done | median)
    g=$(for _ in 1 2 3; do timed sh -c "gnubg_in=\$(mktemp); cat >\"\$gnubg_in\"; LC_ALL=C $GNUBG -t -q <\"\$gnubg_in\"; rm -f \"\$gnubg_in\"" < <(gnubg_script "$id"); done | median)
    n=3; [[ $id == *:cAkAAAAAAAAA ]] && n=2
    printf '%-30s %9.2f %9.2f %8.2f %12.0f\n' "$id" "$b" "$g" "$(echo "$g / $b" | bc -l)" \
        "$(echo "$TRIALS * $n / $b" | bc -l)"
done
echo "ratio = gnubg's time / bgedit's (1.00 = no overhead; goal >= 0.95)"
