//! The editor's frame cost: one key press resolved and reduced, and the whole
//! screen rendered, at 80×24 and at 200×60. Target (issue 3): at most 1 ms
//! each; and the same while a match is reviewed and its analysis comes in
//! (issue 19: key → frame ≤ 1 ms while the analysis runs). With an engine
//! that answers in-process (issue 33): the live views' tables, key to
//! frame (≤ 16 ms), and one evaluation, key to frame (≤ 1 ms).

use bgedit_tui::action::BoardAction;
use bgedit_tui::keymap;
use bgedit_tui::model::Model;
use bgedit_tui::reducer::update;
use bgedit_tui::snapshot::Snapshot;
use bgedit_tui::ui::theme::Theme;
use bgedit_tui::view;
use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::hint::black_box;

fn start() -> Model {
    let m = Model::default();
    update(
        m,
        bgedit_tui::action::Action::Import("4NvBA0DGzooBBg:QYkqASAAIAAA".into()),
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
    use bgedit_engine::{Analysis, MoveLine};
    use bgedit_tui::action::Action;
    let theme = Theme::colour();
    let mut m = start();
    let (next, effects) = update(m, Action::Board(BoardAction::SetDice(Some([6, 5]))));
    m = next;
    let id = effects
        .iter()
        .find_map(|e| match e {
            bgedit_tui::effect::Effect::Analyse(_, r) => Some(r.id),
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
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
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
        Action::Analysis(bgedit_tui::action::AnalysisAction::Deepen),
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
    use bgedit_core::domain::match_stats::DecisionKind;
    use bgedit_engine::match_analysis::Judged;
    use bgedit_tui::action::Action;
    use bgedit_tui::match_review::{open, state::ReviewAction};
    let theme = Theme::colour();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/analysis/m7_noisy.sgf"
    );
    let loaded = open::load(path).unwrap();
    let n = loaded.replayed.decisions().len();
    let judged = |i: usize| {
        let d = &loaded.replayed.decisions()[i];
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
    use bgedit_core::codec::{parse_any, position_id};
    use bgedit_core::domain::Position;
    use bgedit_core::domain::moves::{apply, position_moves};
    use bgedit_engine::match_analysis::QuizAnswer;
    use bgedit_engine::{Analysis, MoveLine};
    use bgedit_library::Summary;
    use bgedit_tui::action::Action;
    use bgedit_tui::library::state::{LibAction, QuizAction, WorkerAnswer};
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
        derived: bgedit_library::derive::derive(&position),
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
            Action::Library(LibAction::Worker(WorkerAnswer::DueList(Ok((
                "drill".into(),
                vec![summary.clone()],
            ))))),
        )
        .0;
        update(
            m,
            Action::Library(LibAction::Worker(WorkerAnswer::StoredAnalysis {
                id: 1,
                result: Ok(Some(kept.to_owned())),
            })),
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
                            Action::Library(LibAction::Quiz(QuizAction::Answer(QuizAnswer::Move(
                                answer.clone(),
                            )))),
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

/// xorshift64*: a fixed, dependency-free stream of numbers.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

/// `n` varied legal positions from a fixed seed, each with something to
/// analyse: checkers of both sides anywhere, money or a match at any
/// score, any cube, dice four times in five (else a cube decision). `t`
/// (the key the benchmarks press) leaves each legal.
fn random_positions(n: usize, seed: u64) -> Vec<bgedit_core::domain::Position> {
    use bgedit_core::domain::{Board, CubeOwner, Player, Position};
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut sides = [[0u8; 25]; 2];
        for side in &mut sides {
            for _ in 0..(1 + rng.below(15)) {
                side[rng.below(25) as usize] += 1;
            }
        }
        let Ok(board) = Board::from_sides(sides[0], sides[1]) else {
            continue;
        };
        let mut p = Position {
            board,
            ..Position::default()
        };
        let s = &mut p.state;
        s.on_roll = [Player::O, Player::X][rng.below(2) as usize];
        s.turn = s.on_roll;
        if rng.below(5) > 0 {
            s.match_length = 1 + rng.below(15) as u16;
            s.score = [
                rng.below(u64::from(s.match_length)) as u16,
                rng.below(u64::from(s.match_length)) as u16,
            ];
        }
        s.cube_log2 = rng.below(3) as u8;
        s.cube_owner = match (s.cube_log2, rng.below(2)) {
            (0, _) => CubeOwner::Centred,
            (_, 0) => CubeOwner::Owned(Player::O),
            _ => CubeOwner::Owned(Player::X),
        };
        s.dice = (rng.below(5) > 0).then(|| [1 + rng.below(6) as u8, 1 + rng.below(6) as u8]);
        let mut flipped = p.clone();
        flipped.state.on_roll = flipped.state.on_roll.opponent();
        flipped.state.turn = flipped.state.on_roll;
        let fine = |q: &Position| {
            q.validate().is_ok() && bgedit_engine::request::nothing_to_analyse(q).is_none()
        };
        if fine(&p) && fine(&flipped) {
            out.push(p);
        }
    }
    out
}

/// The engine that answers in-process (found by capability, as the
/// editor finds it); `None`, said, without one.
fn in_process_engine() -> Option<Box<dyn bgedit_engine::Engine>> {
    match bgedit_engine::open_in_process(&bgedit_engine::Setup::default()) {
        Ok(e) => Some(e),
        Err(e) => {
            eprintln!("skipped: the live views need an in-process engine: {e}");
            None
        }
    }
}

/// The live views (issue 33), key to frame: on varied positions (a fixed
/// seed), `t` pressed (the board changes), the reducer asks
/// (`Effect::Sensitivity`), the runtime's inline road computes the tables
/// with the in-process engine (`live_engine::answer`), the answer is
/// reduced, and the screen drawn. Goal: at most 16 ms (one frame).
fn live_views_key_to_frame(c: &mut Criterion) {
    use bgedit_tui::action::Action;
    use bgedit_tui::effect::Effect;
    use bgedit_tui::io::live_engine;
    use bgedit_tui::sensitivity::state::{Live, SensitivityAction};
    let Some(mut engine) = in_process_engine() else {
        return;
    };
    let theme = Theme::colour();
    let ready = Live::Ready(live_engine::ready_words(engine.as_ref()));
    let positions = random_positions(200, 0x5eed_0033);
    let mut on = update(
        Model::default(),
        Action::Sensitivity(SensitivityAction::Toggle),
    )
    .0;
    on = update(
        on,
        Action::Sensitivity(SensitivityAction::EngineReady(ready)),
    )
    .0;
    let key = KeyEvent::new(KeyCode::Char('t'), KeyModifiers::NONE);
    for (name, dice) in [("checker play", true), ("cube decision", false)] {
        let chosen: Vec<_> = positions
            .iter()
            .filter(|p| p.state.dice.is_some() == dice)
            .cloned()
            .collect();
        let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
        let mut i = 0usize;
        c.bench_function(&format!("live views: key + tables + frame, {name}"), |b| {
            b.iter_batched(
                || {
                    let mut m = on.clone();
                    m.position = chosen[i % chosen.len()].clone();
                    i += 1;
                    m
                },
                |m| {
                    let action = keymap::resolve_key(&key, &m.mode).unwrap();
                    let (mut m, effects) = update(m, action);
                    for e in effects {
                        if let Effect::Sensitivity { serial, position } = e {
                            let answer = live_engine::answer(engine.as_mut(), serial, &position);
                            m = update(m, answer).0;
                        }
                    }
                    assert!(m.sensitivity.shown.is_some());
                    let snapshot = Snapshot::of(&m);
                    terminal.draw(|f| view::draw(f, &snapshot, &theme)).unwrap();
                    m
                },
                criterion::BatchSize::SmallInput,
            )
        });
    }
}

/// One evaluation in the editor, key to frame, with the in-process engine
/// leading the analysis panel: `t` pressed on varied positions with dice,
/// the panel's request answered inline by the engine at its first depth
/// (the move list), reduced, drawn. Goal: at most 1 ms.
fn one_evaluation_key_to_frame(c: &mut Criterion) {
    use bgedit_tui::action::{Action, AnalysisAction};
    use bgedit_tui::effect::Effect;
    let Some(mut engine) = in_process_engine() else {
        return;
    };
    let theme = Theme::colour();
    let mut base = Model::default();
    base.analysis.engines = bgedit_engine::Choice::only(engine.kind());
    let positions: Vec<_> = random_positions(200, 0x5eed_0001)
        .into_iter()
        .filter(|p| p.state.dice.is_some())
        .collect();
    let key = KeyEvent::new(KeyCode::Char('t'), KeyModifiers::NONE);
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
    let mut i = 0usize;
    c.bench_function("one in-process evaluation: key + answer + frame", |b| {
        b.iter_batched(
            || {
                let mut m = base.clone();
                m.position = positions[i % positions.len()].clone();
                i += 1;
                m
            },
            |m| {
                let action = keymap::resolve_key(&key, &m.mode).unwrap();
                let (mut m, effects) = update(m, action);
                for e in effects {
                    if let Effect::Analyse(kind, req) = e {
                        let limit = std::time::Duration::from_secs(5);
                        let answer = engine.analyse(&req, limit);
                        let done = AnalysisAction::Answer(kind, req.id, answer, None);
                        m = update(m, Action::Analysis(done)).0;
                    }
                }
                let snapshot = Snapshot::of(&m);
                terminal.draw(|f| view::draw(f, &snapshot, &theme)).unwrap();
                m
            },
            criterion::BatchSize::SmallInput,
        )
    });
}

criterion_group!(
    benches,
    keypress_and_frame,
    keypress_while_engine_busy,
    keypress_while_match_analysed,
    quiz_answer_graded_from_kept_analysis,
    live_views_key_to_frame,
    one_evaluation_key_to_frame,
    open_stored_match
);
criterion_main!(benches);

/// Opening a stored match in the editor (issue 41: a 25-point match, ≤ 200
/// ms): the library worker reads match 1 of the library named by
/// `BGEDIT_BENCH_STORED` (its kept file replayed, its kept verdicts read),
/// the reducer opens it in the match panel with them, and the first frame
/// is drawn at 200×60. `benches/library_matches.sh` makes the library (a
/// 25-point match gnubg plays, analysed by bgedit); without it, nothing is
/// timed.
fn open_stored_match(c: &mut Criterion) {
    use bgedit_tui::library::state::Request;
    use bgedit_tui::library::worker::Worker;
    let Some(path) = std::env::var_os("BGEDIT_BENCH_STORED") else {
        eprintln!(
            "open_stored_match: BGEDIT_BENCH_STORED names no library (see benches/library_matches.sh)"
        );
        return;
    };
    let mut worker = Worker::start(Some(path.into()));
    let theme = Theme::colour();
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
    c.bench_function("open_stored_match", |b| {
        b.iter(|| {
            worker.send(Request::OpenStored(1));
            let answer = worker.answers.recv().unwrap();
            worker.pending -= 1;
            let (model, effects) = update(Model::default(), answer);
            black_box(effects);
            assert!(model.review.open.is_some(), "{}", model.status.text);
            let snapshot = Snapshot::of(&model);
            terminal.draw(|f| view::draw(f, &snapshot, &theme)).unwrap();
        })
    });
}
