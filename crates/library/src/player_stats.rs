//! A player across the library's matches: each match they played with the
//! rates gnubg's `show statistics match` gives them for it (from bgedit's
//! most complete analysis of the match: `library analyse`, else the file's
//! own: `rates`) and XG's PR, in date order, the trend, and the decision
//! kinds that cost them most. One computation for `bgedit stats --player`
//! and the editor's statistics view. The rates are kept per match once
//! computed (`match_rates`), so ten thousand matches read in one query.

use super::match_import::StoredJudgement;
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
    /// bgedit's analysis of the match stopped part way (its rates are not
    /// the match's, so none are given from it).
    pub partial: Option<Partial>,
}

/// The summary over the rows: the means of the rates, and the trend.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trend {
    pub matches: usize,
    pub analysed: usize,
    pub pr: Option<f64>,
    pub error: Option<f64>,
    pub checker: Option<f64>,
    pub cube: Option<f64>,
    pub luck: Option<f64>,
    /// The mean PR of the first and of the last half of the analysed
    /// matches.
    pub pr_first_half: Option<f64>,
    pub pr_last_half: Option<f64>,
    /// The least-squares slope of PR per match (negative: improving).
    pub pr_slope: Option<f64>,
}

/// Everything the player's statistics show.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerStats {
    pub player: String,
    pub rows: Vec<MatchRow>,
    pub trend: Trend,
    /// The kinds of decision that cost the player most across the
    /// analysed matches, costliest first.
    pub costliest: Vec<Kind>,
}

// Every number comes from the store's finite values.
impl Eq for PlayerStats {}

/// A `--since` that is not a date as `YYYY-MM-DD` (the text, escaped).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a date: give it as YYYY-MM-DD, such as 2024-01-31")]
pub struct NotADate(String);

/// `--since DATE`: a date as `YYYY-MM-DD`.
pub fn since(text: &str) -> Result<String, NotADate> {
    let t = text.trim();
    let ok = t.len() == 10
        && t.char_indices().all(|(i, c)| {
            if i == 4 || i == 7 {
                c == '-'
            } else {
                c.is_ascii_digit()
            }
        });
    if ok {
        Ok(t.to_owned())
    } else {
        Err(NotADate(bgedit_core::quote::printable(text).into_owned()))
    }
}

/// A file's date as `YYYY-MM-DD` when it is written that way with `-`,
/// `.` or `/` between (`2024.01.01`); other forms are not compared.
fn normal_date(d: &str) -> Option<String> {
    let t: String = d
        .trim()
        .chars()
        .take(10)
        .map(|c| if c == '.' || c == '/' { '-' } else { c })
        .collect();
    since(&t).ok()
}

/// The player's statistics across the library's matches (played on
/// `since` or later, when given); no rows when they played none. The
/// costliest kinds read every verdict of the player's matches, so they are
/// only gathered when asked (`kinds`: the editor's view; `stats --player`
/// prints none). Rates computed now are kept for the next time; a library
/// that cannot be written is read all the same.
pub fn of(
    lib: &mut Library,
    player: &str,
    since: Option<&str>,
    kinds: bool,
) -> store::Result<PlayerStats> {
    let name = player.trim().to_lowercase();
    let mut rows = Vec::new();
    let mut fresh = Vec::new();
    for (m, kept) in lib.matches_with_rates()? {
        let Some(side) = m
            .players
            .iter()
            .position(|p| p.trim().to_lowercase() == name)
        else {
            continue;
        };
        let date = m.date.as_deref().and_then(normal_date);
        if let Some(from) = since
            && date.as_deref().is_none_or(|d| d < from)
        {
            continue;
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
    rows.sort_by(|a, b| a.date.cmp(&b.date).then(a.m.id.cmp(&b.m.id)));
    let costliest = if kinds {
        costliest(&judged_by(lib, &rows)?)
    } else {
        Vec::new()
    };
    Ok(PlayerStats {
        player: player.to_owned(),
        trend: trend(&rows),
        rows,
        costliest,
    })
}

/// One match's row for the player on `side` (0: O, 1: X).
fn row(m: StoredMatch, side: usize, date: Option<String>, r: &MatchRates) -> MatchRow {
    MatchRow {
        side: if side == 0 { Player::O } else { Player::X },
        opponent: m.players[1 - side].clone(),
        date,
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

/// The mean of the values there are.
fn mean(v: impl Iterator<Item = f64>) -> Option<f64> {
    let (n, sum) = v.fold((0u32, 0.0), |(n, s), x| (n + 1, s + x));
    (n > 0).then(|| sum / f64::from(n))
}

/// The trend: the least-squares slope of PR over the analysed matches in
/// date order (PR per match; negative is better), and the mean PR of the
/// first and last halves.
fn trend(rows: &[MatchRow]) -> Trend {
    let prs: Vec<f64> = rows.iter().filter_map(|r| r.pr).collect();
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
        pr: mean(prs.iter().copied()),
        error: mean(rows.iter().filter_map(|r| r.error)),
        checker: mean(rows.iter().filter_map(|r| r.checker)),
        cube: mean(rows.iter().filter_map(|r| r.cube)),
        luck: mean(rows.iter().filter_map(|r| r.luck)),
        pr_first_half: mean(prs[..half].iter().copied()),
        pr_last_half: mean(prs[prs.len() - half..].iter().copied()),
        pr_slope: slope,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_read_as_files_write_them() {
        assert_eq!(normal_date("2024.01.01"), Some("2024-01-01".to_owned()));
        assert_eq!(normal_date("2023-11-26"), Some("2023-11-26".to_owned()));
        assert_eq!(normal_date("Mar 3 2019"), None);
        assert!(
            since("2024-13")
                .unwrap_err()
                .to_string()
                .contains("YYYY-MM-DD")
        );
    }
}
