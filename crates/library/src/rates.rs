//! A match's rates for each player as `stats --player` shows them: from
//! bgedit's most complete analysis of the match (`library analyse`), as
//! gnubg's `show statistics match` gives them, else from the file's own
//! analysis (XG's, gnubg's SGF) where it holds enough to give a rate as
//! gnubg would. Kept in the library once computed (`match_rates`).

use super::match_import::StoredJudgement;
use super::store::{FileJudged, Library, MatchRates, Partial, Result, StoredMatch};
use bgedit_core::domain::Player;
use bgedit_core::domain::match_stats::{self, Luck, Overall};

/// Each side's rates (O's, X's) of match `m`.
pub(crate) fn of(lib: &Library, m: &StoredMatch) -> Result<[MatchRates; 2]> {
    let Some((engine, plies, texts)) = lib.best_own_analysis(m.id)? else {
        return Ok(from_file(&lib.file_judged(m.id)?));
    };
    // An analysis stopped part way judged the games it reached: its rates
    // would pass for the match's. It is said, with the file's own rates.
    let decisions = lib.decision_count(m.id)?;
    if (texts.len() as u64) < decisions {
        let partial = Partial {
            engine,
            plies,
            judged: texts.len() as u64,
            decisions,
        };
        return Ok(from_file(&lib.file_judged(m.id)?).map(|r| MatchRates {
            partial: Some(partial.clone()),
            ..r
        }));
    }
    let judged: Vec<StoredJudgement> = texts
        .iter()
        .filter_map(|t| serde_json::from_str::<Vec<StoredJudgement>>(t).ok())
        .flatten()
        .collect();
    let stats = match_stats::summarise(judged.iter().map(|j| &j.judgement));
    let luck = lib.luck(m.id, &engine, plies)?;
    let side = |p: Player| {
        let s = &stats[p.index()];
        MatchRates {
            engine: Some(engine.clone()),
            plies: Some(plies),
            from_file: false,
            pr: Overall::of(&stats, p, m.length).pr,
            error: memg(s.overall_rate()),
            checker: memg(s.checker_rate()),
            cube: memg(s.cube_rate()),
            // gnubg divides the luck by every move, forced ones included.
            luck: luck.and_then(|l| {
                memg(
                    Luck {
                        total: l[p.index()],
                        ..Luck::default()
                    }
                    .rate(s.total_moves),
                )
            }),
            checker_n: s.unforced_moves,
            cube_n: s.close_cube,
            moves_n: s.total_moves,
            partial: None,
        }
    };
    Ok([side(Player::O), side(Player::X)])
}

fn memg(rate: Option<f64>) -> Option<f64> {
    rate.map(|r| r * 1000.0)
}

/// The rates the file's own verdicts give. A file's verdict judges what
/// was played (a checker play, a double, a take or a pass) but not the
/// cube before each roll that gnubg also counts (its missed doubles and
/// close no-doubles), and carries no luck: so only the checker rate can be
/// gnubg's (error per unforced move, a move with a choice of play, every
/// one judged), and the cube rate, the error rate, PR and luck are `None`.
/// The engine and plies named are those of most of the file's verdicts
/// (XG's levels as stored: XG 3-ply is 3, its Roller++ 1002).
pub(crate) fn from_file(decisions: &[FileJudged]) -> [MatchRates; 2] {
    let mut depths: Vec<(&str, i64)> = decisions
        .iter()
        .filter_map(|d| d.verdict.as_ref().map(|(e, p, _)| (e.as_str(), *p)))
        .collect();
    depths.sort_unstable();
    let mut best: Option<((&str, i64), usize)> = None;
    for run in depths.chunk_by(|a, b| a == b) {
        if best.is_none_or(|(_, n)| run.len() > n) {
            best = Some((run[0], run.len()));
        }
    }
    let Some(((engine, plies), _)) = best else {
        return Default::default();
    };
    let side = |p: char| {
        let checker = checker_rate(decisions.iter().filter(|d| d.player == p));
        MatchRates {
            engine: Some(engine.to_owned()),
            plies: Some(plies),
            from_file: true,
            checker: checker.map(|c| c.0),
            checker_n: checker.map_or(0, |c| c.1),
            ..MatchRates::default()
        }
    };
    [side('O'), side('X')]
}

/// Error per unforced move in mEMG and the unforced moves, when every
/// unforced move has the file's error; `None` otherwise (or with no
/// unforced move).
fn checker_rate<'a>(decisions: impl Iterator<Item = &'a FileJudged>) -> Option<(f64, u32)> {
    let (mut n, mut sum) = (0u32, 0.0);
    for d in decisions.filter(|d| d.kind == "checker") {
        if !unforced(&d.gnubg_id) {
            continue;
        }
        let error = d.verdict.as_ref().and_then(|v| v.2)?;
        n += 1;
        sum += error;
    }
    (n > 0).then(|| (1000.0 * sum / f64::from(n), n))
}

/// Whether the roller at a position (its gnubg ID, with the dice) has a
/// choice of play, as gnubg counts an unforced move.
fn unforced(gnubg_id: &str) -> bool {
    let Ok(read) =
        bgedit_core::codec::parse_any(gnubg_id, &bgedit_core::domain::Position::default())
    else {
        return false;
    };
    bgedit_core::domain::moves::position_moves(&read.position).is_ok_and(|m| m.len() > 1)
}
