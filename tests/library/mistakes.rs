//! The library's mistakes after `library analyse` (this machine's gnubg
//! at 0-ply, on a committed match imported without analysis): the
//! entries' errors are the deepest verdict's, the decisions kept out at
//! import come back as entries, the panel sorts and filters them and the
//! quiz draws and grades them by that verdict; a player's statistics in
//! the editor are `stats --player`'s numbers, and the real binary shows
//! them.

use super::library_panel::Harness;
use crate::common;

use bgedit_core::domain::match_stats::DecisionKind as JudgedKind;
use bgedit_engine::match_analysis::QuizAnswer;
use bgedit_library::filter;
use bgedit_library::match_import::StoredJudgement;
use bgedit_library::store::{Library, Order};
use bgedit_tui::action::Action;
use bgedit_tui::library::state::{
    LibAction, LibMode, LineAction, ListAction, QuizAction, Request, WorkerAnswer,
};
use bgedit_tui::library::worker::Worker;
use bgedit_tui::model::Mode;
use bgedit_tui::snapshot::Snapshot;
use bgedit_tui::statistics::state::StatisticsAction;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

const MATCH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/selfplay/m5_driven.mat"
);

fn bgedit(lib: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = common::run::command()
        .arg("library")
        .arg("--library")
        .arg(lib)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        common::run::text(&out.stdout),
        common::run::text(&out.stderr),
    )
}

/// A library with the 3-point match imported keeping no decision as a
/// position (`--errors 0.06` of a file without analysis), then analysed by
/// `library analyse --plies 0`.
fn analysed(dir: &Path) -> PathBuf {
    let lib = dir.join("lib.sqlite");
    let (code, out, err) = bgedit(&lib, &["import", "--errors", "0.06", MATCH]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        Library::open(&lib)
            .unwrap()
            .count(&filter::parse("").unwrap())
            .unwrap(),
        0,
        "{out}"
    );
    let (code, out, err) = bgedit(&lib, &["analyse", "--plies", "0"]);
    assert_eq!(code, Some(0), "{out}{err}");
    lib
}

/// Each decision's error of its own kind by bgedit's 0-ply verdict, read
/// from the stored judgements: (seq, whether the cube decision before a
/// roll) → (player name, kind, error). A checker play's verdict also
/// judges the cube before its roll: that decision is its own (kind `cube`).
fn verdict_errors(lib: &Path) -> BTreeMap<(usize, bool), (String, String, f64)> {
    let conn = rusqlite::Connection::open(lib).unwrap();
    let mut st = conn
        .prepare(
            "SELECT d.seq, d.name, d.kind, a.analysis FROM decisions d JOIN analyses a ON \
             a.decision_id = d.id WHERE NOT a.from_file AND a.plies = 0",
        )
        .unwrap();
    let rows = st
        .query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)? as usize,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
            ))
        })
        .unwrap();
    let mut out = BTreeMap::new();
    for row in rows {
        let (seq, name, kind, json) = row.unwrap();
        let list: Vec<StoredJudgement> = serde_json::from_str(&json).unwrap();
        let sum = |want: JudgedKind| {
            let errors: Vec<f64> = list
                .iter()
                .filter(|j| j.judgement.kind == want)
                .map(|j| j.judgement.error)
                .collect();
            (!errors.is_empty()).then(|| errors.iter().sum::<f64>())
        };
        let (own, before) = match kind.as_str() {
            "checker" => (JudgedKind::Checker, Some(JudgedKind::Cube)),
            "cube" => (JudgedKind::Cube, None),
            "take" => (JudgedKind::Take, None),
            _ => continue,
        };
        if let Some(e) = sum(own) {
            out.insert((seq, false), (name.clone(), kind.clone(), e));
        }
        if let Some(e) = before.and_then(sum) {
            out.insert((seq, true), (name, "cube".to_owned(), e));
        }
    }
    out
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn analysed_mistakes_are_listed_sorted_filtered_and_quizzed_by_their_verdict() {
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let lib = analysed(dir.path());
    let verdicts = verdict_errors(&lib);
    let store = Library::open(&lib).unwrap();
    // Every decision at gnubg's doubtful mark or worse is an entry now,
    // its error the verdict's, by gnubg at 0-ply.
    let doubtful: Vec<f64> = verdicts
        .values()
        .map(|v| v.2)
        .filter(|e| *e >= 0.03)
        .collect();
    assert!(doubtful.len() >= 2, "{verdicts:?}");
    let all = store
        .page_in(
            &filter::parse("error>=0.03").unwrap(),
            Order::Error,
            0,
            1000,
        )
        .unwrap();
    assert_eq!(all.len(), doubtful.len());
    let mut want = doubtful.clone();
    want.sort_by(|a, b| b.total_cmp(a));
    let got: Vec<f64> = all.iter().map(|s| s.error.unwrap()).collect();
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-9, "{got:?} {want:?}");
    }
    for s in &all {
        assert_eq!(s.error_by.as_ref().unwrap().depth, "gnubg 0-ply");
    }
    // A player's cube mistakes of 0.06 or worse, as the verdicts say (the
    // driven match's mistakes are gnubg's cube actions; at 0-ply its
    // checker plays are its own best).
    let gnubg_cube = verdicts
        .values()
        .filter(|(n, k, e)| n == "gnubg" && k == "cube" && *e >= 0.06)
        .count();
    let query = "error>=0.06 player:gnubg kind:cube";
    let mine = store
        .page_in(&filter::parse(query).unwrap(), Order::Error, 0, 1000)
        .unwrap();
    assert_eq!(mine.len(), gnubg_cube);
    assert!(gnubg_cube > 0);
    // `match:` finds the match by a player, by its file; not by a stranger.
    for (text, n) in [
        ("match:root", all.len()),
        ("match:m5_driven", all.len()),
        ("match:nobody", 0),
    ] {
        let q = filter::parse(&format!("{text} error>=0.03")).unwrap();
        assert_eq!(store.count(&q).unwrap(), n as u64, "{text}");
    }
    drop(store);

    // The panel: `o` puts the worst first and says so.
    let mut h = Harness::on(&lib);
    h.lib(ListAction::Open);
    let m = h.lib(ListAction::CycleOrder);
    let header = Snapshot::of(m).library.unwrap().header;
    assert!(header.contains("worst mistake first"), "{header}");
    assert!((m.library.rows[0].error.unwrap() - want[0]).abs() < 1e-9);
    let details = Snapshot::of(m).library.unwrap().detail.join("\n");
    assert!(details.contains("by gnubg 0-ply"), "{details}");

    // The quiz draws those mistakes and grades the played move by the
    // verdict's engine and depth: the error it finds is the listed one.
    h.lib(QuizAction::Start(query.to_owned()));
    let queue = h.model.library.review.as_ref().unwrap().queue.clone();
    assert_eq!(queue.len(), gnubg_cube);
    let first = &queue[0];
    let note = Library::open(&lib).unwrap().get(first.id).unwrap().note;
    assert!(note.starts_with("played: double"), "{note}");
    h.lib(QuizAction::Answer(QuizAnswer::Double));
    let review = h.model.library.review.as_ref().unwrap();
    let graded = review.grade.as_ref().unwrap().as_ref().unwrap();
    assert!(
        (graded.judgement.error - first.error.unwrap()).abs() < 1e-6,
        "{} {:?}",
        graded.judgement.error,
        first.error
    );
}

/// The figures of the editor's statistics view (through the library
/// worker) are `stats --player --format json`'s, match by match and in
/// the summary.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_editors_player_figures_are_stats_players() {
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let lib = analysed(dir.path());
    let out = common::run::command()
        .args([
            "stats",
            "--player",
            "gnubg",
            "--format",
            "json",
            "--library",
        ])
        .arg(&lib)
        .output()
        .unwrap();
    let lines: Vec<Value> = common::run::text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut worker = Worker::start(Some(lib.clone()));
    worker.send(Request::PlayerStats("gnubg".to_owned()));
    let answer = worker
        .answers
        .recv_timeout(Duration::from_secs(10))
        .unwrap();
    let Action::Statistics(StatisticsAction::Player(Ok(stats))) = answer else {
        panic!("{answer:?}");
    };
    let r6 = |v: Option<f64>| {
        v.map_or(Value::Null, |v| {
            serde_json::json!(bgedit_engine::match_analysis::report::round6(v))
        })
    };
    assert_eq!(stats.rows.len() + 1, lines.len());
    for (row, line) in stats.rows.iter().zip(&lines) {
        assert_eq!(line["match"], row.m.id);
        assert_eq!(line["pr"], r6(row.pr));
        assert_eq!(line["error_rate_memg"], r6(row.error));
        assert_eq!(line["checker_error_rate_memg"], r6(row.checker));
        assert_eq!(line["cube_error_rate_memg"], r6(row.cube));
        assert_eq!(line["luck_rate_memg"], r6(row.luck));
        assert!(row.pr.is_some());
    }
    let sum = &lines.last().unwrap()["summary"];
    let t = &stats.trend;
    assert_eq!(sum["pr"], r6(t.pr));
    assert_eq!(sum["error_rate_memg"], r6(t.error));
    assert_eq!(sum["pr_slope_per_match"], r6(t.pr_slope));
    assert_eq!(sum["analysed"], t.analysed);
    // The view opens on them, and Esc goes back to the library.
    let mut h = Harness::on(&lib);
    h.lib(ListAction::Open);
    h.lib(ListAction::AskPlayer);
    assert_eq!(
        h.model.mode,
        Mode::Library(LibMode::Ask(bgedit_tui::library::state::Ask::Player))
    );
    h.lib(LineAction::Clear);
    h.type_text("gnubg");
    let m = h.lib(LineAction::Submit);
    assert_eq!(m.mode, Mode::Statistics);
    let view = Snapshot::of(m).player_statistics.unwrap();
    assert_eq!(view.table.len(), 2);
    let m = h.act(Action::Statistics(
        bgedit_tui::statistics::state::StatisticsAction::Close,
    ));
    assert_eq!(m.mode, Mode::Library(LibMode::List));
}

/// The real binary: the library panel's `P` asks the player and opens the
/// statistics view with the chart.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_binary_shows_a_players_pr_over_time() {
    use common::pty::{Options, Session};
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let lib = analysed(dir.path());
    let state = common::pty::state_dir("bgedit-player-stats", "pty");
    let mut s = Session::start(
        &Options::DEFAULT,
        &["--new", "--library", lib.to_str().unwrap()],
        &state,
        200,
        60,
    );
    s.wait_for("? for help");
    s.keys("L");
    s.wait_for("Library · ");
    // The error column, sorted worst first by `o`: the errors on screen
    // fall from the top row down, and the top one is the library's worst.
    s.keys("o");
    s.wait_for("worst mistake first");
    // The sorted page comes from the library's thread a moment after the
    // header: wait (at most 20 s) for rows in the new order.
    let sorted = |e: &[f64]| e.len() >= 2 && e.windows(2).all(|w| w[0] >= w[1]);
    let asked = std::time::Instant::now();
    while !sorted(&screen_errors(&s.contents())) && asked.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let errors = screen_errors(&s.contents());
    assert!(errors.len() >= 2, "{errors:?}\n{}", s.contents());
    assert!(
        errors.windows(2).all(|w| w[0] >= w[1]),
        "{errors:?}\n{}",
        s.contents()
    );
    let worst = Library::open(&lib)
        .unwrap()
        .search_page(&filter::parse("").unwrap(), Order::Error, 0, 1, 0)
        .unwrap()
        .2[0]
        .error
        .unwrap();
    assert!((errors[0] - worst.abs()).abs() < 5e-4, "{errors:?} {worst}");
    s.keys("P");
    // The highlighted decision's player is offered.
    s.wait_for("of which player");
    s.keys("\r");
    s.wait_for("PR over time");
    let screen = s.contents();
    for want in [
        "Statistics of gnubg across the library's matches",
        "checker PR",
        "Costliest across the matches",
    ] {
        assert!(screen.contains(want), "{want}:\n{screen}");
    }
    s.send("\x1b");
    s.wait_gone("PR over time");
}

/// The errors the library panel shows (`-0.133`), as magnitudes, in the
/// order of its rows on the screen.
fn screen_errors(screen: &str) -> Vec<f64> {
    screen
        .lines()
        .filter_map(|l| {
            // A list row starts with its entry number (`>` marks the
            // highlighted one); the details beside the list do not.
            let row = l.split('│').nth(1)?.trim_start_matches([' ', '>']);
            if !row.starts_with(|c: char| c.is_ascii_digit()) {
                return None;
            }
            row.split_whitespace()
                .find(|w| w.len() == 6 && (w.starts_with("-0.") || w.starts_with("-1.")))
                .and_then(|w| w.parse::<f64>().ok())
                .map(f64::abs)
        })
        .collect()
}

/// The page requests the panel sends (the last one).
fn last_page(effects: &[bgedit_tui::effect::Effect]) -> (filter::Query, Order) {
    effects
        .iter()
        .rev()
        .find_map(|e| match e {
            bgedit_tui::effect::Effect::Library(Request::Page { query, order, .. }) => {
                Some((query.clone(), *order))
            }
            _ => None,
        })
        .expect("a page is asked for")
}

/// Keys, offline: `o` cycles the order (asked of the store, said in the
/// header), the filter's words reach the store as typed, `P` offers the
/// highlighted decision's player and asks the worker.
#[test]
fn o_sorts_the_filter_narrows_and_p_asks_for_a_player() {
    use bgedit_tui::model::Model;
    use common::keys::keys;
    let (m, effects) = keys(Model::default(), "Lo");
    assert_eq!(last_page(&effects).1, Order::Error);
    let header = Snapshot::of(&m).library.unwrap().header;
    assert!(header.contains("worst mistake first"), "{header}");
    let (m, effects) = keys(m, "o");
    assert_eq!(last_page(&effects).1, Order::Newest);
    let (m, _) = keys(m, "o");
    let query = "error>=0.06 player:gnubg kind:checker match:m5";
    let (m, effects) = keys(m, &format!("/{query}<enter>"));
    assert_eq!(
        last_page(&effects),
        (filter::parse(query).unwrap(), Order::Error)
    );
    // A row that is a decision of gnubg's.
    let mut m = m;
    let mut row = summary(None);
    row.player = Some("gnubg".to_owned());
    m.library.rows = vec![row];
    m.library.total = 1;
    let (m, _) = keys(m, "P");
    assert_eq!(m.library.input.text, "gnubg");
    let (_, effects) = keys(m, "<enter>");
    assert!(
        effects.contains(&bgedit_tui::effect::Effect::Library(Request::PlayerStats(
            "gnubg".to_owned()
        ))),
        "{effects:?}"
    );
}

fn summary(by: Option<(&str, i64)>) -> bgedit_library::Summary {
    let mut position = bgedit_core::domain::Position::default();
    position.state.dice = Some([3, 1]);
    bgedit_library::Summary {
        id: 7,
        title: String::new(),
        tags: String::new(),
        derived: bgedit_library::derive::derive(&position),
        position,
        score: [0, 0],
        error: Some(0.2),
        error_by: by.map(|(engine, plies)| bgedit_library::store::ErrorBy {
            engine: engine.to_owned(),
            plies,
            depth: format!("{engine} {plies}-ply"),
        }),
        player: None,
        note_line: String::new(),
        collections: String::new(),
    }
}

/// A mistake is graded by the engine and depth of the verdict its error
/// is by (gnubg at 2-ply here, the quiz at 0-ply); one without a verdict
/// bgedit can ask (XG's) by the quiz's own.
#[test]
fn the_quiz_grades_a_mistake_at_its_verdicts_depth() {
    use bgedit_engine::EngineKind;
    use bgedit_tui::effect::Effect;
    use bgedit_tui::model::Model;
    use bgedit_tui::reducer::update;
    for (by, plies) in [(Some(("gnubg", 2)), 2), (Some(("XG", 3)), 0), (None, 0)] {
        let due = LibAction::Worker(WorkerAnswer::DueList(Ok((
            "drill".to_owned(),
            vec![summary(by)],
        ))));
        let (m, _) = update(Model::default(), Action::Library(due));
        let answer = LibAction::Quiz(QuizAction::Answer(QuizAnswer::Move("8/5 6/5".to_owned())));
        let (_, effects) = update(m, Action::Library(answer));
        let asked = effects.iter().find_map(|e| match e {
            Effect::GradeQuiz { plies, engine, .. } => Some((*plies, *engine)),
            _ => None,
        });
        assert_eq!(asked, Some((plies, EngineKind::Gnubg)), "{by:?}");
    }
}

/// The player's statistics view at 200×60 (made-up matches, offline):
/// the table, the trend, the costliest kinds and the chart.
#[test]
fn player_statistics_200x60() {
    use bgedit_core::domain::cost_kinds::Kind;
    use bgedit_library::player_stats::{MatchRow, PlayerStats, Trend};
    use bgedit_library::store::StoredMatch;
    use bgedit_tui::model::Model;
    use bgedit_tui::reducer::update;
    use bgedit_tui::statistics::state::StatisticsAction;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let row = |i: i64, pr: f64, cube: f64| MatchRow {
        m: StoredMatch {
            id: i,
            hash: String::new(),
            identity: String::new(),
            players: ["alice".into(), format!("opponent {i}")],
            event: None,
            date: Some(format!("2024-0{i}-01")),
            length: 7,
            result: "7-3".into(),
            format: "Jellyfish .mat".into(),
            path: format!("m{i}.mat"),
            date_from: Some(bgedit_library::dates::DateFrom::Content),
            decisions: 100,
        },
        date: Some(format!("2024-0{i}-01")),
        opponent: format!("opponent {i}"),
        analysis: Some(("gnubg".into(), 2)),
        pr: Some(pr),
        error: Some(pr * 2.0),
        checker: Some(pr * 1.8),
        cube: Some(cube * 2.0),
        luck: Some(1.5 - i as f64),
        checker_pr: Some(pr * 0.9),
        cube_pr: Some(cube),
        from_file: false,
        partial: None,
        side: bgedit_core::domain::Player::O,
        checker_n: 40,
        cube_n: 5,
        moves_n: 50,
        score: Some([7, 3]),
        won: Some(true),
    };
    let rows = vec![
        row(1, 9.0, 12.0),
        row(2, 7.5, 4.0),
        row(3, 6.0, 8.0),
        row(4, 4.5, 2.0),
    ];
    let stats = PlayerStats {
        player: "alice".into(),
        names: vec!["alice".into()],
        candidates: Vec::new(),
        undated_skipped: 0,
        trend: Trend {
            matches: 4,
            analysed: 4,
            undated: 0,
            decisions: 180,
            pr: Some(6.75),
            pr_first_half: Some(8.25),
            pr_last_half: Some(5.25),
            pr_slope: Some(-1.5),
            error: Some(13.5),
            checker: Some(12.2),
            cube: Some(13.0),
            luck: Some(-1.0),
        },
        rows,
        costliest: vec![
            Kind {
                name: "checker play: middle game",
                count: 12,
                error: 0.84,
            },
            Kind {
                name: "wrong takes",
                count: 2,
                error: 0.31,
            },
        ],
    };
    let (m, _) = update(
        Model::default(),
        Action::Statistics(StatisticsAction::Player(Ok(Box::new(stats)))),
    );
    assert_eq!(m.mode, Mode::Statistics);
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
    let snapshot = Snapshot::of(&m);
    terminal
        .draw(|f| bgedit_tui::view::draw(f, &snapshot, &bgedit_tui::ui::theme::Theme::plain()))
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
    insta::assert_snapshot!("player_statistics_200x60", text);
}
