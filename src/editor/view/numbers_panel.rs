//! The numbers panel: match winning chances with NEMG, take points, gammon
//! values, the market window and race counts, as the snapshot lists them.

use super::theme::Theme;
use crate::editor::snapshot::Snapshot;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Padding, Paragraph};

pub fn draw(frame: &mut Frame, area: Rect, snapshot: &Snapshot, theme: &Theme) {
    let block = Block::default()
        .borders(Borders::TOP)
        // A margin like the other widgets', where the panel has room for it.
        .padding(Padding::left(u16::from(area.width >= 40)))
        .title(Line::styled(" Numbers at the score (#) ", theme.label));
    let lines: Vec<Line> = snapshot
        .numbers
        .iter()
        .map(|l| Line::raw(l.as_str()))
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
