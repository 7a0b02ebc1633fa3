//! What a position is, in the terms a player searches by: pip counts, race
//! or contact, checkers on the bar, money or match, Crawford, the cube. The
//! store keeps these as indexed columns so filters run in SQL. And what a
//! position is about ([`Themes`]): both sides' game plans, gnubg's class,
//! the decision it asks, its score class.

use bgedit_core::domain::game_plan::Plans;
use bgedit_core::domain::match_stats::DecisionKind;
use bgedit_core::domain::position_class::{self, PositionClass};
use bgedit_core::domain::score_class::{self, ScoreClass};
use bgedit_core::domain::{Player, Position};
use std::sync::OnceLock;

/// A game-plan classifier: both sides' plans of a position, or `None`
/// where it cannot say.
pub type PlanClassifier = fn(&Position) -> Option<Plans>;

static PLANS: OnceLock<PlanClassifier> = OnceLock::new();

/// Hands the library Open Sage's classifier (`bgedit_engine::plans`): the
/// library may not call an engine (the engine wall), so the program
/// installs it once at its start, before any library is opened. Without it
/// the plans are stored as unknown (NULL), never guessed. A second call is
/// ignored: the first classifier stays.
pub fn classify_plans_with(classifier: PlanClassifier) {
    let _ = PLANS.set(classifier);
}

/// Whether a classifier was handed to the library.
pub(crate) fn plans_known() -> bool {
    PLANS.get().is_some()
}

/// What a position is about, as a player studies by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Themes {
    /// Both sides' plans, when the classifier could say.
    pub plans: Option<Plans>,
    /// gnubg's class (as gnubg 1.07 installed gives it).
    pub class: PositionClass,
    pub score: ScoreClass,
    /// What the position asks of the side deciding.
    pub decision: DecisionKind,
    /// The side deciding (the taker when a double is offered).
    pub decider: Player,
}

impl Themes {
    /// The plan of the side deciding, and of the other side.
    pub fn plan_pair(&self) -> Option<(&'static str, &'static str)> {
        self.plans.map(|p| {
            (
                p.of(self.decider).name(),
                p.of(self.decider.opponent()).name(),
            )
        })
    }
}

/// The themes of `position`, with its plans from the classifier handed to
/// the library, if any.
pub fn themes(position: &Position) -> Themes {
    let state = &position.state;
    Themes {
        plans: PLANS.get().and_then(|f| f(position)),
        class: position_class::class_of(&position.board),
        score: ScoreClass::of(state),
        decision: score_class::decision_of(state),
        decider: state.turn,
    }
}

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
    /// The checker structure of the player on roll, as players search it.
    pub structure: Structure,
}

/// A side's checker structure, counted as the player on roll counts (point
/// 1 is their ace point, 24 the opponent's ace point, 25 the bar).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Structure {
    /// Bit `n - 1` set when the roller has made (2+ checkers on) point `n`.
    pub points: u32,
    /// The same for the opponent, on the opponent's own points.
    pub opp_points: u32,
    /// The roller's points with a single checker.
    pub blots: u32,
    /// The roller's checkers back: on the bar or in the opponent's home
    /// board (points 19–24).
    pub back: u32,
    /// The roller's longest run of made points.
    pub prime: u32,
    /// Points made in the roller's home board (1–6).
    pub home: u32,
}

fn made(side: &[u8; 25]) -> u32 {
    (0..24).filter(|&i| side[i] >= 2).fold(0, |m, i| m | 1 << i)
}

/// The structure of `player`'s side against the other.
pub(crate) fn structure(position: &Position, player: Player) -> Structure {
    let own = position.board.side(player);
    let points = made(own);
    let mut prime = 0;
    let mut run = 0;
    for i in 0..24 {
        run = if points & (1 << i) != 0 { run + 1 } else { 0 };
        prime = prime.max(run);
    }
    Structure {
        points,
        opp_points: made(position.board.side(player.opponent())),
        blots: own[..24].iter().filter(|&&n| n == 1).count() as u32,
        back: own[18..25].iter().map(|&n| u32::from(n)).sum(),
        prime,
        home: (points & 0x3f).count_ones(),
    }
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
        structure: structure(position, on_roll),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bgedit_core::codec::parse_any;

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
    fn the_structure_is_counted_as_the_roller_counts() {
        // The start: made 6, 8, 13 and 24 (the opponent's ace point).
        let s = derive(&Position::default()).structure;
        assert_eq!(s.points, 1 << 5 | 1 << 7 | 1 << 12 | 1 << 23);
        assert_eq!(s.opp_points, s.points);
        assert_eq!((s.blots, s.back, s.prime, s.home), (0, 2, 1, 1));
        // X (on roll) holds 4-8 and the 20 point, with a blot on 11 and
        // one on the bar; O holds its 6 and 7 points.
        let mut x = [0u8; 25];
        for i in [3, 4, 5, 6, 7, 19] {
            x[i] = 2;
        }
        x[10] = 1;
        x[24] = 1;
        let mut o = [0u8; 25];
        o[5] = 3;
        o[6] = 2;
        let mut p = Position {
            board: bgedit_core::domain::Board::from_sides(o, x).unwrap(),
            ..Position::default()
        };
        p.state.on_roll = Player::X;
        let s = derive(&p).structure;
        assert_eq!((s.prime, s.home, s.blots, s.back), (5, 3, 1, 3), "{s:?}");
        assert_ne!(s.points & (1 << 19), 0, "the 20 point: {s:?}");
        assert_eq!(s.opp_points, 1 << 5 | 1 << 6, "{s:?}");
        // From O's side, the roles turn.
        p.state.on_roll = Player::O;
        let s = derive(&p).structure;
        assert_eq!(
            (s.points, s.prime, s.back),
            (1 << 5 | 1 << 6, 2, 0),
            "{s:?}"
        );
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
