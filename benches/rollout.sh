#!/usr/bin/env bash
# Rollout speed: `bgedit analyse --rollout` (gnubg's own rollout, run by the
# bridge in chunks so the editor can show it converging) against gnubg's
# command line rolling out the same candidates with the same settings in
# one go (`hint`, `analyse rollout move 1 2 3` / `analyse rollout cube`).
#
#     benches/rollout.sh        (needs gnubg; builds bgedit in release)
#
# Positions: the reply to the opening with 43 in money play, a bear-off
# with 21 to play, the cube decision at the start, the 22-point Crawford
# position of issue 29, and RANDOM (default 4) varied positions with dice
# from benches/gen_positions.py (fixed seed). TRIALS (default 72) trials,
# seed 1, 0-ply players, truncated at 10 plies, three candidates as gnubg's
# own `hint` ranks them at its default 2-ply (bgedit's default for a
# rollout). Each side's median of 3 whole runs (process start included) and
# trials a second (trials x candidates / s). gnubg is timed as it comes (one
# calculation thread) and with `set threads` at the core count, which is
# what bgedit gives it for a rollout.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=target/release/bgedit
GNUBG=${BGEDIT_GNUBG:-/usr/games/gnubg}
TRIALS=${TRIALS:-72}
RANDOM_N=${RANDOM_N:-4}
IDS=(4HPwATDgc/ABMA:cAkOAAAAAAAA dwcAANwdAAAAAA:cIkKAAAAAAAE 4HPwATDgc/ABMA:cAkAAAAAAAAA
     ovDJiELE0sxUBA:sAHXAkAAqAAE)
# Random positions with dice (a Match ID whose dice bits are set), not over.
while read -r id; do IDS+=("$id"); done < <(python3 benches/gen_positions.py 400 |
    python3 -c '
import base64, sys
n = int(sys.argv[1])
for line in sys.stdin:
    gid = line.strip(); mid = gid.split(":")[1]
    bits = int.from_bytes(base64.b64decode(mid + "=" * (-len(mid) % 4)), "little")
    if (bits >> 15) & 7 and n > 0:
        print(gid); n -= 1
' "$RANDOM_N")

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }

gnubg_script() {
    local id=$1 threads=$2 what
    if [[ $id == *:cAkAAAAAAAAA ]]; then what="analyse rollout cube"; else what="analyse rollout move 1 2 3"; fi
    printf '%s\n' "set threads $threads" "set rollout trials $TRIALS" "set rollout seed 1" \
        "set rollout chequerplay plies 0" "set rollout cubedecision plies 0" \
        "set rollout truncation enable on" "set rollout truncation plies 10" \
        "set player 0 human" "set player 1 human" "new game" \
        "set gnubgid $id" "hint" "$what" "hint"
}

CORES=$(nproc)
gnubg_time() {
    for _ in 1 2 3; do timed sh -c "gnubg_in=\$(mktemp); cat >\"\$gnubg_in\"; LC_ALL=C $GNUBG -t -q <\"\$gnubg_in\"; rm -f \"\$gnubg_in\"" < <(gnubg_script "$1" "$2"); done | median
}
printf '%-30s %9s %9s %9s %8s %8s %12s\n' position "bgedit s" "gnubg 1t" "gnubg ${CORES}t" "1t/b" "${CORES}t/b" "bgedit tr/s"
for id in "${IDS[@]}"; do
    b=$(for _ in 1 2 3; do timed $BIN analyse --rollout --trials "$TRIALS" --truncate 10 --moves 3 --gnubg "$GNUBG" "$id"; done | median)
    g1=$(gnubg_time "$id" 1)
    gn=$(gnubg_time "$id" "$CORES")
    n=3; [[ $id == *:cAkAAAAAAAAA ]] && n=2
    printf '%-30s %9.2f %9.2f %9.2f %8.2f %8.2f %12.0f\n' "$id" "$b" "$g1" "$gn" \
        "$(echo "$g1 / $b" | bc -l)" "$(echo "$gn / $b" | bc -l)" "$(echo "$TRIALS * $n / $b" | bc -l)"
done
echo "ratios = gnubg's time / bgedit's (1.00 = no overhead; goal >= 0.95 against gnubg with the same threads)"
