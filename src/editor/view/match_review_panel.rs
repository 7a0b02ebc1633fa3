//! Draws the match panel in its slot: the header, the games on one wrapped
//! line, then the current game's decisions, scrolled so the one under the
//! cursor shows, marked by gnubg's skill colours.

use crate::domain::skill::Skill;
use crate::editor::match_review::panel::ReviewPanel;
use crate::editor::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

pub fn draw(frame: &mut Frame, area: Rect, panel: &ReviewPanel, theme: &Theme) {
    frame.render_widget(Clear, area);
    if area.height == 0 {
        return;
    }
    let left = if panel.left {
        " · left (v returns)"
    } else {
        ""
    };
    frame.render_widget(
        Paragraph::new(Line::styled(
            format!(" {}{left}", panel.header),
            theme.title,
        )),
        Rect { height: 1, ..area },
    );
    if area.height < 3 {
        return;
    }
    let mut games: Vec<Span> = vec![Span::styled("Games ", theme.label)];
    for (text, current) in &panel.games {
        let style = if *current { theme.cursor } else { theme.dim };
        games.push(Span::styled(text.clone(), style));
        games.push(Span::raw("  "));
    }
    // One line when the games fit in it, else two (wrapped).
    let games_width: usize = 6 + panel
        .games
        .iter()
        .map(|(t, _)| t.chars().count() + 2)
        .sum::<usize>();
    let games_lines = if games_width <= usize::from(area.width) {
        1
    } else {
        2
    };
    let games_area = Rect {
        y: area.y + 1,
        height: (area.height - 2).min(games_lines),
        ..area
    };
    frame.render_widget(
        Paragraph::new(Line::from(games)).wrap(Wrap { trim: true }),
        games_area,
    );
    let list = Rect {
        y: games_area.y + games_area.height,
        height: area.height - 1 - games_area.height,
        ..area
    };
    let rows = usize::from(list.height);
    let current = panel.rows.iter().position(|r| r.current).unwrap_or(0);
    let first = current
        .saturating_sub(rows / 2)
        .min(panel.rows.len().saturating_sub(rows));
    let lines: Vec<Line> = panel
        .rows
        .iter()
        .skip(first)
        .take(rows)
        .map(|r| {
            let style = match r.skill {
                Some(Skill::VeryBad) | Some(Skill::Bad) => theme.error,
                Some(Skill::Doubtful) => theme.warning,
                _ => ratatui::style::Style::default(),
            };
            let style = if r.current {
                style.patch(theme.cursor)
            } else {
                style
            };
            Line::styled(r.text.clone(), style)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
}
