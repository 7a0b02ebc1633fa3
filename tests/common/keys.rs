//! Key sequences and actions run through the editor's reducer: the one
//! helper the editor's tests share (helix-style: a string of keys, or a
//! list of actions, in; the model and the effects out).
//!
//! Keys are typed as they read (`"Fw"`: F, then w), with named keys in
//! angle brackets: `<esc>`, `<enter>`, `<tab>`, `<bs>`, `<del>`, `<space>`,
//! `<up>`, `<down>`, `<left>`, `<right>`, `<home>`, `<end>`, `<pgup>`,
//! `<pgdn>`, and `<C-x>`/`<A-x>` for Ctrl or Alt with a character.

use bgedit_tui::action::Action;
use bgedit_tui::effect::Effect;
use bgedit_tui::keymap::resolve_key;
use bgedit_tui::model::Model;
use bgedit_tui::reducer::update;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Applies `actions` in turn: the model they leave.
pub fn run(model: Model, actions: impl IntoIterator<Item = Action>) -> Model {
    run_effects(model, actions).0
}

/// Applies `actions` in turn: the model they leave and every effect they
/// asked for, in order.
pub fn run_effects(
    model: Model,
    actions: impl IntoIterator<Item = Action>,
) -> (Model, Vec<Effect>) {
    let mut effects = Vec::new();
    let model = actions.into_iter().fold(model, |m, a| {
        let (next, more) = update(m, a);
        effects.extend(more);
        next
    });
    (model, effects)
}

/// The character `c` pressed without modifiers.
pub fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

/// Presses `c` in the model's mode, which must give it a meaning: the model
/// and the effects it asks for.
pub fn press(model: Model, c: char) -> (Model, Vec<Effect>) {
    let action = resolve_key(&key(c), &model.mode).expect("the key does something");
    update(model, action)
}

/// Presses each key of `keys` (see the module's notation) in the mode the
/// model is in at that moment; a key with no meaning there does nothing, as
/// in the editor. The model and every effect asked for, in order.
pub fn keys(mut model: Model, keys: &str) -> (Model, Vec<Effect>) {
    let mut effects = Vec::new();
    for event in parse(keys) {
        if let Some(action) = resolve_key(&event, &model.mode) {
            let (next, more) = update(model, action);
            model = next;
            effects.extend(more);
        }
    }
    (model, effects)
}

/// The key events `keys` names.
pub fn parse(keys: &str) -> Vec<KeyEvent> {
    let mut out = Vec::new();
    let mut rest = keys;
    while let Some(c) = rest.chars().next() {
        let named = (c == '<').then(|| rest.find('>')).flatten();
        match named {
            Some(end) if end > 1 => {
                out.push(named_key(&rest[1..end]));
                rest = &rest[end + 1..];
            }
            _ => {
                out.push(key(c));
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

fn named_key(name: &str) -> KeyEvent {
    let plain = |code| KeyEvent::new(code, KeyModifiers::NONE);
    match name {
        "esc" => plain(KeyCode::Esc),
        "enter" => plain(KeyCode::Enter),
        "tab" => plain(KeyCode::Tab),
        "bs" => plain(KeyCode::Backspace),
        "del" => plain(KeyCode::Delete),
        "space" => key(' '),
        "up" => plain(KeyCode::Up),
        "down" => plain(KeyCode::Down),
        "left" => plain(KeyCode::Left),
        "right" => plain(KeyCode::Right),
        "home" => plain(KeyCode::Home),
        "end" => plain(KeyCode::End),
        "pgup" => plain(KeyCode::PageUp),
        "pgdn" => plain(KeyCode::PageDown),
        _ => match name.split_once('-') {
            Some(("C", c)) if c.chars().count() == 1 => KeyEvent::new(
                KeyCode::Char(c.chars().next().unwrap()),
                KeyModifiers::CONTROL,
            ),
            Some(("A", c)) if c.chars().count() == 1 => {
                KeyEvent::new(KeyCode::Char(c.chars().next().unwrap()), KeyModifiers::ALT)
            }
            _ => panic!("no key is called <{name}>"),
        },
    }
}

#[test]
fn key_strings_read_as_keys() {
    assert_eq!(
        parse("Fw<esc><C-u>"),
        vec![
            key('F'),
            key('w'),
            KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE),
            KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL),
        ]
    );
    // A lone `<` is the key itself.
    assert_eq!(parse("<"), vec![key('<')]);
}
