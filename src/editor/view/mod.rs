//! Drawing: one function per widget, all from a [`Snapshot`].
//!
//! - `layout.rs`: where each widget goes, and which board place a cell is
//! - `board.rs`: gnubg's board with the cursor and colours
//! - `match_panel.rs`: cube, dice, score, flags, pips, names
//! - `place_line.rs`: the place under the cursor and the brush colour
//! - `ids_panel.rs`: the four IDs
//! - `analysis_panel`: the analysis (gnubg, Sage): `editor/analysis/view.rs`
//! - `numbers_panel`: numbers at the score (`#`): `editor/numbers/view.rs`
//! - `footer.rs`: warnings, input line, status message, key hints
//! - `help.rs`: the `?` overlay
//! - `messages.rs`: shortening long messages, and the `H` message log
//! - `library_panel.rs`: the study library's list, note editor and review
//! - `match_review_panel.rs`: the match being reviewed (games, decisions)
//! - `theme.rs`: colours, or none under `NO_COLOR`

pub mod footer;
pub mod help;
pub mod ids_panel;
pub mod layout;
pub mod library_panel;
pub mod match_panel;
pub mod match_review_panel;
pub mod messages;
pub mod theme;

use super::snapshot::Snapshot;
pub use crate::editor::analysis::view as analysis_panel;
pub use crate::editor::board::{place_line, view as board};
pub use crate::editor::copy_menu::view as copy_menu;
pub use crate::editor::numbers::view as numbers_panel;
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
pub use theme::Theme;

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, snapshot: &Snapshot, theme: &Theme) {
    let area = frame.area();
    let Some(areas) = layout::areas_with(area, snapshot.panels) else {
        draw_too_small(frame, area);
        return;
    };
    let title = Line::styled(
        format!(
            " bgedit — backgammon position editor · {} on roll{}",
            snapshot.on_roll,
            if snapshot.previewing {
                " · PREVIEW of the selected move (Enter plays, Esc closes)"
            } else {
                ""
            }
        ),
        theme.title,
    );
    frame.render_widget(Paragraph::new(title), areas.title);
    board::draw(frame, areas.board, snapshot, theme);
    match_panel::draw(frame, areas.panel, snapshot, theme);
    place_line::draw(frame, areas.place, snapshot, theme);
    ids_panel::draw(frame, areas.ids, snapshot, theme);
    if let Some(r) = areas.right {
        // A rule between the left block and the column beside it, so that
        // rows cut at the column's edge are not read on into it.
        let rule = Rect::new(r.x - 1, r.y, 1, r.height);
        let bars = vec![Line::styled("│", theme.label); usize::from(r.height)];
        frame.render_widget(Paragraph::new(bars), rule);
    }
    if let Some(a) = layout::panel_area(&areas, layout::Panel::Analysis) {
        analysis_panel::draw(frame, a, snapshot, theme);
    }
    if let Some(a) = layout::panel_area(&areas, layout::Panel::Numbers) {
        numbers_panel::draw(frame, a, snapshot, theme);
    }
    if let (Some(a), Some(review)) = (
        layout::panel_area(&areas, layout::Panel::Match),
        &snapshot.review,
    ) {
        match_review_panel::draw(frame, a, review, theme);
    }
    if let (Some(a), Some(lib)) = (
        layout::panel_area(&areas, layout::Panel::Library),
        &snapshot.library,
    ) {
        library_panel::draw(frame, a, lib, theme);
    }
    footer::draw(frame, &areas, snapshot, theme);
    if snapshot.help {
        help::draw(frame, area, snapshot.help_page, theme);
    }
    if snapshot.messages_open {
        messages::draw(frame, area, snapshot, theme);
    }
    if snapshot.copy_menu {
        copy_menu::draw(frame, area, theme);
    }
}

fn draw_too_small(frame: &mut Frame, area: Rect) {
    let text = format!(
        "Terminal too small: enlarge to {}×{} (now {}×{})",
        layout::MIN_WIDTH,
        layout::MIN_HEIGHT,
        area.width,
        area.height
    );
    let y = area.height / 2;
    let line = Rect::new(
        area.x,
        area.y + y,
        area.width,
        area.height.saturating_sub(y).min(3),
    );
    frame.render_widget(
        Paragraph::new(text)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true }),
        line,
    );
}
