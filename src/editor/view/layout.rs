//! Where the widgets go, and which board place a screen cell shows. Pure
//! geometry, shared by drawing and by mouse hit-testing.

use crate::domain::Place;
use crate::editor::cursor;
use ratatui::layout::Rect;

pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;
/// Lines of the board drawing (gnubg's text less its two ID lines).
pub const BOARD_LINES: u16 = 13;
/// Columns of the board itself, trays included, without gnubg's side text.
pub const BOARD_COLUMNS: u16 = 49;
/// Columns of gnubg's side text shown beside the board on wide screens.
pub const SIDE_TEXT_COLUMNS: u16 = 36;
const PANEL_MIN: u16 = 30;
const PANEL_MAX: u16 = 44;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    pub title: Rect,
    pub board: Rect,
    pub panel: Rect,
    /// Under the board: the place at the cursor and the brush colour.
    pub place: Rect,
    pub ids: Rect,
    pub warnings: Rect,
    pub prompt: Rect,
    pub status: Rect,
    pub hints: Rect,
}

/// The layout for a screen, or `None` below 80×24.
pub fn areas(screen: Rect) -> Option<Areas> {
    if screen.width < MIN_WIDTH || screen.height < MIN_HEIGHT {
        return None;
    }
    let x = screen.x;
    let w = screen.width;
    // Wide screens show gnubg's own text beside the board too.
    let board_w = if w >= BOARD_COLUMNS + 1 + SIDE_TEXT_COLUMNS + 1 + PANEL_MIN {
        BOARD_COLUMNS + SIDE_TEXT_COLUMNS
    } else {
        BOARD_COLUMNS
    };
    let panel_x = x + board_w + 1;
    let panel_w = (w - board_w - 1).min(PANEL_MAX);
    let top = screen.y;
    let bottom = screen.y + screen.height;
    let row = |y: u16, h: u16| Rect::new(x, y, w, h);
    let ids_y = top + 1 + BOARD_LINES + 1;
    let warnings_y = ids_y + 4;
    Some(Areas {
        title: row(top, 1),
        board: Rect::new(x, top + 1, board_w, BOARD_LINES),
        panel: Rect::new(panel_x, top + 1, panel_w, BOARD_LINES),
        place: row(top + 1 + BOARD_LINES, 1),
        ids: row(ids_y, 4),
        warnings: row(warnings_y, (bottom - 3).saturating_sub(warnings_y)),
        prompt: row(bottom - 3, 1),
        status: row(bottom - 2, 1),
        hints: row(bottom - 1, 1),
    })
}

/// The first character column of cursor column `c` (0–13) in a board line.
pub fn column_start(c: usize) -> u16 {
    match c {
        0..=5 => 2 + 3 * c as u16,
        6 => 21,
        7..=12 => 25 + 3 * (c as u16 - 7),
        _ => 45,
    }
}

/// The board place drawn at (`col`, `line`) of the board drawing, if any:
/// label lines and checker rows above and below the bar line.
pub fn place_at_cell(col: u16, line: u16) -> Option<Place> {
    let top = match line {
        0..=5 => true,
        7..=12 => false,
        _ => return None,
    };
    let c =
        (0..cursor::COLUMNS).find(|&c| (column_start(c)..column_start(c) + 3).contains(&col))?;
    Some(cursor::place_at(top, c))
}

/// The board place under a screen cell, for the mouse.
pub fn hit(screen: Rect, column: u16, row: u16) -> Option<Place> {
    let a = areas(screen)?;
    if !a
        .board
        .contains(ratatui::layout::Position::new(column, row))
    {
        return None;
    }
    place_at_cell(column - a.board.x, row - a.board.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Player;

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

    #[test]
    fn too_small_screens_have_no_layout() {
        assert!(areas(Rect::new(0, 0, 79, 24)).is_none());
        assert!(areas(Rect::new(0, 0, 80, 23)).is_none());
        let a = areas(Rect::new(0, 0, 80, 24)).unwrap();
        assert_eq!(a.board.width + 1 + a.panel.width, 80);
        assert_eq!(a.hints.y, 23);
        assert!(a.warnings.height >= 1);
    }

    #[test]
    fn hit_testing_uses_the_same_layout() {
        let screen = Rect::new(0, 0, 80, 24);
        let a = areas(screen).unwrap();
        assert_eq!(
            hit(screen, a.board.x + 41, a.board.y + 11),
            Some(Place::Point(1))
        );
        assert_eq!(hit(screen, 79, 23), None);
    }
}
