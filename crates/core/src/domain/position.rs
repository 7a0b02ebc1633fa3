//! A whole position: the board, the match state and the players' names.

use super::board::{Board, BoardError};
use super::match_state::MatchState;
use super::player::Player;
use super::validation::{
    MatchError, Warning, board_warnings, check_match, match_warnings, name_warnings,
};
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

    /// The one rule for names, wherever they come from (the command line,
    /// JSON, the editor): one line of text, no control characters (a
    /// newline or an escape would break the board text and the terminal).
    pub fn check(&self) -> Result<(), NameError> {
        Player::BOTH
            .into_iter()
            .try_for_each(|p| check_name(p, self.of(p)))
    }

    pub fn swapped(&self) -> Names {
        Names {
            o: self.x.clone(),
            x: self.o.clone(),
        }
    }
}

/// Why a name is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error(
        "{player}'s name '{name}' has a control character ({code}) at character {at}; names are one line of text"
    )]
    ControlCharacter {
        player: Player,
        /// The name as quoted: cut like every quoted fragment, controls
        /// shown escaped.
        name: String,
        code: String,
        at: usize,
    },
}

/// Checks one player's name against the rule of [`Names::check`].
pub fn check_name(player: Player, name: &str) -> Result<(), NameError> {
    match name.chars().enumerate().find(|(_, c)| c.is_control()) {
        None => Ok(()),
        Some((i, c)) => Err(NameError::ControlCharacter {
            player,
            name: crate::quote::clip(name).escape_debug().to_string(),
            code: format!("U+{:04X}", u32::from(c)),
            at: i + 1,
        }),
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

    /// The warnings of a position already known to keep the rules (read by
    /// a decoder, which checks them): `validate` without checking twice.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut warnings = match_warnings(&self.state);
        warnings.extend(board_warnings(&self.board));
        warnings
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
