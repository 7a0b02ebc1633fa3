//! gnubg's board, character for character as `bgedit show` prints it, with
//! the two sides in their own styles and the cursor's place reversed.

use crate::snapshot::Snapshot;
use crate::ui::layout::BOARD_COLUMNS;
use crate::ui::theme::Theme;
use bgedit_core::domain::{Place, Player};
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

/// The first character column of cursor column `c` (0–13) in a board line.
pub(crate) fn column_start(c: usize) -> u16 {
    match c {
        0..=5 => 2 + 3 * c as u16,
        6 => 21,
        7..=12 => 25 + 3 * (c as u16 - 7),
        _ => 45,
    }
}

/// The board place drawn at (`col`, `line`) of the board drawing, if any:
/// label lines and checker rows above and below the bar line.
pub(crate) fn place_at_cell(col: u16, line: u16) -> Option<Place> {
    let top = match line {
        0..=5 => true,
        7..=12 => false,
        _ => return None,
    };
    let c = (0..super::cursor::COLUMNS)
        .find(|&c| (column_start(c)..column_start(c) + 3).contains(&col))?;
    Some(super::cursor::place_at(top, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_map_to_the_places_gnubg_draws_there() {
        // " +13-14-..." : point 13 at columns 2–4 of the top lines.
        assert_eq!(place_at_cell(3, 1), Some(Place::Point(13)));
        assert_eq!(place_at_cell(22, 2), Some(Place::Bar(Player::O)));
        assert_eq!(place_at_cell(41, 5), Some(Place::Point(24)));
        assert_eq!(place_at_cell(46, 3), Some(Place::Off(Player::O)));
        assert_eq!(place_at_cell(41, 11), Some(Place::Point(1)));
        assert_eq!(place_at_cell(3, 12), Some(Place::Point(12)));
        assert_eq!(place_at_cell(22, 6), None, "the BAR line");
        assert_eq!(place_at_cell(20, 3), None, "the bar's edge");
    }
}
