//! What a position is, in the terms a player searches by: pip counts, race
//! or contact, checkers on the bar, money or match, Crawford, the cube. The
//! store keeps these as indexed columns so filters run in SQL.

use crate::domain::{Player, Position};

/// The searchable facts about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Derived {
    pub pips_o: u32,
    pub pips_x: u32,
    /// The pip count of the player on roll.
    pub pips_on_roll: u32,
    /// The opponent's pips minus the roller's: positive when the player on
    /// roll leads the race.
    pub pip_diff: i64,
    /// No checker of either side can meet one of the other any more.
    pub race: bool,
    /// Some checker of either side is on the bar.
    pub bar: bool,
    pub match_length: u16,
    pub crawford: bool,
    pub cube: u32,
    pub on_roll: Player,
}

/// The furthest point from home a side still has a checker on, counted as
/// that side counts (1–24, 25 for the bar), or 0 when all are off.
fn rearmost(position: &Position, player: Player) -> u32 {
    let side = position.board.side(player);
    side.iter()
        .enumerate()
        .rev()
        .find(|&(_, &n)| n > 0)
        .map_or(0, |(i, _)| i as u32 + 1)
}

pub fn derive(position: &Position) -> Derived {
    let board = &position.board;
    let state = &position.state;
    let on_roll = state.on_roll;
    let pips_o = board.pip_count(Player::O);
    let pips_x = board.pip_count(Player::X);
    let (mine, theirs) = match on_roll {
        Player::O => (pips_o, pips_x),
        Player::X => (pips_x, pips_o),
    };
    // X's own point p is O's point 25 - p: the two rear checkers can still
    // meet while they have not passed each other.
    let (rear_o, rear_x) = (rearmost(position, Player::O), rearmost(position, Player::X));
    let contact = rear_o > 0 && rear_x > 0 && rear_o + rear_x > 25;
    Derived {
        pips_o,
        pips_x,
        pips_on_roll: mine,
        pip_diff: i64::from(theirs) - i64::from(mine),
        race: !contact,
        bar: board.side(Player::O)[24] > 0 || board.side(Player::X)[24] > 0,
        match_length: state.match_length,
        crawford: state.crawford,
        cube: state.cube_value(),
        on_roll,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::parse_any;

    fn of(id: &str) -> Derived {
        derive(&parse_any(id, &Position::default()).unwrap().position)
    }

    #[test]
    fn starting_position_is_contact_and_even() {
        let d = derive(&Position::default());
        assert!(!d.race);
        assert!(!d.bar);
        assert_eq!((d.pips_o, d.pips_x, d.pip_diff), (167, 167, 0));
        assert_eq!(d.cube, 1);
    }

    #[test]
    fn a_pure_race_is_a_race() {
        // X has everything on its 1-6 points, O on its own 1-6 points.
        let d = of("XGID=-CCBBBB------------bbbbcc-:0:0:1:00:0:0:0:0:10");
        assert!(d.race, "{d:?}");
    }

    #[test]
    fn manual_example_has_contact_and_match_fields() {
        let d = of("4NvBA0DGzooBBg:QYkqASAAIAAA");
        assert!(!d.race);
        assert_eq!(d.match_length, 9);
        assert_eq!(d.cube, 2);
        assert_eq!(d.on_roll, Player::X);
        assert_eq!(d.pips_on_roll, 135);
        assert_eq!(d.pip_diff, 145 - 135);
    }
}
