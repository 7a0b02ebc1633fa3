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
    # a batch line's job answers with what its `line N:` error prints
    src/cli/input.rs src/cli/library/mod.rs src/cli/moves.rs src/cli/quiz.rs src/cli/stats.rs
    # the refusal of a key or a typed line, shown on the status line
    crates/tui/src/board/edits.rs crates/tui/src/board/update.rs
    crates/tui/src/play/update.rs crates/tui/src/prompt/update.rs
    # an engine's own refusal of a position, shown in its words
    crates/engine/src/answer.rs
    # the filter's words, placed at their column by FilterError
    crates/library/src/filter.rs
)
allowed=$(printf '%s\n' "${string_errors_allowed[@]}")
# An error type of String: `Result<T, String>` (not `Result<String>`, a
# typed error's alias holding a String value).
found=$(grep -rlP 'Result<.*,\s*String>' src crates | sort || true)
extra=$(comm -23 <(echo "$found" | sed '/^$/d') <(echo "$allowed" | sort))
if [ -n "$extra" ]; then
    echo "String errors (use a thiserror enum) in:"
    grep -HnP 'Result<.*,\s*String>' $extra
    status=1
fi

# Where a user names an engine: its command-line arguments and the
# commands that turn them into an engine.
engine_names_allowed=(
    # the one parser of the engines' options (its docs and tests name the
    # flags users know)
    src/cli/engine_args.rs
)
allowed=$(printf '%s\n' "${engine_names_allowed[@]}")
found=$(grep -rlw -i 'sage' src crates --exclude-dir=engine | sort || true)
extra=$(comm -23 <(echo "$found" | sed '/^$/d') <(echo "$allowed" | sort))
if [ -n "$extra" ]; then
    echo "An engine named outside src/engine/ in:"
    grep -Hnw -i 'sage' $extra
    status=1
fi
[ "$status" = 0 ] && echo "no String errors outside screen messages; engines named only where the user picks one"
exit "$status"
