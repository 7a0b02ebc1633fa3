//! What the match list shows (pure: its part of the snapshot) and its
//! drawing over the screen above the footer: one row a match, the columns
//! fitted to the width (the players' names share what the others leave).

use super::state::MatchListState;
use crate::ui::theme::Theme;
use bgedit_core::domain::Player;
use bgedit_core::quote::printable;
use bgedit_library::listing::MatchLine;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// One match's cells, escaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowCells {
    pub id: String,
    pub date: String,
    /// O's and X's names, the winner's marked `*`.
    pub players: [String; 2],
    pub length: String,
    pub score: String,
    pub analysis: String,
    pub pr: [String; 2],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchListView {
    pub title: String,
    pub rows: Vec<RowCells>,
    pub cursor: usize,
    /// What the list says under it (how many, the order, the filter).
    pub footer: String,
}

/// The analyses of a match in players' words (`gnubg 2-ply · XG Roller++
/// (file)`).
fn analysis_words(analyses: &[(String, i64, bool)]) -> String {
    let words = bgedit_engine::stored_depth::match_analyses(analyses);
    if words.is_empty() {
        "none".to_owned()
    } else {
        words.join(" · ")
    }
}

fn cells(l: &MatchLine) -> RowCells {
    let one = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"));
    let name = |p: Player| {
        let mark = if l.winner == Some(p) { "*" } else { "" };
        printable(&format!("{}{mark}", l.players[p.index()])).into_owned()
    };
    RowCells {
        id: l.id.to_string(),
        date: l.date.clone().unwrap_or_else(|| "undated".to_owned()),
        players: [name(Player::O), name(Player::X)],
        length: if l.length == 0 {
            "money".to_owned()
        } else {
            l.length.to_string()
        },
        score: l
            .score
            .map_or_else(|| "-".to_owned(), |[o, x]| format!("{o}-{x}")),
        analysis: analysis_words(&l.analyses),
        pr: [one(l.pr[0]), one(l.pr[1])],
    }
}

/// The list's view, when the mode shows it.
pub fn of(state: &MatchListState) -> MatchListView {
    let rows: Vec<RowCells> = state
        .listing
        .as_ref()
        .map(|l| l.lines.iter().map(cells).collect())
        .unwrap_or_default();
    let total = state.listing.as_ref().map_or(0, |l| l.total);
    let undated = state
        .listing
        .as_ref()
        .map_or(0, |l| l.lines.iter().filter(|m| m.date.is_none()).count());
    let mut footer = format!(
        "{} of {total} · by {}",
        bgedit_core::words::count(rows.len(), "match", "matches"),
        state.sort.word()
    );
    if !state.filter.is_empty() {
        footer.push_str(&format!(" · filter: {}", printable(&state.filter)));
    }
    if undated > 0 {
        footer.push_str(&format!(
            " · {} undated (bgedit library date MATCH YYYY-MM-DD)",
            bgedit_core::words::count(undated, "match", "matches")
        ));
    }
    footer.push_str(" · * the winner · PR: XG's");
    let player = state
        .listing
        .as_ref()
        .and_then(|l| l.player.as_ref())
        .map(|p| format!(" of {}", printable(&p.name)))
        .unwrap_or_default();
    MatchListView {
        title: format!("Matches in the library{player}"),
        rows,
        cursor: state.cursor,
        footer,
    }
}

/// `text` in exactly `width` columns: padded, or cut with `…`.
fn fit(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n <= width {
        return format!("{text}{}", " ".repeat(width - n));
    }
    if width == 0 {
        return String::new();
    }
    let mut s: String = text.chars().take(width - 1).collect();
    s.push('…');
    s
}

/// The columns' widths at `width`: the fixed ones, then the names (up to
/// 26 each) sharing what is left with the analysis (a third at least).
fn widths(width: usize) -> [usize; 9] {
    let fixed = [5, 10, 0, 0, 5, 7, 0, 6, 6];
    let gaps = 8;
    let rest = width.saturating_sub(fixed.iter().sum::<usize>() + gaps);
    let name = ((rest - rest / 3) / 2).min(26);
    let analysis = rest - 2 * name;
    [5, 10, name, name, 5, 7, analysis, 6, 6]
}

fn line_of(c: &[&str; 9], w: &[usize; 9]) -> String {
    let right = [true, false, false, false, true, true, false, true, true];
    c.iter()
        .zip(w)
        .zip(right)
        .map(|((t, w), r)| {
            if r {
                format!("{t:>w$}", w = *w)
            } else {
                fit(t, *w)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn draw(frame: &mut Frame, area: Rect, view: &MatchListView, theme: &Theme) {
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Line::styled(format!(" {} ", view.title), theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let w = widths(usize::from(inner.width));
    let header = line_of(
        &[
            "match", "date", "O", "X", "len", "score", "analysis", "PR O", "PR X",
        ],
        &w,
    );
    let room = usize::from(inner.height.saturating_sub(3)).max(1);
    let first = view.cursor.saturating_sub(room - 1);
    let mut lines = vec![Line::styled(header, theme.label)];
    for (i, r) in view.rows.iter().enumerate().skip(first).take(room) {
        let text = line_of(
            &[
                &r.id,
                &r.date,
                &r.players[0],
                &r.players[1],
                &r.length,
                &r.score,
                &r.analysis,
                &r.pr[0],
                &r.pr[1],
            ],
            &w,
        );
        lines.push(if i == view.cursor {
            Line::styled(text, theme.cursor)
        } else {
            Line::raw(text)
        });
    }
    while lines.len() < room + 1 {
        lines.push(Line::raw(""));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(view.footer.clone(), theme.dim));
    frame.render_widget(Paragraph::new(lines), inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fit_the_width() {
        for width in [60, 80, 120, 200] {
            let w = widths(width);
            assert!(
                w.iter().sum::<usize>() + 8 <= width.max(80),
                "{width}: {w:?}"
            );
        }
        assert_eq!(fit("Kévin UNGER Nicolas HARMAND", 12), "Kévin UNGER…");
        assert_eq!(fit("Job", 5), "Job  ");
    }
}
