//! gnubg's analysis below the board: a header saying the depth shown and
//! what is running, then the ranked moves (scrolled to keep the selected one
//! in view) or the cube decision.

use crate::editor::snapshot::Snapshot;
use crate::editor::ui::text::wrap;
use crate::editor::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, area: Rect, snapshot: &Snapshot, theme: &Theme) {
    let Some(second) = &snapshot.second_analysis else {
        draw_text(frame, area, &snapshot.analysis, snapshot.previewing, theme);
        return;
    };
    // gnubg and Sage: side by side where each gets a list's width (about
    // 70 columns), else one above the other.
    use ratatui::layout::{Constraint, Direction, Layout};
    let direction = if area.width >= 140 {
        Direction::Horizontal
    } else {
        Direction::Vertical
    };
    let halves = Layout::default()
        .direction(direction)
        .constraints([Constraint::Ratio(1, 2), Constraint::Ratio(1, 2)])
        .split(area);
    let (left, right) = if direction == Direction::Horizontal {
        // A column between the two lists.
        let r = halves[1];
        (
            halves[0],
            Rect {
                x: r.x + 1,
                width: r.width.saturating_sub(1),
                ..r
            },
        )
    } else {
        (halves[0], halves[1])
    };
    draw_text(frame, left, &snapshot.analysis, snapshot.previewing, theme);
    draw_text(frame, right, second, false, theme);
}

fn draw_text(
    frame: &mut Frame,
    area: Rect,
    t: &crate::editor::analysis::PanelText,
    previewing: bool,
    theme: &Theme,
) {
    // The header and notes wrapped, not cut: they carry what is running
    // and why there is no answer (gnubg missing, a state gnubg refuses).
    let width = usize::from(area.width).max(20);
    let mut lines: Vec<Line> = wrap(&format!("Analysis · {}", t.header), width)
        .into_iter()
        .map(|l| Line::styled(l, theme.title))
        .collect();
    for note in &t.notes {
        lines.extend(
            wrap(note, width)
                .into_iter()
                .map(|l| Line::styled(l, theme.label)),
        );
    }
    // The column headers even on a short panel: figures without them are
    // a guess (the top 4 moves at 80×24).
    if let Some(c) = &t.columns {
        lines.push(Line::styled(c.clone(), theme.label));
    }
    let room = usize::from(area.height).saturating_sub(lines.len());
    let first = match t.selected {
        Some(s) if s >= room => s + 1 - room,
        _ => 0,
    };
    // The score matrix's wide grid where it fits, its cells coloured by
    // action.
    let grid = !t.wide_rows.is_empty();
    let fits = |rows: &[String]| {
        rows.iter()
            .all(|r| r.chars().count() <= usize::from(area.width))
    };
    let rows = if grid && fits(&t.wide_rows) {
        &t.wide_rows
    } else {
        &t.rows
    };
    for (i, row) in rows.iter().enumerate().skip(first).take(room) {
        if grid && i > 0 {
            lines.push(coloured(row));
            continue;
        }
        let style = if t.selected == Some(i) && previewing {
            theme.cursor
        } else {
            ratatui::style::Style::default()
        };
        lines.push(Line::styled(row.clone(), style));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// A matrix row with each action in its colour: no double green, double
/// and take yellow, double and pass red, too good magenta.
fn coloured(row: &str) -> Line<'static> {
    use ratatui::style::{Color, Style};
    use ratatui::text::Span;
    let mut spans = Vec::new();
    let mut rest = row;
    while !rest.is_empty() {
        let start = rest.len() - rest.trim_start().len();
        if start > 0 {
            spans.push(Span::raw(rest[..start].to_owned()));
            rest = &rest[start..];
            continue;
        }
        let end = rest.find(' ').unwrap_or(rest.len());
        let word = &rest[..end];
        let colour = match word {
            "ND" | "ND/B" => Some(Color::Green),
            "D/T" | "D/B" => Some(Color::Yellow),
            "D/P" => Some(Color::Red),
            "TG" => Some(Color::Magenta),
            _ => None,
        };
        spans.push(match colour {
            Some(c) => Span::styled(word.to_owned(), Style::default().fg(c)),
            None => Span::raw(word.to_owned()),
        });
        rest = &rest[end..];
    }
    Line::from(spans)
}
