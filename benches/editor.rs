//! The editor's frame cost: one key press resolved and reduced, and the whole
//! screen rendered, at 80×24 and at 200×60. Target (issue 3): at most 1 ms
//! each; and the same while a match is reviewed and its analysis comes in
//! (issue 19: key → frame ≤ 1 ms while the analysis runs).

use bgedit::editor::action::BoardAction;
use bgedit::editor::keymap;
use bgedit::editor::model::Model;
use bgedit::editor::reducer::update;
use bgedit::editor::snapshot::Snapshot;
use bgedit::editor::ui::theme::Theme;
use bgedit::editor::view;
use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::hint::black_box;

fn start() -> Model {
    let m = Model::default();
    update(
        m,
        bgedit::editor::action::Action::Import("4NvBA0DGzooBBg:QYkqASAAIAAA".into()),
    )
    .0
}

fn keypress_and_frame(c: &mut Criterion) {
    let theme = Theme::colour();
    // Alternating keys that change the position, so every frame differs:
    // take a checker off the cursor's point and put it back.
    let keys = [
        KeyEvent::new(KeyCode::Char('-'), KeyModifiers::NONE),
        KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE),
    ];
    for (w, h) in [(80u16, 24u16), (200, 60)] {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        let mut model = Some(start());
        let mut i = 0usize;
        c.bench_function(&format!("key + reduce + render {w}x{h}"), |b| {
            b.iter(|| {
                let m = model.take().unwrap();
                let key = &keys[i % 2];
                i += 1;
                let action = keymap::resolve_key(key, &m.mode).unwrap();
                let (next, effects) = update(m, action);
                black_box(effects);
                let snapshot = Snapshot::of(&next);
                terminal.draw(|f| view::draw(f, &snapshot, &theme)).unwrap();
                model = Some(next);
            })
        });
    }
}

/// The same while gnubg is busy with a 3-ply analysis and a full move list
/// (32 moves) is on show: keys that leave the position alone (cursor moves,
/// the units toggle) must still cost well under 1 ms.
fn keypress_while_engine_busy(c: &mut Criterion) {
    use bgedit::editor::action::Action;
    use bgedit::engine::{Analysis, MoveLine};
    let theme = Theme::colour();
    let mut m = start();
    let (next, effects) = update(m, Action::Board(BoardAction::SetDice(Some([6, 5]))));
    m = next;
    let id = effects
        .iter()
        .find_map(|e| match e {
            bgedit::editor::effect::Effect::Analyse(_, r) => Some(r.id),
            _ => None,
        })
        .unwrap();
    let moves = (0..32)
        .map(|i| MoveLine {
            notation: format!("24/{} 13/{}", 18 - i % 6, 8 - i % 5),
            equity: -0.01 * f64::from(i),
            mwc: Some(0.5 - 0.002 * f64::from(i)),
            probs: [0.5, 0.14, 0.008, 0.14, 0.007],
            after: "4HPwATDgc/ABMA".into(),
            plies: None,
            std_error: None,
            mwc_std_error: None,
        })
        .collect();
    m = update(
        m,
        Action::Analysis(bgedit::editor::action::AnalysisAction::Answer(
            bgedit::engine::EngineKind::Gnubg,
            id,
            Ok(Analysis::Moves {
                plies: 0,
                moves,
                rollout: None,
            }),
            None,
        )),
    )
    .0;
    m = update(
        m,
        Action::Analysis(bgedit::editor::action::AnalysisAction::Deepen),
    )
    .0;
    assert!(m.analysis.running == Some(m.analysis.deep_plies));
    let keys = [
        KeyEvent::new(KeyCode::Char('l'), KeyModifiers::NONE),
        KeyEvent::new(KeyCode::Char('%'), KeyModifiers::NONE),
        KeyEvent::new(KeyCode::Char('h'), KeyModifiers::NONE),
    ];
    for (w, h) in [(80u16, 24u16), (200, 60)] {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        let mut model = Some(m.clone());
        let mut i = 0usize;
        c.bench_function(&format!("key + frame, engine busy {w}x{h}"), |b| {
            b.iter(|| {
                let m = model.take().unwrap();
                let key = &keys[i % 3];
                i += 1;
                let action = keymap::resolve_key(key, &m.mode).unwrap();
                let (next, effects) = update(m, action);
                black_box(effects);
                let snapshot = Snapshot::of(&next);
                terminal.draw(|f| view::draw(f, &snapshot, &theme)).unwrap();
                model = Some(next);
            })
        });
    }
}

/// A real match open in the match panel (tests/fixtures/analysis/m7_noisy.sgf,
/// 172 decisions), half of it judged and the analysis still running: `j`
/// and `k` walk the decisions (the board, IDs and panels change every
/// frame), and one verdict of the background analysis arrives with each key.
fn keypress_while_match_analysed(c: &mut Criterion) {
    use bgedit::domain::match_stats::DecisionKind;
    use bgedit::editor::action::Action;
    use bgedit::editor::match_review::{open, state::ReviewAction};
    use bgedit::engine::match_analysis::Judged;
    let theme = Theme::colour();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/analysis/m7_noisy.sgf"
    );
    let loaded = open::load(path).unwrap();
    let n = loaded.decisions.len();
    let judged = |i: usize| {
        let d = &loaded.decisions[i];
        let mut j = Judged::unjudged(
            d,
            DecisionKind::Checker,
            d.position.clone(),
            d.played.clone(),
        );
        // A fixed spread of errors: every mark appears.
        j.judgement.error = [0.0, 0.01, 0.04, 0.07, 0.2][i % 5];
        j.judgement.counted = true;
        j.best = "24/13".into();
        vec![j]
    };
    let verdicts: Vec<_> = (0..n).map(judged).collect();
    let mut m = update(
        Model::default(),
        Action::Review(ReviewAction::Opened(Ok(Box::new(loaded.clone())))),
    )
    .0;
    for (i, v) in verdicts.iter().enumerate().take(n / 2) {
        m = update(
            m,
            Action::Review(ReviewAction::Judged(1, i, 0, Ok(v.clone()))),
        )
        .0;
    }
    let keys = [
        KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE),
        KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE),
        KeyEvent::new(KeyCode::Char('k'), KeyModifiers::NONE),
    ];
    for (w, h) in [(80u16, 24u16), (200, 60)] {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        let mut model = Some(m.clone());
        let mut i = 0usize;
        c.bench_function(
            &format!("key + verdict + frame, match review {w}x{h}"),
            |b| {
                b.iter(|| {
                    let m = model.take().unwrap();
                    let key = &keys[i % 3];
                    let at = n / 2 + i % (n / 2);
                    i += 1;
                    let (m, _) = update(
                        m,
                        Action::Review(ReviewAction::Judged(1, at, 0, Ok(verdicts[at].clone()))),
                    );
                    let action = keymap::resolve_key(key, &m.mode).unwrap();
                    let (next, effects) = update(m, action);
                    black_box(effects);
                    let snapshot = Snapshot::of(&next);
                    terminal.draw(|f| view::draw(f, &snapshot, &theme)).unwrap();
                    model = Some(next);
                })
            },
        );
    }
}

/// A quiz answer graded from the analysis kept with the entry (issue 17:
/// the grade on screen ≤ 20 ms after the answer when the analysis is
/// stored): the answer's action, the local grading, the snapshot and the
/// frame. The kept analysis is every legal move of an opening 21 with
/// made-up equities (the grading does the same work whatever the numbers).
fn quiz_answer_graded_from_kept_analysis(c: &mut Criterion) {
    use bgedit::codec::{parse_any, position_id};
    use bgedit::domain::Position;
    use bgedit::domain::moves::{apply, position_moves};
    use bgedit::editor::action::Action;
    use bgedit::editor::library::state::LibAction;
    use bgedit::engine::match_analysis::QuizAnswer;
    use bgedit::engine::{Analysis, MoveLine};
    use bgedit::library::Summary;
    let theme = Theme::colour();
    let position = parse_any("4HPwATDgc/ABMA:cAkFAAAAAAAE", &Position::default())
        .unwrap()
        .position;
    let legal = position_moves(&position).unwrap();
    let moves: Vec<MoveLine> = legal
        .iter()
        .enumerate()
        .map(|(i, m)| MoveLine {
            notation: m.notation(),
            equity: -0.01 * i as f64,
            mwc: None,
            probs: [0.5, 0.15, 0.01, 0.14, 0.01],
            after: position_id::encode(
                &apply(&position, m).board,
                position.state.on_roll.opponent(),
            ),
            plies: Some(0),
            std_error: None,
            mwc_std_error: None,
        })
        .collect();
    let kept = serde_json::to_string(&Analysis::Moves {
        plies: 0,
        moves,
        rollout: None,
    })
    .unwrap();
    let summary = Summary {
        id: 1,
        title: "Opening 21".into(),
        tags: String::new(),
        derived: bgedit::library::derive::derive(&position),
        position: position.clone(),
        score: [0, 0],
        error: None,
        error_by: None,
        player: None,
        note_line: String::new(),
        collections: "drill".into(),
    };
    let quiz = |kept: &str| {
        let m = update(
            Model::default(),
            Action::Library(LibAction::DueList(Ok((
                "drill".into(),
                vec![summary.clone()],
            )))),
        )
        .0;
        update(
            m,
            Action::Library(LibAction::StoredAnalysis {
                id: 1,
                result: Ok(Some(kept.to_owned())),
            }),
        )
        .0
    };
    let answer = legal.last().unwrap().notation();
    for (w, h) in [(80u16, 24u16), (200, 60)] {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        c.bench_function(
            &format!("quiz answer graded from kept analysis + frame {w}x{h}"),
            |b| {
                b.iter_batched(
                    || quiz(&kept),
                    |m| {
                        let (next, effects) = update(
                            m,
                            Action::Library(LibAction::Answer(QuizAnswer::Move(answer.clone()))),
                        );
                        black_box(effects);
                        let snapshot = Snapshot::of(&next);
                        terminal.draw(|f| view::draw(f, &snapshot, &theme)).unwrap();
                        next
                    },
                    criterion::BatchSize::SmallInput,
                )
            },
        );
    }
}

criterion_group!(
    benches,
    keypress_and_frame,
    keypress_while_engine_busy,
    keypress_while_match_analysed,
    quiz_answer_graded_from_kept_analysis
);
criterion_main!(benches);
