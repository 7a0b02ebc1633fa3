//! Below the IDs: warnings about odd states, the input line, the message of
//! the last action, and key hints from the binding table.

use super::messages;
use crate::model::Tone;
use crate::snapshot::{PromptLine, Snapshot};
use crate::ui::layout::Areas;
use crate::ui::theme::Theme;
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

    let hints = fitting_hints(&snapshot.hints, usize::from(areas.hints.width));
    let mut spans = vec![Span::raw(" ")];
    for (keys, words) in hints {
        spans.push(Span::styled(keys, theme.key));
        spans.push(Span::raw(format!(" {words}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), areas.hints);
}

/// The hints that fit in `width` columns: from the first, and, when some
/// are left out, `…` and the last, which is where each mode puts the key
/// that shows them all.
fn fitting_hints<'a>(hints: &[(&'a str, &'a str)], width: usize) -> Vec<(&'a str, &'a str)> {
    let len = |(k, w): &(&str, &str)| k.chars().count() + w.chars().count() + 3;
    // A leading space, then each hint.
    if hints.iter().map(len).sum::<usize>() < width {
        return hints.to_vec();
    }
    let Some((last, rest)) = hints.split_last() else {
        return Vec::new();
    };
    let mut used = 1 + len(last) + len(&("…", ""));
    let mut out = Vec::new();
    for h in rest {
        used += len(h);
        if used > width {
            break;
        }
        out.push(*h);
    }
    out.push(("…", ""));
    out.push(*last);
    out
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
    let (shown, at) = line.prompt.line.window(room);
    let chars: Vec<char> = shown.chars().collect();
    if line.prompt.line.selected {
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

#[cfg(test)]
mod tests {
    use super::fitting_hints;

    #[test]
    fn cut_hints_keep_the_last_one() {
        let hints = [
            ("j/k", "move"),
            ("Enter", "load"),
            ("d", "delete"),
            ("?", "all keys"),
        ];
        assert_eq!(fitting_hints(&hints, 80), hints.to_vec());
        let cut = fitting_hints(&hints, 40);
        assert_eq!(
            cut,
            vec![
                ("j/k", "move"),
                ("Enter", "load"),
                ("…", ""),
                ("?", "all keys")
            ]
        );
        let width: usize = 1 + cut
            .iter()
            .map(|(k, w)| k.chars().count() + w.chars().count() + 3)
            .sum::<usize>();
        assert_eq!(width, 39);
        assert_eq!(fitting_hints(&hints, 38).len(), 3, "one fewer");
    }
}
