//! The shape CI keeps (run by .ci/run from the workspace's root), read
//! from the sources as the compiler reads them (syn), not by line patterns:
//!
//! - no function over 150 lines, from its `fn` to its closing brace, but
//!   those docs/code-map.md's "Long functions" names with why (the ones
//!   over 100 are listed, not failed, to show what is near the limit);
//! - no `Result<_, String>` (in a signature, a type alias or a field) in
//!   the library crates at all; in the editor (crates/tui) and the CLI
//!   (src/) only in the functions `.ci/shape/string_errors.txt` names
//!   with why;
//! - no thiserror variant or type whose whole message is one String
//!   (`#[error("{0}")] X(String)`, `transparent`) in the library crates
//!   but those the same list names with why; elsewhere they are listed.
//!
//! An allowance that no longer matches anything fails too, so the lists
//! only shrink with the code. Exits 1 naming each file, line and rule.

mod scan;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const LIMIT: usize = 150;
const NEAR: usize = 100;
const CODE_MAP: &str = "docs/code-map.md";
const STRING_ERRORS: &str = ".ci/shape/string_errors.txt";

/// The crates where a failure is a value callers match on: no String
/// errors at all, no wrapper but those allowed. The editor (crates/tui)
/// and the CLI (src/) build messages for a person and are the others.
fn is_library(path: &str) -> bool {
    path.starts_with("crates/") && !path.starts_with("crates/tui/")
}

fn main() -> ExitCode {
    let root = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    match check(&root) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("shape: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Every `.rs` file under `src/` and `crates/*/src/`, as paths from `root`.
fn sources(root: &Path) -> std::io::Result<Vec<String>> {
    let mut dirs = vec![root.join("src")];
    if root.join("crates").is_dir() {
        let mut crates: Vec<_> = std::fs::read_dir(root.join("crates"))?
            .map(|e| e.map(|e| e.path().join("src")))
            .collect::<Result<_, _>>()?;
        crates.sort();
        dirs.extend(crates);
    }
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        if !dir.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).unwrap_or(&path);
                files.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    Ok(files)
}

/// An allowance: `path::item` and why.
type Allowed = BTreeMap<String, String>;

/// The `file.rs::function` names that start the list items (`` - `name`:
/// why ``) of docs/code-map.md's "Long functions" section.
fn long_functions_allowed(root: &Path) -> std::io::Result<BTreeSet<String>> {
    let text = std::fs::read_to_string(root.join(CODE_MAP))?;
    let Some((_, after)) = text.split_once("## Long functions") else {
        return Ok(BTreeSet::new());
    };
    let section = after.split("\n## ").next().unwrap_or("");
    Ok(section
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("- `"))
        .filter_map(|item| item.split_once('`'))
        .map(|(name, _)| name.to_owned())
        .collect())
}

/// `.ci/shape/string_errors.txt`: `path::item  # why` a line; a line with
/// no why is refused.
fn string_errors_allowed(root: &Path) -> Result<Allowed, String> {
    let text = std::fs::read_to_string(root.join(STRING_ERRORS))
        .map_err(|e| format!("{STRING_ERRORS}: {e}"))?;
    let mut allowed = Allowed::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once('#') {
            Some((item, why)) if !why.trim().is_empty() && !item.trim().is_empty() => {
                allowed.insert(item.trim().to_owned(), why.trim().to_owned());
            }
            _ => {
                return Err(format!(
                    "{STRING_ERRORS}:{}: `{line}`: write `path::item  # why`",
                    n + 1
                ));
            }
        }
    }
    Ok(allowed)
}

/// What the rules found, as lines to print, and whether any failed.
#[derive(Default)]
struct Report {
    failures: Vec<String>,
    notes: Vec<String>,
}

fn check(root: &Path) -> Result<bool, String> {
    let (report, files) = findings(root)?;
    for line in &report.notes {
        println!("{line}");
    }
    for line in &report.failures {
        println!("{line}");
    }
    if report.failures.is_empty() {
        println!(
            "shape: {files} files; no function over {LIMIT} lines but those {CODE_MAP} names; \
             String errors only where {STRING_ERRORS} allows them"
        );
        Ok(true)
    } else {
        println!("shape: {} failure(s)", report.failures.len());
        Ok(false)
    }
}

/// Every rule's findings on the tree at `root`, and how many files it read.
fn findings(root: &Path) -> Result<(Report, usize), String> {
    let long_ok = long_functions_allowed(root).map_err(|e| format!("{CODE_MAP}: {e}"))?;
    let strings_ok = string_errors_allowed(root)?;
    let mut found = BTreeMap::new();
    for path in sources(root).map_err(|e| e.to_string())? {
        let source =
            std::fs::read_to_string(root.join(&path)).map_err(|e| format!("{path}: {e}"))?;
        let findings = scan::scan(&source).map_err(|e| {
            let at = e.span().start();
            format!(
                "{path}:{}:{}: not read as Rust: {e}",
                at.line,
                at.column + 1
            )
        })?;
        found.insert(path, findings);
    }
    let mut report = Report::default();
    long_functions(&found, &long_ok, &mut report);
    string_errors(&found, &strings_ok, &mut report);
    Ok((report, found.len()))
}

fn long_functions(
    found: &BTreeMap<String, scan::Findings>,
    allowed: &BTreeSet<String>,
    report: &mut Report,
) {
    let mut used = BTreeSet::new();
    for (path, findings) in found {
        for f in findings.functions.iter().filter(|f| f.lines() > NEAR) {
            let key = format!("{path}::{}", f.name);
            let lines = f.lines();
            let at = format!("{path}:{}: fn {} is {lines} lines", f.first, f.name);
            if lines <= LIMIT {
                report
                    .notes
                    .push(format!("{at} (near the limit of {LIMIT})"));
            } else if allowed.contains(&key) {
                used.insert(key);
                report.notes.push(format!("{at} (named in {CODE_MAP})"));
            } else {
                report.failures.push(format!(
                    "{at}: over {LIMIT}; split it where its meaning splits, or name it with why in {CODE_MAP}'s \"Long functions\""
                ));
            }
        }
    }
    for stale in allowed.difference(&used) {
        report.failures.push(format!(
            "{CODE_MAP}: `{stale}` is named under \"Long functions\" but no such function is over {LIMIT} lines: remove it"
        ));
    }
}

fn string_errors(found: &BTreeMap<String, scan::Findings>, allowed: &Allowed, report: &mut Report) {
    let mut used = BTreeSet::new();
    for (path, findings) in found {
        for r in &findings.string_results {
            let key = format!("{path}::{}", r.owner);
            let at = format!(
                "{path}:{}: Result<_, String> in {} {}",
                r.line, r.place, r.owner
            );
            if is_library(path) {
                report.failures.push(format!(
                    "{at}: a library crate's failure is a typed error (thiserror), with a variant for each failure"
                ));
            } else if allowed.contains_key(&key) {
                used.insert(key);
            } else {
                report.failures.push(format!(
                    "{at}: use a typed error, or name `{key}` in {STRING_ERRORS} with why its String is the message itself"
                ));
            }
        }
        for w in &findings.wrappers {
            let key = format!("{path}::{}", w.name);
            let at = format!(
                "{path}:{}: {} is a String posing as a typed error",
                w.line, w.name
            );
            if allowed.contains_key(&key) {
                used.insert(key);
            } else if is_library(path) {
                report.failures.push(format!(
                    "{at}: give each failure a variant with its data, or name `{key}` in {STRING_ERRORS} with why"
                ));
            } else {
                report.notes.push(at);
            }
        }
    }
    for stale in allowed.keys().filter(|k| !used.contains(*k)) {
        let why = if is_library(stale) && !stale.contains("::") {
            "a library crate allows no Result<_, String>"
        } else {
            "it matches no String error in the tree"
        };
        report
            .failures
            .push(format!("{STRING_ERRORS}: `{stale}`: {why}: remove it"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch tree with `files` (path, text) written in it.
    struct Tree(PathBuf);

    impl Tree {
        fn new(name: &str, files: &[(&str, &str)]) -> Tree {
            let root =
                std::env::temp_dir().join(format!("bgedit-shape-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&root);
            for (path, text) in files {
                let path = root.join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            Tree(root)
        }

        fn failures(&self) -> Vec<String> {
            findings(&self.0).unwrap().0.failures
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A function `lines` long (from `fn` to `}`) with `&[String; 2]` in
    /// its signature.
    fn long_fn(lines: usize) -> String {
        let mut s = String::from("pub fn write_game(out: &mut String, names: &[String; 2]) {\n");
        for i in 0..lines - 2 {
            s.push_str(&format!("    out.push_str(&names[{}]); // {i}\n", i % 2));
        }
        s.push_str("}\n");
        s
    }

    const MAP: &str = "# Code map\n\n## Long functions\n\nNone.\n\n## Next\n";

    #[test]
    fn a_function_of_151_lines_fails_whatever_its_signature_holds() {
        let tree = Tree::new(
            "long",
            &[
                ("docs/code-map.md", MAP),
                (STRING_ERRORS, ""),
                ("src/lib.rs", ""),
                ("crates/core/src/sgf.rs", &long_fn(151)),
            ],
        );
        assert_eq!(
            tree.failures(),
            [
                "crates/core/src/sgf.rs:1: fn write_game is 151 lines: over 150; split it where its meaning splits, or name it with why in docs/code-map.md's \"Long functions\""
            ]
        );
        // 150 is allowed (and listed, near the limit).
        let tree = Tree::new(
            "long150",
            &[
                ("docs/code-map.md", MAP),
                (STRING_ERRORS, ""),
                ("crates/core/src/sgf.rs", &long_fn(150)),
            ],
        );
        let (report, _) = findings(&tree.0).unwrap();
        assert_eq!(report.failures, Vec::<String>::new());
        assert_eq!(
            report.notes,
            ["crates/core/src/sgf.rs:1: fn write_game is 150 lines (near the limit of 150)"]
        );
    }

    #[test]
    fn a_long_function_named_with_why_passes_and_a_stale_name_fails() {
        let map = "## Long functions\n\n- `crates/core/src/sgf.rs::write_game`: a table.\n- `crates/core/src/sgf.rs::gone`: was long.\n";
        let tree = Tree::new(
            "named",
            &[
                ("docs/code-map.md", map),
                (STRING_ERRORS, ""),
                ("crates/core/src/sgf.rs", &long_fn(151)),
            ],
        );
        assert_eq!(
            tree.failures(),
            [
                "docs/code-map.md: `crates/core/src/sgf.rs::gone` is named under \"Long functions\" but no such function is over 150 lines: remove it"
            ]
        );
    }

    #[test]
    fn a_string_error_in_a_library_crate_fails_even_when_listed() {
        let tree = Tree::new(
            "library",
            &[
                ("docs/code-map.md", MAP),
                (
                    STRING_ERRORS,
                    "crates/library/src/filter.rs::parse  # the words are the message\n",
                ),
                (
                    "crates/library/src/filter.rs",
                    "pub fn parse(text: &str) -> Result<(), String> { Err(text.into()) }\n",
                ),
            ],
        );
        assert_eq!(
            tree.failures(),
            [
                "crates/library/src/filter.rs:1: Result<_, String> in the signature of fn parse: a library crate's failure is a typed error (thiserror), with a variant for each failure",
                ".ci/shape/string_errors.txt: `crates/library/src/filter.rs::parse`: it matches no String error in the tree: remove it",
            ]
        );
    }

    #[test]
    fn a_string_error_in_the_cli_passes_only_by_function_with_why() {
        let source = "fn line(t: &str) -> Result<u8, String> { todo!() }\nfn other() -> Result<u8, String> { todo!() }\n";
        let tree = Tree::new(
            "cli",
            &[
                ("docs/code-map.md", MAP),
                (
                    STRING_ERRORS,
                    "src/cli/moves.rs::line  # the text a batch line prints\n",
                ),
                ("src/cli/moves.rs", source),
            ],
        );
        assert_eq!(
            tree.failures(),
            [
                "src/cli/moves.rs:2: Result<_, String> in the signature of fn other: use a typed error, or name `src/cli/moves.rs::other` in .ci/shape/string_errors.txt with why its String is the message itself"
            ]
        );
        let tree = Tree::new(
            "nowhy",
            &[
                ("docs/code-map.md", MAP),
                (STRING_ERRORS, "src/cli/moves.rs::line\n"),
                ("src/cli/moves.rs", source),
            ],
        );
        assert_eq!(
            findings(&tree.0).err().unwrap(),
            ".ci/shape/string_errors.txt:1: `src/cli/moves.rs::line`: write `path::item  # why`"
        );
    }

    #[test]
    fn a_string_posing_as_a_typed_error_fails_in_a_library_crate_and_is_listed_elsewhere() {
        let source = "#[derive(Debug, thiserror::Error)]\npub enum E {\n    #[error(\"{0}\")]\n    X(String),\n}\n";
        let tree = Tree::new(
            "wrapper",
            &[
                ("docs/code-map.md", MAP),
                (STRING_ERRORS, ""),
                ("crates/core/src/met.rs", source),
                ("crates/tui/src/dice.rs", source),
            ],
        );
        let (report, _) = findings(&tree.0).unwrap();
        assert_eq!(
            report.failures,
            [
                "crates/core/src/met.rs:4: E::X is a String posing as a typed error: give each failure a variant with its data, or name `crates/core/src/met.rs::E::X` in .ci/shape/string_errors.txt with why"
            ]
        );
        assert_eq!(
            report.notes,
            ["crates/tui/src/dice.rs:4: E::X is a String posing as a typed error"]
        );
        let tree = Tree::new(
            "wrapper_allowed",
            &[
                ("docs/code-map.md", MAP),
                (STRING_ERRORS, "crates/core/src/met.rs::E::X  # a reason\n"),
                ("crates/core/src/met.rs", source),
            ],
        );
        assert_eq!(tree.failures(), Vec::<String>::new());
    }
}
