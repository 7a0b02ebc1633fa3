//! What the match panel shows, as text: its header (file, progress), the
//! games (score, who won, points) and the current game's decisions with
//! gnubg's marks. Pure; `view` windows and colours it.

use super::state::{OpenMatch, Verdict, file_view};
use crate::domain::match_stats::DecisionKind;
use crate::domain::skill::Skill;

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
    let total = m.decisions.len();
    let judged = m
        .verdicts
        .iter()
        .filter(|v| matches!(v, Verdict::Judged(_)))
        .count();
    let progress = if m.analysing {
        format!("{} analysing {}/{total}", m.judge.name(), m.done)
    } else if judged == 0 && m.carries_analysis() {
        let whose = match m.who {
            None => String::new(),
            Some(p) => format!(" of {p}"),
        };
        format!(
            "file's analysis: {}{whose} · E: gnubg's",
            mistakes(m.file_mistakes().len())
        )
    } else if judged == 0 {
        "no verdict from gnubg".to_owned()
    } else {
        let whose = match m.who {
            None => String::new(),
            Some(p) => format!(" of {p}"),
        };
        format!("{}{whose}", mistakes(m.mistakes().len()))
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
    for (i, d) in m.decisions.iter().enumerate() {
        if d.game != current_game {
            continue;
        }
        let judged = match &m.verdicts[i] {
            Verdict::Judged(list) => Some(list.as_slice()),
            _ => None,
        };
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
                        j.judgement.error,
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
        let mut text = line(d.number, d.player, &dice, played, error, &best);
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
    player: crate::domain::Player,
    dice: &str,
    played: &str,
    error: f64,
    best: &str,
) -> String {
    let (mark, lost) = if error.is_nan() {
        ("", "failed".to_owned())
    } else if error > 0.0 {
        (Skill::of(error).mark(), format!("{:+.3}", -error))
    } else {
        ("", String::new())
    };
    let best = if error > 0.0 && !best.is_empty() {
        format!("  ({best})")
    } else {
        String::new()
    };
    format!("{number:>3} {player} {dice:<2} {played:<20} {mark:<2} {lost:>6}{best}")
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
