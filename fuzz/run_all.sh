#!/usr/bin/env bash
# A short bounded fuzz run of every target: `fuzz/run_all.sh [SECONDS]`
# (default 45 per target). Needs a nightly toolchain and cargo-fuzz. New
# inputs go to a scratch directory; the committed seed corpus is only read.
# Exits non-zero on the first crash, leaving the input in
# fuzz/artifacts/<target>/ (reproduce: cargo +nightly fuzz run TARGET FILE).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-45}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cargo +nightly fuzz build -O
for target in $(cargo +nightly fuzz list); do
    echo "== fuzz $target (${seconds}s)"
    mkdir -p "$scratch/$target" "corpus/$target"
    log="$scratch/$target.log"
    status=0
    # XG's records are 2,560 bytes each: its target takes several.
    max_len=4096
    [ "$target" = xg_file ] && max_len=16384
    # A whole game's analysis (the seeds: move lists cut to two moves).
    [ "$target" = game_answer ] && max_len=32768
    seeds=("corpus/$target")
    if [ "$target" = match_mutate ]; then
        # Whole real match files, mutated: the seeds are the test fixtures
        # (libFuzzer reads a corpus folder's files, not its subfolders).
        max_len=262144
        seeds+=("$scratch/match_seeds")
        mkdir -p "$scratch/match_seeds"
        cp ../tests/fixtures/mat/*.mat ../tests/fixtures/xg/*.xg \
            ../tests/fixtures/match_core/* ../tests/fixtures/analysis/* \
            ../tests/fixtures/selfplay/*.mat ../tests/fixtures/selfplay/*.sgf \
            "$scratch/match_seeds/"
    fi
    # Each input bounded in time and memory: a file that makes a reader
    # loop, or hold gigabytes (a comment named by every record), fails.
    cargo +nightly fuzz run -O "$target" "$scratch/$target" "${seeds[@]}" -- \
        -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
        -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 >"$log" 2>&1 || status=$?
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done )' "$log" || true
    if [ "$status" -ne 0 ]; then
        tail -n 60 "$log"
        echo "fuzz $target: failed (status $status); the input is in fuzz/artifacts/$target/"
        exit "$status"
    fi
done
