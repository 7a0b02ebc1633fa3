//! `bgedit match --save-sgf OUT FILE`: the match with its analysis as
//! gnubg's SGF. The real gnubg of this run loads the written file: every
//! checker play's error it reads back, and its `show statistics match`,
//! are what `bgedit analyse --file` printed for the same match at the same
//! depth (never numbers committed from another machine). Also `analyse
//! --file --output`, and neither writes over the file it reads.

use crate::common;

use common::live::{SHOWN_EQUITY, SHOWN_ERROR};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const MATCH: &str = "tests/fixtures/analysis/m5_noisy.mat";

fn fixture(name: &str) -> String {
    format!("{}/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str]) -> (String, String, i32) {
    let out = common::run::bgedit(args, "");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// gnubg loads `sgf` and prints, one JSON line each, every checker play's
/// error as it reads it (best candidate's equity minus the played one's),
/// then its `show statistics match`.
fn gnubg_reads(dir: &Path, sgf: &Path) -> (Vec<Value>, String) {
    let script = dir.join("read.py");
    std::fs::write(
        &script,
        format!(
            r#"import gnubg, json
gnubg.command('load match "{}"')
m = gnubg.match(analysis=1, boards=0, statistics=0, verbose=1)
for gi, g in enumerate(m["games"]):
    for rec in g["game"]:
        a = rec.get("analysis") or {{}}
        if rec.get("action") == "move" and "moves" in a:
            s = [mv["score"] for mv in a["moves"]]
            print("JSON " + json.dumps({{"game": gi + 1, "player": rec.get("player"),
                  "best": s[0], "error": s[0] - s[a["imove"]]}}))
gnubg.command('show statistics match')
"#,
            sgf.display()
        ),
    )
    .unwrap();
    let out = Command::new(common::gnubg())
        .args(["-t", "-q", "-r", "-p"])
        .arg(&script)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines = text
        .lines()
        .filter_map(|l| l.strip_prefix("JSON "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (lines, text)
}

/// The rows both statistics blocks print, gnubg's label first (bgedit's
/// drops gnubg's " (EMG (MWC))" after the cube errors' labels).
const ROWS: &[&str] = &[
    "Total moves",
    "Unforced moves",
    "Unmarked moves",
    "Moves marked doubtful",
    "Moves marked bad",
    "Moves marked very bad",
    "Error total EMG (MWC)",
    "Error rate mEMG (MWC)",
    "Rolls marked very lucky",
    "Rolls marked lucky",
    "Rolls unmarked",
    "Rolls marked unlucky",
    "Rolls marked very unlucky",
    "Luck total EMG (MWC)",
    "Luck rate mEMG (MWC)",
    "Total cube decisions",
    "Close or actual cube decisions",
    "Doubles",
    "Takes",
    "Passes",
    "Missed doubles below CP",
    "Missed doubles above CP",
    "Wrong doubles below DP",
    "Wrong doubles above TG",
    "Wrong takes",
    "Wrong passes",
    "Snowie error rate",
    "Actual result",
    "Luck adjusted result",
    "Error based abs. FIBS rating",
    "Chequerplay errors rating loss",
    "Cube errors rating loss",
];

/// Each row's numbers, in order, with the decimals each was printed with.
fn rows(text: &str) -> Vec<(String, Vec<(f64, u32)>)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.replace(" (EMG (MWC))", "");
        let Some(label) = ROWS.iter().find(|r| {
            line.strip_prefix(**r)
                .is_some_and(|rest| rest.starts_with("  ") || rest.is_empty())
        }) else {
            continue;
        };
        let rest = &line[label.len()..];
        let mut numbers = Vec::new();
        let cleaned: String = rest
            .chars()
            .map(|c| if "()%".contains(c) { ' ' } else { c })
            .collect();
        for token in cleaned.split_whitespace() {
            if let Ok(x) = token.parse::<f64>() {
                let decimals = token.split_once('.').map_or(0, |(_, d)| d.len() as u32);
                numbers.push((x, decimals));
            }
        }
        out.push((label.to_string(), numbers));
    }
    out
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn gnubg_loads_the_saved_match_with_bgedits_analysis() {
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let sgf: PathBuf = dir.path().join("saved ] match.sgf");
    let input = fixture(MATCH);
    let base = ["--plies", "0", "--jobs", "1"];
    let mut save = vec!["match", "--save-sgf", sgf.to_str().unwrap(), "--analyse"];
    save.extend(base);
    save.push(&input);
    let (_, err, code) = run(&save);
    assert_eq!(code, 0, "{err}");
    let mut analyse = vec!["analyse", "--file", &input, "--format", "json"];
    analyse.extend(base);
    let (json, err, code) = run(&analyse);
    assert_eq!(code, 0, "{err}");
    let ours: Vec<Value> = json
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["kind"] == "checker" && v.get("rank").is_some())
        .collect();
    let (theirs, stats) = gnubg_reads(dir.path(), &sgf);
    assert_eq!(ours.len(), theirs.len(), "checker plays with a list");
    for (o, t) in ours.iter().zip(&theirs) {
        assert_eq!(o["game"], t["game"]);
        let (mine, read) = (o["error"].as_f64().unwrap(), t["error"].as_f64().unwrap());
        assert!((mine - read).abs() < SHOWN_ERROR, "{o} / {t}");
    }
    // The statistics gnubg counts from what it read: analyse's own rows.
    let mut analyse = vec!["analyse", "--file", &input];
    analyse.extend(base);
    let (text, err, code) = run(&analyse);
    assert_eq!(code, 0, "{err}");
    let summary = &text[text.find("\nPlayer").expect("a summary")..];
    let (want, got) = (rows(summary), rows(&stats));
    assert_eq!(want.len(), ROWS.len() + 4, "{summary}");
    assert_eq!(
        want.iter().map(|r| &r.0).collect::<Vec<_>>(),
        got.iter().map(|r| &r.0).collect::<Vec<_>>(),
        "{stats}"
    );
    for ((label, ours), (_, gnubgs)) in want.iter().zip(&got) {
        assert_eq!(ours.len(), gnubgs.len(), "{label}: {ours:?} / {gnubgs:?}");
        for (&(a, d), &(b, _)) in ours.iter().zip(gnubgs) {
            // One unit of the last digit printed: each side rounds once.
            let unit = 10f64.powi(-(d as i32)) * 1.01 + SHOWN_EQUITY / 1000.0;
            assert!((a - b).abs() <= unit, "{label}: {ours:?} / {gnubgs:?}");
        }
    }
}

// `analyse --file` finds gnubg before it checks where it writes.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn neither_command_writes_over_the_file_it_reads() {
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.mat");
    std::fs::copy(fixture(MATCH), &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let p = path.to_str().unwrap();
    let again = format!("{}/./m.mat", dir.path().display());
    let (_, err, code) = run(&["match", "--save-sgf", &again, p]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("this is the file read"), "{err}");
    let (_, err, code) = run(&["analyse", "--file", p, "--output", &again]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("it is not written over"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // The file's own analysis saved (none here: the moves alone), read back.
    let out = dir.path().join("out.sgf");
    let (_, err, code) = run(&["match", "--save-sgf", out.to_str().unwrap(), p]);
    assert_eq!(code, 0, "{err}");
    let (listed, _, code) = run(&["match", out.to_str().unwrap()]);
    let (original, _, _) = run(&["match", p]);
    assert_eq!(code, 0);
    assert_eq!(listed, original);
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_report_is_written_to_a_file() {
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.txt");
    let input = fixture(MATCH);
    let args = ["analyse", "--file", &input, "--plies", "0", "--jobs", "1"];
    let (shown, _, code) = run(&args);
    assert_eq!(code, 0);
    let mut to_file = args.to_vec();
    to_file.extend(["--output", report.to_str().unwrap()]);
    let (printed, err, code) = run(&to_file);
    assert_eq!(code, 0, "{err}");
    assert_eq!(printed, "");
    assert_eq!(std::fs::read_to_string(&report).unwrap(), shown);
}

/// gnubg's `show statistics match` of `sgf`.
fn gnubg_statistics(dir: &Path, sgf: &Path) -> String {
    gnubg_reads(dir, sgf).1
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_files_own_analysis_is_what_gnubg_reads_in_the_saved_copy() {
    common::gnubg();
    // gnubg's own SGF with its analysis: saved by bgedit, the copy gives
    // gnubg the same statistics as the original (the luck aside: the
    // match model does not keep a file's luck).
    let dir = tempfile::tempdir().unwrap();
    let original = PathBuf::from(fixture("tests/fixtures/analysis/m5_noisy.sgf"));
    let copy = dir.path().join("copy.sgf");
    let (_, err, code) = run(&[
        "match",
        "--save-sgf",
        copy.to_str().unwrap(),
        original.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let decisions = |rows: Vec<(String, Vec<(f64, u32)>)>| -> Vec<_> {
        rows.into_iter()
            .filter(|(label, _)| !label.contains("Luck") && !label.starts_with("Rolls"))
            .take_while(|(label, _)| label != "Snowie error rate")
            .collect()
    };
    let want = decisions(rows(&gnubg_statistics(dir.path(), &original)));
    let got = decisions(rows(&gnubg_statistics(dir.path(), &copy)));
    assert!(want.len() > 20, "{want:?}");
    assert_eq!(want, got);
}

/// The match just opened in `model` (its `effects` asked for its
/// analysis) analysed at 0-ply by the real gnubg, through the editor's
/// analysis passes; with each decision's errors.
fn panel_analysed(
    model: bgedit_tui::model::Model,
    effects: Vec<bgedit_tui::effect::Effect>,
) -> (bgedit_tui::model::Model, Vec<Vec<f64>>) {
    use bgedit_tui::effect::Effect;
    use bgedit_tui::io::engine_link::{MatchRun, analyse_match_passes};
    use bgedit_tui::match_review::state::Verdict;
    use std::sync::Mutex;
    use std::sync::atomic::AtomicU64;
    let Some(Effect::AnalyseMatch {
        serial,
        replayed,
        engine,
        ..
    }) = effects
        .into_iter()
        .find(|e| matches!(e, Effect::AnalyseMatch { .. }))
    else {
        panic!("the match is analysed")
    };
    let sent = Mutex::new(Vec::new());
    let opts = MatchRun {
        serial,
        engine,
        program: Ok(common::gnubg()),
        jobs: 1,
    };
    let wanted = AtomicU64::new(serial);
    analyse_match_passes(&opts, &replayed, &[0], &wanted, &|a| {
        sent.lock().unwrap().push(a);
        true
    });
    let model = common::keys::run(model, sent.into_inner().unwrap());
    let m = model.review.open.as_deref().unwrap();
    assert!(!m.analysing);
    let panel: Vec<Vec<f64>> = m
        .verdicts
        .iter()
        .map(|v| match v {
            Verdict::Judged(list) => list.iter().map(|j| j.judgement.error).collect(),
            other => panic!("{other:?}"),
        })
        .collect();
    (model, panel)
}

/// The match panel's `W` saving to `out`, performed as the runtime
/// performs it: the model after, and where the match was read from.
fn panel_saves(
    model: bgedit_tui::model::Model,
    out: &Path,
) -> (
    bgedit_tui::model::Model,
    String,
    Option<std::sync::Arc<str>>,
) {
    use bgedit_engine::match_analysis::annotate::{SavedFrom, save_sgf};
    use bgedit_tui::action::Action;
    use bgedit_tui::effect::Effect;
    use bgedit_tui::match_review::state::ReviewAction;
    use common::keys::{keys, run_effects};
    let (model, effects) = keys(model, &format!("<C-u>{}<enter>", out.display()));
    let Some(Effect::SaveSgf {
        source,
        pasted,
        out: to,
        judged,
        luck,
        decisions,
        replace: false,
    }) = effects
        .into_iter()
        .find(|e| matches!(e, Effect::SaveSgf { .. }))
    else {
        panic!("the match is saved: {:?}", model.status)
    };
    assert_eq!(Path::new(&to), out);
    let saved = save_sgf(
        SavedFrom::of(&source, pasted.as_deref()),
        Path::new(&to),
        &judged,
        luck.as_ref().map(|l| &*l.0),
        decisions,
    );
    let (model, _) = run_effects(
        model,
        [Action::Review(ReviewAction::SgfSaved(saved.map(|()| to)))],
    );
    assert!(
        model.status.text.contains("Saved the match"),
        "{:?}",
        model.status
    );
    (model, source, pasted)
}

/// The match panel's `W`: the editor's 0-ply verdicts on the match (the
/// real gnubg, through the editor's analysis passes), written by the
/// runtime's effect through `match --save-sgf`'s code. Read back by
/// bgedit, each checker play and cube decision carries the panel's error;
/// loaded by gnubg, its `show statistics match` has the rows `analyse
/// --file --plies 0` prints.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_match_panels_w_saves_what_gnubg_reads() {
    use bgedit_core::codec::match_file;
    use bgedit_engine::match_analysis::annotate::{SavedFrom, save_sgf};
    use bgedit_library::match_import::decision_error;
    use bgedit_tui::action::Action;
    use bgedit_tui::match_review::{open, state::ReviewAction};
    use bgedit_tui::model::{Mode, Model};
    use common::keys::{keys, run_effects};
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("m5_noisy.mat");
    std::fs::copy(fixture(MATCH), &input).unwrap();
    let loaded = open::load(input.to_str().unwrap()).unwrap();
    let (model, effects) = run_effects(
        Model::default(),
        [Action::Review(ReviewAction::Opened(Ok(Box::new(loaded))))],
    );
    let (model, panel) = panel_analysed(model, effects);
    // `W` offers a name beside the match; the saved file is asked.
    let (model, _) = keys(model, "vW");
    let Mode::Prompt(p) = &model.mode else {
        panic!("{:?}", model.mode)
    };
    assert!(
        p.line.text.ends_with("m5_noisy.analysed.sgf"),
        "{}",
        p.line.text
    );
    let out = dir.path().join("saved.sgf");
    let (_, source, _) = panel_saves(model, &out);
    // Never over the match itself.
    let again = save_sgf(
        SavedFrom::File(Path::new(&source)),
        Path::new(&source),
        &[],
        None,
        panel.len(),
    );
    assert!(again.unwrap_err().to_string().contains("not written over"));

    // Read back by bgedit: each decision the panel judged has its error.
    let file = match_file::read_path(&out).unwrap();
    let (read, _) = match_file::decisions(&file);
    assert_eq!(read.len(), panel.len());
    let mut compared = 0;
    for (d, errors) in read.iter().zip(&panel) {
        let (Some(e), Some(want)) = (decision_error(d), errors.last()) else {
            continue;
        };
        assert!(
            (e - want).abs() < SHOWN_ERROR,
            "game {} move {}: {e} / {want}",
            d.game,
            d.number
        );
        compared += 1;
    }
    assert!(compared > panel.len() / 2, "{compared} of {}", panel.len());

    // Loaded by gnubg: the statistics rows of `analyse --file --plies 0`.
    let (_, stats) = gnubg_reads(dir.path(), &out);
    let (text, err, code) = run(&[
        "analyse",
        "--file",
        &fixture(MATCH),
        "--plies",
        "0",
        "--jobs",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let summary = &text[text.find("\nPlayer").expect("a summary")..];
    let (want, got) = (rows(summary), rows(&stats));
    assert_eq!(
        want.iter().map(|r| &r.0).collect::<Vec<_>>(),
        got.iter().map(|r| &r.0).collect::<Vec<_>>(),
        "{stats}"
    );
    for ((label, ours), (_, gnubgs)) in want.iter().zip(&got) {
        assert_eq!(ours.len(), gnubgs.len(), "{label}: {ours:?} / {gnubgs:?}");
        for (&(a, d), &(b, _)) in ours.iter().zip(gnubgs) {
            let unit = 10f64.powi(-(d as i32)) * 1.01 + SHOWN_EQUITY / 1000.0;
            assert!((a - b).abs() <= unit, "{label}: {ours:?} / {gnubgs:?}");
        }
    }
}

/// `W` on a match pasted into the editor (there is no file to read it
/// again from): the pasted text is saved with the panel's verdicts, under
/// a name offered in the working directory, and reads back as the same
/// match, each decision with the panel's error.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_pasted_match_is_saved_from_its_text() {
    use bgedit_core::codec::match_file;
    use bgedit_library::match_import::decision_error;
    use bgedit_tui::action::Action;
    use bgedit_tui::model::{Mode, Model};
    use common::keys::{keys, run_effects};
    common::gnubg();
    let text = std::fs::read_to_string(fixture(MATCH)).unwrap();
    // As a terminal sends a paste: carriage returns for line breaks.
    let (model, effects) = run_effects(
        Model::default(),
        [Action::Pasted(Ok(text.replace('\n', "\r")))],
    );
    let (model, panel) = panel_analysed(model, effects);
    let (model, _) = keys(model, "vW");
    let Mode::Prompt(p) = &model.mode else {
        panic!("{:?}", model.mode)
    };
    assert_eq!(p.line.text, "pasted-match.analysed.sgf");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("saved.sgf");
    let (_, _, pasted) = panel_saves(model, &out);
    assert!(pasted.is_some(), "saved from the text pasted");
    let read = match_file::read_path(&out).unwrap();
    let (decisions, problems) = match_file::decisions(&read);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(decisions.len(), panel.len());
    let errors = decisions.iter().zip(&panel).filter(|(d, errors)| {
        let (Some(e), Some(want)) = (decision_error(d), errors.last()) else {
            return false;
        };
        assert!((e - want).abs() < SHOWN_ERROR, "{e} / {want}");
        true
    });
    assert!(errors.count() > panel.len() / 2);
}

/// `W` onto a file that is there (a deeper analysis saved earlier, say)
/// asks before replacing it: the runtime's answer that it exists opens a
/// y/n question naming it; `n` offers the name again to change and asks
/// nothing written; `y` saves over it (`io::files` holds the runtime's
/// half: nothing is written until then).
#[test]
fn the_match_panels_w_asks_before_replacing_a_file() {
    use bgedit_tui::action::Action;
    use bgedit_tui::effect::Effect;
    use bgedit_tui::match_review::{open, state::ReviewAction};
    use bgedit_tui::model::{Mode, Model};
    use bgedit_tui::prompt::state::PromptKind;
    use common::keys::{keys, run_effects};
    let dir = tempfile::tempdir().unwrap();
    let loaded = open::load(&fixture(MATCH)).unwrap();
    let (model, _) = run_effects(
        Model::default(),
        [Action::Review(ReviewAction::Opened(Ok(Box::new(loaded))))],
    );
    let out = dir.path().join("m5_noisy.analysed.sgf");
    std::fs::write(&out, "a deeper analysis").unwrap();
    let out = out.display().to_string();
    let saves = |effects: &[Effect]| -> Vec<bool> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::SaveSgf {
                    out: to, replace, ..
                } if *to == out => Some(*replace),
                _ => None,
            })
            .collect()
    };
    let (model, effects) = run_effects(model, [Action::Review(ReviewAction::SaveSgf(out.clone()))]);
    assert_eq!(saves(&effects), [false], "not over a file unasked");
    let (model, effects) = run_effects(
        model,
        [Action::Review(ReviewAction::SgfExists(out.clone()))],
    );
    assert!(effects.is_empty(), "{effects:?}");
    assert!(
        matches!(&model.mode, Mode::Prompt(p) if p.kind == PromptKind::ReplaceSgf),
        "{:?}",
        model.mode
    );
    assert!(
        model.status.text.contains(&out) && model.status.text.contains("y replaces"),
        "{:?}",
        model.status
    );
    let (kept, effects) = keys(model.clone(), "n");
    assert!(saves(&effects).is_empty(), "{effects:?}");
    assert!(
        matches!(&kept.mode, Mode::Prompt(p) if p.kind == PromptKind::SgfFile && p.line.text == out),
        "{:?}",
        kept.mode
    );
    let (_, effects) = keys(model, "y");
    assert_eq!(saves(&effects), [true], "saved over it once asked");
}
