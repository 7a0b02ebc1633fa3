//! The `?` overlay: every key binding, by section, read from the same table
//! as the key resolution and the status-bar hints.

use crate::keymap::{Section, normal_bindings};
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// Columns of a binding's keys, before its words.
const LABEL: usize = 10;

/// The help's lines for columns `width` wide: a title for each section,
/// then its bindings, a long one wrapped under its words rather than cut.
pub fn lines(theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let mut sections: Vec<(&'static str, Vec<(String, String)>)> = Section::ALL
        .iter()
        .map(|&section| {
            (
                section.title(),
                normal_bindings()
                    .filter(|b| b.section == section)
                    .map(|b| (b.label.to_owned(), b.help.to_owned()))
                    .collect(),
            )
        })
        .collect();
    // The library's, the match panel's and the input line's own tables
    // (their keys while they have them), and the mouse.
    sections.push(("Library panel (+ L)", crate::library::keys::help_rows()));
    sections.push((
        "Match panel (^O opens, v focuses)",
        crate::match_review::keys::help_rows(),
    ));
    sections.push((
        "Input line",
        crate::bindings::help_rows(crate::keymap::PROMPT_BINDINGS),
    ));
    sections.push((
        "Statistics view (s in the match panel, P in the library)",
        crate::statistics::keys::help_rows(),
    ));
    sections.push((
        "Match list (^L, M in the library)",
        crate::match_list::keys::help_rows(),
    ));
    sections.push((
        "Mouse",
        [
            ("click", "select a place; again: add a checker"),
            ("right", "remove a checker; wheel: add, remove"),
        ]
        .map(|(l, h)| (l.to_owned(), h.to_owned()))
        .to_vec(),
    ));
    let room = usize::from(width).saturating_sub(LABEL).max(12);
    let mut out = Vec::new();
    for (title, rows) in sections {
        out.push(Line::styled(title, theme.title));
        for (label, help) in rows {
            for (i, part) in crate::ui::text::wrap(&help, room).into_iter().enumerate() {
                let key = if i == 0 { label.as_str() } else { "" };
                out.push(Line::from(vec![
                    Span::styled(format!("{key:<LABEL$}"), theme.key),
                    Span::raw(part),
                ]));
            }
        }
    }
    out
}

/// Draws the help in two columns; when the keys do not fit the screen, in
/// pages (`page` is clamped to the last one).
pub fn draw(frame: &mut Frame, screen: Rect, page: u16, theme: &Theme) {
    let width = screen.width.min(100);
    // Each of the two columns: half the box less its borders and the gap.
    let all = lines(theme, width.saturating_sub(3) / 2);
    let inner_height = screen.height.saturating_sub(2);
    let per_column = all.len().div_ceil(2);
    let height = (per_column as u16 + 2).min(screen.height);
    let area = Rect::new(
        screen.x + (screen.width - width) / 2,
        screen.y + (screen.height - height) / 2,
        width,
        height,
    );
    let rows = usize::from(inner_height.min(height.saturating_sub(2))).max(1);
    let per_page = rows * 2;
    let pages = all.len().div_ceil(per_page).max(1);
    let page = usize::from(page).min(pages - 1);
    let title = if pages > 1 {
        format!(
            " Keys {}/{pages} — ↓ ↑ pages, any other key closes ",
            page + 1
        )
    } else {
        " Keys — any key closes ".to_owned()
    };
    frame.render_widget(Clear, area);
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let half = inner.width / 2;
    let shown: Vec<Line> = all.into_iter().skip(page * per_page).collect();
    let split = per_column.min(rows).min(shown.len());
    let left: Vec<Line> = shown.iter().take(split).cloned().collect();
    let right: Vec<Line> = shown.iter().skip(split).take(rows).cloned().collect();
    frame.render_widget(
        Paragraph::new(left),
        Rect::new(inner.x, inner.y, half, inner.height),
    );
    frame.render_widget(
        Paragraph::new(right),
        Rect::new(
            inner.x + half + 1,
            inner.y,
            inner.width - half - 1,
            inner.height,
        ),
    );
}
