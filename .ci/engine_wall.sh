#!/usr/bin/env bash
# The engine wall (issue 44): the engines live in crates/engine, and only
# there does anyone know which engines there are or how gnubg is spoken to.
# - (a) the layers below the editor and the CLI (bgedit-core,
#   bgedit-library, bgedit-picture) depend on no engine, terminal or
#   command-line crate, by `cargo metadata`'s resolved graph (not only
#   their direct dependencies);
# - (b) the engine crate keeps its engines' insides private: its lib.rs
#   declares none of the modules listed below `pub` nor re-exports from
#   them, and its `internals` feature (the fuzz targets' and the tests'
#   way in) is turned on by no normal dependency in this workspace;
# - (c) nothing in the editor (crates/tui) or the CLI (src/cli, src/main.rs)
#   names an engine by its variant (`EngineKind::<Variant>`) or reaches a
#   gnubg or Sage type, module or the internals: they hold a replayed match
#   and an engine handle, and ask the registry for the reference engine.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0

# (a) The graph as cargo resolves it, walked from each lower crate along
# its normal dependencies (build and dev dependencies are no part of it).
if ! cargo metadata --format-version 1 --locked >target/engine_wall_metadata.json 2>/dev/null; then
    cargo metadata --format-version 1 >target/engine_wall_metadata.json
fi
python3 - target/engine_wall_metadata.json <<'EOF' || status=1
import json, sys
meta = json.load(open(sys.argv[1]))
names = {p["id"]: p["name"] for p in meta["packages"]}
nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
lower = ["bgedit-core", "bgedit-library", "bgedit-picture"]
banned = {"bgedit-engine", "bgedit-tui", "ratatui", "ratatui-core", "ratatui-textarea",
          "crossterm", "clap", "clap_builder", "clap_derive"}
bad = 0
for crate in lower:
    start = [i for i, n in names.items() if n == crate and i in nodes]
    if not start:
        print(f"engine wall: {crate} is not in the workspace")
        bad = 1
        continue
    seen, todo, via = set(), list(start), {start[0]: None}
    while todo:
        at = todo.pop()
        if at in seen:
            continue
        seen.add(at)
        for dep in nodes[at]["deps"]:
            if any(k["kind"] is None for k in dep["dep_kinds"]):
                via.setdefault(dep["pkg"], at)
                todo.append(dep["pkg"])
    for pkg in sorted(seen - set(start), key=lambda i: names[i]):
        if names[pkg] in banned:
            chain, at = [], pkg
            while at is not None:
                chain.append(names[at])
                at = via.get(at)
            print(f"engine wall: {crate} depends on {names[pkg]} ({' <- '.join(chain)})")
            bad = 1
sys.exit(bad)
EOF

# (b) The engine crate's private modules, and its internals kept for the
# fuzz targets and the tests.
private_modules='gnubg|sage|gnubg_match|locate|process|spec|failure|interface|scale|setup'
lib=crates/engine/src/lib.rs
if grep -nP "^\s*pub(\([^)]*\))?\s+mod\s+($private_modules)\b" "$lib"; then
    echo "engine wall: $lib makes an engine's insides public (above): keep them private, export what callers need"
    status=1
fi
if grep -nP "^\s*pub\s+use\s+(crate::|self::)?($private_modules)::\s*\*" "$lib"; then
    echo "engine wall: $lib re-exports a private module whole (above)"
    status=1
fi
if grep -nP "^\s*pub\s+use\s+(crate::|self::)?(gnubg|sage|gnubg_match|locate)::" "$lib"; then
    echo "engine wall: $lib re-exports gnubg's or Sage's own items (above)"
    status=1
fi
# Only dev-dependencies (the tests) and the fuzz targets (their own
# workspace) may turn the internals on.
for manifest in Cargo.toml crates/*/Cargo.toml; do
    if python3 - "$manifest" <<'EOF'; then :; else status=1; fi
import sys, tomllib
path = sys.argv[1]
doc = tomllib.load(open(path, "rb"))
def sections(d, prefix=""):
    for key in ("dependencies", "build-dependencies"):
        yield prefix + key, d.get(key, {})
    for target, t in d.get("target", {}).items():
        yield from sections(t, f"target.{target}.")
bad = 0
for where, deps in sections(doc):
    spec = deps.get("bgedit-engine")
    if isinstance(spec, dict) and "internals" in spec.get("features", []):
        print(f"engine wall: {path} [{where}] turns on bgedit-engine's internals")
        bad = 1
sys.exit(bad)
EOF
done

# (c) The editor and the CLI name no engine and no engine's own type.
wall_sources=(crates/tui/src src/cli src/main.rs src/lib.rs)
named=$(grep -rnP 'EngineKind::\s*(\{|[A-Z])' "${wall_sources[@]}" || true)
if [ -n "$named" ]; then
    echo "$named"
    echo "engine wall: an engine named by its variant in the editor or the CLI (above): ask the registry (EngineKind::reference(), ALL, by_key) or take the engine the user picked"
    status=1
fi
inside=$(grep -rnP 'MatchForGnubg|gnubg_match|bgedit_engine::(gnubg|sage|locate|process|spec|internals)\b' "${wall_sources[@]}" || true)
if [ -n "$inside" ]; then
    echo "$inside"
    echo "engine wall: the editor or the CLI reaches inside an engine (above): use the engine crate's surface (ReplayedMatch, Setup, Engine)"
    status=1
fi

[ "$status" = 0 ] && echo "engine wall: the lower crates depend on no engine, terminal or clap; the engines' insides are private; the editor and the CLI name no engine"
exit "$status"
