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

pub use crate::editor::panels::{Panel, PanelToggles};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    pub title: Rect,
    pub board: Rect,
    pub panel: Rect,
    /// Under the board: the place at the cursor and the brush colour.
    pub place: Rect,
    pub ids: Rect,
    pub warnings: Rect,
    /// Where each panel goes, by `Panel as usize`; `None` when not shown.
    pub panels: [Option<Rect>; 4],
    pub prompt: Rect,
    pub status: Rect,
    pub hints: Rect,
}

/// The layout for a screen with no panel turned on, or `None` below 80×24.
pub fn areas(screen: Rect) -> Option<Areas> {
    areas_with(screen, PanelToggles::default())
}

/// Where a panel goes in `a`, if shown.
pub fn panel_area(a: &Areas, panel: Panel) -> Option<Rect> {
    a.panels[panel.index()]
}

/// The layout for a screen, with the panels that fit, or `None` below 80×24.
pub fn areas_with(screen: Rect, toggles: PanelToggles) -> Option<Areas> {
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
    let footer_y = bottom - 3;
    let room = footer_y - ids_y;
    const IDS_ROWS: u16 = 4;
    const WARNING_ROWS: u16 = 1;
    // Panels that fit below the IDs are shown anyway; one turned on that does
    // not fit takes the IDs' rows.
    let fits = |p: Panel| room >= IDS_ROWS + p.min_rows() + WARNING_ROWS;
    // The panels the user turned on come first (in priority order), then
    // those shown because there is room: a toggle always shows its panel.
    let turned_on = Panel::BY_PRIORITY.into_iter().filter(|&p| toggles.is_on(p));
    let room_for = Panel::BY_PRIORITY
        .into_iter()
        .filter(|&p| !toggles.is_on(p) && p.shown_when_room() && fits(p));
    let wanted: Vec<Panel> = turned_on.chain(room_for).collect();
    let keep_ids = wanted.iter().all(|&p| fits(p));
    let ids_rows = if keep_ids { IDS_ROWS } else { 0 };
    let mut y = ids_y + ids_rows;
    let mut panels = [None; 4];
    // On a short screen a panel turned on takes the warnings' row too.
    let reserve = if keep_ids { WARNING_ROWS } else { 0 };
    for (k, &p) in wanted.iter().enumerate() {
        let left = footer_y.saturating_sub(y + reserve);
        if left < p.min_rows() {
            continue;
        }
        // The match panel leaves the analysis its least rows where they
        // fit: reviewing a match without the engine's verdict on screen
        // would miss the point.
        let mut after = 0;
        if p == Panel::Match {
            for q in wanted[k + 1..].iter().filter(|&&q| q == Panel::Analysis) {
                if left >= p.min_rows() + q.min_rows() {
                    after += q.min_rows();
                }
            }
        }
        let h = (left - after).min(p.max_rows());
        panels[p.index()] = Some(row(y, h));
        y += h;
    }
    let warnings_y = y;
    Some(Areas {
        title: row(top, 1),
        board: Rect::new(x, top + 1, board_w, BOARD_LINES),
        panel: Rect::new(panel_x, top + 1, panel_w, BOARD_LINES),
        place: row(top + 1 + BOARD_LINES, 1),
        ids: row(ids_y, ids_rows),
        warnings: row(warnings_y, footer_y.saturating_sub(warnings_y)),
        panels,
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
    fn panels_take_the_room_of_large_screens_and_toggle_on_small_ones() {
        let small = Rect::new(0, 0, 80, 24);
        let a = areas(small).unwrap();
        assert_eq!(panel_area(&a, Panel::Analysis), None);
        assert_eq!(a.ids.height, 4);
        let mut on = PanelToggles::default();
        on.toggle(Panel::Analysis);
        let a = areas_with(small, on).unwrap();
        let p = panel_area(&a, Panel::Analysis).unwrap();
        assert_eq!(a.ids.height, 0, "the panel takes the IDs' rows");
        assert!(p.height >= Panel::Analysis.min_rows());
        let big = areas(Rect::new(0, 0, 200, 60)).unwrap();
        let p = panel_area(&big, Panel::Analysis).unwrap();
        assert_eq!(big.ids.height, 4);
        assert_eq!(p.height, Panel::Analysis.max_rows());
        let numbers = panel_area(&big, Panel::Numbers).unwrap();
        assert_eq!(
            numbers.y,
            p.y + p.height,
            "the next panel by priority follows"
        );
        assert!(big.warnings.y + big.warnings.height <= big.prompt.y);
    }

    #[test]
    fn the_library_takes_its_slot_only_while_it_is_on() {
        let big = Rect::new(0, 0, 200, 60);
        assert_eq!(panel_area(&areas(big).unwrap(), Panel::Library), None);
        let mut on = PanelToggles::default();
        on.toggle(Panel::Library);
        let a = areas_with(big, on).unwrap();
        let lib = panel_area(&a, Panel::Library).unwrap();
        assert_eq!(a.ids.height, 4);
        assert_eq!(lib.y, a.ids.y + 4, "a panel turned on comes first");
        assert_eq!(lib.height, Panel::Library.max_rows());
        let small = areas_with(Rect::new(0, 0, 80, 24), on).unwrap();
        let lib = panel_area(&small, Panel::Library).unwrap();
        assert_eq!(small.ids.height, 0, "it takes the IDs' rows");
        assert!(lib.height >= Panel::Library.min_rows());
        assert!(lib.y + lib.height <= small.prompt.y);
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
