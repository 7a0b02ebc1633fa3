//! Where a player loses: their decisions across the library's analysed
//! matches grouped by a theme (the game plan they had, gnubg's class of
//! the position, the score class, the kind of decision), each group with
//! gnubg's numbers for it (decisions counted, equity given away, the error
//! rate in mEMG over those decisions and XG's PR, as `stats --player`
//! gives them for a match) and its costliest positions; the worst groups
//! first. One computation for `bgedit stats --player NAME --by …` and the
//! editor. The themes are read from the decisions as the library stores
//! them (schema 13).

use super::match_import::StoredJudgement;
use super::player_stats::{self, MatchRow};
use super::store::{self, Library, ThemedVerdict};
use bgedit_core::domain::Player;
use bgedit_core::domain::match_stats::{self, DecisionKind, Judgement};
use bgedit_core::domain::skill::Skill;

/// How many of a group's costliest positions are kept.
pub const COSTLIEST: usize = 3;

/// The theme decisions are grouped by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The game plan of the player deciding (Open Sage's).
    Plan,
    /// gnubg's class of the position.
    Class,
    /// The score class.
    Score,
    /// Checker play, cube (double or not) or take.
    Kind,
}

impl By {
    /// Its word (`--by`, the JSON's `by` and each group's key).
    pub fn name(self) -> &'static str {
        match self {
            By::Plan => "plan",
            By::Class => "class",
            By::Score => "score",
            By::Kind => "kind",
        }
    }
}

/// The group of a decision whose plans are not known (stored by a bgedit
/// without Sage's core).
pub const UNKNOWN_PLAN: &str = "unknown";

/// One of a group's costliest decisions.
#[derive(Clone, Debug, PartialEq)]
pub struct Costly {
    pub match_id: i64,
    /// The position decided.
    pub gnubg_id: String,
    pub kind: DecisionKind,
    pub played: String,
    pub best: String,
    /// Equity given away, normalised as gnubg's rates count it.
    pub error: f64,
}

/// One group's numbers, as gnubg counts a player's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The theme's word: `priming`, `race`, `dmp`, `take`, ….
    pub key: String,
    /// Decisions gnubg's rates divide by: unforced checker plays and
    /// close cube decisions.
    pub decisions: u32,
    /// Decisions gnubg marks doubtful or worse.
    pub errors: u32,
    /// Equity given away (normalised), as gnubg's rates add it up.
    pub error: f64,
    /// `error` over `decisions`, in mEMG.
    pub error_rate_memg: Option<f64>,
    /// XG's PR: half the error rate in mEMG.
    pub pr: Option<f64>,
    /// The costliest decisions, costliest first.
    pub costliest: Vec<Costly>,
}

/// A player's decisions by theme.
#[derive(Clone, Debug, PartialEq)]
pub struct ThemeStats {
    pub player: String,
    pub by: By,
    /// Matches whose analysis by bgedit was read (a file's own analysis
    /// judges too little, a partial one is not the match's).
    pub matches: usize,
    /// Worst first: the highest error rate, then the most equity.
    pub groups: Vec<Group>,
}

// Every number comes from the store's finite values.
impl Eq for ThemeStats {}

/// One judged decision of the player's with its theme key.
struct Judged {
    key: String,
    judgement: Judgement,
    costly: Costly,
}

/// The player's decisions by `by`, across the library's matches (played
/// on `since` or later when given).
pub fn of(
    lib: &mut Library,
    player: &str,
    since: Option<&str>,
    by: By,
) -> store::Result<ThemeStats> {
    let mut judged = Vec::new();
    let (player, matches) = each_judgement(lib, player, since, |row, v, s| {
        let j = s.judgement;
        judged.push(Judged {
            key: key(v, &j, by),
            costly: Costly {
                match_id: row.m.id,
                gnubg_id: v.gnubg_id.clone(),
                kind: j.kind,
                played: s.played,
                best: s.best,
                error: j.error,
            },
            judgement: j,
        });
    })?;
    Ok(ThemeStats {
        player,
        by,
        matches,
        groups: groups(judged),
    })
}

/// Calls `each` with every judgement of the player's (on the side they
/// sat) in the matches bgedit analysed whole, with its match and its
/// verdict's themes; the player's name as asked and how many matches were
/// read. What the theme statistics and the cube thresholds both read.
pub(crate) fn each_judgement(
    lib: &mut Library,
    player: &str,
    since: Option<&str>,
    mut each: impl FnMut(&MatchRow, &ThemedVerdict, StoredJudgement),
) -> store::Result<(String, usize)> {
    let stats = player_stats::of(lib, player, since, false)?;
    let mut matches = 0;
    for row in stats.rows.iter().filter(|r| !r.from_file) {
        let Some((engine, plies)) = &row.analysis else {
            continue;
        };
        matches += 1;
        for v in lib.themed_verdicts_at(row.m.id, engine, *plies)? {
            let Ok(list) = serde_json::from_str::<Vec<StoredJudgement>>(&v.analysis) else {
                continue;
            };
            for s in list.into_iter().filter(|s| s.judgement.player == row.side) {
                each(row, &v, s);
            }
        }
    }
    Ok((stats.player, matches))
}

/// The theme of judgement `j` of verdict `v`: a plan is the judged
/// player's, who is the decision's other side for a take of a double.
fn key(v: &ThemedVerdict, j: &Judgement, by: By) -> String {
    match by {
        By::Plan => v
            .plans
            .as_ref()
            .map_or(UNKNOWN_PLAN.to_owned(), |(own, other)| {
                if v.decider == j.player.to_string() {
                    own.clone()
                } else {
                    other.clone()
                }
            }),
        By::Class => v.class.clone(),
        By::Score => v.score_class.clone(),
        By::Kind => j.kind.word().to_owned(),
    }
}

/// The groups' numbers, worst first. Each group is counted as gnubg counts
/// a player's statistics (`match_stats::summarise`), the player's side
/// made one side whichever they sat on.
fn groups(mut judged: Vec<Judged>) -> Vec<Group> {
    judged.sort_by(|a, b| a.key.cmp(&b.key));
    let mut out: Vec<Group> = judged
        .chunk_by(|a, b| a.key == b.key)
        .map(|run| {
            let js: Vec<Judgement> = run
                .iter()
                .map(|j| Judgement {
                    player: Player::O,
                    ..j.judgement
                })
                .collect();
            let [s, _] = match_stats::summarise(&js);
            let mut costly: Vec<&Judged> = run.iter().filter(|j| j.costly.error > 0.0).collect();
            costly.sort_by(|a, b| b.costly.error.total_cmp(&a.costly.error));
            let rate = s.overall_rate().map(|r| r * 1000.0);
            Group {
                key: run[0].key.clone(),
                decisions: s.unforced_moves + s.close_cube,
                errors: js.iter().filter(|j| j.skill() != Skill::Good).count() as u32,
                error: s.checker.error + s.cube().error,
                error_rate_memg: rate,
                pr: rate.map(|r| r / 2.0),
                costliest: costly
                    .iter()
                    .take(COSTLIEST)
                    .map(|j| j.costly.clone())
                    .collect(),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        let rate = |g: &Group| g.error_rate_memg.unwrap_or(f64::NEG_INFINITY);
        rate(b)
            .total_cmp(&rate(a))
            .then(b.error.total_cmp(&a.error))
            .then(a.key.cmp(&b.key))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(key: &str, kind: DecisionKind, error: f64, counted: bool) -> Judged {
        Judged {
            key: key.to_owned(),
            judgement: Judgement {
                kind,
                player: Player::X,
                error,
                cost: error,
                cube: None,
                cube_error: None,
                counted,
            },
            costly: Costly {
                match_id: 1,
                gnubg_id: format!("{key}{error}"),
                kind,
                played: String::new(),
                best: String::new(),
                error,
            },
        }
    }

    #[test]
    fn groups_count_as_gnubg_and_the_worst_come_first() {
        let groups = groups(vec![
            judged("racing", DecisionKind::Checker, 0.01, true),
            judged("priming", DecisionKind::Checker, 0.1, true),
            judged("racing", DecisionKind::Checker, 0.0, false),
            judged("priming", DecisionKind::Checker, 0.0, true),
            judged("racing", DecisionKind::Checker, 0.03, true),
        ]);
        let keys: Vec<&str> = groups.iter().map(|g| g.key.as_str()).collect();
        assert_eq!(keys, ["priming", "racing"]);
        let p = &groups[0];
        assert_eq!((p.decisions, p.errors), (2, 1));
        assert!((p.error_rate_memg.unwrap() - 50.0).abs() < 1e-9);
        assert!((p.pr.unwrap() - 25.0).abs() < 1e-9);
        let r = &groups[1];
        // The forced move counts in no rate.
        assert_eq!(r.decisions, 2);
        assert!((r.error - 0.04).abs() < 1e-12);
        assert_eq!(r.costliest.len(), 2);
        assert_eq!(r.costliest[0].error, 0.03);
    }
}
