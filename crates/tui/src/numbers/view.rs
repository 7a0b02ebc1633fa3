//! The numbers panel: match winning chances with NEMG, take points, gammon
//! values, the market window and race counts, as the snapshot lists them.
//! A panel shorter than its rows scrolls (PgUp/PgDn) and says which rows
//! are on show, rather than cutting the last ones off unsaid.

use crate::snapshot::Snapshot;
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Padding, Paragraph};

pub fn draw(frame: &mut Frame, area: Rect, snapshot: &Snapshot, theme: &Theme) {
    let rows = snapshot.numbers.len();
    let room = usize::from(area.height.saturating_sub(1));
    let first = usize::from(snapshot.numbers_scroll).min(rows.saturating_sub(room));
    let title = if rows > room {
        let shown = format!(
            "rows {}–{} of {rows}, PgUp/PgDn",
            first + 1,
            (first + room).min(rows)
        );
        // In a narrow column the name gives way to the scroll keys.
        let long = format!(" Numbers at the score (#) · {shown} ");
        if long.chars().count() <= usize::from(area.width) {
            long
        } else {
            format!(" Numbers (#) · {shown} ")
        }
    } else {
        " Numbers at the score (#) ".to_owned()
    };
    let block = Block::default()
        .borders(Borders::TOP)
        // A margin like the other widgets', where the panel has room for it.
        .padding(Padding::left(u16::from(area.width >= 40)))
        .title(Line::styled(title, theme.label));
    let lines: Vec<Line> = snapshot.numbers[first..]
        .iter()
        .map(|l| Line::raw(l.as_str()))
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
