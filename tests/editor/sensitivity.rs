//! The live views (`~`, issue 33): the reducer (key → effect → answer →
//! what the screen shows), a screen kept as a snapshot, and the views'
//! best moves and windows set beside the in-process engine's and `bgedit
//! analyse --engine sage`'s own answers at each score and cube, asked in
//! this run (ignored without Sage, failing under BGEDIT_REQUIRE_SAGE=1).

use crate::common;
use bgedit_core::codec::{self, IdFormat};
use bgedit_core::domain::Position;
use bgedit_core::domain::sensitivity::rows;
use bgedit_engine::EngineKind;
use bgedit_engine::matrix::Verdict;
use bgedit_engine::sensitivity::{self, MoveCell, MoveRow, MoveTable, Sensitivity};
use bgedit_tui::action::Action;
use bgedit_tui::effect::Effect;
use bgedit_tui::model::Model;
use bgedit_tui::reducer::update;
use bgedit_tui::sensitivity::state::{Live, SensitivityAction};
use bgedit_tui::snapshot::Snapshot;
use common::keys::{keys, run};

/// A match position with dice: X on roll, 5-away/7-away, O owns a 2-cube,
/// 52 to play.
const MOVES_ID: &str = "4HPwATDgc/ABMA:QYkqASAAIAAA";
/// A cube decision: X on roll, owning a 2-cube, 4-away/5-away in a
/// 7-point match.
const CUBE_ID: &str = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:2:0:7:10";

fn start(id: &str) -> Model {
    run(Model::default(), [Action::Import(id.into())])
}

fn asked(effects: &[Effect]) -> Option<(u64, Position)> {
    effects.iter().find_map(|e| match e {
        Effect::Sensitivity { serial, position } => Some((*serial, (**position).clone())),
        _ => None,
    })
}

/// A table as an engine might answer: the same move everywhere but GG.
fn table(position: &Position) -> Sensitivity {
    let rs = rows(position);
    let anchor = bgedit_core::domain::sensitivity::anchor(position, &rs);
    let rows = rs
        .iter()
        .enumerate()
        .map(|(i, r)| MoveRow {
            score: r.score,
            words: r.words(),
            cells: std::array::from_fn(|j| match &r.cells[j] {
                Err(why) => MoveCell::NotHere(*why),
                Ok(_) => MoveCell::Best {
                    notation: if i == 3 { "13/11 13/8" } else { "24/22 13/8" }.to_owned(),
                    equity: 0.125 - 0.25 * i as f64 + 0.0625 * j as f64,
                },
            }),
        })
        .collect();
    Sensitivity::Moves(MoveTable { rows, anchor })
}

fn computed(serial: u64, tables: Sensitivity) -> Action {
    Action::Sensitivity(SensitivityAction::Computed {
        serial,
        tables: Box::new(tables),
        micros: 1234,
    })
}

#[test]
fn the_key_loads_the_engine_asks_on_every_new_position_and_shows_the_answer() {
    let (m, effects) = keys(start(MOVES_ID), "~");
    assert!(effects.contains(&Effect::LoadLiveEngine), "{effects:?}");
    assert_eq!(m.sensitivity.live, Live::Loading);
    assert!(asked(&effects).is_none());
    let shown = Snapshot::of(&m).sensitivity.expect("on");
    assert!(shown.header.contains("loading"), "{}", shown.header);

    let ready = Live::Ready("Sage 1-ply in-process".into());
    let (m, effects) = update(
        m,
        Action::Sensitivity(SensitivityAction::EngineReady(ready)),
    );
    let (serial, position) = asked(&effects).expect("asked once loaded");
    assert_eq!(position, m.position);
    let tables = table(&m.position);
    let (m, effects) = update(m, computed(serial, tables.clone()));
    assert!(effects.is_empty());
    let view = Snapshot::of(&m).sensitivity.expect("on");
    assert_eq!(view.lines, sensitivity::lines(&tables, &m.position));
    assert!(
        view.header.contains("Sage 1-ply in-process · 1.2 ms"),
        "{}",
        view.header
    );
    // GG's move differs from the board's own: marked.
    assert!(view.lines[4].contains("*13/11 13/8"), "{:?}", view.lines);
    assert!(view.lines[5].contains("=24/22 13/8"), "{:?}", view.lines);

    // A key that changes the board asks again; the old answer is gone.
    let (m, effects) = keys(m, "t");
    let (again, position) = asked(&effects).expect("asked on the new position");
    assert_eq!((again, &position), (serial + 1, &m.position));
    assert!(m.sensitivity.shown.is_none());
    // A late answer to the old position is dropped.
    let (m, _) = update(m, computed(serial, tables));
    assert!(m.sensitivity.shown.is_none());

    // At 80×24 the views take the analysis panel's place, which `~` turns
    // on (a small screen shows it only while its toggle is on).
    let mut small = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    let theme = bgedit_tui::ui::theme::Theme::plain();
    let mut shown = m.clone();
    shown.sensitivity.shown = Some(bgedit_tui::sensitivity::state::Shown {
        serial: 0,
        tables: table(&m.position),
        micros: 900,
    });
    let snapshot = Snapshot::of(&shown);
    small
        .draw(|f| bgedit_tui::view::draw(f, &snapshot, &theme))
        .unwrap();
    let screen = format!("{:?}", small.backend().buffer());
    assert!(
        screen.contains("Live · Sage 1-ply in-process · 0.9 ms"),
        "{screen}"
    );

    // Off: nothing asked, the analysis panel back; on: asked at once.
    let (m, effects) = keys(m, "~");
    assert!(asked(&effects).is_none() && Snapshot::of(&m).sensitivity.is_none());
    let (_, effects) = keys(m, "t~");
    assert_eq!(asked(&effects).map(|a| a.0), Some(serial + 2));
}

#[test]
fn without_an_in_process_engine_the_views_say_why_and_ask_nothing() {
    let (m, _) = keys(start(MOVES_ID), "~");
    let why = Live::Unavailable("Sage cannot run in-process here: this CPU lacks AVX2/FMA".into());
    let (m, effects) = update(m, Action::Sensitivity(SensitivityAction::EngineReady(why)));
    assert!(effects.is_empty());
    let view = Snapshot::of(&m).sensitivity.expect("on");
    assert!(view.header.contains("not available"));
    assert!(
        view.lines[0].contains("this CPU lacks AVX2/FMA"),
        "{view:?}"
    );
    // New positions ask nothing either.
    let (_, effects) = keys(m, "t");
    assert!(asked(&effects).is_none());
}

#[test]
fn the_live_views_screen() {
    let (m, _) = keys(start(MOVES_ID), "~");
    let ready = Live::Ready("Sage 1-ply in-process".into());
    let (m, effects) = update(
        m,
        Action::Sensitivity(SensitivityAction::EngineReady(ready)),
    );
    let (serial, _) = asked(&effects).unwrap();
    let tables = table(&m.position);
    let m = run(m, [computed(serial, tables)]);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 34)).unwrap();
    let snapshot = Snapshot::of(&m);
    let theme = bgedit_tui::ui::theme::Theme::plain();
    terminal
        .draw(|f| bgedit_tui::view::draw(f, &snapshot, &theme))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let text = (0..buffer.area.height)
        .map(|y| {
            let line: String = (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect();
            line.trim_end().to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("sensitivity_100x34", text);
}

/// Sage's in-process engine, found by capability as the editor finds it
/// (the tests that ask are marked as needing Sage).
fn in_process() -> Box<dyn bgedit_engine::Engine> {
    let python = common::sage_python();
    let mut setup = bgedit_engine::Setup::default();
    setup.set_program(EngineKind::Sage, Some(python));
    bgedit_engine::open_in_process(&setup).unwrap_or_else(|e| panic!("Sage in process: {e}"))
}

/// `bgedit analyse --engine sage --plies 0` on `ids`, one JSON value each.
fn cli_analyse(ids: &[String]) -> Vec<serde_json::Value> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args([
            "analyse", "--engine", "sage", "--plies", "0", "--moves", "1",
        ])
        .args(["--format", "json"])
        .args(ids)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn close(a: f64, b: &serde_json::Value) -> bool {
    (a - b.as_f64().unwrap()).abs() < 1e-6
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn the_views_best_moves_are_the_in_process_engines_and_the_clis_at_each_score_and_cube() {
    let mut engine = in_process();
    assert!(engine.in_process());
    let p = start(MOVES_ID).position;
    // The editor's road: the runtime's inline answer.
    let Action::Sensitivity(SensitivityAction::Computed { tables, .. }) =
        bgedit_tui::io::live_engine::answer(engine.as_mut(), 1, &p)
    else {
        panic!("not an answer")
    };
    let Sensitivity::Moves(t) = *tables else {
        panic!("not a move table: {tables:?}")
    };
    let cells: Vec<(MoveCell, Position)> = rows(&p)
        .into_iter()
        .zip(&t.rows)
        .flat_map(|(r, shown)| {
            r.cells
                .into_iter()
                .zip(shown.cells.clone())
                .filter_map(|(at, cell)| at.ok().map(|pos| (cell, pos)))
        })
        .collect();
    assert_eq!(cells.len(), 3 + 1 + 1 + 1 + 3, "money, DMP, GS, GG, own");
    let ids: Vec<String> = cells
        .iter()
        .map(|(_, pos)| codec::to_string_as(pos, IdFormat::GnubgId))
        .collect();
    let answers = cli_analyse(&ids);
    for ((cell, _), (id, cli)) in cells.iter().zip(ids.iter().zip(&answers)) {
        let best = &cli["moves"][0];
        let MoveCell::Best { notation, equity } = cell else {
            panic!("{id}: {cell:?}")
        };
        assert_eq!(best["move"].as_str(), Some(notation.as_str()), "{id}");
        assert!(close(*equity, &best["equity"]), "{id}: {equity} vs {best}");
    }
    // The board's own cell is the CLI's answer for the board itself.
    let own = cli_analyse(&[MOVES_ID.to_owned()]);
    let MoveCell::Best { equity, .. } = &t.rows[t.anchor.0].cells[t.anchor.1] else {
        panic!("no own cell")
    };
    assert!(close(*equity, &own[0]["moves"][0]["equity"]));
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn the_views_window_is_the_in_process_engines_and_the_clis_at_every_score() {
    let mut engine = in_process();
    let p = start(CUBE_ID).position;
    let Sensitivity::Window(w) = sensitivity::compute(engine.as_mut(), &p, 0) else {
        panic!("not a window")
    };
    assert_eq!(w.length, 7);
    assert_eq!(w.cells.len(), 2 * (36 + 24 + 1));
    let ids: Vec<String> = w
        .cells
        .iter()
        .map(|(c, _)| codec::to_string_as(&c.position, IdFormat::GnubgId))
        .collect();
    let answers = cli_analyse(&ids);
    let mut windows = 0;
    for (((_, v), id), cli) in w.cells.iter().zip(&ids).zip(&answers) {
        match v {
            Verdict::Cube {
                action,
                no_double,
                double_take,
                double_pass,
            } => {
                let c = &cli["cube"];
                assert_eq!(c["action"].as_str(), Some(action.as_str()), "{id}");
                assert!(close(*no_double, &c["no_double"]), "{id}");
                assert!(close(*double_take, &c["double_take"]), "{id}");
                assert!(close(*double_pass, &c["double_pass"]), "{id}");
                windows += 1;
            }
            Verdict::NoCube(_) => assert!(cli["cube"].get("no_double").is_none(), "{id}: {cli}"),
            Verdict::Failed(why) => panic!("{id}: {why}"),
        }
    }
    assert!(windows > 40, "{windows} cells with a cube action");
}
