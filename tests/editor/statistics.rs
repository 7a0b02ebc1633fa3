//! The match panel's depth and the statistics view: the reducer through
//! the key helper (offline, with verdicts made up), the view at 200×60
//! (insta), the editor's verdicts against `bgedit analyse --file` with the
//! real gnubg, and the real binary in a pseudo-terminal.

use crate::common;

use bgedit_core::domain::match_record::FileAnalysis;
use bgedit_core::domain::match_stats::{CubeError, CubePlay, DecisionKind};
use bgedit_engine::match_analysis::Judged;
use bgedit_tui::action::Action;
use bgedit_tui::effect::Effect;
use bgedit_tui::match_review::open;
use bgedit_tui::match_review::state::{OpenMatch, ReviewAction, Verdict, gnubg_plies};
use bgedit_tui::model::{Mode, Model};
use bgedit_tui::snapshot::Snapshot;
use bgedit_tui::ui::theme::Theme;
use common::keys::{keys, run, run_effects};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `model` with the match `name` opened (as the runtime reports it read).
fn opened(model: Model, name: &str) -> (Model, Vec<Effect>) {
    let mut loaded = open::load(&fixture(name)).unwrap();
    loaded.path = name.rsplit('/').next().unwrap().to_owned();
    run_effects(
        model,
        [Action::Review(ReviewAction::Opened(Ok(Box::new(loaded))))],
    )
}

fn open_match(model: &Model) -> &OpenMatch {
    model.review.open.as_deref().expect("a match is open")
}

/// The passes the match analysis was asked for.
fn passes(effects: &[Effect]) -> Vec<u8> {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::AnalyseMatch { passes, .. } => Some(passes.clone()),
            _ => None,
        })
        .expect("the match is analysed")
}

/// A made-up verdict for decision `i`: errors by index, cube errors of
/// each kind on cube decisions, so every row of the table has numbers.
fn made_up(m: &OpenMatch, i: usize) -> Judged {
    let d = &m.decisions()[i];
    let (kind, cube, wrong) = match (d.dice, d.played.as_str()) {
        (Some(_), _) => (DecisionKind::Checker, None, None),
        (None, "double") => (
            DecisionKind::Cube,
            Some(CubePlay::Double),
            Some(CubeError::WrongDoubleBelowDoublePoint),
        ),
        (None, "take") => (
            DecisionKind::Take,
            Some(CubePlay::Take),
            Some(CubeError::WrongTake),
        ),
        (None, "drop") => (
            DecisionKind::Take,
            Some(CubePlay::Drop),
            Some(CubeError::WrongPass),
        ),
        (None, _) => (
            DecisionKind::Cube,
            Some(CubePlay::NoDouble),
            Some(CubeError::MissedDoubleBelowCashPoint),
        ),
    };
    let mut j = Judged::unjudged(d, kind, d.position.clone(), d.played.clone());
    j.best = "best".into();
    let error = [0.0, 0.012, 0.0, 0.045, 0.0, 0.081, 0.0, 0.2][i % 8];
    j.judgement.error = if wrong.is_some() { 0.07 } else { error };
    j.judgement.cost = j.judgement.error / 4.0;
    j.judgement.cube = cube;
    j.judgement.cube_error = wrong;
    j.judgement.counted = true;
    j
}

/// Every decision of the open match judged at `plies` with [`made_up`].
fn judge_all(model: Model, plies: u8) -> Model {
    let m = open_match(&model);
    let serial = model.review.serial;
    let actions: Vec<Action> = (0..m.decisions().len())
        .map(|i| {
            Action::Review(ReviewAction::Judged(
                serial,
                i,
                plies,
                Ok(vec![made_up(m, i)]),
            ))
        })
        .collect();
    run(model, actions)
}

/// The depth of a file's analysis in gnubg's plies: XG counts one more.
#[test]
fn file_depths_are_counted_in_gnubgs_plies() {
    assert_eq!(gnubg_plies("gnubg 2-ply"), 2);
    assert_eq!(gnubg_plies("gnubg 3-ply (match winning chances)"), 3);
    assert_eq!(gnubg_plies("gnubg"), 0);
    assert_eq!(gnubg_plies("XG 3-ply"), 2);
    assert_eq!(gnubg_plies("XG 3-ply red"), 2);
    assert_eq!(gnubg_plies("XG 1-ply"), 0);
    assert_eq!(gnubg_plies("XG Roller++"), u8::MAX);
    assert_eq!(gnubg_plies("XG rollout"), u8::MAX);
}

/// A match without analysis: 0-ply for the whole match first, then the
/// analysis panel's deeper depth (`>` makes it 3) replacing the quick
/// verdicts one by one; the header and the list say each verdict's depth;
/// a deeper verdict that fails keeps the quick one.
#[test]
fn the_match_is_judged_quick_first_then_at_the_panels_depth() {
    let (model, effects) = opened(Model::default(), "selfplay/m7_driven.mat");
    assert_eq!(
        passes(&effects),
        [0, 2],
        "the panel's default depth is 2-ply"
    );
    let (deeper, _) = keys(Model::default(), ">");
    assert_eq!(deeper.analysis.deep_plies, 3);
    let (_, effects) = opened(deeper, "selfplay/m7_driven.mat");
    assert_eq!(passes(&effects), [0, 3]);

    let model = judge_all(model, 0);
    let header = bgedit_tui::match_review::view::of(open_match(&model)).header;
    assert!(
        header.ends_with("gnubg analysing 72/72 at 0-ply, then 2-ply"),
        "{header}"
    );
    // The 2-ply pass: two verdicts in, one failed.
    let m = open_match(&model);
    let (first, deep) = (made_up(m, 0), made_up(m, 1));
    let failed = bgedit_engine::match_analysis::Failed {
        game: 1,
        number: 3,
        why: "gnubg hung".into(),
    };
    let model = run(
        model,
        [
            Action::Review(ReviewAction::Judged(1, 0, 2, Ok(vec![first]))),
            Action::Review(ReviewAction::Judged(1, 1, 2, Ok(vec![deep]))),
            Action::Review(ReviewAction::Judged(1, 2, 2, Err(failed))),
        ],
    );
    let m = open_match(&model);
    assert_eq!(&m.depths[..4], [Some(2), Some(2), Some(0), Some(0)]);
    assert!(
        matches!(m.verdicts[2], Verdict::Judged(_)),
        "the 0-ply verdict stays"
    );
    let panel = bgedit_tui::match_review::view::of(m);
    assert!(
        panel.header.ends_with("gnubg analysing 3/72 at 2-ply"),
        "{}",
        panel.header
    );
    assert!(
        panel.rows[1].text.contains("-0.012 2-ply"),
        "{:?}",
        panel.rows[1]
    );
    assert!(
        panel.rows[3].text.contains("-0.045 0-ply"),
        "{:?}",
        panel.rows[3]
    );
    let model = run(model, [Action::Review(ReviewAction::AnalysisEnded(1))]);
    let text = &model.status.text;
    assert!(
        text.starts_with("Match analysed at 0-ply 70, 2-ply 2:")
            && text.contains("1 kept at a quicker depth"),
        "{text}"
    );
    let header = bgedit_tui::match_review::view::of(open_match(&model)).header;
    assert!(header.ends_with("· 0-ply 70, 2-ply 2"), "{header}");
}

/// `m5_noisy.sgf` with its analysis relabelled `depth`.
fn noisy_at(depth: &str) -> Box<bgedit_tui::match_review::state::Loaded> {
    let mut loaded = open::load(&fixture("analysis/m5_noisy.sgf")).unwrap();
    std::sync::Arc::make_mut(&mut loaded.replayed).relabel_file_analysis(|a| match a {
        FileAnalysis::Moves { moves } => {
            for m in moves {
                m.depth = depth.to_owned();
            }
        }
        FileAnalysis::Cube { depth: d, .. } => *d = depth.to_owned(),
    });
    Box::new(loaded)
}

/// `E` on a file with its own 2-ply analysis, the panel at 1-ply: gnubg
/// analyses at 2-ply (never shallower) and says so; on an XG roller's
/// analysis, deeper than any depth here, it is refused and nothing runs.
#[test]
fn e_never_replaces_a_files_analysis_with_a_shallower_one() {
    let (at_one, _) = keys(Model::default(), "<");
    assert_eq!(at_one.analysis.deep_plies, 1);
    let open = Action::Review(ReviewAction::Opened(Ok(noisy_at("gnubg 2-ply"))));
    let (model, effects) = run_effects(at_one.clone(), [open]);
    assert!(
        effects
            .iter()
            .all(|e| !matches!(e, Effect::AnalyseMatch { .. }))
    );
    assert_eq!(open_match(&model).file_plies(), Some(2));
    let (model, effects) = keys(model, "E");
    assert_eq!(passes(&effects), [2]);
    assert!(
        model.status.text.contains("at 2-ply")
            && model
                .status
                .text
                .contains("never replaced by a shallower one"),
        "{}",
        model.status.text
    );
    // The panel at 3-ply: deeper than the file's, asked for directly.
    let (at_three, _) = keys(Model::default(), ">");
    let open = Action::Review(ReviewAction::Opened(Ok(noisy_at("gnubg 2-ply"))));
    let (model, _) = run_effects(at_three, [open]);
    let (_, effects) = keys(model, "E");
    assert_eq!(passes(&effects), [3]);
    // An XG roller's analysis is kept.
    let open = Action::Review(ReviewAction::Opened(Ok(noisy_at("XG Roller++"))));
    let (model, _) = run_effects(at_one, [open]);
    let (model, effects) = keys(model, "E");
    assert!(effects.is_empty(), "{effects:?}");
    assert!(
        model.status.text.contains("XG Roller++") && model.status.text.contains("kept"),
        "{}",
        model.status.text
    );
}

/// `s` in the match panel opens the view once there are verdicts; it shows
/// gnubg's table with its overall block, the costliest kinds and the
/// games; `j` scrolls, Esc goes back to the match.
#[test]
fn s_opens_the_statistics_view_and_esc_goes_back() {
    let (model, _) = opened(Model::default(), "selfplay/m7_driven.mat");
    let (model, _) = keys(model, "s");
    assert_eq!(model.mode, Mode::Review);
    assert!(
        model.status.text.contains("no verdict yet"),
        "{}",
        model.status.text
    );
    let model = judge_all(model, 2);
    let (model, _) = keys(model, "s");
    assert_eq!(model.mode, Mode::Statistics, "{}", model.status.text);
    let view = Snapshot::of(&model).statistics.expect("the view is open");
    assert!(
        view.title.contains("gnubg at 2-ply · 72 of 72"),
        "{}",
        view.title
    );
    for row in [
        "Snowie error rate",
        "Error based abs. FIBS rating",
        "Chequerplay errors rating loss",
        "Cube errors rating loss",
        "Overall rating",
        "PR",
    ] {
        assert!(
            view.table.iter().any(|l| l.trim_start().starts_with(row)),
            "{row} in {:#?}",
            view.table
        );
    }
    assert_eq!(view.per_game.len(), open_match(&model).games.len());
    let x = &view.costliest[1];
    assert!(
        x.iter().any(|k| k.name == "wrong doubles below DP"),
        "{x:?}"
    );
    assert!(
        x.iter().any(|k| k.name.starts_with("checker play: ")),
        "{x:?}"
    );
    assert!(x.windows(2).all(|w| w[0].error >= w[1].error), "{x:?}");
    let (model, _) = keys(model, "jj");
    assert_eq!(model.statistics.scroll, 2);
    let (model, _) = keys(model, "<esc>");
    assert_eq!(model.mode, Mode::Review);
    assert!(Snapshot::of(&model).statistics.is_none());
}

/// The statistics view at 200×60, on m7_driven.mat with made-up 2-ply
/// verdicts and luck: the table in two columns (too tall for one), the
/// costliest kinds beside the chart.
#[test]
fn statistics_view_200x60() {
    use bgedit_core::domain::match_stats::Luck;
    use bgedit_engine::luck::MatchLuck;
    use bgedit_tui::match_review::state::MatchLuckOf;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let (model, _) = opened(Model::default(), "selfplay/m7_driven.mat");
    let model = judge_all(model, 2);
    let luck = |total: f64, rolls, actual: f64| Luck {
        total,
        cost: total / 4.0,
        rolls,
        actual,
        adjusted: actual - total / 4.0,
    };
    let luck = MatchLuck {
        players: [
            luck(0.5, [1, 2, 20, 5, 4], -0.5),
            luck(-0.25, [3, 4, 22, 2, 1], 0.5),
        ],
        rolls: Vec::new(),
    };
    let model = run(
        model,
        [
            Action::Review(ReviewAction::Luck(1, MatchLuckOf(Box::new(luck)))),
            Action::Review(ReviewAction::AnalysisEnded(1)),
        ],
    );
    let (model, _) = keys(model, "s");
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
    let snapshot = Snapshot::of(&model);
    terminal
        .draw(|f| bgedit_tui::view::draw(f, &snapshot, &Theme::plain()))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let text = (0..60)
        .map(|y| {
            let line: String = (0..200)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect();
            line.trim_end().to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("statistics_200x60", text);
}

/// The editor's background analysis at 2-ply (its 0-ply pass first) gives
/// the numbers `bgedit analyse --file F --plies 2` gives, decision by
/// decision and in the per-player summary with the luck; the statistics
/// view's table is the CLI's text table. The real gnubg, on a committed
/// match.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_editors_2_ply_verdicts_equal_the_clis() {
    use bgedit_tui::io::engine_link::{MatchRun, analyse_match_passes};
    use std::sync::Mutex;
    use std::sync::atomic::AtomicU64;
    common::gnubg();
    let name = "selfplay/m7_driven.mat";
    let (model, effects) = opened(Model::default(), name);
    let Some(Effect::AnalyseMatch {
        serial,
        replayed,
        engine,
        passes,
    }) = effects
        .into_iter()
        .find(|e| matches!(e, Effect::AnalyseMatch { .. }))
    else {
        panic!("the match is analysed")
    };
    assert_eq!(passes, [0, 2]);
    let sent = Mutex::new(Vec::new());
    let run_opts = MatchRun {
        serial,
        engine,
        program: Ok(common::gnubg()),
        jobs: 1,
    };
    let wanted = AtomicU64::new(serial);
    analyse_match_passes(&run_opts, &replayed, &passes, &wanted, &|a| {
        sent.lock().unwrap().push(a);
        true
    });
    let model = run(model, sent.into_inner().unwrap());
    let m = open_match(&model);
    assert!(!m.analysing);
    assert!(m.depths.iter().all(|d| *d == Some(2)), "{:?}", m.depths);
    let judged: Vec<Judged> = m
        .verdicts
        .iter()
        .flat_map(|v| match v {
            Verdict::Judged(list) => list.clone(),
            other => panic!("{other:?}"),
        })
        .collect();

    let out = common::run::bgedit(
        &[
            "analyse",
            "--file",
            &fixture(name),
            "--plies",
            "2",
            "--format",
            "json",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (summary, cli) = lines.split_last().unwrap();
    assert_eq!(cli.len(), judged.len());
    for (c, j) in cli.iter().zip(&judged) {
        let mut ours = bgedit::cli::analyse::match_file::json_line(j);
        ours["engine"] = c["engine"].clone();
        ours["level"] = c["level"].clone();
        assert_eq!(&ours, c);
    }
    // The summary, the luck of the dice included (rated with the last pass).
    let luck = m.luck.as_ref().map(|l| (*l.0).clone());
    assert!(luck.is_some(), "gnubg rated the luck");
    let report = bgedit_engine::match_analysis::Report::of(m.decisions(), &judged, luck);
    assert_eq!(report.json(), summary["summary"]);
    // The view's table is the CLI's, line for line.
    let text = common::run::bgedit(&["analyse", "--file", &fixture(name), "--plies", "2"], "");
    assert!(
        text.status.success(),
        "{}",
        String::from_utf8_lossy(&text.stderr)
    );
    let text = String::from_utf8(text.stdout).unwrap();
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Player "))
        .collect();
    let (model, _) = keys(model, "s");
    let view = Snapshot::of(&model).statistics.unwrap();
    assert!(table.len() > 30, "{text}");
    assert_eq!(view.table, table);
}

/// The real binary: a committed match opened from the command line is
/// analysed in the background (0-ply, then 2-ply, as the header says) and
/// `s` opens the statistics view with gnubg's table.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_binary_analyses_a_match_and_shows_its_statistics() {
    use common::pty::{Options, Session};
    use std::time::Duration;
    common::gnubg();
    let pty = Options {
        timeout: Duration::from_secs(240),
        ..Options::DEFAULT
    };
    let dir = common::pty::state_dir("bgedit-statistics", "pty");
    let file = fixture("selfplay/m3_selfplay.mat");
    let mut s = Session::start(&pty, &[&file], &dir, 200, 60);
    // The 0-ply pass of a 3-point match may be over before a frame shows
    // it (the reducer's test follows it); the 2-ply pass shows.
    s.wait_for("at 2-ply");
    s.wait_for("Match analysed at 2-ply");
    s.keys("s");
    s.wait_for("Statistics · m3_selfplay.mat · gnubg at 2-ply");
    // Each row waited for, not read off one look at the screen: a look
    // can fall between the writes of one frame (the chart's title drawn,
    // the rows after it not yet), the more so on a busy machine.
    for row in [
        "Snowie error rate",
        "Overall rating",
        "PR per game",
        "costliest",
    ] {
        s.wait_for(row);
    }
    s.send("\x1b");
    s.wait_gone("PR per game");
}

/// The real binary: a whole match pasted (bracketed paste, as a terminal
/// sends it) opens in the match panel and is analysed; `W` then saves it
/// from the text pasted (there is no file to read it again from), and the
/// saved file reads back as the same match.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_binary_saves_a_pasted_match() {
    use bgedit_core::codec::match_file;
    use common::pty::{Options, Session};
    use std::time::Duration;
    common::gnubg();
    let pty = Options {
        timeout: Duration::from_secs(240),
        ..Options::DEFAULT
    };
    let dir = common::pty::state_dir("bgedit-pasted-match", "pty");
    let out = dir.join("saved.sgf");
    let _ = std::fs::remove_file(&out);
    let text = std::fs::read_to_string(fixture("selfplay/m3_selfplay.mat")).unwrap();
    let mut s = Session::start(&pty, &[], &dir, 200, 60);
    s.wait_for("XGID=");
    s.send(&format!("\x1b[200~{}\x1b[201~", text.replace('\n', "\r")));
    s.wait_for("Match analysed at 2-ply");
    s.keys("v");
    // The offer replaced (^U) by the file wanted.
    s.prompt("W", &format!("\x15{}", out.display()));
    s.wait_for("Saved the match");
    let saved = match_file::read_path(&out).unwrap();
    let pasted = match_file::read_bytes(text.as_bytes()).unwrap();
    let (got, want) = (
        match_file::decisions(&saved).0,
        match_file::decisions(&pasted).0,
    );
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!((g.game, g.number, &g.played), (w.game, w.number, &w.played));
    }
}

/// A match judged at 2-ply: `E` says so and asks nothing; with the panel
/// at 3-ply (`>`), `E` asks 3-ply directly, the 2-ply verdicts shown until
/// each 3-ply one comes.
#[test]
fn e_after_a_deeper_depth_is_set_asks_only_that_depth() {
    let (model, _) = opened(Model::default(), "selfplay/m7_driven.mat");
    let model = judge_all(model, 2);
    let model = run(model, [Action::Review(ReviewAction::AnalysisEnded(1))]);
    let (model, effects) = keys(model, "E");
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(
        model.status.text,
        "gnubg has analysed the whole match at 2-ply already"
    );
    let (model, effects) = keys(model, ">E");
    assert_eq!(passes(&effects), [3]);
    let m = open_match(&model);
    assert!(m.depths.iter().all(|d| *d == Some(2)));
    assert!(m.verdicts.iter().all(|v| matches!(v, Verdict::Judged(_))));
    let header = bgedit_tui::match_review::view::of(m).header;
    assert!(
        header.ends_with("gnubg analysing 0/72 at 3-ply"),
        "{header}"
    );
}

/// A file that carries its own analysis (XG's, the HSBT Paris match):
/// `s` opens the statistics view from it at once, and its chequerplay
/// error rate per player is the one `stats --player` gives from the same
/// analysis (error per unforced move).
#[test]
fn s_reads_a_files_own_analysis() {
    let (model, _) = opened(Model::default(), "xg/hsbt_paris_7pt.xg");
    let (model, _) = keys(model, "s");
    assert_eq!(model.mode, Mode::Statistics, "{}", model.status.text);
    let view = Snapshot::of(&model).statistics.expect("the view is open");
    assert!(
        view.title.contains("the file's own analysis (XG"),
        "{}",
        view.title
    );
    let at = view
        .table
        .iter()
        .position(|l| l.trim() == "Checker play")
        .unwrap_or_else(|| panic!("the chequerplay block: {:#?}", view.table));
    let rates: Vec<f64> = view.table[at..]
        .iter()
        .find(|l| l.trim_start().starts_with("Error rate mEMG"))
        .expect("its error rate")
        .split_whitespace()
        .filter_map(|w| w.parse::<f64>().ok())
        .collect();
    // `stats --player` on the same file in a library, each player.
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let file = fixture("xg/hsbt_paris_7pt.xg");
    let (code, _, err) = common::run::library(&lib, &["import", &file]);
    assert_eq!(code, Some(0), "{err}");
    for (i, name) in view.names.iter().enumerate() {
        let out = common::run::bgedit(
            &[
                "stats",
                "--library",
                lib.to_str().unwrap(),
                "--player",
                name,
                "--format",
                "json",
            ],
            "",
        );
        let text = common::run::text(&out.stdout);
        let row: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let cli = row["checker_error_rate_memg"].as_f64().unwrap();
        // The table prints the rate negative with one decimal.
        assert!(
            (rates[i].abs() - cli).abs() < 0.051,
            "{name}: {} {cli} in {:?}",
            rates[i],
            rates
        );
    }
}

/// `f` in the match panel keeps the board from one side: the points are
/// counted for O (then X) whoever is on roll, where gnubg's text counts
/// them for the player on roll and turns them at every move.
#[test]
fn f_keeps_the_board_from_one_side() {
    let (model, _) = opened(Model::default(), "selfplay/m7_driven.mat");
    let top = |m: &Model| {
        Snapshot::of(m).board_lines[0]
            .chars()
            .take(10)
            .collect::<String>()
    };
    // gnubg's way: the labels follow the player on roll.
    let mut seen = std::collections::BTreeSet::new();
    let mut m = model;
    for _ in 0..4 {
        seen.insert(top(&m));
        m = keys(m, "vj").0;
    }
    assert_eq!(seen.len(), 2, "{seen:?}");
    for (key, want) in [("f", " +12-11-10"), ("f", " +13-14-15")] {
        m = keys(m, &format!("v{key}")).0;
        for _ in 0..4 {
            assert_eq!(top(&m), want, "{}", m.status.text);
            m = keys(m, "vj").0;
        }
    }
    m = keys(m, "vf").0;
    assert!(
        m.status.text.contains("as gnubg prints it"),
        "{}",
        m.status.text
    );
}
