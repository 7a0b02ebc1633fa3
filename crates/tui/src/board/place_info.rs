//! The place under the cursor, in words, for the line under the board:
//! which place, its number for each player, and what stands there.

use super::edits;
use bgedit_core::domain::{Board, Place, Player};

/// E.g. "point 6 (X's 6, O's 19) · 3 X", "O's bar · empty",
/// "X's tray · 2 X off". Points are named as the board's labels count them
/// (for the player on roll), then for each player.
pub(crate) fn describe(board: &Board, place: Place, on_roll: Player) -> String {
    let name = edits::describe(place, on_roll);
    let whose = match place {
        Place::Point(_) => {
            let own = |p: Player| place.point_for(p).unwrap_or(0);
            format!(" (X's {}, O's {})", own(Player::X), own(Player::O))
        }
        _ => String::new(),
    };
    let here = match place {
        Place::Off(owner) => match board.borne_off(owner) {
            0 => "none off".to_owned(),
            n => format!("{n} {owner} off"),
        },
        _ => match board.occupant(place) {
            Some((player, n)) => format!("{n} {player}"),
            None => "empty".to_owned(),
        },
    };
    format!("{name}{whose} · {here}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_place_for_both_players_and_what_is_there() {
        let start = Board::starting();
        assert_eq!(
            describe(&start, Place::Point(6), Player::X),
            "point 6 (X's 6, O's 19) · 5 X"
        );
        assert_eq!(
            describe(&start, Place::Point(6), Player::O),
            "point 19 (X's 6, O's 19) · 5 X"
        );
        assert_eq!(
            describe(&start, Place::Point(1), Player::X),
            "point 1 (X's 1, O's 24) · 2 O"
        );
        assert_eq!(
            describe(&start, Place::Point(3), Player::X),
            "point 3 (X's 3, O's 22) · empty"
        );
        assert_eq!(
            describe(&start, Place::Bar(Player::O), Player::X),
            "O's bar · empty"
        );
        assert_eq!(
            describe(&Board::empty(), Place::Off(Player::X), Player::X),
            "X's tray · 15 X off"
        );
        assert_eq!(
            describe(&start, Place::Off(Player::O), Player::X),
            "O's tray · none off"
        );
    }
}
