//! gnubg's board, character for character as `bgedit show` prints it, with
//! the two sides in their own styles and the cursor's place reversed.

use super::layout::{BOARD_COLUMNS, place_at_cell};
use super::theme::Theme;
use crate::domain::{Place, Player};
use crate::editor::snapshot::Snapshot;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The style of one character of the board drawing.
fn style_of(ch: char, col: u16, line: u16, cursor: Place, theme: &Theme) -> Style {
    let place = if col < BOARD_COLUMNS {
        place_at_cell(col, line)
    } else {
        None
    };
    let mut style = match ch {
        'X' if col < BOARD_COLUMNS => theme.x,
        'O' if col < BOARD_COLUMNS => theme.o,
        _ => Style::default(),
    };
    if place == Some(cursor) {
        style = style.patch(theme.cursor);
    }
    style
}

/// Whose stack a digit on the fifth row is: the checker drawn next to it,
/// towards the edge.
fn stack_owner(lines: &[String], col: u16, line: u16) -> Option<Player> {
    let neighbour = if line == 5 { 4 } else { 8 };
    match lines.get(neighbour)?.chars().nth(usize::from(col))? {
        'X' => Some(Player::X),
        'O' => Some(Player::O),
        _ => None,
    }
}

pub fn draw(frame: &mut Frame, area: Rect, snapshot: &Snapshot, theme: &Theme) {
    let lines: Vec<Line> = snapshot
        .board_lines
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let line = i as u16;
            let spans: Vec<Span> = text
                .chars()
                .take(usize::from(area.width))
                .enumerate()
                .map(|(c, ch)| {
                    let col = c as u16;
                    let mut style = style_of(ch, col, line, snapshot.cursor, theme);
                    // A stack above five is a digit or letter on the fifth
                    // row; it takes the style of the checkers next to it.
                    if ch.is_ascii_alphanumeric()
                        && ch != 'X'
                        && ch != 'O'
                        && matches!(line, 5 | 7)
                        && col < BOARD_COLUMNS
                    {
                        match stack_owner(&snapshot.board_lines, col, line) {
                            Some(Player::X) => style = style.patch(theme.x),
                            Some(Player::O) => style = style.patch(theme.o),
                            None => {}
                        }
                    }
                    Span::styled(ch.to_string(), style)
                })
                .collect();
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}
