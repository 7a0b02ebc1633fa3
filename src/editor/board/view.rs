//! gnubg's board, character for character as `bgedit show` prints it, with
//! the two sides in their own styles and the cursor's place reversed.

use crate::domain::{Place, Player};
use crate::editor::snapshot::Snapshot;
use crate::editor::view::layout::{BOARD_COLUMNS, place_at_cell};
use crate::editor::view::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

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

/// The style of the character `ch` at (`col`, `line`) of the drawing: each
/// side's checkers (and stack counts) in its style, the cursor's place
/// reversed, gnubg's side text plain.
fn style_at(
    lines: &[String],
    ch: char,
    col: u16,
    line: u16,
    cursor: Place,
    theme: &Theme,
) -> Style {
    if col >= BOARD_COLUMNS {
        return Style::default();
    }
    let owner = match ch {
        'X' => Some(Player::X),
        'O' => Some(Player::O),
        // A stack above five is a digit or letter on the fifth row.
        c if c.is_ascii_alphanumeric() && matches!(line, 5 | 7) => stack_owner(lines, col, line),
        _ => None,
    };
    let style = match owner {
        Some(Player::X) => theme.x,
        Some(Player::O) => theme.o,
        None => Style::default(),
    };
    if place_at_cell(col, line) == Some(cursor) {
        style.patch(theme.cursor)
    } else {
        style
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
                    let style = style_at(
                        &snapshot.board_lines,
                        ch,
                        c as u16,
                        line,
                        snapshot.cursor,
                        theme,
                    );
                    Span::styled(ch.to_string(), style)
                })
                .collect();
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}
