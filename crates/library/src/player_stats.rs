//! A player across the library's matches: each match they played with the
//! rates gnubg's `show statistics match` gives them for it (from bgedit's
//! most complete analysis of the match: `library analyse`, else the file's
//! own: `rates`) and XG's PR, from their side (their opponent, whether
//! they won, the score for and against), in date order, the rates over all
//! their decisions, the trend over the dated matches, and the decision
//! kinds that cost them most. The player is found by part of a name, case
//! and accents ignored, with the names grouped as one person (`names`).
//! One computation for `bgedit stats --player` and the editor's statistics
//! view. The rates are kept per match once computed (`match_rates`), so
//! ten thousand matches read in one query.

use super::match_import::StoredJudgement;
use super::names::{self, Found};
use super::rates;
use super::store::{self, Library, MatchRates, Partial, StoredMatch};
use bgedit_core::domain::Player;
use bgedit_core::domain::cost_kinds::{self, Kind};
use bgedit_core::domain::match_stats::Judgement;
use bgedit_core::domain::{Board, Position};

/// One match of the player's, with their numbers (rates in mEMG).
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRow {
    pub m: StoredMatch,
    /// The side the player sat on in this match.
    pub side: Player,
    /// The file's date as `YYYY-MM-DD`, when it is written so.
    pub date: Option<String>,
    pub opponent: String,
    /// The engine and depth (gnubg's count) of the analysis the numbers
    /// are from.
    pub analysis: Option<(String, i64)>,
    pub pr: Option<f64>,
    pub error: Option<f64>,
    pub checker: Option<f64>,
    pub cube: Option<f64>,
    pub luck: Option<f64>,
    /// XG's PR of the player's checker plays alone, and of their cube
    /// decisions alone (the chart's two lines).
    pub checker_pr: Option<f64>,
    pub cube_pr: Option<f64>,
    /// The numbers are the file's own analysis's (XG's, gnubg's SGF), not
    /// bgedit's: only the checker rate then.
    pub from_file: bool,
    /// The decisions the rates are over (see `MatchRates`).
    pub checker_n: u32,
    pub cube_n: u32,
    pub moves_n: u32,
    /// The final score from the player's side (theirs, the opponent's),
    /// when the file says who won games.
    pub score: Option<[u32; 2]>,
    /// Whether the player won (none while the match is unfinished, or a
    /// money session is even).
    pub won: Option<bool>,
    /// bgedit's analysis of the match stopped part way (its rates are not
    /// the match's, so none are given from it).
    pub partial: Option<Partial>,
}

/// The summary over the rows: the rates over all the player's decisions
/// in them (as gnubg's and XG's rates are: each match weighs as many
/// decisions as it holds), and the trend over the dated matches.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trend {
    pub matches: usize,
    pub analysed: usize,
    /// Matches with no date: listed, but in no trend.
    pub undated: usize,
    /// The decisions the rates are over (unforced moves and close cube
    /// decisions).
    pub decisions: u32,
    pub pr: Option<f64>,
    pub error: Option<f64>,
    pub checker: Option<f64>,
    pub cube: Option<f64>,
    pub luck: Option<f64>,
    /// PR over the decisions of the first and of the last half of the
    /// analysed dated matches.
    pub pr_first_half: Option<f64>,
    pub pr_last_half: Option<f64>,
    /// The least-squares slope of PR per match (negative: improving).
    pub pr_slope: Option<f64>,
}

/// Everything the player's statistics show.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerStats {
    /// The person found (the name asked when none is).
    pub player: String,
    /// The names of theirs the rows are under (folded).
    pub names: Vec<String>,
    /// When the name asked is part of several people's: each of them, and
    /// no rows.
    pub candidates: Vec<String>,
    /// Matches of theirs left out of `since` for having no date.
    pub undated_skipped: usize,
    pub rows: Vec<MatchRow>,
    pub trend: Trend,
    /// The kinds of decision that cost the player most across the
    /// analysed matches, costliest first.
    pub costliest: Vec<Kind>,
}

// Every number comes from the store's finite values.
impl Eq for PlayerStats {}

/// `--since DATE`: a date as `YYYY-MM-DD`.
pub fn since(text: &str) -> Result<String, crate::dates::NotADate> {
    crate::dates::parse_given(text)
}

/// The player's statistics across the library's matches (played on
/// `since` or later, when given; an undated match is then left out and
/// counted); no rows when they played none, or when the name asked is part
/// of several people's (`candidates`). The costliest kinds read every
/// verdict of the player's matches, so they are only gathered when asked
/// (`kinds`: the editor's view; `stats --player` prints none). Rates
/// computed now are kept for the next time; a library that cannot be
/// written is read all the same.
pub fn of(
    lib: &mut Library,
    player: &str,
    since: Option<&str>,
    kinds: bool,
) -> store::Result<PlayerStats> {
    let all = lib.matches_with_rates()?;
    let person = match who(lib, player, &all)? {
        Found::One(p) => p,
        found => return Ok(not_one(player, found)),
    };
    let mut rows = Vec::new();
    let mut fresh = Vec::new();
    let mut undated_skipped = 0;
    for (m, kept) in all {
        let Some(side) = m.players.iter().position(|p| person.is(p)) else {
            continue;
        };
        let date = m.date.as_deref().and_then(crate::dates::normal);
        if let Some(from) = since {
            match date.as_deref() {
                None => {
                    undated_skipped += 1;
                    continue;
                }
                Some(d) if d < from => continue,
                Some(_) => {}
            }
        }
        let rates = match kept {
            Some(r) => r,
            None => {
                let r = rates::of(lib, &m)?;
                fresh.push((m.id, r.clone()));
                r
            }
        };
        rows.push(row(m, side, date, &rates[side]));
    }
    let _ = lib.put_rates(&fresh);
    // Dated matches in date order, the undated after them.
    rows.sort_by(|a, b| {
        (a.date.is_none(), &a.date, a.m.id).cmp(&(b.date.is_none(), &b.date, b.m.id))
    });
    let costliest = if kinds {
        costliest(&judged_by(lib, &rows)?)
    } else {
        Vec::new()
    };
    Ok(PlayerStats {
        player: person.name,
        names: person.names,
        candidates: Vec::new(),
        undated_skipped,
        trend: trend(&rows),
        rows,
        costliest,
    })
}

/// Who `player` names among the players of `all` (grouped by the
/// library's aliases).
fn who(
    lib: &Library,
    player: &str,
    all: &[(StoredMatch, Option<[MatchRates; 2]>)],
) -> store::Result<Found> {
    let aliases = lib.aliases()?;
    let people = names::people(
        all.iter()
            .flat_map(|(m, _)| m.players.iter().map(String::as_str)),
        &aliases,
    );
    Ok(names::find(player, &people))
}

/// The statistics of a name that is no one's, or several people's.
fn not_one(player: &str, found: Found) -> PlayerStats {
    let candidates = match found {
        Found::Several(people) => people.into_iter().map(|p| p.name).collect(),
        _ => Vec::new(),
    };
    PlayerStats {
        player: player.to_owned(),
        names: Vec::new(),
        candidates,
        undated_skipped: 0,
        rows: Vec::new(),
        trend: Trend::default(),
        costliest: Vec::new(),
    }
}

/// One match's row for the player on `side` (0: O, 1: X).
fn row(m: StoredMatch, side: usize, date: Option<String>, r: &MatchRates) -> MatchRow {
    let me = if side == 0 { Player::O } else { Player::X };
    let score = m.score().map(|s| [s[side], s[1 - side]]);
    let won = m.winner().map(|w| w == me);
    MatchRow {
        side: me,
        opponent: m.players[1 - side].clone(),
        date,
        score,
        won,
        m,
        analysis: r.engine.clone().zip(r.plies),
        pr: r.pr,
        error: r.error,
        checker: r.checker,
        cube: r.cube,
        luck: r.luck,
        // XG's PR is half the error rate in mEMG: of one kind, of that
        // kind's rate.
        checker_pr: r.checker.map(|c| c / 2.0),
        cube_pr: r.cube.map(|c| c / 2.0),
        from_file: r.from_file,
        checker_n: r.checker_n,
        cube_n: r.cube_n,
        moves_n: r.moves_n,
        partial: r.partial.clone(),
    }
}

/// The player's judgements in the rows' matches, by bgedit's analysis the
/// rows' numbers are from (a file's own analysis judges too little).
fn judged_by(lib: &Library, rows: &[MatchRow]) -> store::Result<Vec<(Judgement, Board)>> {
    let mut judged = Vec::new();
    for r in rows.iter().filter(|r| !r.from_file) {
        let Some((engine, plies)) = &r.analysis else {
            continue;
        };
        let those = judgements(lib.own_verdicts_at(r.m.id, engine, *plies)?);
        judged.extend(those.into_iter().filter(|(j, _)| j.player == r.side));
    }
    Ok(judged)
}

/// The judgements of a match's verdicts, each with its decision's board
/// (the board is only for the phase of a checker play: an ID that does
/// not read, which the store does not let in, gives the empty board).
fn judgements(with_ids: Vec<(String, String)>) -> Vec<(Judgement, Board)> {
    with_ids
        .into_iter()
        .filter_map(|(id, text)| {
            let list = serde_json::from_str::<Vec<StoredJudgement>>(&text).ok()?;
            let board = bgedit_core::codec::parse_any(&id, &Position::default())
                .map(|i| i.position.board)
                .unwrap_or_default();
            Some(list.into_iter().map(move |j| (j.judgement, board.clone())))
        })
        .flatten()
        .collect()
}

/// The player's costliest kinds: they sat on either side from match to
/// match, so both sides' tallies are one list.
fn costliest(judged: &[(Judgement, Board)]) -> Vec<Kind> {
    let [o, x] = cost_kinds::costliest(judged.iter().map(|(j, b)| (j, b)));
    let mut all: Vec<Kind> = o;
    for k in x {
        match all.iter_mut().find(|a| a.name == k.name) {
            Some(a) => {
                a.count += k.count;
                a.error += k.error;
            }
            None => all.push(k),
        }
    }
    all.sort_by(|a, b| b.error.total_cmp(&a.error).then(a.name.cmp(b.name)));
    all
}

/// A rate over all the decisions of the rows that have it: each row's
/// rate times the decisions it is over, summed, over their sum.
fn over_decisions(
    rows: &[&MatchRow],
    rate: impl Fn(&MatchRow) -> Option<(f64, u32)>,
) -> Option<f64> {
    let (n, sum) = rows
        .iter()
        .filter_map(|r| rate(r).filter(|(_, n)| *n > 0))
        .fold((0u64, 0.0), |(n, s), (v, k)| {
            (n + u64::from(k), s + v * f64::from(k))
        });
    (n > 0).then(|| sum / n as f64)
}

/// PR over the decisions of the rows (unforced moves and close cube
/// decisions, as each match's PR is).
fn pr_over(rows: &[&MatchRow]) -> Option<f64> {
    over_decisions(rows, |r| r.pr.map(|p| (p, r.checker_n + r.cube_n)))
}

/// The rates over all the rows' decisions, and the trend over the dated
/// analysed matches in date order: the least-squares slope of each
/// match's PR (PR per match; negative is better), and PR over the
/// decisions of the first and last halves.
fn trend(rows: &[MatchRow]) -> Trend {
    let all: Vec<&MatchRow> = rows.iter().collect();
    let dated: Vec<&MatchRow> = rows
        .iter()
        .filter(|r| r.date.is_some() && r.pr.is_some())
        .collect();
    let prs: Vec<f64> = dated.iter().filter_map(|r| r.pr).collect();
    let half = prs.len() / 2;
    let slope = (prs.len() >= 2).then(|| {
        let n = prs.len() as f64;
        let mx = (n - 1.0) / 2.0;
        let my = prs.iter().sum::<f64>() / n;
        let (num, den) = prs.iter().enumerate().fold((0.0, 0.0), |(a, b), (i, y)| {
            let dx = i as f64 - mx;
            (a + dx * (y - my), b + dx * dx)
        });
        num / den
    });
    Trend {
        matches: rows.len(),
        // A match read by the file's own analysis counts: it has its
        // checker rate (and no PR).
        analysed: rows.iter().filter(|r| r.analysis.is_some()).count(),
        undated: rows.iter().filter(|r| r.date.is_none()).count(),
        decisions: rows.iter().map(|r| r.checker_n + r.cube_n).sum(),
        pr: pr_over(&all),
        error: over_decisions(&all, |r| r.error.map(|e| (e, r.checker_n + r.cube_n))),
        checker: over_decisions(&all, |r| r.checker.map(|c| (c, r.checker_n))),
        cube: over_decisions(&all, |r| r.cube.map(|c| (c, r.cube_n))),
        luck: over_decisions(&all, |r| r.luck.map(|l| (l, r.moves_n))),
        pr_first_half: (half > 0).then(|| pr_over(&dated[..half])).flatten(),
        pr_last_half: (half > 0)
            .then(|| pr_over(&dated[dated.len() - half..]))
            .flatten(),
        pr_slope: slope,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_takes_a_day() {
        assert_eq!(since("2024-01-31").as_deref(), Ok("2024-01-31"));
        assert!(
            since("2024-13")
                .unwrap_err()
                .to_string()
                .contains("YYYY-MM-DD")
        );
    }
}
