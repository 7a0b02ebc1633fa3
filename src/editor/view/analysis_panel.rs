//! gnubg's analysis below the board: a header saying the depth shown and
//! what is running, then the ranked moves (scrolled to keep the selected one
//! in view) or the cube decision.

use super::theme::Theme;
use crate::editor::snapshot::Snapshot;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, area: Rect, snapshot: &Snapshot, theme: &Theme) {
    let t = &snapshot.analysis;
    let mut lines = vec![Line::styled(
        format!("Analysis · {}", t.header),
        theme.title,
    )];
    lines.extend(t.notes.iter().map(|n| Line::styled(n.clone(), theme.label)));
    // A short panel keeps its rows for moves: the top 5 at 80×24.
    if let Some(c) = t.columns.as_ref().filter(|_| area.height > 6) {
        lines.push(Line::styled(c.clone(), theme.label));
    }
    let room = usize::from(area.height).saturating_sub(lines.len());
    let first = match t.selected {
        Some(s) if s >= room => s + 1 - room,
        _ => 0,
    };
    for (i, row) in t.rows.iter().enumerate().skip(first).take(room) {
        let style = if t.selected == Some(i) && snapshot.previewing {
            theme.cursor
        } else {
            ratatui::style::Style::default()
        };
        lines.push(Line::styled(row.clone(), style));
    }
    frame.render_widget(Paragraph::new(lines), area);
}
