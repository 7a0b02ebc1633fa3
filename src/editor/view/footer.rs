//! Below the IDs: warnings about odd states, the input line, the message of
//! the last action, and key hints from the binding table.

use super::layout::Areas;
use super::messages;
use super::theme::Theme;
use crate::editor::model::Tone;
use crate::editor::snapshot::{PromptLine, Snapshot};
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

    if let Some(line) = &snapshot.prompt {
        frame.render_widget(
            Paragraph::new(prompt_line(line, areas.prompt.width, theme)),
            areas.prompt,
        );
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

/// The question, then the text scrolled so the cursor shows: the cursor's
/// character reversed (a block after the end), a selected value reversed
/// whole.
fn prompt_line(line: &PromptLine, width: u16, theme: &Theme) -> Line<'static> {
    let question = format!(" {}: ", line.question);
    let mut spans = vec![Span::styled(question.clone(), theme.key)];
    if line.prompt.kind.is_yes_no() {
        return Line::from(spans);
    }
    let room = usize::from(width).saturating_sub(question.chars().count() + 1);
    let (shown, at) = line.prompt.window(room);
    let chars: Vec<char> = shown.chars().collect();
    if line.prompt.selected {
        spans.push(Span::styled(shown.clone(), theme.cursor));
        spans.push(Span::styled("█", theme.key));
        return Line::from(spans);
    }
    let before: String = chars[..at.min(chars.len())].iter().collect();
    spans.push(Span::raw(before));
    match chars.get(at) {
        Some(c) => {
            spans.push(Span::styled(c.to_string(), theme.cursor));
            spans.push(Span::raw(chars[at + 1..].iter().collect::<String>()));
        }
        None => spans.push(Span::styled("█", theme.key)),
    }
    Line::from(spans)
}
