//! Race counts as gnubg 1.07 computes them (`show kleinman`, `thorp`,
//! `keith`, `isight`, `8912`, `pipcount`).
//!
//! gnubg takes the player on roll as the "leader" and the other as the
//! "trailer", whoever is ahead; bgedit keeps that convention so that every
//! number reads as gnubg prints it. The arithmetic is gnubg's, in single
//! precision where gnubg uses floats, so verdicts fall on the same side of
//! their thresholds.

use super::board::Board;
use super::player::Player;

/// A cube verdict from a race count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    NoDouble,
    DoubleTake,
    RedoubleTake,
    DoubleDrop,
}

impl Verdict {
    pub fn words(self) -> &'static str {
        match self {
            Verdict::NoDouble => "No double, take",
            Verdict::DoubleTake => "Double, take",
            Verdict::RedoubleTake => "Redouble, take",
            Verdict::DoubleDrop => "Double, drop",
        }
    }

    /// A short word for JSON: `no_double`, `double_take`, ...
    pub fn key(self) -> &'static str {
        match self {
            Verdict::NoDouble => "no_double",
            Verdict::DoubleTake => "double_take",
            Verdict::RedoubleTake => "redouble_take",
            Verdict::DoubleDrop => "double_drop",
        }
    }
}

/// Where the game stands, as gnubg classes it for the cube efficiency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GameClass {
    /// A side has nothing left on the board.
    Over,
    Contact,
    Race,
    /// Both sides within their home boards, one with more than 6 checkers:
    /// gnubg's one-sided bear-off database.
    OneSidedBearoff,
    /// Both sides within their home boards with at most 6 checkers each:
    /// gnubg's exact two-sided database.
    TwoSidedBearoff,
}

/// The two sides as gnubg's counts take them: `[trailer, leader]` =
/// `[not on roll, on roll]`, each from its own side (index 24 = bar).
fn sides(board: &Board, on_roll: Player) -> [&[u8; 25]; 2] {
    [board.side(on_roll.opponent()), board.side(on_roll)]
}

fn pips(side: &[u8; 25]) -> u32 {
    side.iter()
        .enumerate()
        .map(|(i, &n)| u32::from(n) * (i as u32 + 1))
        .sum()
}

fn men(side: &[u8; 25]) -> u32 {
    side.iter().map(|&n| u32::from(n)).sum()
}

fn back(side: &[u8; 25]) -> Option<usize> {
    side.iter().rposition(|&n| n > 0)
}

/// gnubg's `ClassifyPosition` for standard backgammon.
pub(crate) fn classify(board: &Board, on_roll: Player) -> GameClass {
    let [t, l] = sides(board, on_roll);
    let (Some(bt), Some(bl)) = (back(t), back(l)) else {
        return GameClass::Over;
    };
    if bt + bl > 22 {
        // gnubg's "crashed" class has the same cube efficiency as contact.
        GameClass::Contact
    } else if bt < 6 && bl < 6 {
        if men(t) <= 6 && men(l) <= 6 {
            GameClass::TwoSidedBearoff
        } else {
            GameClass::OneSidedBearoff
        }
    } else {
        GameClass::Race
    }
}

/// Janowski's cube efficiency x, gnubg's values: 0.68 in contact, 0.6
/// one-sided bear-off, race interpolated by the roller's pips (40 → 0.6,
/// 120 → 0.7). `None` where gnubg does not use one (two-sided bear-off:
/// exact cubeful equities; game over: dead cube).
pub fn cube_efficiency(board: &Board, on_roll: Player) -> Option<f32> {
    match classify(board, on_roll) {
        GameClass::Over | GameClass::TwoSidedBearoff => None,
        GameClass::Contact => Some(0.68),
        GameClass::OneSidedBearoff => Some(0.6),
        GameClass::Race => {
            let x = pips(board.side(on_roll)) as f32 * 0.00125 + 0.55;
            Some(x.clamp(0.6, 0.7))
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kleinman {
    /// (diff + 4) / (2 √(sum − 4)), as gnubg prints it (double).
    pub k: f64,
    /// Cubeless winning chance of the leader.
    pub win: f32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thorp {
    pub leader: i32,
    /// The leader's count plus a tenth above 30.
    pub adjusted: f32,
    pub trailer: i32,
    pub verdict: Verdict,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Keith {
    pub leader: i32,
    /// The leader's count plus a seventh.
    pub adjusted: f32,
    pub trailer: i32,
    pub verdict: Verdict,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Isight {
    pub leader: i32,
    pub trailer: i32,
    /// Estimated game winning chance of the leader, in percent.
    pub gwc: f32,
    pub verdict: Verdict,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule8912 {
    /// How far the leader is ahead, in percent of its pips.
    pub ahead: f32,
    pub verdict: Verdict,
}

/// Every race count for a position, leader = the player on roll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaceCounts {
    pub leader: Player,
    /// Pips of the leader (on roll) and the trailer.
    pub leader_pips: u32,
    pub trailer_pips: u32,
    /// False in contact, where the counts mean nothing.
    pub is_race: bool,
    pub kleinman: Kleinman,
    pub thorp: Thorp,
    pub keith: Keith,
    pub isight: Isight,
    pub rule_8912: Rule8912,
}

fn kleinman(leader_pips: u32, trailer_pips: u32) -> Kleinman {
    let sum = leader_pips as i64 + trailer_pips as i64;
    let diff = trailer_pips as i64 - leader_pips as i64;
    let k = (diff + 4) as f64 / (2.0 * ((sum - 4) as f64).sqrt());
    let win = if sum > 4 {
        let rk = (diff + 4) as f32 / (2.0 * ((sum - 4) as f32).sqrt());
        0.5 * (1.0 + super::cmath::erff(rk))
    } else {
        0.0
    };
    Kleinman { k, win }
}

fn thorp_count(side: &[u8; 25]) -> i32 {
    let covered = side[..6].iter().filter(|&&n| n > 0).count() as i32;
    pips(side) as i32 + 2 * men(side) as i32 + i32::from(side[0]) - covered
}

fn thorp(board: &Board, on_roll: Player) -> Thorp {
    let [t, l] = sides(board, on_roll);
    let leader = thorp_count(l);
    let trailer = thorp_count(t);
    let adjusted = if leader > 30 {
        leader as f32 * 1.1
    } else {
        leader as f32
    };
    let tr = trailer as f32;
    let verdict = if tr >= adjusted + 2.0 {
        Verdict::DoubleDrop
    } else if tr >= adjusted - 1.0 {
        Verdict::RedoubleTake
    } else if tr >= adjusted - 2.0 {
        Verdict::DoubleTake
    } else {
        Verdict::NoDouble
    };
    Thorp {
        leader,
        adjusted,
        trailer,
        verdict,
    }
}

fn keith_count(side: &[u8; 25]) -> i32 {
    let mut n = pips(side) as i32;
    n += (i32::from(side[0]).max(1) - 1) * 2;
    n += i32::from(side[1]).max(1) - 1;
    n += i32::from(side[2]).max(3) - 3;
    n += side[3..6].iter().filter(|&&c| c == 0).count() as i32;
    n
}

fn keith(board: &Board, on_roll: Player) -> Keith {
    let [t, l] = sides(board, on_roll);
    let leader = keith_count(l);
    let trailer = keith_count(t);
    // gnubg's `* 8.0f / 7.0f`, folded into one constant by its
    // -ffast-math build: at 56.0 the two differ, and so does the verdict.
    let adjusted = leader as f32 * (8.0f32 / 7.0);
    let tr = trailer as f32;
    let verdict = if tr >= adjusted - 2.0 {
        Verdict::DoubleDrop
    } else if tr >= adjusted - 3.0 {
        Verdict::RedoubleTake
    } else if tr >= adjusted - 4.0 {
        Verdict::DoubleTake
    } else {
        Verdict::NoDouble
    };
    Keith {
        leader,
        adjusted,
        trailer,
        verdict,
    }
}

fn isight_count(me: &[u8; 25], other: &[u8; 25]) -> i32 {
    let crossovers = |s: &[u8; 25]| -> i32 {
        s.iter()
            .enumerate()
            .map(|(x, &n)| i32::from(n) * (x as i32 / 6))
            .sum()
    };
    let mut n = pips(me) as i32;
    let (mine, theirs) = (men(me) as i32, men(other) as i32);
    if mine > theirs {
        n += mine - theirs;
    }
    n += (i32::from(me[0]).max(2) - 2) * 2;
    n += i32::from(me[1]).max(2) - 2;
    n += i32::from(me[2]).max(3) - 3;
    n += (3..6).filter(|&x| me[x] == 0 && other[x] > 0).count() as i32;
    let (cm, co) = (crossovers(me), crossovers(other));
    if cm > co {
        n += cm - co;
    }
    n
}

fn isight(board: &Board, on_roll: Player) -> Isight {
    let [t, l] = sides(board, on_roll);
    let leader = isight_count(l, t);
    let trailer = isight_count(t, l);
    // `L / 3.0f` as gnubg's -ffast-math build computes it: times 1/3.
    let gwc = 80.0 - leader as f32 * (1.0f32 / 3.0) + 2.0 * (trailer - leader) as f32;
    let verdict = if gwc > 76.0 {
        Verdict::DoubleDrop
    } else if gwc >= 70.0 {
        Verdict::RedoubleTake
    } else if gwc >= 68.0 {
        Verdict::DoubleTake
    } else {
        Verdict::NoDouble
    };
    Isight {
        leader,
        trailer,
        gwc,
        verdict,
    }
}

fn rule_8912(leader_pips: u32, trailer_pips: u32) -> Rule8912 {
    let ahead = (trailer_pips as f32 - leader_pips as f32) / leader_pips as f32 * 100.0;
    let verdict = if ahead > 12.0 {
        Verdict::DoubleDrop
    } else if ahead > 9.0 {
        Verdict::DoubleTake
    } else if ahead > 8.0 {
        Verdict::RedoubleTake
    } else {
        Verdict::NoDouble
    };
    Rule8912 { ahead, verdict }
}

/// Every count, leader = `on_roll`.
pub fn race_counts(board: &Board, on_roll: Player) -> RaceCounts {
    let leader_pips = pips(board.side(on_roll));
    let trailer_pips = pips(board.side(on_roll.opponent()));
    RaceCounts {
        leader: on_roll,
        leader_pips,
        trailer_pips,
        is_race: matches!(
            classify(board, on_roll),
            GameClass::Race | GameClass::OneSidedBearoff | GameClass::TwoSidedBearoff
        ),
        kleinman: kleinman(leader_pips, trailer_pips),
        thorp: thorp(board, on_roll),
        keith: keith(board, on_roll),
        isight: isight(board, on_roll),
        rule_8912: rule_8912(leader_pips, trailer_pips),
    }
}
