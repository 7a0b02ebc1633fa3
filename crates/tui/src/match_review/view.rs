//! The match panel's part of the screen: what it shows, as text (its
//! header with file and progress, the games with score, winner and points,
//! the current game's decisions with gnubg's marks; pure, for the snapshot),
//! and its drawing in its slot: the header, the games on one wrapped line,
//! then the current game's decisions, scrolled so the one under the cursor
//! shows, marked by gnubg's skill colours.

use super::state::{OpenMatch, Verdict, file_view};
use crate::ui::theme::Theme;
use bgedit_core::domain::match_stats::DecisionKind;
use bgedit_core::domain::skill::Skill;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

/// One row of the current game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub text: String,
    /// The decision under the cursor.
    pub current: bool,
    /// gnubg's mark, for the colour.
    pub skill: Option<Skill>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewPanel {
    pub header: String,
    /// The games, as short items (`3: 2-4 X+2`), the current one marked.
    pub games: Vec<(String, bool)>,
    pub rows: Vec<Row>,
    /// The board is not the decision under the cursor.
    pub left: bool,
}

pub fn of(m: &OpenMatch) -> ReviewPanel {
    let total = m.decisions().len();
    let judged = m
        .verdicts
        .iter()
        .filter(|v| matches!(v, Verdict::Judged(_)))
        .count();
    let progress = if m.analysing {
        let then = if m.pass < m.target {
            format!(", then {}-ply", m.target)
        } else {
            String::new()
        };
        format!(
            "{} analysing {}/{total} at {}-ply{then}",
            m.judge.name(),
            m.done,
            m.pass
        )
    } else if judged == 0 && m.carries_analysis() {
        let whose = match m.who {
            None => String::new(),
            Some(p) => format!(" of {p}"),
        };
        format!(
            "file's analysis: {}{whose} · E: {}'s",
            mistakes(m.file_mistakes().len()),
            m.judge.name()
        )
    } else if judged == 0 {
        format!("no verdict from {}", m.judge.name())
    } else {
        let whose = match m.who {
            None => String::new(),
            Some(p) => format!(" of {p}"),
        };
        format!(
            "{}{whose} · {}",
            mistakes(m.mistakes().len()),
            m.depth_words()
        )
    };
    let current_game = m.current().map_or(0, |d| d.game);
    let games = m
        .games
        .iter()
        .map(|g| {
            let result = match g.winner {
                Some(p) => format!(" {p}+{}", g.points),
                None => String::new(),
            };
            (
                format!("{}: {}-{}{result}", g.number, g.score[0], g.score[1]),
                g.number == current_game,
            )
        })
        .collect();
    let mut rows = Vec::new();
    for (i, d) in m.decisions().iter().enumerate() {
        if d.game != current_game {
            continue;
        }
        let judged = match &m.verdicts[i] {
            Verdict::Judged(list) => Some(list.as_slice()),
            _ => None,
        };
        // Which depth the verdict has (the file's own says it in its best).
        let depth = m.depths[i].map_or(String::new(), |p| format!("{p}-ply"));
        // The cube before the roll, when gnubg found an error in it.
        if let Some(list) = judged {
            for j in list.iter().filter(|j| {
                j.judgement.kind == DecisionKind::Cube
                    && j.played == "no double"
                    && j.judgement.error > 0.0
            }) {
                rows.push(Row {
                    text: line(
                        d.number,
                        d.player,
                        "",
                        "no double",
                        (j.judgement.error, &depth),
                        &j.best,
                    ),
                    current: i == m.cursor,
                    skill: Some(j.judgement.skill()),
                });
            }
        }
        let dice = d.dice.map_or(String::new(), |[a, b]| format!("{a}{b}"));
        let played = if d.played.is_empty() {
            "—"
        } else {
            d.played.as_str()
        };
        let main = judged.and_then(|l| {
            l.iter()
                .find(|j| !(j.judgement.kind == DecisionKind::Cube && j.played == "no double"))
        });
        let file = file_view(d);
        let (error, best, skill) = match (main, &m.verdicts[i], &file) {
            (Some(j), _, _) => (j.judgement.error, j.best.clone(), Some(j.judgement.skill())),
            // Until gnubg's verdict comes (or without gnubg), the file's own
            // analysis, marked as the file's.
            (None, _, Some(f)) => (
                f.error,
                format!("{}: {}", f.source, f.best),
                Some(Skill::of(f.error)),
            ),
            (None, Verdict::Failed(_), None) => (f64::NAN, String::new(), None),
            _ => (0.0, String::new(), None),
        };
        let depth = if main.is_some() || matches!(m.verdicts[i], Verdict::Failed(_)) {
            depth.as_str()
        } else {
            ""
        };
        let mut text = line(d.number, d.player, &dice, played, (error, depth), &best);
        // Both verdicts where the file's analysis and gnubg's disagree.
        if let (Some(j), Some(f)) = (main, &file)
            && !f.best.is_empty()
            && f.best != j.best
        {
            text.push_str(&format!("  {}: {}", f.source, f.best));
        }
        rows.push(Row {
            text,
            current: i == m.cursor,
            skill,
        });
    }
    ReviewPanel {
        header: format!("Match · {} · {progress}", m.file_name()),
        games,
        rows,
        left: !m.on_board,
    }
}

fn line(
    number: usize,
    player: bgedit_core::domain::Player,
    dice: &str,
    played: &str,
    (error, depth): (f64, &str),
    best: &str,
) -> String {
    let (mark, lost) = if error.is_nan() {
        ("", "failed".to_owned())
    } else if error > 0.0 {
        (
            Skill::of(error).mark(),
            bgedit_core::domain::skill::given_away(error),
        )
    } else {
        ("", String::new())
    };
    let best = if error > 0.0 && !best.is_empty() {
        format!("  ({best})")
    } else {
        String::new()
    };
    format!("{number:>3} {player} {dice:<2} {played:<20} {mark:<2} {lost:>6} {depth:<5}{best}")
        .trim_end()
        .to_owned()
}

/// `1 mistake`, `24 mistakes`.
fn mistakes(n: usize) -> String {
    if n == 1 {
        "1 mistake".to_owned()
    } else {
        format!("{n} mistakes")
    }
}

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
