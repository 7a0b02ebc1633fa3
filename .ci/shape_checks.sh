#!/usr/bin/env bash
# The shape issue 31 set, kept by CI (run by .ci/run):
# - no `Result<_, String>` in src/ but in the files that build messages for
#   the screen (listed below, each with why);
# - nothing outside src/engine/ names an engine, but the files where the
#   user picks one by name.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0

# Messages for the screen: the text is what the user reads, built where
# the words are chosen, with nothing to match on further up.
string_errors_allowed=(
    SCREEN_MESSAGE_FILES
)
allowed=$(printf '%s\n' "${string_errors_allowed[@]}")
found=$(grep -rln 'Result<[^>]*String>' src | sort || true)
extra=$(comm -23 <(echo "$found" | sed '/^$/d') <(echo "$allowed" | sort))
if [ -n "$extra" ]; then
    echo "String errors (use a thiserror enum) in:"
    grep -rn 'Result<[^>]*String>' $extra
    status=1
fi

# Where a user names an engine: its command-line arguments and the
# commands that turn them into an engine.
engine_names_allowed=(
    ENGINE_NAME_FILES
)
allowed=$(printf '%s\n' "${engine_names_allowed[@]}")
found=$(grep -rlw -i 'sage' src --exclude-dir=engine | sort || true)
extra=$(comm -23 <(echo "$found" | sed '/^$/d') <(echo "$allowed" | sort))
if [ -n "$extra" ]; then
    echo "An engine named outside src/engine/ in:"
    grep -rnw -i 'sage' $extra
    status=1
fi
[ "$status" = 0 ] && echo "no String errors outside screen messages; engines named only where the user picks one"
exit "$status"
