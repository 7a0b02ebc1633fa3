//! The README is part of the interface: its key table and its commands must
//! say what the program does.

use bgedit::editor::keymap::BINDINGS;

const README: &str = include_str!("../README.md");
const CI: &str = include_str!("../.ci/run");

#[test]
fn readme_opens_with_the_run_and_test_commands() {
    let block: Vec<&str> = README
        .lines()
        .skip_while(|l| !l.starts_with("```"))
        .skip(1)
        .take(2)
        .collect();
    assert_eq!(
        block,
        [
            "cargo run --release    # open the editor",
            "cargo test             # run the tests"
        ]
    );
}

#[test]
fn ci_runs_the_readme_test_command_fmt_and_clippy() {
    for command in [
        "cargo test",
        "cargo fmt --check",
        "cargo clippy --all-targets -- -D warnings",
    ] {
        let runs = |l: &str| {
            let l = l.trim();
            l == command || l.starts_with(&format!("{command} 2>&1"))
        };
        assert!(CI.lines().any(runs), "{command} missing from .ci/run");
    }
}

#[test]
fn readme_lists_every_key_binding() {
    for b in BINDINGS {
        let cell = format!("| `{}` |", b.label);
        assert!(README.contains(&cell), "README's key table lacks {cell}");
    }
}
