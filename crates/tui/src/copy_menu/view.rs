//! The copy menu overlay (`F`): every format with its letter, read from the
//! menu's one table.

use super::state::ENTRIES;
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

pub fn lines(theme: &Theme) -> Vec<Line<'static>> {
    ENTRIES
        .iter()
        .map(|e| {
            Line::from(vec![
                Span::styled(format!(" {}  ", e.key), theme.key),
                Span::raw(e.label),
            ])
        })
        .collect()
}

pub fn draw(frame: &mut Frame, screen: Rect, theme: &Theme) {
    let all = lines(theme);
    let width = screen.width.min(44);
    let height = (all.len() as u16 + 2).min(screen.height);
    let area = Rect::new(
        screen.x + (screen.width - width) / 2,
        screen.y + (screen.height - height) / 2,
        width,
        height,
    );
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Copy — a letter; any other key closes ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(all), inner);
}
