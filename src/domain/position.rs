//! A whole position: the board, the match state and the players' names.

use super::board::{Board, BoardError};
use super::match_state::MatchState;
use super::player::Player;
use super::validation::{MatchError, Warning, board_warnings, check_match, name_warnings};
use serde::{Deserialize, Serialize};

/// The players' names, as gnubg shows them beside the board (`O: name`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Names {
    pub o: String,
    pub x: String,
}

impl Default for Names {
    /// SGF's colours for gnubg's players (White = O = 0, Black = X = 1):
    /// they read well as `O: White` and do not pretend to know who plays.
    fn default() -> Self {
        Names {
            o: "White".to_owned(),
            x: "Black".to_owned(),
        }
    }
}

impl Names {
    pub fn of(&self, player: Player) -> &str {
        match player {
            Player::O => &self.o,
            Player::X => &self.x,
        }
    }

    pub fn set(&mut self, player: Player, name: String) {
        match player {
            Player::O => self.o = name,
            Player::X => self.x = name,
        }
    }

    pub fn swapped(&self) -> Names {
        Names {
            o: self.x.clone(),
            x: self.o.clone(),
        }
    }
}

/// Why a position breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error(transparent)]
    Match(#[from] MatchError),
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    pub board: Board,
    pub state: MatchState,
    pub names: Names,
}

impl Position {
    /// Checks every rule; returns the warnings when the position is legal.
    pub fn validate(&self) -> Result<Vec<Warning>, PositionError> {
        self.board.validate()?;
        let mut warnings = check_match(&self.state)?;
        warnings.extend(board_warnings(&self.board));
        warnings.extend(name_warnings(&self.names.o, &self.names.x));
        Ok(warnings)
    }

    /// The position with the players exchanged: board mirrored, every match
    /// field and the names swapped. Describes the same game from the other
    /// seat.
    pub fn mirrored(&self) -> Position {
        Position {
            board: self.board.mirrored(),
            state: self.state.mirrored(),
            names: self.names.swapped(),
        }
    }
}
