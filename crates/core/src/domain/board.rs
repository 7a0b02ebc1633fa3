//! Where the checkers are.
//!
//! Each side is stored from its own point of view, as gnubg stores it: index
//! 0 is the player's ace point, 23 its 24 point and 24 its bar. Borne-off
//! checkers are not stored; they are 15 minus those still on the board. This
//! makes the Position ID and pip counts direct, and mirroring the board (swap
//! the players) a swap of the two arrays.

use super::player::Player;
use serde::{Deserialize, Serialize};

/// Checkers each player owns.
pub const CHECKERS_PER_SIDE: u8 = 15;
/// Index of the bar in a side's array.
pub(crate) const BAR: usize = 24;

/// A place on the board a checker can be, in physical terms. Points are
/// numbered 1–24 as X counts them (X's ace point is at the bottom right, as
/// gnubg draws the board when X is on roll).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Place {
    Point(u8),
    Bar(Player),
    Off(Player),
}

impl Place {
    /// The point number as `player` counts it (for a `Point`).
    pub fn point_for(self, player: Player) -> Option<u8> {
        match self {
            Place::Point(p) => Some(match player {
                Player::X => p,
                Player::O => 25 - p,
            }),
            _ => None,
        }
    }

    /// The point `player` counts as its own point `own` (1–24): the inverse
    /// of `point_for`.
    pub fn own_point(player: Player, own: u8) -> Place {
        Place::Point(match player {
            Player::X => own,
            Player::O => 25 - own,
        })
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Point(p) => write!(f, "point {p}"),
            Place::Bar(player) => write!(f, "{player}'s bar"),
            Place::Off(player) => write!(f, "{player}'s borne-off tray"),
        }
    }
}

/// Why a board is not a legal backgammon position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("{player} has {count} checkers on the board; at most 15 are allowed")]
    TooManyCheckers { player: Player, count: u32 },
    #[error(
        "both players have checkers on X's {point} point (O's {o_point} point); a point holds one colour"
    )]
    BothOnPoint { point: u8, o_point: u8 },
    #[error("{place} cannot hold {count} checkers")]
    CountOutOfRange { place: Place, count: u32 },
}

/// The checkers of both players.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// `sides[player.index()][i]`: checkers on the player's own point i+1, or
    /// on its bar for i = 24.
    sides: [[u8; 25]; 2],
}

impl Default for Board {
    fn default() -> Self {
        Board::starting()
    }
}

impl Board {
    /// No checkers on the board: both players have borne everything off.
    pub const fn empty() -> Board {
        Board {
            sides: [[0; 25]; 2],
        }
    }

    /// The starting position: 2 on the 24 point, 5 on the 13, 3 on the 8 and
    /// 5 on the 6, for both players.
    pub const fn starting() -> Board {
        let mut side = [0u8; 25];
        side[23] = 2;
        side[12] = 5;
        side[7] = 3;
        side[5] = 5;
        Board {
            sides: [side, side],
        }
    }

    /// Builds a board from both sides' own-perspective arrays, checking the
    /// rules: at most 15 checkers a side, one colour a point.
    pub fn from_sides(o: [u8; 25], x: [u8; 25]) -> Result<Board, BoardError> {
        let board = Board { sides: [o, x] };
        board.validate()?;
        Ok(board)
    }

    /// Builds a board from the side of `mover`, as XG's files (and engines
    /// that read a mover's board) store
    /// one: `cells[p]` for p in 1..=24 is the mover's point p, positive for
    /// the mover's checkers and negative for the opponent's; `cells[25]` is
    /// the mover's bar and `cells[0]` the opponent's, each a count (XG signs
    /// the opponent's bar negative: its size is what counts).
    pub fn from_mover_cells(cells: &[i32; 26], mover: Player) -> Result<Board, BoardError> {
        let mut own = [0u8; 25];
        let mut opp = [0u8; 25];
        let count = |n: i32, place: Place| {
            u8::try_from(n.unsigned_abs()).map_err(|_| BoardError::CountOutOfRange {
                place,
                count: n.unsigned_abs(),
            })
        };
        for p in 1..=24usize {
            let n = cells[p];
            let place = Place::own_point(mover, p as u8);
            if n > 0 {
                own[p - 1] = count(n, place)?;
            } else if n < 0 {
                // The opponent's own point 25-p is the mover's point p.
                opp[24 - p] = count(n, place)?;
            }
        }
        own[BAR] = count(cells[25], Place::Bar(mover))?;
        opp[BAR] = count(cells[0], Place::Bar(mover.opponent()))?;
        match mover {
            Player::O => Board::from_sides(own, opp),
            Player::X => Board::from_sides(opp, own),
        }
    }

    /// Builds a board the caller has already kept within the rules (the
    /// move generator, which only makes legal steps).
    pub(crate) const fn from_sides_unchecked(o: [u8; 25], x: [u8; 25]) -> Board {
        Board { sides: [o, x] }
    }

    /// The side of `player`, from its own point of view (index 24 = bar).
    pub fn side(&self, player: Player) -> &[u8; 25] {
        &self.sides[player.index()]
    }

    /// Checks the board's rules.
    pub fn validate(&self) -> Result<(), BoardError> {
        for player in Player::BOTH {
            let count = self.on_board(player);
            if count > u32::from(CHECKERS_PER_SIDE) {
                return Err(BoardError::TooManyCheckers { player, count });
            }
        }
        // X's point p is X's index p-1 and O's index 24-p. The points both
        // hold are gathered without a branch (this runs for every line of
        // `bgedit convert`); the lowest is named.
        let [o, x] = &self.sides;
        let both = (0..24).fold(0u32, |both, i| {
            both | u32::from((x[i] != 0) & (o[23 - i] != 0)) << i
        });
        if both != 0 {
            let i = both.trailing_zeros() as u8;
            return Err(BoardError::BothOnPoint {
                point: i + 1,
                o_point: 24 - i,
            });
        }
        Ok(())
    }

    fn index_of(player: Player, place: Place) -> Option<usize> {
        match place {
            Place::Point(p) if (1..=24).contains(&p) => {
                place.point_for(player).map(|own| usize::from(own) - 1)
            }
            Place::Point(_) => None,
            Place::Bar(owner) if owner == player => Some(BAR),
            Place::Bar(_) => None,
            Place::Off(_) => None,
        }
    }

    /// How many of `player`'s checkers are at `place`.
    pub fn count(&self, player: Player, place: Place) -> u8 {
        match place {
            Place::Off(owner) if owner == player => self.borne_off(player),
            _ => Self::index_of(player, place).map_or(0, |i| self.sides[player.index()][i]),
        }
    }

    /// Who has checkers at `place`, and how many.
    pub fn occupant(&self, place: Place) -> Option<(Player, u8)> {
        match place {
            Place::Bar(p) | Place::Off(p) => {
                let n = self.count(p, place);
                (n > 0).then_some((p, n))
            }
            Place::Point(_) => Player::BOTH
                .into_iter()
                .map(|p| (p, self.count(p, place)))
                .find(|&(_, n)| n > 0),
        }
    }

    /// Sets the number of `player`'s checkers at a point or on its bar,
    /// returning the new board, or why that would break the rules. Borne-off
    /// counts follow from the rest and cannot be set here.
    pub fn with_count(&self, player: Player, place: Place, count: u8) -> Result<Board, BoardError> {
        let Some(index) = Self::index_of(player, place) else {
            return Err(BoardError::CountOutOfRange {
                place,
                count: u32::from(count),
            });
        };
        let mut next = self.clone();
        next.sides[player.index()][index] = count;
        next.validate()?;
        Ok(next)
    }

    /// Checkers of `player` still on the board (points and bar).
    pub fn on_board(&self, player: Player) -> u32 {
        self.sides[player.index()]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Checkers of `player` borne off: 15 minus those on the board.
    pub fn borne_off(&self, player: Player) -> u8 {
        u8::try_from(u32::from(CHECKERS_PER_SIDE).saturating_sub(self.on_board(player)))
            .unwrap_or(0)
    }

    /// The pip count of `player`: each checker's distance to bearing off, 25
    /// for a checker on the bar.
    pub fn pip_count(&self, player: Player) -> u32 {
        self.sides[player.index()]
            .iter()
            .enumerate()
            .map(|(i, &n)| (i as u32 + 1) * u32::from(n))
            .sum()
    }

    /// The board with the players' roles exchanged: O's checkers become X's on
    /// the same own-numbered points and the other way round.
    pub(crate) fn mirrored(&self) -> Board {
        Board {
            sides: [self.sides[1], self.sides[0]],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_position_has_167_pips_each_and_nothing_off() {
        let b = Board::starting();
        for p in Player::BOTH {
            assert_eq!(b.pip_count(p), 167);
            assert_eq!(b.borne_off(p), 0);
            assert_eq!(b.on_board(p), 15);
        }
        // O's 24 point is X's 1 point.
        assert_eq!(b.occupant(Place::Point(24)), Some((Player::X, 2)));
        assert_eq!(b.occupant(Place::Point(1)), Some((Player::O, 2)));
        assert_eq!(b.occupant(Place::Point(6)), Some((Player::X, 5)));
        assert_eq!(b.occupant(Place::Point(19)), Some((Player::O, 5)));
        assert_eq!(b.occupant(Place::Point(2)), None);
    }

    #[test]
    fn empty_board_has_everything_borne_off() {
        let b = Board::empty();
        assert_eq!(b.borne_off(Player::O), 15);
        assert_eq!(b.count(Player::X, Place::Off(Player::X)), 15);
        assert_eq!(b.pip_count(Player::X), 0);
    }

    #[test]
    fn sixteen_checkers_are_refused() {
        let b = Board::starting();
        let err = b
            .with_count(Player::X, Place::Bar(Player::X), 1)
            .unwrap_err();
        assert_eq!(
            err,
            BoardError::TooManyCheckers {
                player: Player::X,
                count: 16
            }
        );
        assert_eq!(
            err.to_string(),
            "X has 16 checkers on the board; at most 15 are allowed"
        );
    }

    #[test]
    fn both_colours_on_one_point_are_refused_and_named() {
        let b = Board::empty()
            .with_count(Player::X, Place::Point(7), 1)
            .unwrap();
        let err = b.with_count(Player::O, Place::Point(7), 1).unwrap_err();
        assert_eq!(
            err,
            BoardError::BothOnPoint {
                point: 7,
                o_point: 18
            }
        );
        assert!(err.to_string().contains("X's 7 point (O's 18 point)"));
    }

    #[test]
    fn bars_are_separate_places() {
        let b = Board::empty()
            .with_count(Player::X, Place::Bar(Player::X), 2)
            .unwrap()
            .with_count(Player::O, Place::Bar(Player::O), 3)
            .unwrap();
        assert_eq!(b.pip_count(Player::X), 50);
        assert_eq!(b.pip_count(Player::O), 75);
        assert_eq!(b.occupant(Place::Bar(Player::O)), Some((Player::O, 3)));
        assert!(b.with_count(Player::O, Place::Bar(Player::X), 1).is_err());
    }

    #[test]
    fn own_point_is_the_inverse_of_point_for() {
        for player in Player::BOTH {
            for own in 1..=24 {
                assert_eq!(Place::own_point(player, own).point_for(player), Some(own));
            }
        }
        assert_eq!(Place::own_point(Player::O, 6), Place::Point(19));
    }

    #[test]
    fn mirroring_twice_is_identity_and_swaps_roles() {
        let b = Board::empty()
            .with_count(Player::X, Place::Point(3), 4)
            .unwrap();
        let m = b.mirrored();
        assert_eq!(m.count(Player::O, Place::Point(22)), 4);
        assert_eq!(m.mirrored(), b);
    }
}
