//! The `?` overlay: every key binding, by section, read from the same table
//! as the key resolution and the status-bar hints.

use super::theme::Theme;
use crate::editor::keymap::{BINDINGS, Section};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// The help's lines: a title for each section, then its bindings.
pub fn lines(theme: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for section in Section::ALL {
        out.push(Line::styled(section.title(), theme.title));
        for b in BINDINGS.iter().filter(|b| b.section == section) {
            out.push(Line::from(vec![
                Span::styled(format!("{:<10}", b.label), theme.key),
                Span::raw(b.help),
            ]));
        }
    }
    // The library's and the match panel's own tables (their keys while
    // they have them).
    out.push(Line::styled("Library panel (+ L)", theme.title));
    for (label, help) in crate::editor::library::keys::help_rows() {
        out.push(Line::from(vec![
            Span::styled(format!("{label:<10}"), theme.key),
            Span::raw(help),
        ]));
    }
    out.push(Line::styled(
        "Match panel (^O opens, v focuses)",
        theme.title,
    ));
    for (label, help) in crate::editor::match_review::keys::help_rows() {
        out.push(Line::from(vec![
            Span::styled(format!("{label:<10}"), theme.key),
            Span::raw(help),
        ]));
    }
    out
}

/// Draws the help in two columns; when the keys do not fit the screen, in
/// pages (`page` is clamped to the last one).
pub fn draw(frame: &mut Frame, screen: Rect, page: u16, theme: &Theme) {
    let all = lines(theme);
    let width = screen.width.min(100);
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
            " Keys {}/{pages} — ↓ ↑ pages, any other key closes · mouse: click selects, again adds ",
            page + 1
        )
    } else {
        " Keys — any key closes · mouse: click selects, again adds, right removes ".to_owned()
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
