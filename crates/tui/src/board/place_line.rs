//! The line under the board: where the cursor is (the place, its number
//! for each player, what stands there) and the brush, the colour that
//! 1–9 and clicks put on an empty point. Always shown, whatever the status
//! message says.

use crate::snapshot::Snapshot;
use crate::ui::theme::Theme;
use bgedit_core::domain::Player;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, area: Rect, snapshot: &Snapshot, theme: &Theme) {
    let brush_style = match snapshot.brush {
        Player::X => theme.x,
        Player::O => theme.o,
    };
    let line = Line::from(vec![
        Span::styled(" Cursor ", theme.label),
        Span::raw(format!("{:<34}", snapshot.place)),
        Span::styled(" Brush ", theme.label),
        Span::styled(snapshot.brush.to_string(), brush_style),
        Span::styled(" (1–9, clicks on empty points)", theme.dim),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}
