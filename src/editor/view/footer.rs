//! Below the IDs: warnings about odd states, the input line, the message of
//! the last action, and key hints from the binding table.

use super::layout::Areas;
use super::messages;
use super::theme::Theme;
use crate::editor::model::Tone;
use crate::editor::snapshot::Snapshot;
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, areas: &Areas, snapshot: &Snapshot, theme: &Theme) {
    let warnings: Vec<Line> = messages::warning_lines(
        &snapshot.warnings,
        usize::from(areas.warnings.height),
        usize::from(areas.warnings.width),
    )
    .into_iter()
    .map(|w| Line::styled(w, theme.warning))
    .collect();
    frame.render_widget(Paragraph::new(warnings), areas.warnings);

    if let Some((question, text)) = &snapshot.prompt {
        let line = Line::from(vec![
            Span::styled(format!(" {question}: "), theme.key),
            Span::raw(text.clone()),
            Span::styled("█", theme.key),
        ]);
        frame.render_widget(Paragraph::new(line), areas.prompt);
    }

    let (prefix, style) = match snapshot.status.tone {
        Tone::Error => (" error: ", theme.error),
        Tone::Success => (" ", theme.success),
        Tone::Info => (" ", ratatui::style::Style::default()),
    };
    frame.render_widget(
        Paragraph::new(Line::styled(
            messages::shorten(
                &format!("{prefix}{}", snapshot.status.text),
                usize::from(areas.status.width),
            ),
            style,
        )),
        areas.status,
    );

    let mut spans = vec![Span::raw(" ")];
    let width = usize::from(areas.hints.width);
    let mut used = 1;
    for (keys, words) in &snapshot.hints {
        let len = keys.chars().count() + words.chars().count() + 3;
        if used + len > width {
            break;
        }
        used += len;
        spans.push(Span::styled(*keys, theme.key));
        spans.push(Span::raw(format!(" {words}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), areas.hints);
}
