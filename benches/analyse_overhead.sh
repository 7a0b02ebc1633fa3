#!/usr/bin/env bash
# `bgedit analyse --plies 0` on varied positions (fixed seed):
#   1. one job against a plain gnubg script doing the same (overhead ≤ 10%)
#   2. two jobs against one (≥ 1.7× on 2 cores)
# usage: benches/analyse_overhead.sh [N]   (default 10000; needs gnubg)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
gnubg=${BGEDIT_GNUBG:-$(command -v gnubg || echo /usr/games/gnubg)}
cargo build --release --quiet
bin=target/release/bgedit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 benches/gen_positions.py "$n" > "$work/positions.txt"

seconds() { # command... → wall seconds
    local start end
    start=$(date +%s.%N)
    "$@"
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

# gnubg 1.07 now and then segfaults (bgedit restarts it and reports the
# line); the plain script is restarted after the line it died on, the same.
plain_run() {
    local total skipped=0 processed=0
    total=$(wc -l < "$work/positions.txt")
    : > "$work/plain.out"
    while [ "$processed" -lt "$total" ]; do
        tail -n +"$((processed + 1))" "$work/positions.txt" |
            LC_ALL=C "$gnubg" -t -q -r -p benches/plain_gnubg.py >> "$work/plain.out" 2>/dev/null || true
        processed=$(($(wc -l < "$work/plain.out") + skipped))
        if [ "$processed" -lt "$total" ]; then # it died on the next line: skip it
            skipped=$((skipped + 1))
            processed=$((processed + 1))
            crashes=$((crashes + 1))
        fi
    done
}
crashes=0
start=$(date +%s.%N)
plain_run
plain=$(echo "$(date +%s.%N) - $start" | bc -l)
one=$(seconds sh -c "'$bin' analyse --plies 0 --jobs 1 --format json < '$work/positions.txt' > '$work/one.out' 2>'$work/one.err' || true")
two=$(seconds sh -c "'$bin' analyse --plies 0 --jobs 2 --format json < '$work/positions.txt' > '$work/two.out' 2>'$work/two.err' || true")
cmp -s "$work/one.out" "$work/two.out" || echo "warning: 1 and 2 jobs answered differently" >&2
printf 'positions:            %d (%d answered, %d refused)\n' "$n" "$(wc -l < "$work/one.out")" "$(wc -l < "$work/one.err")"
printf 'plain gnubg script:   %.2f s  (restarted %d times after a crash)\n' "$plain" "$crashes"
printf 'bgedit analyse -j1:   %.2f s  (overhead %+.1f%%)\n' "$one" "$(echo "($one / $plain - 1) * 100" | bc -l)"
printf 'bgedit analyse -j2:   %.2f s  (%.2f× one job)\n' "$two" "$(echo "$one / $two" | bc -l)"
