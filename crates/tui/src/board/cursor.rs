//! The cursor's places in the board's visual order, as gnubg draws it: the
//! top row runs 13–18, O's bar, 19–24, O's tray (in X's numbering); the
//! bottom row 12–7, X's bar, 6–1, X's tray. Left and right move along a row,
//! up and down between the rows at the same column.

use crate::action::Direction;
use bgedit_core::domain::{Place, Player};

/// Columns in a row: 12 points, the bar and the tray.
pub(crate) const COLUMNS: usize = 14;

/// The place at `column` of the top (`top = true`) or bottom row.
pub(crate) fn place_at(top: bool, column: usize) -> Place {
    let column = column.min(COLUMNS - 1);
    match (top, column) {
        (true, 0..=5) => Place::Point(13 + column as u8),
        (true, 6) => Place::Bar(Player::O),
        (true, 7..=12) => Place::Point(12 + column as u8),
        (true, _) => Place::Off(Player::O),
        (false, 0..=5) => Place::Point(12 - column as u8),
        (false, 6) => Place::Bar(Player::X),
        (false, 7..=12) => Place::Point(13 - column as u8),
        (false, _) => Place::Off(Player::X),
    }
}

/// Which row and column a place is drawn at.
pub(crate) fn position_of(place: Place) -> (bool, usize) {
    match place {
        Place::Point(p @ 13..=18) => (true, usize::from(p) - 13),
        Place::Point(p @ 19..=24) => (true, usize::from(p) - 12),
        Place::Point(p @ 7..=12) => (false, 12 - usize::from(p)),
        Place::Point(p) => (false, 13 - usize::from(p.clamp(1, 6))),
        Place::Bar(Player::O) => (true, 6),
        Place::Bar(Player::X) => (false, 6),
        Place::Off(Player::O) => (true, 13),
        Place::Off(Player::X) => (false, 13),
    }
}

/// The place one step from `place` in `direction`; rows end at their edges.
pub(crate) fn step(place: Place, direction: Direction) -> Place {
    let (top, column) = position_of(place);
    match direction {
        Direction::Left => place_at(top, column.saturating_sub(1)),
        Direction::Right => place_at(top, (column + 1).min(COLUMNS - 1)),
        Direction::Up | Direction::Down => {
            let to_top = direction == Direction::Up;
            place_at(to_top, column)
        }
    }
}

/// Where the same checkers stand after the players are swapped.
pub(crate) fn mirrored(place: Place) -> Place {
    match place {
        Place::Point(p) => Place::Point(25 - p),
        Place::Bar(p) => Place::Bar(p.opponent()),
        Place::Off(p) => Place::Off(p.opponent()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_place_has_one_position_and_back() {
        for top in [true, false] {
            for column in 0..COLUMNS {
                assert_eq!(position_of(place_at(top, column)), (top, column));
            }
        }
    }

    #[test]
    fn moves_follow_the_drawing() {
        assert_eq!(
            step(Place::Point(18), Direction::Right),
            Place::Bar(Player::O)
        );
        assert_eq!(
            step(Place::Bar(Player::O), Direction::Right),
            Place::Point(19)
        );
        assert_eq!(
            step(Place::Point(24), Direction::Right),
            Place::Off(Player::O)
        );
        assert_eq!(
            step(Place::Off(Player::O), Direction::Right),
            Place::Off(Player::O)
        );
        assert_eq!(step(Place::Point(13), Direction::Left), Place::Point(13));
        assert_eq!(step(Place::Point(13), Direction::Down), Place::Point(12));
        assert_eq!(step(Place::Point(1), Direction::Up), Place::Point(24));
        assert_eq!(
            step(Place::Point(6), Direction::Left),
            Place::Bar(Player::X)
        );
        assert_eq!(
            step(Place::Bar(Player::X), Direction::Up),
            Place::Bar(Player::O)
        );
        assert_eq!(step(Place::Point(7), Direction::Down), Place::Point(7));
    }
}
