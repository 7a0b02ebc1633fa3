//! `bgedit analyse --file`: a whole match analysed, checked against gnubg
//! 1.07's own `analyse match` at the same depth on the same files
//! (tests/fixtures/gen_gnubg_match_analysis.py): every decision's error,
//! every mark, and each player's statistics. Runs the real binary against
//! the real gnubg; ignored without it unless BGEDIT_REQUIRE_GNUBG=1.

use crate::common;

use serde_json::Value;
use std::collections::HashMap;

/// gnubg keeps its equities in single precision.
const CLOSE: f64 = 0.002;

fn analyse(file: &str, extra: &[&str]) -> (Vec<Value>, String, i32) {
    let path = format!("{}/tests/fixtures/{file}", env!("CARGO_MANIFEST_DIR"));
    let mut args = vec!["analyse", "--file", path.as_str(), "--format", "json"];
    args.extend_from_slice(extra);
    let out = common::run::bgedit(&args, "");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (
        lines,
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn mark(skill: Option<&str>) -> &'static str {
    match skill {
        Some("doubtful") => "?!",
        Some("bad") => "?",
        Some("very bad") => "??",
        _ => "",
    }
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Our lines of one game, by kind, in order.
fn ours_by_game(lines: &[Value]) -> HashMap<(u64, &'static str), Vec<&Value>> {
    let mut out: HashMap<(u64, &'static str), Vec<&Value>> = HashMap::new();
    for l in lines.iter().filter(|l| l.get("summary").is_none()) {
        let game = l["game"].as_u64().unwrap();
        let kind = match (l["kind"].as_str().unwrap(), l["played"].as_str().unwrap()) {
            ("checker", _) => "move",
            ("cube", "no double") => "no double",
            ("cube", _) => "double",
            ("take", _) => "answer",
            (k, _) => panic!("kind {k}"),
        };
        out.entry((game, kind)).or_default().push(l);
    }
    out
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn every_decision_and_statistic_agrees_with_gnubgs_analyse_match() {
    common::gnubg();
    // gnubg's own analysis of the same files, asked on this machine now.
    let fixtures =
        crate::common::live::generated("gen_gnubg_match_analysis.py", "gnubg_match_analysis.jsonl");
    let mut checked = 0;
    for line in fixtures.lines() {
        let want: Value = serde_json::from_str(line).unwrap();
        let file = want["file"].as_str().unwrap();
        let plies = want["plies"].to_string();
        let (lines, err, code) = analyse(file, &["--jobs", "2", "--plies", &plies]);
        let file = &format!("{file} at {plies}-ply");
        assert_eq!(code, 0, "{file}: {err}");
        let ours = ours_by_game(&lines);
        let mut next: HashMap<(u64, &str), usize> = HashMap::new();
        let mut take = |game: u64, kind: &'static str| -> &Value {
            let i = next.entry((game, kind)).or_default();
            let list = ours.get(&(game, kind));
            let got = list.and_then(|l| l.get(*i)).unwrap_or_else(|| {
                panic!("{file}: game {game}: no {kind} decision number {}", *i + 1)
            });
            *i += 1;
            got
        };
        // gnubg records a beaver as a second double, by the player doubled,
        // and does not judge it (the take that answers it, it does).
        let mut prev = "";
        for d in want["decisions"].as_array().unwrap() {
            let game = d["game"].as_u64().unwrap();
            let at = format!("{file}: game {game} record {}", d["index"]);
            let kind = d["kind"].as_str().unwrap();
            let beaver = kind == "double" && prev == "double";
            prev = kind;
            if beaver {
                continue;
            }
            match kind {
                "move" => {
                    if d.get("nd").is_some() {
                        let cube = take(game, "no double");
                        assert_eq!(cube["player"], d["player"], "{at}");
                        assert_eq!(
                            cube["mark"].as_str().unwrap(),
                            mark(d["cube_skill"].as_str()),
                            "{at}: the cube before the roll: {cube}"
                        );
                    }
                    let ours = take(game, "move");
                    assert_eq!(ours["player"], d["player"], "{at}");
                    assert_eq!(ours["dice"], d["dice"], "{at}");
                    if let (Some(best), Some(played)) = (d.get("best"), d.get("played")) {
                        let error = f(best) - f(played);
                        assert!(
                            (f(&ours["error"]) - error).abs() < CLOSE,
                            "{at}: error {} against gnubg's {error}: {ours}",
                            ours["error"]
                        );
                    }
                    assert_eq!(
                        ours["mark"].as_str().unwrap(),
                        mark(d["skill"].as_str()),
                        "{at}: {ours}"
                    );
                    checked += 1;
                }
                kind => {
                    let ours = take(game, if kind == "double" { "double" } else { "answer" });
                    assert_eq!(ours["player"], d["player"], "{at}");
                    let played = if kind == "double" { "double" } else { kind };
                    assert_eq!(ours["played"], played, "{at}");
                    assert_eq!(
                        ours["mark"].as_str().unwrap(),
                        mark(d["skill"].as_str()),
                        "{at}: {ours}"
                    );
                    checked += 1;
                }
            }
        }
        // Nothing judged that gnubg did not judge.
        for ((game, kind), list) in &ours {
            let used = next.get(&(*game, *kind)).copied().unwrap_or(0);
            assert_eq!(
                used,
                list.len(),
                "{file}: game {game}: extra {kind} decisions"
            );
        }
        let summary = &lines.last().unwrap()["summary"];
        for player in ["O", "X"] {
            let g = &want["stats"][player];
            let s = &summary[player];
            let at = format!("{file}: {player}");
            let pairs = [
                ("total_moves", &g["moves"]["total-moves"]),
                ("checker_decisions", &g["moves"]["unforced-moves"]),
                ("total_cube", &g["cube"]["total-cube"]),
                ("cube_decisions", &g["cube"]["close-cube"]),
                ("doubles", &g["cube"]["n-doubles"]),
                ("takes", &g["cube"]["n-takes"]),
                ("drops", &g["cube"]["n-drops"]),
            ];
            for (ours, theirs) in pairs {
                assert_eq!(s[ours].as_u64(), theirs.as_u64(), "{at}: {ours}");
            }
            // The luck of the dice, gnubg's own (its luck analysis of the
            // whole match, beside the decisions'): totals in EMG and MWC or
            // points, and the match's result with and without it.
            let luck = &s["luck"];
            for (ours, theirs) in [
                ("total", "luck"),
                ("cost", "luck-cost"),
                ("actual_result", "actual-result"),
                ("luck_adjusted_result", "luck-adjusted-result"),
            ] {
                assert!(
                    (f(&luck[ours]) - f(&g["dice"][theirs])).abs() < 1e-4,
                    "{at}: luck {ours} {} against gnubg's {}",
                    luck[ours],
                    g["dice"][theirs]
                );
            }
            let rolls: u64 = ["very_unlucky", "unlucky", "unmarked", "lucky", "very_lucky"]
                .iter()
                .map(|k| luck["rolls"][k].as_u64().unwrap())
                .sum();
            assert!(
                rolls >= s["total_moves"].as_u64().unwrap(),
                "{at}: {rolls} rolls"
            );
            for (ours, theirs) in [
                ("doubtful", "doubtful"),
                ("bad", "bad"),
                ("very_bad", "very bad"),
            ] {
                assert_eq!(
                    s["marked"][ours].as_u64(),
                    g["moves"]["marked"][theirs].as_u64(),
                    "{at}: {ours}"
                );
            }
            // gnubg's Python gives the checker totals, and the cube totals
            // by kind only (its cube "error-skill" is a rate per decision).
            let kinds = [
                "missed-double-below-cp",
                "missed-double-above-cp",
                "wrong-double-below-dp",
                "wrong-double-above-tg",
                "wrong-take",
                "wrong-drop",
            ];
            let cube = |unit: &str| -> f64 {
                kinds
                    .iter()
                    .map(|k| f(&g["cube"][format!("err-{k}-{unit}")]).abs())
                    .sum()
            };
            for (ours, theirs) in [
                ("checker_error", f(&g["moves"]["error-skill"]).abs()),
                ("checker_cost", f(&g["moves"]["error-cost"]).abs()),
                ("cube_error", cube("skill")),
                ("cube_cost", cube("cost")),
            ] {
                assert!(
                    (f(&s[ours]) - theirs).abs() < CLOSE,
                    "{at}: {ours} {} against gnubg's {theirs}",
                    s[ours]
                );
            }
            for (ours, theirs) in [
                ("missed_doubles_below_cp", "missed-double-below-cp"),
                ("missed_doubles_above_cp", "missed-double-above-cp"),
                ("wrong_doubles_below_dp", "wrong-double-below-dp"),
                ("wrong_doubles_above_tg", "wrong-double-above-tg"),
                ("wrong_takes", "wrong-take"),
                ("wrong_passes", "wrong-drop"),
            ] {
                assert_eq!(
                    s[ours]["count"].as_u64(),
                    g["cube"][theirs].as_u64(),
                    "{at}: {ours}"
                );
                let theirs = f(&g["cube"][format!("err-{theirs}-skill")]).abs();
                assert!(
                    (f(&s[ours]["error"]) - theirs).abs() < CLOSE,
                    "{at}: {ours}"
                );
            }
        }
    }
    assert!(checked > 500, "only {checked} decisions compared");
}

/// The luck section of the text summary is gnubg's own `show statistics
/// match` (rolls by mark, totals, rate, rating, the luck-adjusted result),
/// row for row, from gnubg itself run on the same file.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_luck_and_overall_rows_are_gnubgs_show_statistics() {
    common::gnubg();
    let file = format!(
        "{}/tests/fixtures/analysis/m7_noisy.sgf",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = common::run::bgedit(&["analyse", "--file", &file, "--jobs", "2"], "");
    assert!(out.status.success());
    let ours = String::from_utf8(out.stdout).unwrap();
    let script = format!(
        "set analysis chequerplay evaluation plies 0\nset analysis cubedecision evaluation plies 0\n\
         load match {file}\nanalyse match\nshow statistics match\n"
    );
    let gnubg = std::process::Command::new(bgedit_engine::EngineKind::Gnubg.locate(None).unwrap())
        .args(["-t", "-q"])
        .env("LC_ALL", "C")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(script.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    let theirs = String::from_utf8_lossy(&gnubg.stdout).into_owned();
    // The same words, the same figures: gnubg pads its columns its way.
    let words = |line: &str| -> String { line.split_whitespace().collect::<Vec<_>>().join(" ") };
    let rows = [
        "Rolls marked very lucky",
        "Rolls marked lucky",
        "Rolls unmarked",
        "Rolls marked unlucky",
        "Rolls marked very unlucky",
        "Luck total EMG (MWC)",
        "Luck rate mEMG (MWC)",
        "Luck rating",
        "Luck adjusted result",
        // The overall block's figures (issue 32).
        "Error rate mEMG (MWC)",
        "Snowie error rate",
        "Overall rating",
        "Luck based FIBS rating diff.",
        "Error based abs. FIBS rating",
        "Chequerplay errors rating loss",
        "Cube errors rating loss",
    ];
    for label in rows {
        let find = |text: &str| {
            text.lines()
                .find(|l| {
                    l.starts_with(label)
                        && !l[label.len()..].starts_with(|c: char| c.is_alphabetic())
                })
                .map(|l| words(&l.replace("( ", "(")))
                .unwrap_or_else(|| panic!("no {label:?} in {text}"))
        };
        assert_eq!(find(&ours), find(&theirs), "{label}");
    }
    // The JSON summary carries the same figures.
    let out = common::run::bgedit(
        &[
            "analyse", "--file", &file, "--jobs", "2", "--format", "json",
        ],
        "",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let figure = |label: &str, column: usize| -> String {
        let line = theirs.lines().find(|l| l.starts_with(label)).unwrap();
        line[label.len()..]
            .split_whitespace()
            .nth(column)
            .unwrap()
            .to_owned()
    };
    for (column, player) in [(0, "O"), (1, "X")] {
        let overall = &last["summary"][player]["overall"];
        for (key, label) in [
            ("fibs_rating", "Error based abs. FIBS rating"),
            ("checker_rating_loss", "Chequerplay errors rating loss"),
            ("cube_rating_loss", "Cube errors rating loss"),
        ] {
            let ours = format!("{:.1}", overall[key].as_f64().unwrap());
            assert_eq!(ours, figure(label, column), "{player} {key}");
        }
        let snowie = format!("{:+.1}", overall["snowie_error_rate"].as_f64().unwrap());
        assert_eq!(snowie, figure("Snowie error rate", column * 3), "{player}");
        // XG's PR: half the error rate in mEMG.
        let rate = last["summary"][player]["error_rate_memg"].as_f64().unwrap();
        assert!((overall["pr"].as_f64().unwrap() - rate / 2.0).abs() < 1e-5);
    }
    let diff = last["summary"]["O"]["overall"]["luck_fibs_rating_diff"]
        .as_f64()
        .unwrap();
    assert_eq!(
        format!("{diff:+.2}"),
        figure("Luck based FIBS rating diff.", 0)
    );
    let x_diff = last["summary"]["X"]["overall"]["luck_fibs_rating_diff"]
        .as_f64()
        .unwrap();
    assert_eq!(x_diff, -diff);
}

/// `bgedit analyse --file path`'s luck for `player` (the run had the
/// luck: no "no luck" said), and whether the run succeeded.
fn summary_luck(path: &str, player: &str) -> (bool, Value) {
    let out = common::run::bgedit(&["analyse", "--file", path, "--format", "json"], "");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("no luck"), "{path}: {err}");
    let text = String::from_utf8(out.stdout).unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    (
        out.status.success(),
        last["summary"][player]["luck"].clone(),
    )
}

/// gnubg reads the match for its luck analysis from its own command line,
/// which splits at blanks: a file whose path has blanks, quotes or a
/// backslash gets the same luck as the fixture itself.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_luck_of_a_file_with_blanks_and_quotes_in_its_path() {
    common::gnubg();
    let luck = |path: &str| {
        let (ok, luck) = summary_luck(path, "O");
        assert!(ok, "{path}: the run failed");
        luck
    };
    let fixture = format!(
        "{}/tests/fixtures/analysis/m7_noisy.sgf",
        env!("CARGO_MANIFEST_DIR")
    );
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("my \"match\" it's \\ here.sgf");
    std::fs::copy(&fixture, &odd).unwrap();
    let want = luck(&fixture);
    assert!(want["total"].is_number(), "{want}");
    assert_eq!(luck(odd.to_str().unwrap()), want);
}

/// A `.mat` with Latin-1 names (gnubg's Python crashes on them) gets the
/// luck gnubg gives the same file in UTF-8.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_latin1_mat_gets_its_luck() {
    common::gnubg();
    let luck = |path: &str| summary_luck(path, "X").1;
    let latin1 = format!(
        "{}/tests/fixtures/mat/money_latin1.mat",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&latin1).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the fixture is Latin-1"
    );
    let dir = tempfile::tempdir().unwrap();
    let utf8 = dir.path().join("money_utf8.mat");
    std::fs::write(&utf8, bgedit_core::codec::mat::decode(&bytes).as_bytes()).unwrap();
    let want = luck(utf8.to_str().unwrap());
    assert!(want["total"].is_number(), "{want}");
    assert_eq!(luck(&latin1), want);
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn one_job_and_two_give_the_same_lines() {
    common::gnubg();
    let (one, _, a) = analyse("selfplay/m5_driven.sgf", &["--jobs", "1"]);
    let (two, _, b) = analyse("selfplay/m5_driven.sgf", &["--jobs", "2"]);
    assert_eq!((a, b), (0, 0));
    assert_eq!(one, two);
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_mat_export_of_a_match_is_analysed_like_its_sgf() {
    common::gnubg();
    let (sgf, _, a) = analyse("selfplay/m7_driven.sgf", &[]);
    let (mat, _, b) = analyse("selfplay/m7_driven.mat", &[]);
    assert_eq!((a, b), (0, 0));
    let key = |v: &Value| {
        (
            v["gnubg_id"].clone(),
            v["played"].clone(),
            v["error"].clone(),
        )
    };
    let sgf: Vec<_> = sgf
        .iter()
        .filter(|v| v.get("summary").is_none())
        .map(key)
        .collect();
    let mat: Vec<_> = mat
        .iter()
        .filter(|v| v.get("summary").is_none())
        .map(key)
        .collect();
    assert_eq!(sgf.len(), mat.len());
    assert_eq!(sgf, mat);
}

#[test]
fn a_file_that_is_not_a_match_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "just some words\n").unwrap();
    let out = common::run::bgedit(
        &[
            "analyse",
            "--file",
            path.to_str().unwrap(),
            "--gnubg",
            "/bin/true",
        ],
        "",
    );
    let err = String::from_utf8(out.stderr).unwrap();
    // A bad file is not a bad command line: 1, as `bgedit match` says it.
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("notes.txt"), "{err}");
    assert!(out.stdout.is_empty());
    let gone = dir.path().join("gone.sgf");
    for args in [
        &[
            "analyse",
            "--gnubg",
            "/bin/true",
            "--file",
            gone.to_str().unwrap(),
        ][..],
        &["match", gone.to_str().unwrap()],
    ] {
        let out = common::run::bgedit(args, "");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("gone.sgf"), "{err}");
    }
}

/// Two matches joined, the first cut after a score line: the games are
/// counted in file order, so the pieces gnubg is handed follow the
/// decisions. It once sliced the decisions backwards and exited 101 with
/// nothing printed (no engine is needed to get there).
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn joined_matches_are_analysed_without_a_panic() {
    let path = format!(
        "{}/tests/fixtures/mat/joined_matches.mat",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = common::run::bgedit(
        &[
            "analyse",
            "--file",
            &path,
            "--gnubg",
            "/bin/true",
            "--format",
            "json",
        ],
        "",
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
    assert!(err.contains("game 5, line 66: labelled 'Game 1'"), "{err}");
    // With gnubg, each game's run of decisions is sliced (where it broke).
    common::gnubg();
    let (lines, err, code) = analyse("mat/joined_matches.mat", &["--jobs", "2"]);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(code, 1, "{err}");
    let games: std::collections::BTreeSet<u64> =
        lines.iter().filter_map(|l| l["game"].as_u64()).collect();
    assert_eq!(games, [1, 2, 3, 5].into_iter().collect(), "{err}");
}

/// The editor, in a pseudo-terminal with the real gnubg: `bgedit FILE`
/// opens a match, the background analysis finds the mistakes, `n` walks to
/// the first one (board, IDs and the played move marked), an edit leaves
/// the match and `v` comes back, and `*` keeps every mistake, which the
/// library's `error>=` filter then finds.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_editor_reviews_a_match_and_keeps_its_mistakes() {
    use common::pty::{Options, Session};
    use std::time::Duration;
    common::gnubg();
    let pty = Options {
        timeout: Duration::from_secs(60),
        ..Options::DEFAULT
    };
    let dir = common::pty::state_dir("bgedit-review", "mistakes");
    let data = dir.to_str().unwrap();
    // The deeper pass at 1-ply (the editor's least): the quick 0-ply
    // verdicts, then 1-ply ones in their place, within the test's time.
    std::fs::write(dir.join("config.json"), "{\"analysis_plies\":1}\n").unwrap();
    let file = format!(
        "{}/tests/fixtures/analysis/m5_noisy.mat",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut s = Session::start_with(&pty, &[&file], &dir, 120, 45, &[("BGEDIT_DATA_DIR", data)]);
    s.wait_for("Match · m5_noisy.mat");
    // The header counts the mistakes once the analysis is done.
    let header_line = |screen: &str| {
        screen
            .lines()
            .find(|l| l.contains("Match · m5_noisy.mat"))
            // The panel's own columns, not the one beside them.
            .and_then(|l| l.split('│').next())
            .map(str::to_owned)
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let header = loop {
        match header_line(&s.contents()) {
            Some(h) if h.trim_end().ends_with(" mistakes · 1-ply") => {
                break h.trim_end().to_owned();
            }
            other => assert!(std::time::Instant::now() < deadline, "{other:?}"),
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mistakes: usize = header
        .rsplit(" · ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{header}"));
    assert!(mistakes >= 10, "{header}");
    // The first mistake at gnubg 1.07's "bad" (0.06) at 1-ply: game 1 move
    // 2, O's 65 played 24/18 13/8 where gnubg runs 24/13. Its error is
    // gnubg's 1-ply hint of that position (the panel's depth), asked here.
    s.send("n");
    let screen = s.wait_for(" · game 1 move 2");
    let xgid = "XGID=-b----E-D---eD---c-e----B-:0:0:-1:65:0:0:0:5:10";
    assert!(screen.contains(xgid), "{screen}");
    let hint = common::live::hint_list(xgid, 1);
    let played = hint.iter().find(|(m, _)| m == "24/18 13/8").unwrap().1;
    let want = hint[0].1 - played;
    let shown =
        common::live::number_after(&screen, "Mistake: -").unwrap_or_else(|| panic!("{screen}"));
    assert!(
        (shown - want).abs() < common::live::SHOWN_ERROR,
        "{screen}\nagainst gnubg's {hint:?}"
    );
    assert!(screen.contains(&format!("({})", hint[0].0)), "{screen}");
    // The editor's own analysis of the position marks the move played.
    s.wait_for("24/18 13/8 ◀ played");
    // An edit leaves the match; v comes back to the same decision.
    // (D clears the dice: an edit key, handed on to the board.)
    s.send("D");
    s.wait_for("left the match");
    s.send("v");
    s.wait_for("Back to the match · game 1 move 2");
    // Every mistake, into a collection named after the file.
    // (Its status, "Keeping N mistakes…", gives way to the library's
    // answers at once: the library itself is what is checked.)
    s.send("*");
    let library = format!("{data}/library.sqlite");
    let found = |filter: &str| -> usize {
        let out = common::run::bgedit(&["library", "--library", &library, "search", filter], "");
        String::from_utf8(out.stdout).unwrap().lines().count()
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while found("error>=0.06") < mistakes && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(found("error>=0.06"), mistakes);
    assert_eq!(found("collection:m5_noisy"), mistakes);
    assert_eq!(found("error>=0.06 player:root kind:checker"), {
        // X (root) mistakes in checker play, by gnubg's analysis of the
        // same file from the command line.
        let (lines, _, _) = analyse("analysis/m5_noisy.mat", &["--jobs", "2", "--plies", "1"]);
        lines
            .iter()
            .filter(|l| l["kind"] == "checker" && l["player"] == "X")
            .filter(|l| l["error"].as_f64().unwrap_or(0.0) > 0.06)
            .count()
    });
    s.send("\x03");
}

/// A match that carries its own analysis opens with it, gnubg not asked
/// (so without gnubg too): the panel counts the file's mistakes and `n`
/// walks them (gnubg's SGF keeps its players' evaluations).
#[test]
fn without_gnubg_the_files_own_analysis_is_shown_and_walked() {
    use common::pty::{Options, Session};
    let dir = common::pty::state_dir("bgedit-review", "no-gnubg");
    let file = format!(
        "{}/tests/fixtures/analysis/m5_noisy.sgf",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut s = Session::start_with(
        &Options::DEFAULT,
        &[&file],
        &dir,
        120,
        45,
        &[
            ("BGEDIT_GNUBG", "/nonexistent/gnubg"),
            ("BGEDIT_DATA_DIR", dir.to_str().unwrap()),
        ],
    );
    s.wait_for("file's analysis: ");
    s.wait_for("the file's own analysis (E: gnubg's)");
    s.send("n");
    // The file's 0-ply analysis: X's double at game 2 move 19 gave away
    // 0.967 (no double was right).
    let screen = s.wait_for("Mistake: -0.967 · game 2 move 19");
    assert!(screen.contains("(file gnubg 0-ply: no double)"), "{screen}");
    s.send("\x03");
}

/// `E` asks gnubg to analyse a match that carries its own analysis: the
/// panel analyses in the background, then counts gnubg's mistakes, the
/// same 24 as the same match's `.mat` (which carries none) gets at once.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn e_asks_gnubg_for_a_match_that_carries_its_own_analysis() {
    use common::pty::{Options, Session};
    use std::time::Duration;
    common::gnubg();
    let pty = Options {
        timeout: Duration::from_secs(60),
        ..Options::DEFAULT
    };
    let dir = common::pty::state_dir("bgedit-review", "e-asks");
    // The panel at 1-ply (the file's own analysis is 0-ply): quick enough.
    std::fs::write(dir.join("config.json"), "{\"analysis_plies\":1}\n").unwrap();
    let file = format!(
        "{}/tests/fixtures/analysis/m5_noisy.sgf",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut s = Session::start_with(
        &pty,
        &[&file],
        &dir,
        120,
        45,
        &[("BGEDIT_DATA_DIR", dir.to_str().unwrap())],
    );
    s.wait_for("file's analysis: ");
    // Nothing runs on the match until asked (the analysis panel's
    // `gnubg: analysing…` is the board's position, asked as the editor
    // opens: on a busy machine it is still on screen here).
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !s.contents().contains("gnubg analysing"),
        "{}",
        s.contents()
    );
    s.send("E");
    s.wait_for("Match · m5_noisy.sgf · gnubg analysing");
    // Done: the mistakes counted at the depth analysed (the panel's or the
    // file's, whichever is deeper), and a second E has nothing to do.
    s.wait_for(" mistakes · ");
    s.send("E");
    s.wait_for("gnubg has analysed the whole match at ");
    s.send("\x03");
}

/// A whole match pasted into the editor (bracketed paste, as a terminal
/// sends it, line breaks as carriage returns) opens in the match panel as
/// its file does, and is walked.
#[test]
fn a_pasted_match_text_opens_in_the_match_panel() {
    use common::pty::{Options, Session};
    let dir = common::pty::state_dir("bgedit-review", "pasted");
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/analysis/m5_noisy.mat",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut s = Session::start_with(
        &Options::DEFAULT,
        &[],
        &dir,
        120,
        45,
        &[
            ("BGEDIT_GNUBG", "/nonexistent/gnubg"),
            ("BGEDIT_DATA_DIR", dir.to_str().unwrap()),
        ],
    );
    s.wait_for("? for help");
    s.send(&format!("\x1b[200~{}\x1b[201~", text.replace('\n', "\r")));
    let screen = s.wait_for("pasted match");
    if std::env::var_os("SHOW_SCREENS").is_some() {
        eprintln!("{screen}");
    }
    s.send("J");
    s.wait_for("game 2 move 1");
    s.send("\x03");
}

/// An XG match opens in the editor with XG's own analysis (gnubg not
/// asked): the panel counts XG's mistakes, `n` walks to the first, the
/// analysis panel lists XG's candidates with XG's depth, and the move
/// played is marked.
#[test]
fn an_xg_match_opens_with_xgs_analysis() {
    use common::pty::{Options, Session};
    let dir = common::pty::state_dir("bgedit-review", "xg");
    let file = format!(
        "{}/tests/fixtures/xg/hsbt_paris_7pt.xg",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut s = Session::start_with(
        &Options::DEFAULT,
        &[&file],
        &dir,
        200,
        50,
        &[
            ("BGEDIT_GNUBG", "/nonexistent/gnubg"),
            ("BGEDIT_DATA_DIR", dir.to_str().unwrap()),
        ],
    );
    s.wait_for("Match · hsbt_paris_7pt.xg · file's analysis: 32 mistakes");
    s.wait_for("the file's own analysis (E: gnubg's)");
    s.send("n");
    // XG's own error for X's 41 at game 1 move 6 (13/8; XG Roller++ plays
    // 24/20 13/12... first): -0.202, as XG's record says (ErrMove).
    let screen = s.wait_for("Mistake: -0.202 · game 1 move 6");
    assert!(screen.contains("(file XG Roller++: 24/20"), "{screen}");
    assert!(
        screen.contains("XGID=-----bEBB---dD---c-dA-b-A-:0:0:1:41:0:0:0:7:10"),
        "{screen}"
    );
    s.send("\x03");
}

/// gnubg's analysis of whole games (the way `analyse --file` and the editor
/// take) and gnubg asked position by position (the way Sage is asked, and
/// a game whose records part ways with the file's) are two roads to the
/// same verdicts: every judgement, its error and mark, the best move and
/// the played move's rank, each move list and cube decision, agree. And no
/// game of these files (SGF, `.mat`, XG, money with beavers) leaves the
/// first road.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn whole_games_and_single_positions_give_the_same_verdicts() {
    use bgedit_core::codec::match_file;
    use bgedit_engine::match_analysis::{self, Outcome, ReplayedMatch, RunOptions};
    use bgedit_engine::{Analysis, EngineKind};
    use std::sync::atomic::AtomicBool;
    let gnubg = common::gnubg();
    let near = |a: f64, b: f64| (a - b).abs() < 1e-5;
    let near_opt = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => near(a, b),
        (a, b) => a.is_none() && b.is_none(),
    };
    for file in [
        "analysis/m7_noisy.sgf",
        "analysis/m5_noisy.mat",
        "selfplay/money_driven.sgf",
        "selfplay/m9_driven.sgf",
        "xg/charlot_7pt.xg",
    ] {
        let path = format!("{}/tests/fixtures/{file}", env!("CARGO_MANIFEST_DIR"));
        let read = match_file::read_path(std::path::Path::new(&path)).unwrap();
        let replayed = match_analysis::ReplayedMatch::of(&read);
        let decisions = replayed.decisions();
        assert!(replayed.pieces().is_some(), "{file}: a match");
        let opts = RunOptions {
            engine: EngineKind::Gnubg,
            program: gnubg.clone(),
            plies: 0,
            jobs: 2,
            luck: true,
            engines: None,
            min_runs: None,
        };
        let collect = |replayed: &ReplayedMatch| {
            let mut out: Vec<Outcome> = Vec::new();
            let ran = replayed.analyse(&opts, &AtomicBool::new(false), &mut |_, o| out.push(o));
            (out, ran)
        };
        let (games, ran) = collect(&replayed);
        assert!(
            ran.apart.is_empty(),
            "{file}: games judged apart: {:?}",
            ran.apart
        );
        assert!(
            ran.luck.as_ref().is_some_and(|l| l.is_ok()),
            "{file}: {:?}",
            ran.luck
        );
        let (single, _) = collect(&replayed.decision_by_decision());
        assert_eq!(games.len(), decisions.len(), "{file}");
        assert_eq!(games.len(), single.len(), "{file}");
        let mut judged = 0;
        for (g, s) in games.iter().zip(&single) {
            let (g, s) = (g.as_ref().unwrap(), s.as_ref().unwrap());
            assert_eq!(g.len(), s.len(), "{file}: {g:?}");
            for (a, b) in g.iter().zip(s) {
                let at = format!("{file}: game {} move {} ({:?})", a.game, a.number, a.kind());
                assert_eq!(a.played, b.played, "{at}");
                let (ja, jb) = (&a.judgement, &b.judgement);
                assert!(
                    near(ja.error, jb.error) && near(ja.cost, jb.cost),
                    "{at}: {ja:?} against {jb:?}"
                );
                assert_eq!(
                    (ja.kind, ja.cube, ja.cube_error, ja.counted, ja.skill()),
                    (jb.kind, jb.cube, jb.cube_error, jb.counted, jb.skill()),
                    "{at}"
                );
                match (&a.analysis, &b.analysis) {
                    (
                        Analysis::Moves {
                            moves: x, plies: p, ..
                        },
                        Analysis::Moves {
                            moves: y, plies: q, ..
                        },
                    ) => {
                        // gnubg's analysis and its `hint` may order moves of
                        // the same equity differently (a bear-off that
                        // wins either way): the lists are compared by move.
                        assert_eq!((x.len(), p), (y.len(), q), "{at}");
                        let by_move: HashMap<&str, _> =
                            y.iter().map(|n| (n.notation.as_str(), n)).collect();
                        for m in x {
                            let n = by_move
                                .get(m.notation.as_str())
                                .unwrap_or_else(|| panic!("{at}: {} missing", m.notation));
                            assert_eq!((&m.after, m.depth(*p)), (&n.after, n.depth(*q)), "{at}");
                            assert!(
                                near(m.equity, n.equity) && near_opt(m.mwc, n.mwc),
                                "{at}: {m:?} against {n:?}"
                            );
                            assert!(
                                m.probs.iter().zip(&n.probs).all(|(u, v)| near(*u, *v)),
                                "{at}"
                            );
                        }
                        let best = |list: &[bgedit_engine::MoveLine], name: &str| {
                            list.iter().find(|m| m.notation == name).map(|m| m.equity)
                        };
                        assert!(
                            near_opt(best(x, &a.best), best(y, &b.best)),
                            "{at}: best {} against {}",
                            a.best,
                            b.best
                        );
                    }
                    (
                        Analysis::Cube {
                            action: w,
                            no_double: nd,
                            double_take: dt,
                            double_pass: dp,
                            optimal: o,
                            no_double_mwc: ndm,
                            double_take_mwc: dtm,
                            double_pass_mwc: dpm,
                            ..
                        },
                        Analysis::Cube {
                            action: w2,
                            no_double: nd2,
                            double_take: dt2,
                            double_pass: dp2,
                            optimal: o2,
                            no_double_mwc: ndm2,
                            double_take_mwc: dtm2,
                            double_pass_mwc: dpm2,
                            ..
                        },
                    ) => {
                        assert_eq!((w, &a.best), (w2, &b.best), "{at}");
                        assert!(
                            near(*nd, *nd2)
                                && near(*dt, *dt2)
                                && near(*dp, *dp2)
                                && near_opt(*o, *o2),
                            "{at}: {:?} against {:?}",
                            a.analysis,
                            b.analysis
                        );
                        assert!(
                            near_opt(*ndm, *ndm2) && near_opt(*dtm, *dtm2) && near_opt(*dpm, *dpm2),
                            "{at}: {:?} against {:?}",
                            a.analysis,
                            b.analysis
                        );
                    }
                    (
                        Analysis::Take {
                            take: t,
                            pass: p,
                            take_mwc: tm,
                            pass_mwc: pm,
                            proper: r,
                            ..
                        },
                        Analysis::Take {
                            take: t2,
                            pass: p2,
                            take_mwc: tm2,
                            pass_mwc: pm2,
                            proper: r2,
                            ..
                        },
                    ) => {
                        assert_eq!((r, &a.best), (r2, &b.best), "{at}");
                        assert!(
                            near(*t, *t2)
                                && near(*p, *p2)
                                && near_opt(*tm, *tm2)
                                && near_opt(*pm, *pm2),
                            "{at}: {:?} against {:?}",
                            a.analysis,
                            b.analysis
                        );
                    }
                    (x, y) => panic!("{at}: {x:?} against {y:?}"),
                }
                judged += 1;
            }
        }
        assert!(judged > 80, "{file}: {judged} judgements");
    }
}

/// gnubg's records of a game (the fuzz seeds: gnubg's own analysis of
/// m7_noisy, move lists cut to the best move and the move played) judged
/// against the `.mat` of the same match, without gnubg: each decision gets
/// its verdict, and a record that is not the file's sends the game to be
/// judged decision by decision.
#[test]
fn gnubgs_records_of_a_game_are_judged_without_asking_again() {
    use bgedit_core::codec::match_file;
    use bgedit_engine::internals::{GamesLine, judge_recorded_game, read_games_line};
    let root = env!("CARGO_MANIFEST_DIR");
    let read = match_file::read_path(std::path::Path::new(&format!(
        "{root}/tests/fixtures/analysis/m7_noisy.mat"
    )))
    .unwrap();
    let (decisions, _) = match_file::decisions(&read);
    // The bridge's answer for a file of that game alone.
    let answer = |game: usize| -> Value {
        let text =
            std::fs::read_to_string(format!("{root}/fuzz/corpus/game_answer/game{game}")).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let parse = |v: Value| match read_games_line(&v.to_string(), 1, 1) {
        Ok(GamesLine::Games(mut games)) => Ok(games.remove(0)),
        Ok(other) => panic!("not the games: {other:?}"),
        Err(e) => Err(e),
    };
    for game in [1, 2] {
        let parsed = parse(answer(game)).unwrap();
        let outcomes = judge_recorded_game(&decisions, game, &parsed, 0).unwrap();
        assert_eq!(
            outcomes.len(),
            decisions.iter().filter(|d| d.game == game).count()
        );
        assert!(
            outcomes.iter().all(|o| o.is_ok()),
            "game {game}: {outcomes:?}"
        );
    }
    let parsed = parse(answer(1)).unwrap();
    let first = judge_recorded_game(&decisions, 1, &parsed, 0).unwrap();
    let j = &first[0].as_ref().unwrap()[0];
    // The opening 21 played 6/3: gnubg's 0-ply gives -0.00822 for 24/23
    // 13/11 and -0.14661 for it.
    assert_eq!((j.played.as_str(), j.best.as_str()), ("6/3", "24/23 13/11"));
    assert!(
        (j.judgement.error - 0.13839).abs() < 1e-5,
        "{}",
        j.judgement.error
    );
    assert_eq!(j.judgement.skill().mark(), "??");
    let mut wrong = answer(1);
    wrong["games"][0]["records"][3]["dice"] = serde_json::json!([6, 6]);
    let parsed = parse(wrong).unwrap();
    let why = judge_recorded_game(&decisions, 1, &parsed, 0).unwrap_err();
    assert!(why.to_string().contains("move 4"), "{why}");
}

/// `analyse --file FILE` with `gnubg`, stopped if it runs past `limit`
/// seconds; its stderr, exit status (`None` when stopped) and how long it
/// took.
fn analyse_with(gnubg: &std::path::Path, file: &str, limit: f64) -> (String, Option<i32>, f64) {
    use std::io::Read;
    let start = std::time::Instant::now();
    let mut child = common::run::command()
        .args(["analyse", "--plies", "0", "--jobs", "1", "--gnubg"])
        .arg(gnubg)
        .args(["--file", file])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if start.elapsed().as_secs_f64() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut err = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    (err, code, start.elapsed().as_secs_f64())
}

#[test]
fn a_gnubg_that_floods_lines_is_given_up_at_once() {
    // Ready lines without end: never an answer.
    let gnubg = common::fake_gnubg("analyse-flood", "exec yes '{\"ready\": true}'");
    let file = format!(
        "{}/tests/fixtures/analysis/m5_noisy.sgf",
        env!("CARGO_MANIFEST_DIR")
    );
    let (err, code, secs) = analyse_with(&gnubg, &file, 60.0);
    assert_eq!(code, Some(1), "{secs} s: {err}");
    assert!(secs < 20.0, "{secs} s: {err}");
    assert!(err.contains("lines that were not the answer"), "{err}");
    assert!(
        err.contains("decisions not analysed: gnubg is not asked again in this run: it failed 2 times in a row"),
        "{err}"
    );
}

#[test]
fn a_gnubg_that_never_answers_is_given_up_after_one_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let gnubg = common::fake_gnubg("analyse-hang", "exec sleep 600");
    // A match of two decisions.
    let file = dir.path().join("short.sgf");
    std::fs::write(
        &file,
        "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b]RU[]\n;B[31qtst]\n;W[64xrrn])\n",
    )
    .unwrap();
    let (err, code, secs) = analyse_with(&gnubg, file.to_str().unwrap(), 150.0);
    assert_eq!(code, Some(1), "{secs} s: {err}");
    // The game's limit (its two decisions' worth at 0-ply), not another
    // limit for each decision asked on its own after it.
    let one_game = bgedit_engine::time_limit_for(0, 2);
    assert!(secs < one_game.as_secs_f64() + 20.0, "{secs} s: {err}");
    assert!(
        err.contains(&format!("gnubg took longer than {}s", one_game.as_secs())),
        "{err}"
    );
}

/// The limit grows with the work asked: a hung gnubg asked for a match of
/// five decisions at 0-ply is given up within seconds (it was 180 s: 30 s
/// a decision and one more), while a 3-ply request of as many decisions
/// keeps minutes for each.
#[test]
fn a_hung_gnubg_on_a_short_match_at_0_ply_is_given_up_within_seconds() {
    use bgedit_engine::time_limit_for;
    let dir = tempfile::tempdir().unwrap();
    let gnubg = common::fake_gnubg("analyse-hang-5", "exec sleep 600");
    // Five decisions: three moves, a double and its take.
    let file = dir.path().join("five.sgf");
    std::fs::write(
        &file,
        "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RU[]\n\
         ;B[31qtst]\n;W[64xrrn]\n;B[52tsqn]\n;W[double]\n;B[take])\n",
    )
    .unwrap();
    let (err, code, secs) = analyse_with(&gnubg, file.to_str().unwrap(), 60.0);
    assert_eq!(code, Some(1), "{secs} s: {err}");
    assert!(
        secs < 15.0,
        "a hung gnubg held a 0-ply match for {secs} s: {err}"
    );
    assert!(err.contains("gnubg took longer than "), "{err}");
    assert!(time_limit_for(0, 5).as_secs() <= 10);
    assert!(time_limit_for(3, 5).as_secs() >= 5 * 600);
}

/// `bgedit analyse` (a position a line) gives a hung gnubg up too: the
/// first line waits its time limit, the others fail at once with the
/// reason, instead of 30 s each.
#[test]
fn analyse_gives_a_gnubg_that_never_answers_up_after_one_line() {
    let gnubg = common::fake_gnubg("lines-hang", "exec sleep 600");
    let start = std::time::Instant::now();
    let id = "4HPwATDgc/ABMA:cAkAAAAAAAAA";
    let mut child = common::run::command()
        .args(["analyse", "--plies", "0", "--jobs", "1", "--gnubg"])
        .arg(&gnubg)
        .args([id, id, id, id])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() && start.elapsed().as_secs() < 100 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(out.status.code(), Some(1), "{secs} s: {err}");
    assert!(secs < 50.0, "{secs} s: {err}");
    assert!(
        err.contains("argument 1: gnubg took longer than 30s"),
        "{err}"
    );
    assert!(
        err.contains(
            "argument 4: gnubg is not asked again in this run: it did not answer within 30s"
        ),
        "{err}"
    );
}
