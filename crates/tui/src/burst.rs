//! Text pasted into a terminal without bracketed paste arrives as a burst of
//! key events, read from the terminal at once. No one types eight keys in
//! one read, so such a burst of plain characters is read as pasted text
//! rather than run as commands (a pasted ID must not rename a player). The
//! runtime's terminal thread groups the events crossterm already holds (no
//! waiting), so a typed key is never delayed to look for a burst.

use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers};

/// Fewer keys than this are typing, however fast.
pub(crate) const MIN_KEYS: usize = 8;
/// The most events gathered into one burst (longer pastes arrive in parts,
/// each read as a paste).
pub(crate) const MAX_EVENTS: usize = 4096;

/// The text of `events` if they are a burst of plain characters.
pub(crate) fn as_paste(events: &[Event]) -> Option<String> {
    if events.len() < MIN_KEYS {
        return None;
    }
    let mut text = String::new();
    for event in events {
        let Event::Key(key) = event else { return None };
        if key.kind == KeyEventKind::Release {
            continue;
        }
        if !(key.modifiers - KeyModifiers::SHIFT).is_empty() {
            return None;
        }
        match key.code {
            KeyCode::Char(c) => text.push(c),
            KeyCode::Enter => text.push('\n'),
            KeyCode::Tab => text.push('\t'),
            _ => return None,
        }
    }
    (text.chars().count() >= MIN_KEYS).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEvent;

    fn keys(text: &str) -> Vec<Event> {
        text.chars()
            .map(|c| {
                let code = if c == '\n' {
                    KeyCode::Enter
                } else {
                    KeyCode::Char(c)
                };
                Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
            })
            .collect()
    }

    #[test]
    fn a_burst_of_characters_is_text() {
        let id = "4HPwATDgc/ABMA:cAkAAAAAAAAA";
        assert_eq!(as_paste(&keys(id)).as_deref(), Some(id));
        assert_eq!(as_paste(&keys("ab\ncd\nef")).as_deref(), Some("ab\ncd\nef"));
    }

    #[test]
    fn a_few_keys_or_other_events_are_keys() {
        assert_eq!(as_paste(&keys("xxo")), None);
        let mut with_arrow = keys("abcdefgh");
        with_arrow.push(Event::Key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE)));
        assert_eq!(as_paste(&with_arrow), None);
        let mut with_ctrl = keys("abcdefgh");
        with_ctrl.push(Event::Key(KeyEvent::new(
            KeyCode::Char('c'),
            KeyModifiers::CONTROL,
        )));
        assert_eq!(as_paste(&with_ctrl), None);
    }
}
