//! Board edits at one place, done the way a player expects: the 15 checkers
//! of each side are always all there, so a checker added comes from its
//! owner's tray and a checker removed goes back to it. Anything that would
//! break a rule is refused with a sentence saying why.

use bgedit_core::domain::{Board, Place, Player};

/// A place as the board's labels name it, for messages (points are counted
/// for the player on roll, as the labels are).
pub(crate) fn describe(place: Place, on_roll: Player) -> String {
    match place {
        Place::Point(_) => format!("point {}", place.point_for(on_roll).unwrap_or(0)),
        Place::Bar(p) => format!("{p}'s bar"),
        Place::Off(p) => format!("{p}'s tray"),
    }
}

/// The colour at a point or bar, if any.
pub(crate) fn colour_at(board: &Board, place: Place) -> Option<Player> {
    match place {
        Place::Off(p) => Some(p),
        _ => board.occupant(place).map(|(p, _)| p),
    }
}

fn set(
    board: &Board,
    player: Player,
    place: Place,
    count: u8,
    on_roll: Player,
) -> Result<Board, String> {
    board
        .with_count(player, place, count)
        .map_err(|e| format!("cannot put {count} on {}: {e}", describe(place, on_roll)))
}

/// Adds one of `player`'s checkers at `place`. On a tray this bears a checker
/// off, from the player's lowest point (or the bar).
pub(crate) fn add(
    board: &Board,
    place: Place,
    player: Player,
    on_roll: Player,
) -> Result<Board, String> {
    let here = describe(place, on_roll);
    match place {
        Place::Off(owner) | Place::Bar(owner) if owner != player => {
            Err(format!("{here} holds only {owner}'s checkers"))
        }
        Place::Off(owner) => {
            let side = board.side(owner);
            let from = (0..25)
                .find(|&i| side[i] > 0)
                .ok_or(format!("all of {owner}'s checkers are already off"))?;
            let source = if from == 24 {
                Place::Bar(owner)
            } else {
                Place::own_point(owner, from as u8 + 1)
            };
            set(board, owner, source, side[from] - 1, on_roll)
        }
        _ => {
            if let Some(other) = colour_at(board, place).filter(|&c| c != player) {
                return Err(format!(
                    "{here} holds {other}'s checkers: remove them first"
                ));
            }
            if board.borne_off(player) == 0 {
                return Err(format!(
                    "all 15 of {player}'s checkers are on the board: remove one first"
                ));
            }
            set(
                board,
                player,
                place,
                board.count(player, place) + 1,
                on_roll,
            )
        }
    }
}

/// Removes one checker from `place` (back to its owner's tray). On a tray
/// this brings one back, onto the owner's lowest point the opponent does
/// not hold.
pub(crate) fn remove(board: &Board, place: Place, on_roll: Player) -> Result<Board, String> {
    let here = describe(place, on_roll);
    match place {
        Place::Off(owner) => {
            if board.borne_off(owner) == 0 {
                return Err(format!("{here} is empty"));
            }
            let target = (1..=24u8)
                .map(|own| Place::own_point(owner, own))
                .find(|&p| colour_at(board, p) != Some(owner.opponent()))
                .ok_or(format!("no point is free for {owner}'s checker"))?;
            set(
                board,
                owner,
                target,
                board.count(owner, target) + 1,
                on_roll,
            )
        }
        _ => match board.occupant(place) {
            Some((player, n)) => set(board, player, place, n - 1, on_roll),
            None => Err(format!("nothing to remove on {here}")),
        },
    }
}

/// Takes every checker off `place` (back to the trays); on a tray, brings
/// them all back onto the board.
pub(crate) fn clear(board: &Board, place: Place, on_roll: Player) -> Result<Board, String> {
    match place {
        // As 1–9 set how many are off, 0 brings every borne-off checker
        // back onto the board.
        Place::Off(owner) => set_count(board, place, Some(owner), 0, owner, on_roll),
        _ => match board.occupant(place) {
            Some((player, _)) => set(board, player, place, 0, on_roll),
            None => Ok(board.clone()),
        },
    }
}

/// Sets the number of checkers at `place` to `count`, of `player` or else
/// of the colour there, or else of `brush`.
pub(crate) fn set_count(
    board: &Board,
    place: Place,
    player: Option<Player>,
    count: u8,
    brush: Player,
    on_roll: Player,
) -> Result<Board, String> {
    let here = describe(place, on_roll);
    if let Place::Off(owner) = place {
        if player.is_some_and(|p| p != owner) {
            return Err(format!("{here} holds only {owner}'s checkers"));
        }
        // Bear off or bring back one at a time, as a player would.
        let mut b = board.clone();
        while b.borne_off(owner) < count {
            b = add(&b, place, owner, on_roll)?;
        }
        while b.borne_off(owner) > count {
            b = remove(&b, place, on_roll)?;
        }
        return Ok(b);
    }
    let present = colour_at(board, place);
    let colour = match (place, player, present) {
        (Place::Bar(owner), Some(p), _) if p != owner => {
            return Err(format!("{here} holds only {owner}'s checkers"));
        }
        (Place::Bar(owner), _, _) => owner,
        (_, Some(p), Some(q)) if p != q && count > 0 => {
            return Err(format!("{here} holds {q}'s checkers: remove them first"));
        }
        (_, Some(p), _) => p,
        (_, None, Some(q)) => q,
        (_, None, None) => brush,
    };
    let current = board.count(colour, place);
    let available = board.borne_off(colour);
    if count > current + available {
        return Err(format!(
            "{colour} has {available} checker{} in the tray; {count} on {here} needs {}",
            if available == 1 { "" } else { "s" },
            count - current
        ));
    }
    // Zero of one colour on the other's point clears it.
    let board = if present.is_some_and(|q| q != colour) {
        clear(board, place, on_roll)?
    } else {
        board.clone()
    };
    set(&board, colour, place, count, on_roll)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_takes_from_the_tray_and_refuses_a_sixteenth() {
        let b = Board::empty();
        let b = add(&b, Place::Point(6), Player::X, Player::X).unwrap();
        assert_eq!(b.count(Player::X, Place::Point(6)), 1);
        assert_eq!(b.borne_off(Player::X), 14);
        let err = add(&Board::starting(), Place::Point(6), Player::X, Player::X).unwrap_err();
        assert!(
            err.contains("all 15 of X's checkers are on the board"),
            "{err}"
        );
    }

    #[test]
    fn a_point_holds_one_colour() {
        let err = add(&Board::starting(), Place::Point(6), Player::O, Player::X).unwrap_err();
        assert_eq!(err, "point 6 holds X's checkers: remove them first");
    }

    #[test]
    fn bars_and_trays_belong_to_one_player() {
        assert!(add(&Board::empty(), Place::Bar(Player::X), Player::O, Player::X).is_err());
        let b = add(&Board::empty(), Place::Bar(Player::O), Player::O, Player::X).unwrap();
        assert_eq!(b.count(Player::O, Place::Bar(Player::O)), 1);
    }

    #[test]
    fn trays_bear_off_and_bring_back() {
        let b = add(
            &Board::starting(),
            Place::Off(Player::X),
            Player::X,
            Player::X,
        )
        .unwrap();
        assert_eq!(
            b.count(Player::X, Place::Point(6)),
            4,
            "from the lowest point"
        );
        assert_eq!(b.borne_off(Player::X), 1);
        let back = remove(&b, Place::Off(Player::X), Player::X).unwrap();
        assert_eq!(back.borne_off(Player::X), 0);
        // X's 1 point is O's 24 point in the start: the 2 point is the lowest free.
        assert_eq!(
            back.count(Player::X, Place::Point(2)),
            1,
            "onto the lowest free point"
        );
    }

    #[test]
    fn set_count_uses_the_colour_there_then_the_brush() {
        let b = set_count(
            &Board::starting(),
            Place::Point(6),
            None,
            2,
            Player::O,
            Player::X,
        )
        .unwrap();
        assert_eq!(b.count(Player::X, Place::Point(6)), 2);
        let b = set_count(
            &Board::empty(),
            Place::Point(3),
            None,
            15,
            Player::O,
            Player::X,
        )
        .unwrap();
        assert_eq!(b.count(Player::O, Place::Point(3)), 15);
        let err = set_count(
            &Board::starting(),
            Place::Point(3),
            Some(Player::X),
            2,
            Player::X,
            Player::X,
        )
        .unwrap_err();
        assert!(err.contains("X has 0 checkers in the tray"), "{err}");
        let b = set_count(
            &Board::starting(),
            Place::Off(Player::O),
            None,
            3,
            Player::X,
            Player::X,
        )
        .unwrap();
        assert_eq!(b.borne_off(Player::O), 3);
    }

    #[test]
    fn set_count_keeps_bars_to_their_owner_and_zero_clears_any_colour() {
        let err = set_count(
            &Board::empty(),
            Place::Bar(Player::O),
            Some(Player::X),
            2,
            Player::X,
            Player::X,
        )
        .unwrap_err();
        assert_eq!(err, "O's bar holds only O's checkers");
        let b = set_count(
            &Board::empty(),
            Place::Bar(Player::O),
            None,
            2,
            Player::X,
            Player::X,
        )
        .unwrap();
        assert_eq!(b.count(Player::O, Place::Bar(Player::O)), 2);
        let b = set_count(
            &Board::starting(),
            Place::Point(6),
            Some(Player::O),
            0,
            Player::O,
            Player::X,
        )
        .unwrap();
        assert_eq!(b.occupant(Place::Point(6)), None);
    }

    #[test]
    fn points_are_named_for_the_player_on_roll() {
        assert_eq!(describe(Place::Point(6), Player::X), "point 6");
        assert_eq!(describe(Place::Point(6), Player::O), "point 19");
    }
}
