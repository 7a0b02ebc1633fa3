//! Drawing the whole screen: this folder only composes the features' views
//! (each in its feature's `view.rs`) and draws the widgets that belong to
//! no feature. It imports the features; no feature imports it.
//!
//! - `match_panel.rs`: cube, dice, score, flags, pips, names
//! - `ids_panel.rs`: the four IDs
//! - `footer.rs`: warnings, input line, status message, key hints
//! - `help.rs`: the `?` overlay
//! - `messages.rs`: shortening long messages, and the `H` message log
//!
//! The colours and the layout are below the features, in `editor/ui/`.

pub(crate) mod footer;
pub(crate) mod help;
pub(crate) mod ids_panel;
pub(crate) mod match_panel;
pub(crate) mod messages;

use super::snapshot::Snapshot;
use super::ui::layout;
use super::ui::theme::Theme;
use super::{
    analysis, board, copy_menu, library, match_list, match_review, numbers, sensitivity, statistics,
};
use bgedit_core::domain::Place;
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

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
    board::view::draw(frame, areas.board, snapshot, theme);
    match_panel::draw(frame, areas.panel, snapshot, theme);
    board::place_line::draw(frame, areas.place, snapshot, theme);
    ids_panel::draw(frame, areas.ids, snapshot, theme);
    if let Some(r) = areas.right {
        // A rule between the left block and the column beside it, so that
        // rows cut at the column's edge are not read on into it.
        let rule = Rect::new(r.x - 1, r.y, 1, r.height);
        let bars = vec![Line::styled("│", theme.label); usize::from(r.height)];
        frame.render_widget(Paragraph::new(bars), rule);
    }
    if let Some(a) = layout::panel_area(&areas, super::panels::Panel::Analysis) {
        match &snapshot.sensitivity {
            Some(live) => sensitivity::view::draw(frame, a, live, theme),
            None => analysis::view::draw(frame, a, snapshot, theme),
        }
    }
    if let Some(a) = layout::panel_area(&areas, super::panels::Panel::Numbers) {
        numbers::view::draw(frame, a, snapshot, theme);
    }
    if let (Some(a), Some(review)) = (
        layout::panel_area(&areas, super::panels::Panel::Match),
        &snapshot.review,
    ) {
        match_review::view::draw(frame, a, review, theme);
    }
    if let (Some(a), Some(lib)) = (
        layout::panel_area(&areas, super::panels::Panel::Library),
        &snapshot.library,
    ) {
        library::view::draw(frame, a, lib, theme);
    }
    footer::draw(frame, &areas, snapshot, theme);
    if let Some(s) = &snapshot.statistics {
        // The whole screen between the title and the footer.
        let top = areas.title.y + areas.title.height;
        let over = Rect {
            y: top,
            height: areas.prompt.y.saturating_sub(top),
            ..area
        };
        statistics::view::draw(frame, over, s, theme);
    }
    if let Some(m) = &snapshot.matches {
        let top = areas.title.y + areas.title.height;
        let over = Rect {
            y: top,
            height: areas.prompt.y.saturating_sub(top),
            ..area
        };
        match_list::view::draw(frame, over, m, theme);
    }
    if let Some(p) = &snapshot.player_statistics {
        let top = areas.title.y + areas.title.height;
        let over = Rect {
            y: top,
            height: areas.prompt.y.saturating_sub(top),
            ..area
        };
        statistics::player::draw(frame, over, p, theme);
    }
    if let Some(t) = &snapshot.player_themes {
        let top = areas.title.y + areas.title.height;
        let over = Rect {
            y: top,
            height: areas.prompt.y.saturating_sub(top),
            ..area
        };
        statistics::themes::draw(frame, over, t, theme);
    }
    if snapshot.help {
        help::draw(frame, area, snapshot.help_page, theme);
    }
    if snapshot.messages_open {
        messages::draw(frame, area, snapshot, theme);
    }
    if snapshot.copy_menu {
        copy_menu::view::draw(frame, area, theme);
    }
}

fn draw_too_small(frame: &mut Frame, area: Rect) {
    let text = format!(
        "Terminal too small: enlarge to {}×{} (now {}×{})",
        super::panels::MIN_WIDTH,
        super::panels::MIN_HEIGHT,
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

/// The board place under a screen cell, for the mouse.
pub(crate) fn hit(screen: Rect, column: u16, row: u16) -> Option<Place> {
    let a = layout::areas(screen)?;
    if !a
        .board
        .contains(ratatui::layout::Position::new(column, row))
    {
        return None;
    }
    crate::board::view::place_at_cell(column - a.board.x, row - a.board.y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_testing_uses_the_same_layout() {
        let screen = Rect::new(0, 0, 80, 24);
        let a = layout::areas(screen).unwrap();
        assert_eq!(
            hit(screen, a.board.x + 41, a.board.y + 11),
            Some(Place::Point(1))
        );
        assert_eq!(hit(screen, 79, 23), None);
    }
}
