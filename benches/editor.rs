//! The editor's frame cost: one key press resolved and reduced, and the whole
//! screen rendered, at 80×24 and at 200×60. Target (issue 3): at most 1 ms
//! each.

use bgedit::editor::keymap;
use bgedit::editor::model::Model;
use bgedit::editor::reducer::update;
use bgedit::editor::snapshot::Snapshot;
use bgedit::editor::view::{self, Theme};
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
    let (next, effects) = update(m, Action::SetDice(Some([6, 5])));
    m = next;
    let id = effects
        .iter()
        .find_map(|e| match e {
            bgedit::editor::effect::Effect::Analyse(r) => Some(r.id),
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
        Action::AnalysisAnswer(
            id,
            Ok(Analysis::Moves {
                plies: 0,
                moves,
                rollout: None,
            }),
        ),
    )
    .0;
    m = update(m, Action::Analyse).0;
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

criterion_group!(benches, keypress_and_frame, keypress_while_engine_busy);
criterion_main!(benches);
