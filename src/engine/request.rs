//! What bgedit asks gnubg about a position, built from the position alone.
//! Pure: the checks that need no engine (an empty board, a finished game, a
//! player who cannot double) are answered here.

use crate::codec::gnubg_id;
use crate::domain::{CubeOwner, GameState, Player, Position, Resignation};
use serde_json::json;

/// Deepest evaluation offered: 3-ply takes seconds, 4-ply minutes.
pub const MAX_PLIES: u8 = 3;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Carried by the answer, so a late answer to an old request is known.
    pub id: u64,
    pub position: Position,
    pub plies: u8,
    /// How many ranked moves to return; 0 for all.
    pub moves: usize,
}

/// Why there is nothing to analyse, if so.
pub fn nothing_to_analyse(p: &Position) -> Option<String> {
    let b = &p.board;
    if Player::BOTH.into_iter().all(|pl| b.on_board(pl) == 0) {
        return Some("the board is empty: there is nothing to analyse".to_owned());
    }
    if let Some(pl) = Player::BOTH.into_iter().find(|&pl| b.on_board(pl) == 0) {
        return Some(format!(
            "the game is over: {pl} has borne off every checker"
        ));
    }
    match p.state.game_state {
        GameState::Playing | GameState::NoGame => None,
        gs => Some(format!("the game is over ({})", gs.words())),
    }
}

/// Why the player on roll, without dice, has no cube action (gnubg's `hint`
/// only says "You cannot double."), if so.
pub fn no_cube_action(p: &Position) -> Option<String> {
    let s = &p.state;
    if s.dice.is_some() || s.double_offered {
        return None;
    }
    if s.cube_owner == CubeOwner::Owned(s.on_roll.opponent()) {
        return Some(format!("{} owns the cube", s.on_roll.opponent()));
    }
    if !s.is_money() && s.crawford {
        return Some("the Crawford game: no doubling".to_owned());
    }
    if !s.is_money()
        && u32::from(s.score_of(s.on_roll)) + s.cube_value() >= u32::from(s.match_length)
    {
        return Some(format!(
            "the cube is dead: {} wins the match with the cube at {}",
            s.on_roll,
            s.cube_value()
        ));
    }
    None
}

impl Request {
    /// The position as gnubg is told it: without a double on offer (`set
    /// gnubgid` drops it; the bridge makes the double instead) and without a
    /// resignation (the position is analysed, not the offer).
    pub fn wire_id(&self) -> String {
        let mut s = self.position.state.clone();
        s.double_offered = false;
        s.resignation = Resignation::None;
        s.game_state = GameState::Playing;
        s.turn = s.on_roll;
        gnubg_id::encode(&self.position.board, &s)
    }

    /// The GNUBG ID gnubg must report once set up (with the double made).
    pub fn expected_id(&self) -> String {
        let mut s = self.position.state.clone();
        s.resignation = Resignation::None;
        s.game_state = GameState::Playing;
        s.turn = s.expected_turn();
        gnubg_id::encode(&self.position.board, &s)
    }

    /// The request line sent to the bridge.
    pub fn to_line(&self) -> String {
        let s = &self.position.state;
        json!({
            "id": self.id,
            "gnubgid": self.wire_id(),
            "double": s.double_offered,
            "expect": self.expected_id(),
            "plies": self.plies.min(MAX_PLIES),
            "moves": self.moves,
            "beavers": s.beavers,
            "no_cube": no_cube_action(&self.position).is_some(),
        })
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Board;

    #[test]
    fn a_double_is_left_out_of_the_id_and_kept_in_the_expectation() {
        let mut p = Position::default();
        p.state.double_offered = true;
        p.state.turn = p.state.expected_turn();
        let r = Request {
            id: 7,
            position: p,
            plies: 0,
            moves: 5,
        };
        assert_ne!(r.wire_id(), r.expected_id());
        let line = r.to_line();
        assert!(
            line.contains("\"double\":true") && line.contains("\"id\":7"),
            "{line}"
        );
    }

    #[test]
    fn empty_and_finished_boards_have_nothing_to_analyse() {
        let p = Position {
            board: Board::empty(),
            ..Position::default()
        };
        assert!(nothing_to_analyse(&p).unwrap().contains("empty"));
        assert_eq!(nothing_to_analyse(&Position::default()), None);
    }

    #[test]
    fn cube_owned_by_the_opponent_means_no_cube_action() {
        let mut p = Position::default();
        p.state.dice = None;
        p.state.cube_owner = CubeOwner::Owned(p.state.on_roll.opponent());
        assert!(no_cube_action(&p).unwrap().contains("owns the cube"));
    }
}
