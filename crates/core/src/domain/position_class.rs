//! gnubg's class of a position (eval.c `ClassifyPosition`, bearoff.c
//! `isBearoff`), reimplemented step for step: the game over, a bear-off one
//! of gnubg's databases holds (two-sided, its larger two-sided, one-sided,
//! its larger one-sided), a race, a crashed position, contact. Which
//! bear-off class a position gets depends on the databases gnubg has
//! loaded: [`Databases::GNUBG_1_07`] is what gnubg 1.07 loads as installed
//! (its built-in two-sided 6-point 6-checker database and the one-sided
//! 6-point 15-checker `gnubg_os0.bd`, no larger ones); tests/gnubg checks
//! it against that gnubg's `gnubg.classifypos`.

use super::board::Board;
use super::player::Player;

/// gnubg's `positionclass` for standard backgammon (the hypergammon classes
/// left out: bgedit plays no variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PositionClass {
    /// A side has borne every checker off (`CLASS_OVER`).
    Over,
    /// In the two-sided bear-off database (`CLASS_BEAROFF2`).
    Bearoff2,
    /// In the larger two-sided database (`CLASS_BEAROFF_TS`).
    BearoffTs,
    /// In the one-sided bear-off database (`CLASS_BEAROFF1`).
    Bearoff1,
    /// In the larger one-sided database (`CLASS_BEAROFF_OS`).
    BearoffOs,
    Race,
    /// Contact with a side nearly out of play (`CLASS_CRASHED`).
    Crashed,
    Contact,
}

impl PositionClass {
    pub const ALL: [PositionClass; 8] = [
        PositionClass::Over,
        PositionClass::Bearoff2,
        PositionClass::BearoffTs,
        PositionClass::Bearoff1,
        PositionClass::BearoffOs,
        PositionClass::Race,
        PositionClass::Crashed,
        PositionClass::Contact,
    ];

    /// Its word in bgedit (filters, JSON, the library).
    pub fn name(self) -> &'static str {
        match self {
            PositionClass::Over => "over",
            PositionClass::Bearoff2 => "bearoff2",
            PositionClass::BearoffTs => "bearoff-ts",
            PositionClass::Bearoff1 => "bearoff1",
            PositionClass::BearoffOs => "bearoff-os",
            PositionClass::Race => "race",
            PositionClass::Crashed => "crashed",
            PositionClass::Contact => "contact",
        }
    }

    pub fn from_name(name: &str) -> Option<PositionClass> {
        let n = name.to_ascii_lowercase();
        PositionClass::ALL.into_iter().find(|c| c.name() == n)
    }

    /// gnubg's number for it (eval.h's enum, hypergammon's 1–3 skipped).
    pub fn gnubg_code(self) -> u8 {
        match self {
            PositionClass::Over => 0,
            PositionClass::Bearoff2 => 4,
            PositionClass::BearoffTs => 5,
            PositionClass::Bearoff1 => 6,
            PositionClass::BearoffOs => 7,
            PositionClass::Race => 8,
            PositionClass::Crashed => 9,
            PositionClass::Contact => 10,
        }
    }
}

impl std::fmt::Display for PositionClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The size of one bear-off database: points and checkers a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Database {
    pub points: u32,
    pub checkers: u32,
}

/// The bear-off databases gnubg has loaded (its `pbc2`, `pbcTS`, `pbc1`,
/// `pbcOS`), each absent or of its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Databases {
    pub two_sided: Option<Database>,
    pub two_sided_large: Option<Database>,
    pub one_sided: Option<Database>,
    pub one_sided_large: Option<Database>,
}

impl Databases {
    /// gnubg 1.07 as installed: its built-in two-sided database (6 points,
    /// 6 checkers) and `gnubg_os0.bd` (6 points, 15 checkers).
    pub const GNUBG_1_07: Databases = Databases {
        two_sided: Some(Database {
            points: 6,
            checkers: 6,
        }),
        two_sided_large: None,
        one_sided: Some(Database {
            points: 6,
            checkers: 15,
        }),
        one_sided_large: None,
    };
}

/// The highest index (0–24, 24 the bar) holding a checker of `side`, if any.
fn back(side: &[u8; 25]) -> Option<usize> {
    (0..25).rev().find(|&i| side[i] > 0)
}

/// bearoff.c `isBearoff`: both sides within `db`'s points and checkers.
/// Only called on a position without contact and with both sides on the
/// board, where gnubg's own early returns do not apply.
fn in_database(db: Option<Database>, sides: [&[u8; 25]; 2]) -> bool {
    let Some(db) = db else {
        return false;
    };
    sides.iter().all(|side| {
        let b = back(side).unwrap_or(0);
        let n: u32 = side[..=b].iter().map(|&c| u32::from(c)).sum();
        n <= db.checkers && (b as u32) < db.points
    })
}

/// eval.c's crashed test for one side: gnubg's arithmetic is unsigned, and
/// `N + (board[1] - 1)` wraps when the 2-point is empty, as it does here.
fn crashed(side: &[u8; 25]) -> bool {
    const N: u32 = 6;
    let tot: u32 = side.iter().map(|&c| u32::from(c)).sum();
    let (ace, two) = (u32::from(side[0]), u32::from(side[1]));
    if tot <= N {
        true
    } else if ace > 1 {
        tot <= N + ace || ((1 + tot - (ace + two)) <= N && two > 1)
    } else {
        tot <= N.wrapping_add(two.wrapping_sub(1))
    }
}

/// gnubg's class of `board` with `dbs` loaded. It does not depend on who is
/// on roll: gnubg's tests look at both sides alike.
pub fn classify(board: &Board, dbs: &Databases) -> PositionClass {
    let sides = [board.side(Player::O), board.side(Player::X)];
    let (Some(b0), Some(b1)) = (back(sides[0]), back(sides[1])) else {
        return PositionClass::Over;
    };
    if b0 + b1 > 22 {
        if sides.iter().any(|s| crashed(s)) {
            PositionClass::Crashed
        } else {
            PositionClass::Contact
        }
    } else if in_database(dbs.two_sided, sides) {
        PositionClass::Bearoff2
    } else if in_database(dbs.two_sided_large, sides) {
        PositionClass::BearoffTs
    } else if in_database(dbs.one_sided, sides) {
        PositionClass::Bearoff1
    } else if in_database(dbs.one_sided_large, sides) {
        PositionClass::BearoffOs
    } else {
        PositionClass::Race
    }
}

/// The class as gnubg 1.07 installed gives it.
pub fn class_of(board: &Board) -> PositionClass {
    classify(board, &Databases::GNUBG_1_07)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(o: &[(usize, u8)], x: &[(usize, u8)]) -> Board {
        let mut so = [0u8; 25];
        let mut sx = [0u8; 25];
        for &(i, n) in o {
            so[i] = n;
        }
        for &(i, n) in x {
            sx[i] = n;
        }
        Board::from_sides(so, sx).unwrap()
    }

    #[test]
    fn the_start_is_contact_and_bear_offs_go_by_size() {
        assert_eq!(class_of(&Board::default()), PositionClass::Contact);
        // Three checkers each, home: the two-sided database.
        let small = board(&[(0, 1), (1, 1), (2, 1)], &[(0, 2), (1, 1)]);
        assert_eq!(class_of(&small), PositionClass::Bearoff2);
        // Fifteen home against three: one-sided.
        let big = board(&[(0, 5), (1, 5), (2, 5)], &[(0, 2), (1, 1)]);
        assert_eq!(class_of(&big), PositionClass::Bearoff1);
        // A checker on the 7 point: a race.
        let race = board(&[(0, 5), (1, 5), (2, 5)], &[(0, 2), (1, 1), (6, 1)]);
        assert_eq!(class_of(&race), PositionClass::Race);
        let over = board(&[], &[(0, 2), (1, 1), (6, 1)]);
        assert_eq!(class_of(&over), PositionClass::Over);
    }

    #[test]
    fn a_side_with_few_checkers_left_in_contact_is_crashed() {
        // O: 6 checkers left, one on the bar against X's back checkers.
        let b = board(
            &[(0, 2), (1, 2), (5, 1), (24, 1)],
            &[(5, 5), (12, 5), (20, 5)],
        );
        assert_eq!(class_of(&b), PositionClass::Crashed);
        assert!(crashed(&[
            3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4
        ]));
        // With the ace point empty the wrapped sum is 5: 7 checkers are not.
        let mut s = [0u8; 25];
        s[5] = 6;
        s[23] = 1;
        assert!(!crashed(&s));
    }
}
