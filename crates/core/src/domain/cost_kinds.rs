//! What a player's decisions cost, by kind: checker plays by phase
//! (opening, middle game, race, bear-off) and cube errors in gnubg's
//! words. The statistics view shows it for one match, and for a player
//! across the library's matches.

use super::board::Board;
use super::match_stats::{CubeError, DecisionKind, Judgement};
use super::race::{GameClass, classify};

/// One kind of decision and what it cost a player.
#[derive(Clone, Debug, PartialEq)]
pub struct Kind {
    pub name: &'static str,
    /// Decisions of the kind that gave equity away.
    pub count: u32,
    /// Equity given away (normalised, as gnubg's table).
    pub error: f64,
}

/// The phases of a checker play, from the position of the decision, as
/// the roller sees it:
/// - opening: contact (gnubg's class), and both pip counts above 140 (the
///   start is 167: the first rolls of each side, before the armies meet);
/// - middle game: contact otherwise;
/// - race: no contact, the roller with checkers outside its home board;
/// - bear-off: no contact, every checker of the roller home (or off).
fn phase(board: &Board, j: &Judgement) -> &'static str {
    let p = j.player;
    match classify(board, p) {
        GameClass::Contact if board.pip_count(p) > 140 && board.pip_count(p.opponent()) > 140 => {
            "checker play: opening"
        }
        GameClass::Contact => "checker play: middle game",
        _ if board.side(p)[6..].iter().all(|&n| n == 0) => "checker play: bear-off",
        _ => "checker play: race",
    }
}

/// The cube kinds gnubg's table counts, with its words.
fn cube_kind(e: CubeError) -> &'static str {
    match e {
        CubeError::MissedDoubleBelowCashPoint => "missed doubles below CP",
        CubeError::MissedDoubleAboveCashPoint => "missed doubles above CP",
        CubeError::WrongDoubleBelowDoublePoint => "wrong doubles below DP",
        CubeError::WrongDoubleAboveTooGood => "wrong doubles above TG",
        CubeError::WrongTake => "wrong takes",
        CubeError::WrongPass => "wrong passes",
    }
}

/// What each player's decisions cost by kind, costliest first (kinds that
/// cost nothing left out), from each judgement and the board of its
/// decision. Checker plays count as gnubg's table counts them (unforced
/// ones); cube errors as its cube rows.
pub fn costliest<'a>(
    judged: impl IntoIterator<Item = (&'a Judgement, &'a Board)>,
) -> [Vec<Kind>; 2] {
    let mut out: [Vec<Kind>; 2] = Default::default();
    for (g, board) in judged {
        let name = match (g.kind, g.cube_error) {
            (DecisionKind::Checker, _) if g.counted && g.error > 0.0 => phase(board, g),
            (DecisionKind::Cube | DecisionKind::Take, Some(e)) => cube_kind(e),
            _ => continue,
        };
        let list = &mut out[g.player.index()];
        match list.iter_mut().find(|k| k.name == name) {
            Some(k) => {
                k.count += 1;
                k.error += g.error;
            }
            None => list.push(Kind {
                name,
                count: 1,
                error: g.error,
            }),
        }
    }
    for list in &mut out {
        list.sort_by(|a, b| b.error.total_cmp(&a.error).then(a.name.cmp(b.name)));
    }
    out
}
