//! The match widgets beside the board: who is on roll, dice, cube, score,
//! Crawford, Jacoby and beavers, pips and borne-off counts, names.

use crate::snapshot::Snapshot;
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

const LABEL_WIDTH: usize = 9;

pub fn draw(frame: &mut Frame, area: Rect, snapshot: &Snapshot, theme: &Theme) {
    let lines: Vec<Line> = snapshot
        .fields
        .iter()
        .map(|f| {
            let value_style = if f.not_applicable {
                theme.dim
            } else {
                ratatui::style::Style::default()
            };
            Line::from(vec![
                Span::styled(format!("{:<LABEL_WIDTH$}", f.label), theme.label),
                Span::styled(f.value.clone(), value_style),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}
