//! Where the widgets go: pure geometry below every feature, shared by
//! drawing and by mouse hit-testing (which board place a cell of the board's
//! drawing shows is the board's: `board/view.rs`).

use crate::panels::{MIN_HEIGHT, MIN_WIDTH};
use ratatui::layout::Rect;

/// Lines of the board drawing (gnubg's text less its two ID lines).
pub(crate) const BOARD_LINES: u16 = 13;
/// Columns of the board itself, trays included, without gnubg's side text.
pub(crate) const BOARD_COLUMNS: u16 = 49;
/// Columns of gnubg's side text shown beside the board on wide screens.
pub(crate) const SIDE_TEXT_COLUMNS: u16 = 36;
const PANEL_MIN: u16 = 30;
const PANEL_MAX: u16 = 44;

use crate::panels::{Panel, PanelToggles};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Areas {
    pub title: Rect,
    pub board: Rect,
    pub panel: Rect,
    /// Under the board: the place at the cursor and the brush colour.
    pub place: Rect,
    pub ids: Rect,
    pub warnings: Rect,
    /// Where each panel goes, by `Panel as usize`; `None` when not shown.
    pub panels: [Option<Rect>; Panel::COUNT],
    /// The column right of the board on wide screens, top to footer, where
    /// panels stack; `None` when the screen is too narrow for one.
    pub right: Option<Rect>,
    pub prompt: Rect,
    pub status: Rect,
    pub hints: Rect,
}

/// The layout for a screen with no panel turned on, or `None` below 80×24.
pub(crate) fn areas(screen: Rect) -> Option<Areas> {
    areas_with(screen, PanelToggles::default())
}

/// Where a panel goes in `a`, if shown.
pub(crate) fn panel_area(a: &Areas, panel: Panel) -> Option<Rect> {
    a.panels[panel.index()]
}

/// The narrowest column right of the board worth opening: the numbers
/// panel's rows fit in it.
const RIGHT_MIN: u16 = 38;
/// The widths of the board (with or without gnubg's side text) and of the
/// match widget beside it, for a screen `w` wide.
///
/// Panels get the room before gnubg's side text does: it repeats what the
/// widget beside it shows, so it is drawn only where a column as wide as
/// the analysis's rows is still left beside it.
fn board_block(w: u16) -> (u16, u16) {
    let narrow_block = BOARD_COLUMNS + 1 + PANEL_MIN;
    if w < narrow_block + 1 + RIGHT_MIN {
        // One column: the side text when it fits beside the widget.
        let side = w >= BOARD_COLUMNS + 1 + SIDE_TEXT_COLUMNS + 1 + PANEL_MIN;
        let board_w = BOARD_COLUMNS + if side { SIDE_TEXT_COLUMNS } else { 0 };
        return (board_w, (w - board_w - 1).min(PANEL_MAX));
    }
    let side =
        w >= BOARD_COLUMNS + SIDE_TEXT_COLUMNS + 1 + PANEL_MAX + 1 + Panel::Analysis.ideal_width();
    let board_w = BOARD_COLUMNS + if side { SIDE_TEXT_COLUMNS } else { 0 };
    let widget = (w - board_w - 1 - 1 - RIGHT_MIN).clamp(PANEL_MIN, PANEL_MAX);
    (board_w, widget)
}

/// A column where panels stack, top to bottom.
struct Stack {
    area: Rect,
    /// Rows not yet given to a panel at its least.
    free: u16,
    /// Rows left were every panel in it at its most: which column has more
    /// room to give decides where the next panel goes.
    spare: i32,
    panels: Vec<Panel>,
}

impl Stack {
    fn new(area: Rect) -> Stack {
        Stack {
            area,
            free: area.height,
            spare: i32::from(area.height),
            panels: Vec::new(),
        }
    }
    fn takes(&self, p: Panel) -> bool {
        self.area.width >= p.min_width() && self.free >= p.min_rows()
    }
    fn put(&mut self, p: Panel) {
        self.free -= p.min_rows();
        self.spare -= i32::from(p.max_rows());
        self.panels.push(p);
    }
    /// Gives each panel its least rows, then the rest in order up to each
    /// one's most, and writes where each goes; returns the first row under
    /// the last panel.
    fn place(&self, panels: &mut [Option<Rect>; Panel::COUNT]) -> u16 {
        let mut extra = self.free;
        let mut heights: Vec<u16> = self
            .panels
            .iter()
            .map(|&p| {
                let more = extra.min(p.max_rows() - p.min_rows());
                extra -= more;
                p.min_rows() + more
            })
            .collect();
        // Rows still free go to the panels that list more than their most
        // shows (a match's decisions, the moves, the library's entries),
        // shared alike: a tall screen is not left blank under them.
        let growing: Vec<usize> = (0..self.panels.len())
            .filter(|&i| self.panels[i].scrolls())
            .collect();
        for (k, &i) in growing.iter().enumerate() {
            let share = extra / (growing.len() - k) as u16;
            heights[i] += share;
            extra -= share;
        }
        let mut y = self.area.y;
        for (&p, h) in self.panels.iter().zip(heights) {
            panels[p.index()] = Some(Rect::new(self.area.x, y, self.area.width, h));
            y += h;
        }
        y
    }
}

/// The layout for a screen, with the panels that fit, or `None` below 80×24.
///
/// The board, the match widget beside it, the cursor line and the IDs are
/// the left block. The panels stack under it and, on screens wide enough
/// for a column right of the board, in that column too, from the title to
/// the footer. Each panel goes where it is not cut (a column as wide as
/// its rows), and between two such places to the one with more room left
/// once every panel there has its most rows; a panel no column is wide
/// enough for goes to the widest.
pub(crate) fn areas_with(screen: Rect, toggles: PanelToggles) -> Option<Areas> {
    if screen.width < MIN_WIDTH || screen.height < MIN_HEIGHT {
        return None;
    }
    let x = screen.x;
    let w = screen.width;
    let (board_w, widget_w) = board_block(w);
    let left_w = board_w + 1 + widget_w;
    let top = screen.y;
    let bottom = screen.y + screen.height;
    let row = |y: u16, h: u16| Rect::new(x, y, w, h);
    let ids_y = top + 1 + BOARD_LINES + 1;
    let footer_y = bottom - 3;
    let right_w = w.saturating_sub(left_w + 1);
    let has_right = right_w >= RIGHT_MIN;
    // The library's list wants its preview beside it: when neither the
    // column nor the room under the board is that wide, the column stops
    // at the IDs and the library takes the whole width under them.
    let library_wide = toggles.is_on(Panel::Library)
        && has_right
        && right_w < Panel::Library.ideal_width()
        && left_w < Panel::Library.ideal_width();
    let right_for = |ids_rows: u16| {
        let end = if library_wide {
            ids_y + ids_rows
        } else {
            footer_y
        };
        has_right.then(|| Rect::new(x + left_w + 1, top + 1, right_w, end - top - 1))
    };
    let under_w = if has_right { left_w } else { w };
    let stack_w = if has_right && !library_wide {
        left_w
    } else {
        w
    };
    const IDS_ROWS: u16 = 4;
    const WARNING_ROWS: u16 = 1;
    // The panels the user turned on come first (in priority order), then
    // those shown because there is room: a toggle always shows its panel.
    let turned_on = Panel::BY_PRIORITY.into_iter().filter(|&p| toggles.is_on(p));
    let others = Panel::BY_PRIORITY
        .into_iter()
        .filter(|&p| !toggles.is_on(p) && p.shown_when_room());
    let wanted: Vec<Panel> = turned_on.chain(others).collect();
    let fill = |ids_rows: u16| {
        let under_y = ids_y + ids_rows;
        let reserve = if ids_rows > 0 { WARNING_ROWS } else { 0 };
        let under_h = footer_y.saturating_sub(under_y + reserve);
        let mut stacks: Vec<Stack> = right_for(ids_rows).into_iter().map(Stack::new).collect();
        stacks.push(Stack::new(Rect::new(x, under_y, stack_w, under_h)));
        let mut missing = Vec::new();
        for &p in &wanted {
            let fits = |s: &&mut Stack| s.takes(p);
            let ideal = |s: &Stack| s.area.width >= p.ideal_width();
            let best = stacks.iter_mut().filter(fits).max_by_key(|s| {
                (
                    ideal(s),
                    if ideal(s) {
                        s.spare
                    } else {
                        i32::from(s.area.width)
                    },
                )
            });
            match best {
                Some(s) => s.put(p),
                None => missing.push(p),
            }
        }
        (stacks, missing)
    };
    // A panel turned on that does not fit takes the IDs' rows (and the
    // warnings' row) on a short screen; the others wait for room.
    let (mut stacks, missing) = fill(IDS_ROWS);
    let ids_rows = if missing.iter().any(|&p| toggles.is_on(p)) {
        stacks = fill(0).0;
        0
    } else {
        IDS_ROWS
    };
    let right = right_for(ids_rows);
    let mut panels = [None; Panel::COUNT];
    let mut warnings_y = ids_y + ids_rows;
    for s in &stacks {
        let end = s.place(&mut panels);
        if s.area.x == x {
            warnings_y = end;
        }
    }
    Some(Areas {
        title: row(top, 1),
        board: Rect::new(x, top + 1, board_w, BOARD_LINES),
        panel: Rect::new(x + board_w + 1, top + 1, widget_w, BOARD_LINES),
        place: Rect::new(x, top + 1 + BOARD_LINES, under_w, 1),
        ids: Rect::new(x, ids_y, under_w, ids_rows),
        warnings: Rect::new(x, warnings_y, stack_w, footer_y.saturating_sub(warnings_y)),
        panels,
        right,
        prompt: row(bottom - 3, 1),
        status: row(bottom - 2, 1),
        hints: row(bottom - 1, 1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tall_column_is_used_by_the_panels_that_list_more() {
        // 250×70 with a match open: the match panel and the analysis share
        // the column beside the board to the footer, not 16 and 24 rows of
        // it.
        let mut on = PanelToggles::default();
        on.toggle(Panel::Match);
        let a = areas_with(Rect::new(0, 0, 250, 70), on).unwrap();
        let right = a.right.expect("a column beside the board");
        let m = panel_area(&a, Panel::Match).unwrap();
        let an = panel_area(&a, Panel::Analysis).unwrap();
        assert_eq!(m.x, right.x, "{m:?} {right:?}");
        assert!(m.height > Panel::Match.max_rows(), "{m:?}");
        assert_eq!(m.height + an.height, right.height, "{m:?} {an:?} {right:?}");
        // The numbers, which have nothing more to show, keep their most.
        let n = panel_area(&a, Panel::Numbers).unwrap();
        assert_eq!(n.height, Panel::Numbers.max_rows());
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
    fn panels_toggle_on_small_screens_taking_the_ids_rows() {
        let small = Rect::new(0, 0, 80, 24);
        let a = areas(small).unwrap();
        assert_eq!(panel_area(&a, Panel::Analysis), None);
        assert_eq!(a.right, None);
        assert_eq!(a.ids.height, 4);
        let mut on = PanelToggles::default();
        on.toggle(Panel::Analysis);
        let a = areas_with(small, on).unwrap();
        let p = panel_area(&a, Panel::Analysis).unwrap();
        assert_eq!(a.ids.height, 0, "the panel takes the IDs' rows");
        assert!(p.height >= Panel::Analysis.min_rows());
        let mut lib = PanelToggles::default();
        lib.toggle(Panel::Library);
        let small = areas_with(small, lib).unwrap();
        let l = panel_area(&small, Panel::Library).unwrap();
        assert_eq!(small.ids.height, 0, "it takes the IDs' rows");
        assert!(l.height >= Panel::Library.min_rows());
        assert!(l.y + l.height <= small.prompt.y);
    }

    #[test]
    fn wide_screens_put_panels_in_a_column_beside_the_board() {
        // 120×40: the numbers beside the board, top to footer, whole; the
        // analysis under the IDs.
        let a = areas(Rect::new(0, 0, 120, 40)).unwrap();
        let right = a.right.expect("a column beside the board");
        let n = panel_area(&a, Panel::Numbers).unwrap();
        assert_eq!((n.x, n.y), (right.x, 1));
        assert!(n.width >= Panel::Numbers.ideal_width());
        assert!(n.height >= 30, "every row of a match's numbers: {n:?}");
        let an = panel_area(&a, Panel::Analysis).unwrap();
        assert_eq!(an.y, a.ids.y + 4);
        assert!(an.height >= 15);
        // 200×60: nothing cut, the numbers whole, the IDs kept.
        let a = areas(Rect::new(0, 0, 200, 60)).unwrap();
        let an = panel_area(&a, Panel::Analysis).unwrap();
        assert!(an.width >= Panel::Analysis.ideal_width());
        assert!(an.height >= Panel::Analysis.max_rows(), "{an:?}");
        let n = panel_area(&a, Panel::Numbers).unwrap();
        assert!(n.height >= 36, "{n:?}");
        assert_eq!(a.ids.height, 4);
        // The library, when opened, as wide as its list and preview.
        let mut on = PanelToggles::default();
        on.toggle(Panel::Library);
        let a = areas_with(Rect::new(0, 0, 200, 60), on).unwrap();
        let l = panel_area(&a, Panel::Library).unwrap();
        assert!(l.width >= Panel::Library.ideal_width(), "{l:?}");
        assert!(l.height >= Panel::Library.max_rows(), "{l:?}");
        assert!(panel_area(&a, Panel::Analysis).is_some());
        // gnubg's side text only where the analysis still fits beside it.
        assert_eq!(areas(Rect::new(0, 0, 200, 60)).unwrap().board.width, 49);
        assert_eq!(areas(Rect::new(0, 0, 250, 70)).unwrap().board.width, 85);
    }

    #[test]
    fn at_every_size_and_toggle_panels_stay_apart_and_on_screen() {
        let all = [
            Panel::Analysis,
            Panel::Match,
            Panel::Numbers,
            Panel::Library,
        ];
        for w in (80..=260).step_by(7) {
            for h in (24..=76).step_by(4) {
                let screen = Rect::new(0, 0, w, h);
                for bits in 0u32..16 {
                    let mut on = PanelToggles::default();
                    for (i, &p) in all.iter().enumerate() {
                        if bits & (1 << i) != 0 {
                            on.toggle(p);
                        }
                    }
                    let a = areas_with(screen, on).unwrap();
                    let fixed = [a.title, a.board, a.panel, a.place, a.ids, a.prompt];
                    let shown: Vec<(Panel, Rect)> = all
                        .iter()
                        .filter_map(|&p| panel_area(&a, p).map(|r| (p, r)))
                        .collect();
                    for &(p, r) in &shown {
                        let at = format!("{p:?} {r:?} at {w}x{h} toggles {bits:04b}");
                        assert!(screen.contains(r.as_position()), "{at}");
                        assert!(r.right() <= w && r.bottom() <= a.prompt.y, "{at}");
                        assert!(r.height >= p.min_rows() && r.width >= p.min_width(), "{at}");
                        for f in fixed {
                            assert!(!f.intersects(r), "{at} overlaps {f:?}");
                        }
                        for &(q, o) in &shown {
                            assert!(q == p || !o.intersects(r), "{at} overlaps {q:?}");
                        }
                    }
                    // A panel turned on alone is shown, whatever the size.
                    for &p in &all {
                        if on.is_on(p) && bits.count_ones() == 1 {
                            assert!(panel_area(&a, p).is_some(), "{p:?} at {w}x{h}");
                        }
                    }
                }
            }
        }
    }
}
