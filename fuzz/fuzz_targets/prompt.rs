//! The editor's input line: every prompt's reader, the editing at the
//! cursor, and the reducer applying what was read. Nothing panics, the
//! position stays legal, and a value the line offers (the current dice,
//! match length, score) reads back to the same position.
#![no_main]

use bgedit_core::domain::{Place, Player};
use bgedit_tui::action::{BoardAction, Action, PromptAction};
use bgedit_tui::model::{Mode, Model, Tone};
use bgedit_tui::prompt::state::{MAX_PROMPT_LEN, Motion, Prompt, PromptKind};
use bgedit_tui::prompt::update::{current_value, parse};
use bgedit_tui::reducer::update;
use bgedit_fuzz::{legal, text};
use libfuzzer_sys::fuzz_target;

const KINDS: [PromptKind; 10] = [
    PromptKind::Import,
    PromptKind::GoTo,
    PromptKind::Count,
    PromptKind::Dice,
    PromptKind::MatchLength,
    PromptKind::Score,
    PromptKind::Name(Player::O),
    PromptKind::Name(Player::X),
    PromptKind::CrawfordOffer(Player::O),
    PromptKind::CrawfordOffer(Player::X),
];

/// A 7-point match at 4-2 with the cursor on the 6 point, or money.
fn model(selector: u8) -> Model {
    let mut m = Model::default();
    if selector & 1 == 1 {
        m = update(m, Action::Board(BoardAction::SetMatchLength(7))).0;
        m = update(m, Action::Board(BoardAction::SetScore([4, 2]))).0;
    }
    m.cursor = Place::Point(6);
    m
}

fn edit(p: &mut Prompt, op: u8, text: &str) {
    // The prompt's text is its line, the one line editor.
    let p = &mut p.line;
    match op % 9 {
        0 => p.insert(text),
        1 => p.backspace(),
        2 => p.delete(),
        3 => p.delete_word(),
        4 => p.motion(Motion::Left),
        5 => p.motion(Motion::Right),
        6 => p.motion(Motion::Home),
        7 => p.motion(Motion::End),
        _ => p.clear(),
    }
    let len = p.text.chars().count();
    assert!(p.cursor <= len, "cursor {} past {len}", p.cursor);
    assert!(len <= MAX_PROMPT_LEN);
    let (shown, at) = p.window(20);
    assert!(shown.chars().count() <= 20 && at < 20.max(1));
}

fuzz_target!(|data: &[u8]| {
    let [selector, ops @ ..] = data else { return };
    let split = ops.iter().position(|&b| b == 0xff).unwrap_or(ops.len());
    let (ops, rest) = ops.split_at(split);
    let Some(typed) = text(rest.get(1..).unwrap_or_default()) else {
        return;
    };
    let kind = KINDS[usize::from(*selector >> 1) % KINDS.len()];
    let before = model(*selector);

    // Editing at the cursor never breaks the text.
    let mut line = Prompt::with_value(kind, &current_value(kind, &before.position));
    for &op in ops {
        edit(&mut line, op, typed);
    }

    // Read and applied through the reducer, as Enter does.
    let mut m = before.clone();
    m.mode = Mode::Prompt(Prompt::with_value(kind, typed));
    let (after, _) = update(m, Action::Prompt(PromptAction::Submit));
    assert!(
        legal(&after.position),
        "{kind:?} {typed:?} made {:?}",
        after.position
    );
    if after.status.tone == Tone::Error {
        assert_eq!(
            after.position, before.position,
            "a refusal changed the position"
        );
        return;
    }

    // The value the line now offers reads back to the same position.
    if matches!(
        kind,
        PromptKind::Dice | PromptKind::MatchLength | PromptKind::Score
    ) {
        let offered = current_value(kind, &after.position);
        let action = parse(kind, &offered, &after.position.state)
            .unwrap_or_else(|e| panic!("{kind:?} offers {offered:?}, refused: {e}"));
        let mut again = after.clone();
        again.mode = Mode::Normal;
        let (again, _) = update(again, action);
        assert_eq!(
            again.position, after.position,
            "{kind:?} offers {offered:?}"
        );
    }
});
