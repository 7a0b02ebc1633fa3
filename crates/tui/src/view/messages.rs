//! Messages too long for their line: the status message and warnings are
//! shortened with `…` (and point at `H`), warnings beyond the rows shown
//! become "+N more (H)", and the `H` overlay shows every current warning
//! and the whole message log, wrapped.

use crate::model::{Status, Tone};
use crate::snapshot::Snapshot;
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

/// What a shortened line ends with: the mark, and where the rest is.
const CUT_MARK: &str = "… (H)";

/// `text` in at most `width` characters; when cut, it ends with `… (H)`.
pub(crate) fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mark = CUT_MARK.chars().count();
    if width <= mark {
        return text
            .chars()
            .take(width.saturating_sub(1))
            .chain(['…'])
            .collect();
    }
    let mut out: String = text.chars().take(width - mark).collect();
    out.truncate(out.trim_end().len());
    out.push_str(CUT_MARK);
    out
}

/// The warning lines for `rows` rows of `width` columns: all of them if
/// they fit, else as many as fit less one, then "+N more (H)".
pub(crate) fn warning_lines(warnings: &[String], rows: usize, width: usize) -> Vec<String> {
    let line = |w: &String| shorten(&format!(" warning: {w}"), width);
    if warnings.len() <= rows {
        return warnings.iter().map(line).collect();
    }
    if rows == 0 {
        return Vec::new();
    }
    // The last row still shows a warning (with one row, the first): a
    // count alone tells nothing of what is wrong.
    let shown = rows - 1;
    let mut out: Vec<String> = warnings.iter().take(shown).map(line).collect();
    let more = warnings.len() - shown - 1;
    let count = format!(" +{more} more (H)");
    let room = width.saturating_sub(count.chars().count());
    let mut last: String = format!(" warning: {}", warnings[shown]);
    if last.chars().count() > room {
        last = last.chars().take(room.saturating_sub(1)).collect();
        last.truncate(last.trim_end().len());
        last.push('…');
    }
    last.push_str(&count);
    out.push(shorten(&last, width));
    out
}

fn tone_prefix(status: &Status) -> &'static str {
    match status.tone {
        Tone::Error => "error: ",
        Tone::Success | Tone::Info => "",
    }
}

/// The `H` overlay.
pub fn draw(frame: &mut Frame, screen: Rect, snapshot: &Snapshot, theme: &Theme) {
    let width = screen.width.min(110);
    let height = screen.height.saturating_sub(2).max(3).min(screen.height);
    let area = Rect::new(
        screen.x + (screen.width - width) / 2,
        screen.y + (screen.height - height) / 2,
        width,
        height,
    );
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Messages, newest first — any key closes ");
    let mut lines = Vec::new();
    if !snapshot.warnings.is_empty() {
        lines.push(Line::styled("Warnings now", theme.title));
        for w in &snapshot.warnings {
            lines.push(Line::styled(format!("warning: {w}"), theme.warning));
        }
        lines.push(Line::raw(""));
    }
    lines.push(Line::styled("Messages", theme.title));
    for status in &snapshot.messages {
        let style = match status.tone {
            Tone::Error => theme.error,
            Tone::Success => theme.success,
            Tone::Info => ratatui::style::Style::default(),
        };
        lines.push(Line::styled(
            format!("{}{}", tone_prefix(status), status.text),
            style,
        ));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_with_a_mark_pointing_at_the_log() {
        assert_eq!(shorten("short", 80), "short");
        let long = "XGID copied to the clipboard · note: the XGID has no Jacoby flag in a match";
        let cut = shorten(long, 40);
        assert_eq!(cut.chars().count(), 40);
        assert!(cut.ends_with("… (H)"), "{cut}");
        assert!(long.starts_with(cut.trim_end_matches("… (H)")));
        assert_eq!(shorten("abcdef", 3), "ab…");
    }

    #[test]
    fn warnings_beyond_the_rows_become_a_count() {
        let w: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        assert_eq!(
            warning_lines(&w, 2, 80),
            vec![
                " warning: a".to_owned(),
                " warning: b +2 more (H)".to_owned()
            ]
        );
        // One row: the first warning, and the count of the others.
        assert_eq!(warning_lines(&w, 1, 80), vec![" warning: a +3 more (H)"]);
        let long = vec!["x".repeat(100), "y".to_owned()];
        let cut = &warning_lines(&long, 1, 40)[0];
        assert_eq!(cut.chars().count(), 40, "{cut}");
        assert!(
            cut.starts_with(" warning: xxx") && cut.ends_with("… +1 more (H)"),
            "{cut}"
        );
        assert_eq!(warning_lines(&w, 4, 80).len(), 4);
        assert_eq!(warning_lines(&w[..2], 2, 80)[1], " warning: b");
        assert!(warning_lines(&w, 0, 80).is_empty());
    }
}
