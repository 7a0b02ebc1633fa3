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

criterion_group!(benches, keypress_and_frame);
criterion_main!(benches);
