//! The README is part of the interface: its key table and its commands must
//! say what the program does.

use bgedit_tui::keymap::normal_bindings;

const README: &str = include_str!("../../README.md");
const CI: &str = include_str!("../../.ci/run");

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
    for b in normal_bindings() {
        let cell = format!("| `{}` |", b.label);
        assert!(README.contains(&cell), "README's key table lacks {cell}");
    }
}

/// The time limits docs/analysis.md quotes are the code's: one answer's at
/// 0 and 3 plies, and a match's decisions': a request's own seconds, each
/// decision's at 0 and 3 plies, and the example.
#[test]
fn the_documented_time_limits_are_the_codes() {
    use bgedit_engine::{Waiter, time_limit, time_limit_for};
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/analysis.md")).unwrap();
    let words = |w: Waiter| {
        let (lo, hi) = (time_limit(0, w).as_secs(), time_limit(3, w).as_secs());
        format!("{lo} s at 0-ply to {} min at 3-ply", hi / 60)
    };
    for (w, who) in [
        (Waiter::Editor, "in the editor"),
        (Waiter::Batch, "in `bgedit analyse`"),
    ] {
        let said = format!("{who} {}", words(w));
        assert!(doc.contains(&said), "docs/analysis.md should say {said:?}");
    }
    let each = |plies| (time_limit_for(plies, 2) - time_limit_for(plies, 1)).as_secs();
    let fixed = time_limit_for(0, 1).as_secs() - each(0);
    let said = format!(
        "{fixed} s and for each decision {} s at 0-ply to {} min at 3-ply (`engine::time_limit_for`): \
         a hung gnubg is given up after {} s on a 5-decision match at 0-ply",
        each(0),
        each(3) / 60,
        time_limit_for(0, 5).as_secs()
    );
    assert!(doc.contains(&said), "docs/analysis.md should say {said:?}");
}

/// bgedit is MIT OR Apache-2.0: the manifest says so, both texts are there,
/// and the README ends with the licence and what keeps its own.
#[test]
fn the_licence_is_declared_written_out_and_in_the_readme() {
    let root = env!("CARGO_MANIFEST_DIR");
    let read = |name: &str| {
        std::fs::read_to_string(format!("{root}/{name}")).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let manifest = read("Cargo.toml");
    assert!(
        manifest
            .lines()
            .any(|l| l.trim() == r#"license = "MIT OR Apache-2.0""#),
        "Cargo.toml declares no licence"
    );
    let mit = read("LICENSE-MIT");
    assert!(mit.contains("Copyright (c) the bgedit developers"), "{mit}");
    assert!(mit.contains("Permission is hereby granted, free of charge"));
    let apache = read("LICENSE-APACHE");
    assert!(apache.contains("Apache License\n                        Version 2.0, January 2004"));
    assert!(apache.contains("END OF TERMS AND CONDITIONS"));
    let section = README.split("\n## ").last().expect("a last section");
    assert!(section.starts_with("Licence\n"), "{section}");
    for named in [
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "tests/fixtures/README",
        "GPL",
    ] {
        assert!(section.contains(named), "the Licence section lacks {named}");
    }
}

/// The editor's quiz is built (the library panel's `r`, `bgedit quiz`):
/// docs/analysis.md, where it tells how an answer is graded, says so and
/// points to it rather than calling it unbuilt.
#[test]
fn the_grading_docs_point_to_the_editors_quiz() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/analysis.md")).unwrap();
    let section = doc
        .split("## Grading an answer")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("docs/analysis.md has its grading section");
    assert!(!section.contains("not built"), "{section}");
    assert!(
        section.contains("The editor's quiz") && section.contains("bgedit quiz COLLECTION"),
        "{section}"
    );
}

/// `bgedit --help` names every kind of match file the editor opens: one
/// word a format of the readers' table (`match_file::format_names`).
#[test]
fn the_help_names_every_match_file_the_editor_opens() {
    let out = crate::common::run::bgedit(&["--help"], "");
    let help = crate::common::run::text(&out.stdout);
    let formats = bgedit_core::codec::match_file::format_names();
    let named = [".sgf", ".mat", "gnubg's match text", ".xg"];
    assert_eq!(
        formats.split(", ").count(),
        named.len(),
        "a format was added to the table: name it in the help ({formats})"
    );
    for word in named {
        assert!(help.contains(word), "the help lacks {word}: {help}");
    }
}
