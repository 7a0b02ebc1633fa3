//! Every decision an entry, cube decisions included (issue 41): after
//! `library analyse`, each decision `analyse --file` marks with an error of
//! at least E is one library entry of its kind, the missed doubles (the
//! cube decision before a roll) with them; the filter's words find the
//! four cube mistakes, worst first; the quiz draws a missed double and
//! grades it by its verdict. Run on real files with this machine's gnubg.

use super::library_panel::Harness;
use crate::common;

use bgedit_engine::match_analysis::QuizAnswer;
use bgedit_library::filter;
use bgedit_library::store::{Library, Order};
use bgedit_tui::library::state::QuizAction;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// The bound the comparison uses: gnubg's doubtful mark, from which the
/// library makes an entry of any decision the analysis judges.
const E: f64 = 0.03;

fn fixture(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

/// `analyse --file FILE --plies 0 --format json`'s decisions: (gnubg ID,
/// kind) → error, for those of at least `E`.
fn analyse_file(file: &Path) -> BTreeMap<(String, String), f64> {
    let out = common::run::bgedit(
        &[
            "analyse",
            "--file",
            file.to_str().unwrap(),
            "--plies",
            "0",
            "--format",
            "json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", common::run::text(&out.stderr));
    let mut found = BTreeMap::new();
    for line in common::run::text(&out.stdout).lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let (Some(id), Some(kind), Some(error)) = (
            v["gnubg_id"].as_str(),
            v["kind"].as_str(),
            v["error"].as_f64(),
        ) else {
            continue;
        };
        if error >= E {
            let old = found.insert((id.to_owned(), kind.to_owned()), error);
            assert!(old.is_none(), "{id} {kind} twice");
        }
    }
    found
}

/// The library's entries of at least `E`: (gnubg ID, kind) → error.
fn entries(lib: &Path) -> BTreeMap<(String, String), f64> {
    let conn = rusqlite::Connection::open(lib).unwrap();
    let mut st = conn
        .prepare("SELECT gnubg_id, kind, error FROM entries WHERE error >= ?1")
        .unwrap();
    st.query_map([E], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn library(lib: &Path, args: &[&str]) {
    let (code, out, err) = common::run::library(lib, args);
    assert_eq!(code, Some(0), "{args:?}: {out}{err}");
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_librarys_cube_entries_are_analyse_files_decisions() {
    // A real match of people (XG's .mat export of the HSBT Paris match)
    // and a self-play match of gnubg's, both imported without analysis.
    for name in ["mat/xg_export_hsbt_paris_7pt.mat", "selfplay/m5_driven.mat"] {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib.sqlite");
        let file = fixture(name);
        library(&lib, &["import", "--errors", "0.5", file.to_str().unwrap()]);
        library(&lib, &["analyse", "--plies", "0"]);
        let want = analyse_file(&file);
        let got = entries(&lib);
        assert!(
            want.keys().any(|(_, k)| k == "cube"),
            "{name}: the match has a cube mistake of {E} or more"
        );
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>(),
            "{name}"
        );
        for (k, e) in &want {
            assert!((got[k] - e).abs() < 1e-6, "{name} {k:?}: {} {e}", got[k]);
        }
    }
}

/// The four cube mistakes as filter words, worst first, and a missed
/// double quizzed: answered with no double, it costs what the list says.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn cube_mistakes_are_found_by_their_words_and_quizzed() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let file = fixture("mat/xg_export_hsbt_paris_7pt.mat");
    library(&lib, &["import", file.to_str().unwrap()]);
    library(&lib, &["analyse", "--plies", "0"]);
    let want = analyse_file(&file);
    let store = Library::open(&lib).unwrap();
    let count = |q: &str| store.count(&filter::parse(q).unwrap()).unwrap();
    // Each cube decision of the file's analysis at E or worse, by what was
    // played: no double where doubling was better is a missed double.
    let conn = rusqlite::Connection::open(&lib).unwrap();
    let played_of = |id: &str| -> String {
        conn.query_row(
            "SELECT played FROM entries WHERE gnubg_id = ?1 AND kind IN ('cube', 'take') \
             ORDER BY error DESC LIMIT 1",
            [id],
            |r| r.get(0),
        )
        .unwrap()
    };
    let mut by_word: BTreeMap<&str, u64> = BTreeMap::new();
    for (id, kind) in want.keys().filter(|(_, k)| k != "checker") {
        let word = match (kind.as_str(), played_of(id).as_str()) {
            ("cube", "no double") => "missed-double",
            ("cube", _) => "wrong-double",
            (_, "take" | "beaver") => "wrong-take",
            _ => "wrong-pass",
        };
        *by_word.entry(word).or_default() += 1;
    }
    assert!(
        by_word.get("missed-double").copied().unwrap_or(0) > 0,
        "{by_word:?}"
    );
    for word in ["missed-double", "wrong-double", "wrong-take", "wrong-pass"] {
        let n = count(&format!("{word} error>={E}"));
        assert_eq!(n, by_word.get(word).copied().unwrap_or(0), "{word}");
        assert_eq!(count(&format!("kind:{word} error>={E}")), n, "kind:{word}");
    }
    // `kind:cube` holds the missed doubles, worst first.
    let cube = store
        .page_in(&filter::parse("kind:cube").unwrap(), Order::Error, 0, 1000)
        .unwrap();
    let errors: Vec<f64> = cube.iter().filter_map(|s| s.error).collect();
    assert!(errors.windows(2).all(|w| w[0] >= w[1]), "{errors:?}");
    let missed = store
        .page_in(&filter::parse("missed-double").unwrap(), Order::Error, 0, 1)
        .unwrap();
    let worst = missed[0].clone();
    assert!(cube.iter().any(|s| s.id == worst.id), "kind:cube lists it");
    assert!(worst.position.state.dice.is_none(), "before the roll");
    assert_eq!(
        worst.error_by.as_ref().unwrap().depth,
        "gnubg 0-ply",
        "graded by the verdict it is from"
    );
    let entry = store.get(worst.id).unwrap();
    assert!(
        entry.note.starts_with("played: no double"),
        "{}",
        entry.note
    );
    drop(store);
    // The quiz draws the missed doubles (a filter: one word alone names a
    // collection) and grades `no double` by each one's verdict.
    let mut h = Harness::on(&lib);
    h.lib(QuizAction::Start("kind:missed-double".to_owned()));
    let queue = h.model.library.review.as_ref().unwrap().queue.clone();
    assert_eq!(queue.len() as u64, count_missed(&lib));
    assert!(queue.iter().any(|q| q.id == worst.id));
    let first = queue[0].clone();
    h.lib(QuizAction::Answer(QuizAnswer::NoDouble));
    let review = h.model.library.review.as_ref().unwrap();
    let graded = review.grade.as_ref().unwrap().as_ref().unwrap();
    assert!(
        (graded.judgement.error - first.error.unwrap()).abs() < 1e-6,
        "{} {:?}",
        graded.judgement.error,
        first.error
    );
}

fn count_missed(lib: &Path) -> u64 {
    Library::open(lib)
        .unwrap()
        .count(&filter::parse("missed-double").unwrap())
        .unwrap()
}
