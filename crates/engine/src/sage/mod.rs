//! Open Sage (`bgsage`, MPL-2.0) as the second engine: what is sent to its
//! bridge (`assets/sage_bridge.py`) and how its answers become the same
//! [`Analysis`] gnubg's do. Pure.
//!
//! Sage speaks in boards, not moves: a position is 26 numbers from the side
//! of the player on roll ([0] the opponent's bar, 1..24 the points, the
//! roller's checkers positive, [25] the roller's bar), and each candidate
//! move is the board after it. The move's name is found by matching that
//! board against bgedit's own legal moves, so both engines' lists name a
//! move the same way (gnubg's notation).
//!
//! Depths: gnubg counts the network alone as 0-ply, Sage as 1-ply. Requests
//! and [`Analysis::plies`] use gnubg's count for both engines (so that one
//! depth setting means one search); [`level`] gives Sage's own label.

pub(crate) mod data_dir;
pub mod native;
pub(crate) mod spec;

use super::answer::{Analysis, Garbage, MoveLine, Probs, Reply, Rollout};
use super::failure::PastTable;
use super::request::{Request, RolloutSettings, no_cube_action};
use bgedit_core::codec::position_id;
use bgedit_core::domain::moves::legal_moves;
use bgedit_core::domain::{Board, CubeOwner, Player};
use serde::Deserialize;
use serde_json::json;
use std::collections::HashMap;

/// Sage's board: 26 points from the side of `mover`.
pub(crate) type SageBoard = [i32; 26];

/// `board` as Sage reads it, from the side of `mover`.
pub fn to_sage(board: &Board, mover: Player) -> SageBoard {
    let mut out = [0i32; 26];
    let own = board.side(mover);
    let opp = board.side(mover.opponent());
    for i in 0..24 {
        out[i + 1] += i32::from(own[i]);
        // The opponent's own point i+1 is the mover's point 24-i.
        out[24 - i] -= i32::from(opp[i]);
    }
    out[25] = i32::from(own[24]);
    out[0] = i32::from(opp[24]);
    out
}

/// What is wrong with a board Sage gave.
#[cfg(any(test, feature = "internals"))]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SageBoardError {
    #[error("a board of {0} points, not 26")]
    Length(usize),
    #[error("a negative count on a bar")]
    NegativeBar,
    #[error(transparent)]
    Board(#[from] bgedit_core::domain::BoardError),
}

/// The board a Sage board (from the side of `mover`) stands for, checked:
/// the tests' reading of Sage's own answers (bgedit reads Sage's moves by
/// matching boards, `name_moves`).
#[cfg(any(test, feature = "internals"))]
pub fn from_sage(sage: &[i32], mover: Player) -> Result<Board, SageBoardError> {
    let cells: &[i32; 26] = sage
        .try_into()
        .map_err(|_| SageBoardError::Length(sage.len()))?;
    if cells[0] < 0 || cells[25] < 0 {
        return Err(SageBoardError::NegativeBar);
    }
    Ok(Board::from_mover_cells(cells, mover)?)
}

/// The most points a player may need for Sage to answer: its match equity
/// table (match_equity.h's `MAX_MATCH_LENGTH`, Kazaross-XG2) stops at 25.
/// Past it Sage reads the table at 25-away and its numbers are not
/// equities: at 26-away all square every cubeful equity comes out 0.
pub(crate) const MET_LENGTH: u16 = 25;

/// The score of `req`, when a player there needs more points than Sage's
/// table holds.
pub(crate) fn past_table(req: &Request) -> Option<PastTable> {
    let s = req.sent_state();
    if s.is_money() {
        return None;
    }
    let away = |pl: Player| s.match_length.saturating_sub(s.score_of(pl));
    let away = (away(s.on_roll), away(s.on_roll.opponent()));
    (away.0 > MET_LENGTH || away.1 > MET_LENGTH).then_some(PastTable {
        away,
        table: MET_LENGTH,
    })
}

/// Sage's own name for a depth given in gnubg's count.
pub(crate) fn level(plies: u8) -> String {
    format!("{}-ply", plies.min(super::request::MAX_PLIES) + 1)
}

/// The request line for `req`, rolled out with `rollout` when given.
pub(crate) fn request_line(req: &Request, rollout: Option<(&RolloutSettings, u8)>) -> String {
    request_value(req, rollout).to_string()
}

/// The request for `req` as the bridge reads it (the in-process engine
/// reads the same, so both roads ask Sage the same question).
pub(crate) fn request_value(
    req: &Request,
    rollout: Option<(&RolloutSettings, u8)>,
) -> serde_json::Value {
    let s = req.sent_state();
    let p = &req.position;
    let mover = s.on_roll;
    let owner = match s.cube_owner {
        CubeOwner::Centred => "centered",
        CubeOwner::Owned(pl) if pl == mover => "player",
        CubeOwner::Owned(_) => "opponent",
    };
    let away = |pl: Player| {
        if s.is_money() {
            0
        } else {
            s.match_length.saturating_sub(s.score_of(pl))
        }
    };
    let mut v = json!({
        "id": req.id,
        "board": to_sage(&p.board, mover).to_vec(),
        "dice": s.dice.filter(|_| !s.double_offered).map(|d| d.to_vec()),
        "double": s.double_offered,
        "cube": s.cube_value(),
        "owner": owner,
        "away1": away(mover),
        "away2": away(mover.opponent()),
        "crawford": !s.is_money() && s.crawford,
        "jacoby": s.is_money() && s.jacoby,
        "beavers": s.is_money() && s.beavers,
        "no_cube": no_cube_action(p).is_some(),
        "plies": req.plies.min(super::request::MAX_PLIES),
        "moves": req.moves,
    });
    if let Some((r, threads)) = rollout {
        v["rollout"] = json!({
            "trials": r.trials, "seed": r.seed, "truncate": r.truncate,
            "plies": r.plies.min(super::request::MAX_PLIES), "threads": threads,
            "candidates": r.candidates, "chunk_ms": r.chunk_ms,
        });
        if let Some(p) = r.truncate_plies {
            v["rollout"]["truncate_plies"] = json!(p.min(super::request::MAX_PLIES));
        }
    }
    v
}

#[derive(Deserialize)]
struct SageMove {
    board: Vec<i32>,
    equity: f64,
    probs: Probs,
    #[serde(default)]
    plies: Option<u8>,
    #[serde(default)]
    std_error: Option<f64>,
}

/// Reads one line of Sage's bridge for the request about `position`: the
/// moves' boards are named by bgedit's own legal moves of that position.
pub fn parse_line(text: &str, req: &Request) -> Result<Reply, Garbage> {
    let garbage = |why: &str| Garbage::Shape {
        engine: "Sage",
        why: why.to_owned(),
        line: Garbage::shown(text),
    };
    let mut v: serde_json::Value = serde_json::from_str(text).map_err(|_| garbage("not JSON"))?;
    if v.get("ready").and_then(|r| r.as_bool()) == Some(true) {
        return Ok(Reply::Ready);
    }
    let id = v
        .get("id")
        .and_then(|i| i.as_u64())
        .ok_or_else(|| garbage("no id"))?;
    if let Some(e) = v.get("error").and_then(|e| e.as_str()) {
        let said = e.to_owned();
        return Ok(Reply::Answer(id, Err(crate::answer::Refused { said })));
    }
    let partial = v.get("partial").and_then(|p| p.as_bool()) == Some(true);
    if v.get("kind").and_then(|k| k.as_str()) == Some("progress") {
        let rollout: Rollout = serde_json::from_value(v["rollout"].take())
            .map_err(|_| garbage("a progress line without its rollout"))?;
        return Ok(Reply::Tick(id, Box::new(rollout)));
    }
    if v.get("kind").and_then(|k| k.as_str()) == Some("moves") {
        let moves: Vec<SageMove> = serde_json::from_value(v["moves"].take())
            .map_err(|_| garbage("a move list of the wrong shape"))?;
        let lines = name_moves(req, moves).map_err(|e| garbage(&e.to_string()))?;
        v["moves"] = serde_json::to_value(lines).map_err(|e| garbage(&e.to_string()))?;
    }
    let mut analysis: Analysis =
        serde_json::from_value(v).map_err(|_| garbage("an answer of the wrong shape"))?;
    cubeless_in_gnubgs_unit(&mut analysis, req);
    super::answer::check(&analysis, super::answer::equity_limit(&req.position))
        .map_err(|super::answer::OutOfRange| Garbage::Numbers { engine: "Sage" })?;
    Ok(if partial {
        Reply::Progress(id, analysis)
    } else {
        Reply::Answer(id, Ok(analysis))
    })
}

/// Sage's cubeless equity put in gnubg's unit, so both engines' compare:
/// Sage gives the money formula on its chances at any score, gnubg in
/// match play its normalised match equity (the chances through its match
/// equity table, Kazaross-XG2, which is Sage's table too). A take's is the
/// doubler's negated, as gnubg gives it. Money play is the same for both.
fn cubeless_in_gnubgs_unit(analysis: &mut Analysis, req: &Request) {
    let state = req.sent_state();
    let Ok(Some(scale)) = super::scale::Scale::of(&state) else {
        return;
    };
    match analysis {
        Analysis::Cube {
            probs, cubeless, ..
        }
        | Analysis::Eval {
            probs, cubeless, ..
        } => *cubeless = scale.cubeless_equity(&state, probs),
        Analysis::Take {
            probs, cubeless, ..
        } => {
            let [t, tg, tbg, dg, dbg] = *probs;
            *cubeless = -scale.cubeless_equity(&state, &[1.0 - t, dg, dbg, tg, tbg]);
        }
        Analysis::Moves { .. } | Analysis::Over { .. } => {}
    }
}

/// Sage's moves named as gnubg names them, with the Position ID after each.
/// Why Sage's move list could not be named as bgedit's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
enum Unnamed {
    #[error("moves for a position without dice")]
    NoDice,
    #[error("a board of the wrong length")]
    Length,
    #[error("a move bgedit finds illegal")]
    Illegal,
}

fn name_moves(req: &Request, moves: Vec<SageMove>) -> Result<Vec<MoveLine>, Unnamed> {
    let s = &req.position.state;
    let mover = s.on_roll;
    let Some(dice) = s.dice else {
        return Err(Unnamed::NoDice);
    };
    let legal: HashMap<SageBoard, (String, Board)> = legal_moves(&req.position.board, mover, dice)
        .into_iter()
        .map(|m| (to_sage(&m.result, mover), (m.notation(), m.result)))
        .collect();
    if legal.is_empty() {
        // Sage lists the board unchanged when the roll cannot be played;
        // gnubg lists nothing (the roll is forfeit).
        return Ok(Vec::new());
    }
    // Sage lets the last checker off with one die where the other die could
    // be played first (a 63 from the 4-point: 4/off); the rules, and gnubg,
    // make both dice be played (4/1*/off). Either ends the game with the
    // same result (a checker hit on the way was in the winner's home board
    // already), so a board of Sage's with every checker off is the legal
    // move that bears the last one off, listed once.
    let finishing = legal
        .values()
        .find(|(_, b)| b.side(mover).iter().all(|&c| c == 0));
    let mut named = std::collections::HashSet::new();
    moves
        .into_iter()
        .filter_map(|m| {
            let key: SageBoard = match m.board.as_slice().try_into() {
                Ok(key) => key,
                Err(_) => return Some(Err(Unnamed::Length)),
            };
            let all_off = key[1..].iter().all(|&c| c <= 0);
            let found = legal.get(&key).or(finishing.filter(|_| all_off));
            let Some((notation, after)) = found else {
                return Some(Err(Unnamed::Illegal));
            };
            named
                .insert(notation.clone())
                .then_some(Ok((m, notation, after)))
        })
        .map(|named| {
            let (m, notation, after) = named?;
            Ok(MoveLine {
                notation: notation.clone(),
                equity: m.equity,
                mwc: None,
                probs: m.probs,
                after: position_id::encode(after, mover.opponent()),
                plies: m.plies,
                std_error: m.std_error,
                mwc_std_error: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starting_position_is_sages_starting_board() {
        // bgsage.STARTING_BOARD
        let start = [
            0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0,
        ];
        assert_eq!(to_sage(&Board::starting(), Player::X), start);
        assert_eq!(to_sage(&Board::starting(), Player::O), start);
        assert_eq!(from_sage(&start, Player::O).unwrap(), Board::starting());
    }

    #[test]
    fn bars_and_sides_are_placed_for_the_mover() {
        use bgedit_core::domain::Place;
        // X has one of its back checkers on the bar; O one of its 13-point
        // checkers (X's 12) on its bar.
        let board = Board::starting()
            .with_count(Player::X, Place::own_point(Player::X, 24), 1)
            .and_then(|b| b.with_count(Player::X, Place::Bar(Player::X), 1))
            .and_then(|b| b.with_count(Player::O, Place::own_point(Player::O, 13), 4))
            .and_then(|b| b.with_count(Player::O, Place::Bar(Player::O), 1))
            .unwrap();
        let s = to_sage(&board, Player::X);
        assert_eq!((s[25], s[0], s[24], s[12]), (1, 1, 1, -4));
        assert_eq!(from_sage(&s, Player::X).unwrap(), board);
        let o = to_sage(&board, Player::O);
        assert_eq!((o[25], o[0], o[13], o[1]), (1, 1, 4, -1));
        assert_eq!(from_sage(&o, Player::O).unwrap(), board);
        assert!(from_sage(&s[..25], Player::X).is_err());
        let mut bad = s;
        bad[3] = 40;
        assert!(from_sage(&bad, Player::X).is_err());
    }

    /// Issue 29's 22-point match, X to play 63 from its last checker on the
    /// 4-point: Sage lists 4/off (one die) and 4/1*/off; the rules allow
    /// only 4/1*/off (gnubg's one move). Sage's boards as its
    /// `checker_play` gave them for this position.
    #[test]
    fn sages_one_die_finish_is_the_legal_move_that_bears_off_the_last_checker() {
        let position =
            bgedit_core::codec::parse_any("gTZlCGoIAAAAAA:cAnPAsAAYAAE", &Default::default())
                .unwrap()
                .position;
        let req = Request {
            id: 1,
            position,
            plies: 0,
            moves: 0,
        };
        let line = r#"{"id": 1, "kind": "moves", "plies": 0, "moves": [
            {"board": [2, -1, -1, 0, 0, 0, 0, -1, 0, 0, 0, -2, 0, -1, -1, 0, -2, -2, -1, 0, 0, 0, 0, 0, -1, 0],
             "equity": 3.0, "probs": [1.0, 1.0, 1.0, 0.0, 0.0]},
            {"board": [3, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, -2, 0, -1, -1, 0, -2, -2, -1, 0, 0, 0, 0, 0, -1, 0],
             "equity": 3.0, "probs": [1.0, 1.0, 1.0, 0.0, 0.0]}]}"#
            .replace('\n', " ");
        let Reply::Answer(1, Ok(Analysis::Moves { moves, .. })) = parse_line(&line, &req).unwrap()
        else {
            panic!("not a move list")
        };
        let names: Vec<&str> = moves.iter().map(|m| m.notation.as_str()).collect();
        assert_eq!(names, ["4/1*/off"]);
        // A board that is no legal move is still refused (a checker of X's
        // left on its 5-point).
        let bad = line.replace("[2, -1, -1, 0, 0, 0, 0", "[2, -1, -1, 0, 0, 1, 0");
        assert!(
            parse_line(&bad, &req)
                .unwrap_err()
                .to_string()
                .contains("illegal")
        );
    }

    /// The version the install note names is the one built in.
    #[test]
    fn the_install_note_names_the_version_built_in() {
        let note = spec::SPEC.install.note.unwrap_or_default();
        assert!(
            note.ends_with(&format!("bgsage=={}", data_dir::VERSION)),
            "{note}"
        );
    }

    /// Sage's table holds 25-away: a match of 25 is answered, one of 26
    /// is not, nor a longer one where only one player is past it; money
    /// has no table.
    #[test]
    fn a_score_past_sages_table_is_known_from_the_away_counts() {
        let req = |id: &str| Request {
            id: 1,
            position: bgedit_core::codec::parse_any(id, &Default::default())
                .unwrap()
                .position,
            plies: 0,
            moves: 0,
        };
        let xgid = |score_x: u8, length: u8| {
            format!("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:{score_x}:0:0:{length}:10")
        };
        assert_eq!(past_table(&req(&xgid(0, 25))), None);
        assert_eq!(
            past_table(&req(&xgid(0, 26))),
            Some(PastTable {
                away: (26, 26),
                table: 25
            })
        );
        // X on roll leads 20-0 of 30: 10-away against 30-away.
        assert_eq!(
            past_table(&req(&xgid(20, 30))),
            Some(PastTable {
                away: (10, 30),
                table: 25
            })
        );
        assert_eq!(past_table(&req(&xgid(0, 0))), None);
    }

    #[test]
    fn depths_are_named_in_sages_count() {
        assert_eq!(level(0), "1-ply");
        assert_eq!(level(2), "3-ply");
    }
}
