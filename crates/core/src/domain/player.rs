//! The two players, named as gnubg draws them.

use serde::{Deserialize, Serialize};

/// A player. `O` is gnubg's player 0, drawn on top; `X` is player 1, drawn at
/// the bottom. XGID's lower-case checkers are `O`, its upper-case ones `X`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Player {
    O,
    X,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::O, Player::X];

    /// gnubg's index: 0 for O, 1 for X.
    pub const fn index(self) -> usize {
        match self {
            Player::O => 0,
            Player::X => 1,
        }
    }

    pub const fn from_index(index: usize) -> Player {
        if index == 0 { Player::O } else { Player::X }
    }

    pub const fn opponent(self) -> Player {
        match self {
            Player::O => Player::X,
            Player::X => Player::O,
        }
    }

    /// The character gnubg uses for this player's checkers.
    pub const fn symbol(self) -> char {
        match self {
            Player::O => 'O',
            Player::X => 'X',
        }
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.symbol())
    }
}
