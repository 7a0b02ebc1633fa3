#!/usr/bin/env bash
# The shape issue 31 set, kept by CI (run by .ci/run): nothing outside
# src/engine/ names an engine, but the files where the user picks one by
# name. (String errors are checked by .ci/shape, from the sources as the
# compiler reads them.)
set -euo pipefail
cd "$(dirname "$0")/.."
status=0

# Where a user names an engine: its command-line arguments and the
# commands that turn them into an engine.
engine_names_allowed=(
    # the options that name an engine or its program
    src/cli/args.rs src/cli/editor.rs src/cli/quiz.rs
    src/cli/analyse/args.rs src/cli/analyse/mod.rs src/cli/analyse/positions.rs
    # the crate's table of contents says what src/engine/ holds
    src/lib.rs
)
allowed=$(printf '%s\n' "${engine_names_allowed[@]}")
found=$(grep -rlw -i 'sage' src crates --exclude-dir=engine | sort || true)
extra=$(comm -23 <(echo "$found" | sed '/^$/d') <(echo "$allowed" | sort))
if [ -n "$extra" ]; then
    echo "An engine named outside src/engine/ in:"
    grep -Hnw -i 'sage' $extra
    status=1
fi
[ "$status" = 0 ] && echo "engines named only where the user picks one"
exit "$status"
