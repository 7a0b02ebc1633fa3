//! The rules a match state must keep, and the odd-but-legal states worth a
//! warning. Decoders call this after reading the fields, so every format
//! reports the same rule the same way.

use super::board::Board;
use super::match_state::{
    CubeOwner, GNUBG_MAX_MATCH_LENGTH, GameState, MAX_CUBE_LOG2, MAX_MATCH_NUMBER, MatchState,
};
use super::player::Player;
use serde::Serialize;

/// A match state that cannot be written as a gnubg Match ID or makes no sense.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    #[error("the cube value 2^{0} is above the 32768-cube (2^15) a Match ID can hold")]
    CubeTooLarge(u8),
    #[error("die {index} is {value}; dice are 1–6 each, or both 0 for not rolled")]
    BadDie { index: u8, value: u8 },
    #[error("the match length {0} is above 32767, the most a Match ID can hold")]
    MatchTooLong(u16),
    #[error("{player}'s score {score} is above 32767, the most a Match ID can hold")]
    ScoreTooLarge { player: Player, score: u16 },
    #[error("{player}'s score {score} is not below the match length {length}")]
    ScoreNotBelowLength {
        player: Player,
        score: u16,
        length: u16,
    },
    #[error("a money game has no Crawford game (match length 0 with the Crawford flag set)")]
    CrawfordInMoneyGame,
}

/// A state that can be written but is unusual; shown, never hidden.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Warning {
    /// The Crawford flag is set but neither player is one point away.
    CrawfordWithoutOneAway,
    /// Longer than the 64 points gnubg accepts.
    MatchLongerThanGnubgAccepts(u16),
    /// gnubg disables the cube in the Crawford game.
    CubeUsedInCrawfordGame,
    /// A double is on offer although the dice were rolled.
    DoubleAfterRoll,
    /// The cube is higher than XGID's maximum cube.
    CubeAboveMaximum,
    /// Above the 4096-cube gnubg accepts (a Match ID holds up to 32768).
    CubeAboveGnubgLimit,
    /// A player has no checkers left: the game is over.
    AllBorneOff(Player),
    /// The Crawford flag with both players 1-away (double match point).
    CrawfordBothOneAway,
    /// The Crawford flag in a 1-point match.
    CrawfordInOnePointMatch,
    /// A player owns the cube at 1, which no double leads to.
    OwnedOneCube(Player),
    /// Dice are set but no game is in play.
    DiceWithoutGame,
    /// Both players have the same name (as gnubg compares them).
    SameNames,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::CrawfordWithoutOneAway => {
                write!(f, "Crawford game, but neither player is one point away")
            }
            Warning::MatchLongerThanGnubgAccepts(n) => {
                write!(
                    f,
                    "a {n}-point match is longer than the 64 points gnubg accepts"
                )
            }
            Warning::CubeUsedInCrawfordGame => {
                write!(
                    f,
                    "the cube is turned or owned in the Crawford game, where gnubg disables it"
                )
            }
            Warning::DoubleAfterRoll => write!(f, "a double is offered after the dice were rolled"),
            Warning::CubeAboveMaximum => write!(f, "the cube is above the maximum cube"),
            Warning::CubeAboveGnubgLimit => {
                write!(f, "the cube is above the 4096-cube gnubg accepts")
            }
            Warning::AllBorneOff(p) => {
                write!(f, "{p} has borne off all 15 checkers: the game is over")
            }
            Warning::CrawfordBothOneAway => write!(
                f,
                "Crawford game with both players 1-away: gnubg's `set score` calls this \
                 score post-Crawford and clears the flag"
            ),
            Warning::CrawfordInOnePointMatch => write!(
                f,
                "a 1-point match has no Crawford game: gnubg clears the flag when it reads the Match ID"
            ),
            Warning::OwnedOneCube(p) => write!(
                f,
                "{p} owns the cube at 1, which no double leads to (a cube is owned once doubled); gnubg keeps it as is"
            ),
            Warning::DiceWithoutGame => write!(
                f,
                "dice with no game in play: gnubg drops them (\"There must be a game in progress to set the dice\")"
            ),
            Warning::SameNames => write!(
                f,
                "both players have the same name: gnubg refuses a name the other player has (\"That name is already in use\")"
            ),
        }
    }
}

/// gnubg 1.07 refuses cubes above 4096 (`set cube value`, `set matchid`).
const GNUBG_MAX_CUBE_LOG2: u8 = 12;

/// Checks the rules of a match state; returns the warnings when it passes.
pub fn check_match(state: &MatchState) -> Result<Vec<Warning>, MatchError> {
    if state.cube_log2 > MAX_CUBE_LOG2 {
        return Err(MatchError::CubeTooLarge(state.cube_log2));
    }
    if let Some(dice) = state.dice {
        for (i, &value) in dice.iter().enumerate() {
            if !(1..=6).contains(&value) {
                return Err(MatchError::BadDie {
                    index: i as u8 + 1,
                    value,
                });
            }
        }
    }
    if state.match_length > MAX_MATCH_NUMBER {
        return Err(MatchError::MatchTooLong(state.match_length));
    }
    for player in Player::BOTH {
        let score = state.score_of(player);
        if score > MAX_MATCH_NUMBER {
            return Err(MatchError::ScoreTooLarge { player, score });
        }
        if state.match_length > 0 && score >= state.match_length {
            return Err(MatchError::ScoreNotBelowLength {
                player,
                score,
                length: state.match_length,
            });
        }
    }
    if state.match_length == 0 && state.crawford {
        return Err(MatchError::CrawfordInMoneyGame);
    }
    Ok(match_warnings(state))
}

/// The warnings for a state that keeps the rules (`check_match` passed):
/// for callers that checked the rules once already, as decoders do.
pub(crate) fn match_warnings(state: &MatchState) -> Vec<Warning> {
    let mut warnings = Vec::new();
    if state.crawford {
        let away = |p: Player| state.score_of(p) + 1 == state.match_length;
        if state.match_length == 1 {
            warnings.push(Warning::CrawfordInOnePointMatch);
        } else if Player::BOTH.into_iter().all(away) {
            warnings.push(Warning::CrawfordBothOneAway);
        } else if !Player::BOTH.into_iter().any(away) {
            warnings.push(Warning::CrawfordWithoutOneAway);
        }
        if state.cube_log2 > 0 || state.cube_owner != CubeOwner::Centred || state.double_offered {
            warnings.push(Warning::CubeUsedInCrawfordGame);
        }
    }
    if state.match_length > GNUBG_MAX_MATCH_LENGTH {
        warnings.push(Warning::MatchLongerThanGnubgAccepts(state.match_length));
    }
    if state.double_offered && state.dice.is_some() {
        warnings.push(Warning::DoubleAfterRoll);
    }
    if state.cube_log2 > GNUBG_MAX_CUBE_LOG2 {
        warnings.push(Warning::CubeAboveGnubgLimit);
    }
    if state.is_money() && state.cube_log2 > state.max_cube_log2 {
        warnings.push(Warning::CubeAboveMaximum);
    }
    if let CubeOwner::Owned(owner) = state.cube_owner
        && state.cube_log2 == 0
    {
        warnings.push(Warning::OwnedOneCube(owner));
    }
    if state.dice.is_some() && state.game_state != GameState::Playing {
        warnings.push(Warning::DiceWithoutGame);
    }
    warnings
}

/// Warnings about the players' names. gnubg compares them ignoring case;
/// empty names (the command line's "no names given") are not compared.
pub fn name_warnings(o: &str, x: &str) -> Vec<Warning> {
    fn folded(s: &str) -> impl Iterator<Item = char> + '_ {
        s.chars().flat_map(char::to_lowercase)
    }
    if !o.is_empty() && folded(o).eq(folded(x)) {
        vec![Warning::SameNames]
    } else {
        Vec::new()
    }
}

/// Warnings about the board itself (its rules are checked by `Board`).
pub(crate) fn board_warnings(board: &Board) -> Vec<Warning> {
    Player::BOTH
        .into_iter()
        .filter(|&p| board.on_board(p) == 0)
        .map(Warning::AllBorneOff)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn match_of(length: u16, o: u16, x: u16) -> MatchState {
        MatchState {
            match_length: length,
            score: [o, x],
            ..MatchState::default()
        }
    }

    #[test]
    fn default_state_is_clean() {
        assert_eq!(check_match(&MatchState::default()), Ok(vec![]));
    }

    #[test]
    fn score_at_match_length_is_an_error_naming_player() {
        let err = check_match(&match_of(7, 2, 7)).unwrap_err();
        assert_eq!(
            err,
            MatchError::ScoreNotBelowLength {
                player: Player::X,
                score: 7,
                length: 7
            }
        );
        assert_eq!(
            err.to_string(),
            "X's score 7 is not below the match length 7"
        );
    }

    #[test]
    fn crawford_in_money_is_an_error() {
        let s = MatchState {
            crawford: true,
            ..MatchState::default()
        };
        assert_eq!(check_match(&s), Err(MatchError::CrawfordInMoneyGame));
    }

    #[test]
    fn crawford_without_one_away_is_a_warning() {
        let s = MatchState {
            crawford: true,
            ..match_of(7, 2, 3)
        };
        assert_eq!(check_match(&s), Ok(vec![Warning::CrawfordWithoutOneAway]));
        let s = MatchState {
            crawford: true,
            ..match_of(7, 6, 3)
        };
        assert_eq!(check_match(&s), Ok(vec![]));
    }

    #[test]
    fn crawford_at_double_match_point_or_in_a_one_point_match_is_a_warning() {
        let crawford = |length, o, x| MatchState {
            crawford: true,
            ..match_of(length, o, x)
        };
        assert_eq!(
            check_match(&crawford(5, 4, 4)),
            Ok(vec![Warning::CrawfordBothOneAway])
        );
        assert_eq!(
            check_match(&crawford(1, 0, 0)),
            Ok(vec![Warning::CrawfordInOnePointMatch])
        );
        assert_eq!(check_match(&crawford(5, 4, 2)), Ok(vec![]));
    }

    #[test]
    fn an_owned_one_cube_and_dice_without_a_game_are_warnings() {
        let s = MatchState {
            cube_owner: CubeOwner::Owned(Player::X),
            ..MatchState::default()
        };
        assert_eq!(check_match(&s), Ok(vec![Warning::OwnedOneCube(Player::X)]));
        let s = MatchState {
            cube_owner: CubeOwner::Owned(Player::X),
            cube_log2: 1,
            ..MatchState::default()
        };
        assert_eq!(check_match(&s), Ok(vec![]));
        for game_state in [GameState::NoGame, GameState::Over, GameState::Resigned] {
            let s = MatchState {
                dice: Some([5, 2]),
                game_state,
                ..MatchState::default()
            };
            assert_eq!(check_match(&s), Ok(vec![Warning::DiceWithoutGame]));
        }
    }

    #[test]
    fn same_names_ignoring_case_are_a_warning() {
        assert_eq!(name_warnings("Bob", "bob"), vec![Warning::SameNames]);
        assert_eq!(name_warnings("alice", "bob"), vec![]);
        assert_eq!(name_warnings("", ""), vec![], "no names given");
    }

    #[test]
    fn long_match_is_a_warning_not_an_error() {
        assert_eq!(
            check_match(&match_of(65, 0, 0)),
            Ok(vec![Warning::MatchLongerThanGnubgAccepts(65)])
        );
    }

    #[test]
    fn bad_dice_are_errors() {
        let s = MatchState {
            dice: Some([0, 7]),
            ..MatchState::default()
        };
        assert_eq!(
            check_match(&s),
            Err(MatchError::BadDie { index: 1, value: 0 })
        );
    }

    #[test]
    fn empty_board_warns_both_players() {
        assert_eq!(
            board_warnings(&Board::empty()),
            vec![
                Warning::AllBorneOff(Player::O),
                Warning::AllBorneOff(Player::X)
            ]
        );
    }
}
