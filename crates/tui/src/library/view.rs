//! The library panel, in its slot of the panel scheme (under the board,
//! like the analysis and numbers panels): a header, then the list, the note
//! editor or the review card, and the highlighted entry's details beside
//! them when the panel is wide enough.

use crate::library::snapshot::LibrarySnapshot;
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Sparkline, Wrap};

/// Columns of a list row with its marker.
const LIST_COLUMNS: u16 = 80;
/// Columns the details need to be worth showing beside the list.
const DETAIL_MIN: u16 = 24;
/// Columns the details use at most (their longest line, a clipped title).
const DETAIL_MAX: u16 = 44;

pub fn draw(frame: &mut Frame, area: Rect, lib: &LibrarySnapshot, theme: &Theme) {
    frame.render_widget(Clear, area);
    if area.height == 0 {
        return;
    }
    let focus = if lib.focused {
        ""
    } else {
        " · L: to the list"
    };
    let header = match &lib.filter_error {
        Some(e) => Line::styled(format!(" {}{focus} · {e}", lib.header), theme.error),
        None => Line::styled(format!(" {}{focus}", lib.header), theme.title),
    };
    frame.render_widget(Paragraph::new(header), Rect { height: 1, ..area });
    let mut rest = Rect {
        y: area.y + 1,
        height: area.height - 1,
        ..area
    };
    if rest.height == 0 {
        return;
    }
    if rest.width >= LIST_COLUMNS + 1 + DETAIL_MIN {
        // The details take up to DETAIL_MAX columns; the list the rest, so
        // a wide panel shows more of each row's note.
        let detail_w = (rest.width - LIST_COLUMNS - 1).min(DETAIL_MAX);
        let list_w = rest.width - detail_w - 1;
        let detail = Rect {
            x: rest.x + list_w + 1,
            width: detail_w,
            ..rest
        };
        rest.width = list_w;
        let lines = crate::ui::text::headed(&lib.detail, theme.label);
        frame.render_widget(Paragraph::new(lines), detail);
    }
    if let Some(note) = &lib.note {
        let mut editor = note.0.clone();
        editor.set_block(Block::bordered().title(" Note · Esc saves "));
        frame.render_widget(&editor, rest);
        return;
    }
    if let Some(trend) = &lib.trend
        && rest.height > 6
    {
        // The quiz's trend: a bar a week, the mean equity lost.
        let spark = Rect {
            y: rest.y + rest.height - 3,
            height: 3,
            ..rest
        };
        rest.height -= 3;
        let block = Block::default()
            .borders(ratatui::widgets::Borders::TOP)
            .title(" Trend: mean mEMG a week, oldest first ");
        frame.render_widget(
            Sparkline::default()
                .block(block)
                .data(trend.as_slice())
                .style(theme.label),
            spark,
        );
    }
    if let Some(lines) = &lib.body {
        let lines: Vec<Line> = lines.iter().map(|l| Line::raw(format!(" {l}"))).collect();
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), rest);
        return;
    }
    // A window of the loaded rows that keeps the selection in view; the
    // marker shows where the keys act, so only while the panel has them.
    let height = usize::from(rest.height);
    let start = lib
        .selected
        .map_or(0, |s| s.saturating_sub(height.saturating_sub(1) / 2))
        .min(lib.rows.len().saturating_sub(height));
    // Each column as wide as its content allows in the room (the marker
    // takes one).
    let laid =
        crate::library::snapshot::layout(&lib.rows, usize::from(rest.width).saturating_sub(1));
    let lines: Vec<Line> = laid
        .iter()
        .enumerate()
        .skip(start)
        .take(height)
        .map(|(i, r)| match (Some(i) == lib.selected, lib.focused) {
            (true, true) => Line::styled(format!(">{r}"), theme.cursor),
            (true, false) => Line::styled(format!("·{r}"), theme.label),
            _ => Line::raw(format!(" {r}")),
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), rest);
}
