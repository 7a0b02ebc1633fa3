//! The library panel: the highlighted entry's details beside the board
//! (where the match panel is), and the list, the note editor or the review
//! card under it (where the IDs are).

use super::layout::Areas;
use super::theme::Theme;
use crate::editor::library::snapshot::LibrarySnapshot;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};

/// The area under the board the panel takes: the IDs' and warnings' rows.
pub fn body_area(areas: &Areas) -> Rect {
    let top = areas.ids.y;
    let bottom = areas.prompt.y;
    Rect::new(
        areas.ids.x,
        top,
        areas.ids.width,
        bottom.saturating_sub(top),
    )
}

pub fn draw(frame: &mut Frame, areas: &Areas, lib: &LibrarySnapshot, theme: &Theme) {
    frame.render_widget(Clear, areas.panel);
    let detail: Vec<Line> = lib
        .detail
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                Line::styled(l.clone(), theme.label)
            } else {
                Line::raw(l.clone())
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(detail), areas.panel);

    let body = body_area(areas);
    frame.render_widget(Clear, body);
    if body.height == 0 {
        return;
    }
    let header = match &lib.filter_error {
        Some(e) => Line::styled(format!(" {} · {e}", lib.header), theme.error),
        None => Line::styled(format!(" {}", lib.header), theme.title),
    };
    frame.render_widget(Paragraph::new(header), Rect { height: 1, ..body });
    let rest = Rect {
        y: body.y + 1,
        height: body.height - 1,
        ..body
    };
    if let Some(note) = &lib.note {
        let mut editor = note.0.clone();
        editor.set_block(Block::bordered().title(" Note · Esc saves "));
        frame.render_widget(&editor, rest);
        return;
    }
    if let Some(lines) = &lib.body {
        let lines: Vec<Line> = lines.iter().map(|l| Line::raw(format!(" {l}"))).collect();
        frame.render_widget(Paragraph::new(lines), rest);
        return;
    }
    // A window of the loaded rows that keeps the selection in view.
    let height = usize::from(rest.height);
    let start = lib
        .selected
        .map_or(0, |s| s.saturating_sub(height.saturating_sub(1) / 2))
        .min(lib.rows.len().saturating_sub(height));
    let lines: Vec<Line> = lib
        .rows
        .iter()
        .enumerate()
        .skip(start)
        .take(height)
        .map(|(i, r)| {
            if Some(i) == lib.selected {
                Line::styled(format!(">{r}"), theme.cursor)
            } else {
                Line::raw(format!(" {r}"))
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), rest);
}
