//! The statistics view of a player by theme (`t` on a player's
//! statistics): their decisions grouped by game plan, gnubg's class, score
//! class or kind, each group's decisions, errors, error rate and PR and its
//! costliest positions, the worst first: what `bgedit stats --player NAME
//! --by THEME` prints (the same computation, `library::theme_stats`).

use crate::ui::theme::Theme;
use bgedit_core::quote::printable;
use bgedit_library::theme_stats::ThemeStats;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// The view's text: its part of the snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThemesView {
    pub title: String,
    /// The header line, then each group's line followed by its costliest
    /// positions (indented).
    pub lines: Vec<String>,
    pub scroll: u16,
}

fn one(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"))
}

/// The view of `stats`.
pub fn of(stats: &ThemeStats, scroll: u16) -> ThemesView {
    let by = stats.by.name();
    let mut lines = vec![format!(
        "{by:<14} {:>9} {:>6} {:>8} {:>10} {:>6}",
        "decisions", "errors", "error", "rate mEMG", "PR"
    )];
    for g in &stats.groups {
        lines.push(format!(
            "{:<14} {:>9} {:>6} {:>8.3} {:>10} {:>6}",
            g.key,
            g.decisions,
            g.errors,
            g.error,
            one(g.error_rate_memg),
            one(g.pr)
        ));
        for c in &g.costliest {
            lines.push(format!(
                "    {:.3}  {:<7} {}  played {}, best {}  (match {})",
                c.error,
                c.kind.word(),
                c.gnubg_id,
                printable(&c.played),
                printable(&c.best),
                c.match_id
            ));
        }
    }
    ThemesView {
        title: format!(
            " {} by {by}, worst first ({} analysed matches) · t: next theme ",
            printable(&stats.player),
            stats.matches
        ),
        lines,
        scroll,
    }
}

pub fn draw(frame: &mut Frame, area: Rect, view: &ThemesView, theme: &Theme) {
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(view.title.clone());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let lines: Vec<Line> = view
        .lines
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
    frame.render_widget(Paragraph::new(lines).scroll((view.scroll, 0)), inner);
}
