//! The state of the match around the board: every field of gnubg's match key,
//! plus the two that only XGID carries (beavers and the maximum cube).

use super::player::Player;
use serde::{Deserialize, Serialize};

/// Who may double next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CubeOwner {
    Centred,
    Owned(Player),
}

impl CubeOwner {
    pub(crate) fn mirrored(self) -> CubeOwner {
        match self {
            CubeOwner::Centred => CubeOwner::Centred,
            CubeOwner::Owned(p) => CubeOwner::Owned(p.opponent()),
        }
    }
}

/// A resignation on offer, as gnubg's match key codes it (0–3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Resignation {
    None,
    Single,
    Gammon,
    Backgammon,
}

impl Resignation {
    pub const ALL: [Resignation; 4] = [
        Resignation::None,
        Resignation::Single,
        Resignation::Gammon,
        Resignation::Backgammon,
    ];

    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Option<Resignation> {
        Self::ALL.get(usize::from(code)).copied()
    }

    /// gnubg's words for what is resigned ("single game", "gammon", ...).
    pub fn words(self) -> &'static str {
        match self {
            Resignation::None => "nothing",
            Resignation::Single => "single game",
            Resignation::Gammon => "gammon",
            Resignation::Backgammon => "backgammon",
        }
    }
}

/// The state of the game, as gnubg's match key codes it (0–4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameState {
    NoGame,
    Playing,
    Over,
    Resigned,
    Dropped,
}

impl GameState {
    pub const ALL: [GameState; 5] = [
        GameState::NoGame,
        GameState::Playing,
        GameState::Over,
        GameState::Resigned,
        GameState::Dropped,
    ];

    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Option<GameState> {
        Self::ALL.get(usize::from(code)).copied()
    }

    pub fn words(self) -> &'static str {
        match self {
            GameState::NoGame => "no game started",
            GameState::Playing => "playing",
            GameState::Over => "game over",
            GameState::Resigned => "resigned",
            GameState::Dropped => "cube dropped",
        }
    }
}

/// The dice: not rolled, or two values 1–6 in the order they were read.
/// gnubg keeps the order of a Match ID it is given (and shows "Rolled 25"),
/// but writes every ID larger die first; bgedit does the same, and puts the
/// larger die first in what it makes itself (typed dice, XGID imports).
pub type Dice = Option<[u8; 2]>;

/// Highest cube exponent a Match ID can hold: a 32768-cube.
pub const MAX_CUBE_LOG2: u8 = 15;
/// Highest match length or score a Match ID can hold (15 bits).
pub(crate) const MAX_MATCH_NUMBER: u16 = 32767;
/// Longest match gnubg itself accepts.
pub(crate) const GNUBG_MAX_MATCH_LENGTH: u16 = 64;
/// XGID's usual maximum cube exponent (a 1024-cube), used when an ID that
/// does not carry one is turned into an XGID.
pub const DEFAULT_MAX_CUBE_LOG2: u8 = 10;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchState {
    /// log2 of the cube value (0 = 1-cube … 15 = 32768-cube).
    pub cube_log2: u8,
    pub cube_owner: CubeOwner,
    /// The player on roll, or who did roll (gnubg's `fMove`).
    pub on_roll: Player,
    /// The player who must decide now (gnubg's `fTurn`): the opponent of the
    /// roller when a double or resignation is on offer.
    pub turn: Player,
    pub double_offered: bool,
    pub resignation: Resignation,
    pub game_state: GameState,
    pub dice: Dice,
    /// 0 for a money game.
    pub match_length: u16,
    /// Indexed by `Player::index()`: O's score, then X's.
    pub score: [u16; 2],
    pub crawford: bool,
    /// Kept in match play too, where it does not apply, so that an imported
    /// Match ID comes back bit for bit.
    pub jacoby: bool,
    /// Money play only; carried by XGID, not by the GNUBG ID.
    pub beavers: bool,
    /// XGID's maximum cube, as a log2; not carried by the GNUBG ID.
    pub max_cube_log2: u8,
}

impl Default for MatchState {
    /// gnubg's own start, `cAkAAAAAAAAA`: money game, centred 1-cube, X on
    /// roll, Jacoby on.
    fn default() -> Self {
        MatchState {
            cube_log2: 0,
            cube_owner: CubeOwner::Centred,
            on_roll: Player::X,
            turn: Player::X,
            double_offered: false,
            resignation: Resignation::None,
            game_state: GameState::Playing,
            dice: None,
            match_length: 0,
            score: [0, 0],
            crawford: false,
            jacoby: true,
            beavers: true,
            max_cube_log2: DEFAULT_MAX_CUBE_LOG2,
        }
    }
}

impl MatchState {
    pub fn cube_value(&self) -> u32 {
        1u32 << self.cube_log2.min(31)
    }

    pub fn is_money(&self) -> bool {
        self.match_length == 0
    }

    /// Who must decide, as the roller and what is on offer imply: the
    /// opponent while a double or a resignation is on offer, else the roller.
    pub fn expected_turn(&self) -> Player {
        if self.double_offered || self.resignation != Resignation::None {
            self.on_roll.opponent()
        } else {
            self.on_roll
        }
    }

    pub fn score_of(&self, player: Player) -> u16 {
        self.score[player.index()]
    }

    /// The same state with the players' roles exchanged.
    pub(crate) fn mirrored(&self) -> MatchState {
        MatchState {
            cube_owner: self.cube_owner.mirrored(),
            on_roll: self.on_roll.opponent(),
            turn: self.turn.opponent(),
            score: [self.score[1], self.score[0]],
            ..self.clone()
        }
    }
}

/// Orders two dice the way gnubg writes a roll it makes itself: larger first.
pub fn larger_first(a: u8, b: u8) -> [u8; 2] {
    if a >= b { [a, b] } else { [b, a] }
}
