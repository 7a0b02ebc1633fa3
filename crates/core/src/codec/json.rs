//! Every field of the model as JSON, for scripts: `bgedit convert --to json`.
//! The same shape is read back, so a script can edit a field and convert the
//! result to an ID; the derived `pips` and `ids` are written but not read.

use super::error::{IdError, IdKind};
use super::{gnubg_id, match_id, position_id, xgid};
use crate::domain::match_state::MAX_CUBE_LOG2;
use crate::domain::validation::check_match;
use crate::domain::{
    Board, CubeOwner, GameState, MatchState, Names, Player, Position, Resignation,
};
use crate::quote::Clipped;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct JsonSide {
    /// Checkers on the player's own points 1–24 (index 0 = its ace point).
    pub points: [u8; 24],
    pub bar: u8,
    pub off: u8,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct PerPlayer<T> {
    #[serde(rename = "O")]
    pub o: T,
    #[serde(rename = "X")]
    pub x: T,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct JsonCube {
    pub value: u32,
    /// "centred", "O" or "X".
    pub owner: String,
    pub offered: bool,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct JsonIds {
    pub position_id: String,
    pub match_id: String,
    pub gnubg_id: String,
    pub xgid: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct JsonPosition {
    pub board: PerPlayer<JsonSide>,
    pub cube: JsonCube,
    pub on_roll: Player,
    pub turn: Player,
    pub dice: Option<[u8; 2]>,
    /// "none", "single", "gammon" or "backgammon".
    pub resignation: String,
    /// "no_game", "playing", "over", "resigned" or "dropped".
    pub game_state: String,
    /// 0 for money.
    pub match_length: u16,
    pub score: PerPlayer<u16>,
    pub crawford: bool,
    pub jacoby: bool,
    pub beavers: bool,
    pub max_cube: u32,
    pub names: PerPlayer<String>,
    #[serde(default, skip_deserializing)]
    pub pips: Option<PerPlayer<u32>>,
    #[serde(default, skip_deserializing)]
    pub ids: Option<JsonIds>,
    /// gnubg's class of the position (`convert --to json` only).
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// Both sides' game plans, Open Sage's (`convert --to json` only): set
    /// to `Some(None)`, written `null`, where they could not be known.
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub plans: Option<Option<crate::domain::game_plan::Plans>>,
}

const RESIGNATIONS: [&str; 4] = ["none", "single", "gammon", "backgammon"];
const GAME_STATES: [&str; 5] = ["no_game", "playing", "over", "resigned", "dropped"];

fn side(board: &Board, p: Player) -> JsonSide {
    let s = board.side(p);
    let mut points = [0u8; 24];
    points.copy_from_slice(&s[..24]);
    JsonSide {
        points,
        bar: s[24],
        off: board.borne_off(p),
    }
}

pub fn to_json(position: &Position) -> JsonPosition {
    let (board, st) = (&position.board, &position.state);
    JsonPosition {
        board: PerPlayer {
            o: side(board, Player::O),
            x: side(board, Player::X),
        },
        cube: JsonCube {
            value: st.cube_value(),
            owner: match st.cube_owner {
                CubeOwner::Centred => "centred".to_owned(),
                CubeOwner::Owned(p) => p.to_string(),
            },
            offered: st.double_offered,
        },
        on_roll: st.on_roll,
        turn: st.turn,
        dice: st.dice,
        resignation: RESIGNATIONS[usize::from(st.resignation.code())].to_owned(),
        game_state: GAME_STATES[usize::from(st.game_state.code())].to_owned(),
        match_length: st.match_length,
        score: PerPlayer {
            o: st.score[0],
            x: st.score[1],
        },
        crawford: st.crawford,
        jacoby: st.jacoby,
        beavers: st.beavers,
        max_cube: 1u32 << st.max_cube_log2,
        names: PerPlayer {
            o: position.names.o.clone(),
            x: position.names.x.clone(),
        },
        pips: Some(PerPlayer {
            o: board.pip_count(Player::O),
            x: board.pip_count(Player::X),
        }),
        ids: Some(JsonIds {
            position_id: position_id::encode(board, st.on_roll),
            match_id: match_id::encode(st),
            gnubg_id: gnubg_id::encode(board, st),
            xgid: xgid::encode(board, st),
        }),
        class: None,
        plans: None,
    }
}

/// One line of JSON for `position`.
pub fn encode(position: &Position) -> String {
    // Names may hold characters a terminal acts on: written as JSON escapes.
    crate::quote::json(&to_json(position))
}

fn bad(detail: impl Into<String>) -> IdError {
    IdError::Malformed {
        kind: IdKind::Json,
        detail: detail.into(),
    }
}

fn log2_of(value: u32, what: &str) -> Result<u8, IdError> {
    if value.is_power_of_two() && value.trailing_zeros() <= u32::from(MAX_CUBE_LOG2) {
        Ok(value.trailing_zeros() as u8)
    } else {
        Err(bad(format!(
            "{what} {value} is not a power of two from 1 to 32768"
        )))
    }
}

/// Reads the JSON that `encode` writes.
pub fn decode(text: &str) -> Result<Position, IdError> {
    let j: JsonPosition = serde_json::from_str(text)
        .map_err(|e| bad(crate::quote::clip_quoted_fragments(&e.to_string())))?;
    let mut sides = [[0u8; 25]; 2];
    for (p, s) in [(Player::O, &j.board.o), (Player::X, &j.board.x)] {
        sides[p.index()][..24].copy_from_slice(&s.points);
        sides[p.index()][24] = s.bar;
    }
    let board = Board::from_sides(sides[0], sides[1]).map_err(|source| IdError::Board {
        kind: IdKind::Json,
        source,
    })?;
    for (p, s) in [(Player::O, &j.board.o), (Player::X, &j.board.x)] {
        if board.borne_off(p) != s.off {
            return Err(bad(format!(
                "{p} has {} checkers on the board, so {} borne off, not {}",
                board.on_board(p),
                board.borne_off(p),
                s.off
            )));
        }
    }
    let cube_owner = match j.cube.owner.as_str() {
        "centred" | "centered" => CubeOwner::Centred,
        "O" => CubeOwner::Owned(Player::O),
        "X" => CubeOwner::Owned(Player::X),
        other => {
            return Err(bad(format!(
                "cube owner '{}' is not centred, O or X",
                Clipped(other)
            )));
        }
    };
    let find = |list: &[&str], v: &str, what: &str| {
        list.iter().position(|s| *s == v).ok_or_else(|| {
            bad(format!(
                "{what} '{}' is not one of {}",
                Clipped(v),
                list.join(", ")
            ))
        })
    };
    let state = MatchState {
        cube_log2: log2_of(j.cube.value, "cube value")?,
        cube_owner,
        on_roll: j.on_roll,
        turn: j.turn,
        double_offered: j.cube.offered,
        resignation: Resignation::ALL[find(&RESIGNATIONS, &j.resignation, "resignation")?],
        game_state: GameState::ALL[find(&GAME_STATES, &j.game_state, "game state")?],
        dice: j.dice,
        match_length: j.match_length,
        score: [j.score.o, j.score.x],
        crawford: j.crawford,
        jacoby: j.jacoby,
        beavers: j.beavers,
        max_cube_log2: log2_of(j.max_cube, "max cube")?,
    };
    check_match(&state).map_err(|source| IdError::Match {
        kind: IdKind::Json,
        source,
    })?;
    let names = Names {
        o: j.names.o,
        x: j.names.x,
    };
    names.check().map_err(|source| IdError::Name {
        kind: IdKind::Json,
        source,
    })?;
    Ok(Position {
        board,
        state,
        names,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trips_and_carries_ids() {
        let p = Position::default();
        let text = encode(&p);
        assert!(
            text.contains("\"gnubg_id\":\"4HPwATDgc/ABMA:cAkAAAAAAAAA\""),
            "{text}"
        );
        assert!(text.contains("\"pips\":{\"O\":167,\"X\":167}"), "{text}");
        assert_eq!(decode(&text).unwrap(), p);
    }

    #[test]
    fn inconsistent_off_count_is_refused() {
        let text = encode(&Position::default()).replace("\"off\":0", "\"off\":3");
        assert!(
            decode(&text)
                .unwrap_err()
                .to_string()
                .contains("borne off, not 3")
        );
    }
}
