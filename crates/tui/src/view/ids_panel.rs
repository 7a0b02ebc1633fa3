//! The four IDs, recomputed from the snapshot on every change.

use crate::snapshot::Snapshot;
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, area: Rect, snapshot: &Snapshot, theme: &Theme) {
    let lines: Vec<Line> = snapshot
        .ids
        .iter()
        .map(|(label, id)| {
            Line::from(vec![
                Span::styled(format!(" {label:<12}"), theme.label),
                Span::raw(id.clone()),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}
