//! gnubg's statistics of an analysed match (`show statistics match`): the
//! decisions each player made, the equity each gave away, and gnubg's
//! ratings. Pure: the errors come in already measured (see
//! `engine::match_analysis`), and are counted here exactly as gnubg's
//! `updateStatcontext` (analysis.c) counts them.

use super::player::Player;
use super::skill::Skill;
use serde::{Deserialize, Serialize};

/// What kind of decision was judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DecisionKind {
    /// A roll played.
    Checker,
    /// Double or no double, by the player on roll before the roll.
    Cube,
    /// Take or drop a double.
    Take,
}

impl DecisionKind {
    pub fn word(self) -> &'static str {
        match self {
            DecisionKind::Checker => "checker",
            DecisionKind::Cube => "cube",
            DecisionKind::Take => "take",
        }
    }
}

/// A cube decision as played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CubePlay {
    /// The player rolled with the cube available.
    NoDouble,
    Double,
    Take,
    Drop,
}

impl CubePlay {
    pub fn word(self) -> &'static str {
        match self {
            CubePlay::NoDouble => "no double",
            CubePlay::Double => "double",
            CubePlay::Take => "take",
            CubePlay::Drop => "drop",
        }
    }
}

/// gnubg's names for a wrong cube decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CubeError {
    /// A double missed where the taker still had a take.
    MissedDoubleBelowCashPoint,
    /// A double missed where the taker should have dropped.
    MissedDoubleAboveCashPoint,
    /// A double made too early.
    WrongDoubleBelowDoublePoint,
    /// A double made when too good: playing on was better.
    WrongDoubleAboveTooGood,
    WrongTake,
    WrongPass,
}

/// One judged decision: what it cost, in gnubg's two units.
/// Serialized as the library keeps a verdict's judgements.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    pub kind: DecisionKind,
    pub player: Player,
    /// Equity given away, normalised as gnubg's analysis has it (money
    /// equity, or match equity scaled so that a pass is 1): 0 or more.
    pub error: f64,
    /// The same error in match winning chances (0..1) in match play, or in
    /// points at the cube's value in money play.
    pub cost: f64,
    /// The cube decision played, for a cube or take decision.
    pub cube: Option<CubePlay>,
    /// What was wrong with a cube decision, if anything.
    pub cube_error: Option<CubeError>,
    /// A checker play with a choice (gnubg's "unforced"), or a cube
    /// decision gnubg calls close or actual: these are what the error
    /// rates divide by.
    pub counted: bool,
}

impl Judgement {
    /// gnubg's mark of the decision.
    pub fn skill(&self) -> Skill {
        Skill::of(self.error)
    }
}

/// gnubg's rating words for an error rate per decision (normalised equity),
/// and its thresholds (analysis.c `arThrsRating`).
pub fn rating(error_per_decision: f64) -> &'static str {
    const WORDS: [(&str, f64); 8] = [
        ("Supernatural", 0.002),
        ("World class", 0.005),
        ("Expert", 0.008),
        ("Advanced", 0.012),
        ("Intermediate", 0.018),
        ("Casual player", 0.026),
        ("Beginner", 0.035),
        ("Awful!", f64::INFINITY),
    ];
    // gnubg compares in single precision.
    let r = error_per_decision as f32;
    WORDS
        .iter()
        .find(|(_, limit)| r < *limit as f32)
        .map_or("Awful!", |(w, _)| w)
}

/// The overall figures gnubg's `show statistics match` ends with, and XG's
/// PR, for one player of a match of `length` points (0 for money): gnubg's
/// formulas (analysis.c `absoluteFibsRating*`, `relativeFibsRating`;
/// formatgs.c), computed in single precision as gnubg does.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overall {
    /// Error (normalised, positive) per move of either player, in mEMG:
    /// gnubg's "Snowie error rate" (shown negative, as gnubg does).
    pub snowie_error_rate: Option<f64>,
    /// Kees van den Doel's error-based absolute FIBS rating: 2050 less the
    /// two losses below (match play only).
    pub fibs_rating: Option<f64>,
    /// Rating lost by checker errors: (8798 + 25526/N) × error per unforced
    /// move.
    pub checker_rating_loss: Option<f64>,
    /// Rating lost by cube errors: (863 − 519/N) × error per close decision.
    pub cube_rating_loss: Option<f64>,
    /// XG's Performance Rating: the mean error per decision that counts
    /// (unforced moves and close cube decisions, normalised equity) in
    /// mEMG, times 0.5 (XG's own scale: 500 × EMG a decision).
    pub pr: Option<f64>,
}

/// gnubg's rating offset (`set rating offset`, default 2050).
pub(crate) const FIBS_RATING_OFFSET: f64 = 2050.0;

impl Overall {
    /// `stats` are both players'; `p` the one described.
    pub fn of(stats: &[PlayerStats; 2], p: Player, length: u16) -> Overall {
        let s = &stats[p.index()];
        let n = f64::from(length);
        let all_moves = stats[0].total_moves + stats[1].total_moves;
        let total = s.checker.error + s.cube().error;
        let checker = s.checker_rate().filter(|_| length > 0);
        let cube = s.cube_rate().filter(|_| length > 0);
        let checker_loss = checker.map(|r| f32x(r * (8798.0 + 25526.0 / n)));
        let cube_loss = cube.map(|r| f32x(r * (863.0 - 519.0 / n)));
        let decided = length > 0 && s.unforced_moves + s.close_cube > 0;
        Overall {
            snowie_error_rate: (all_moves > 0).then(|| 1000.0 * total / f64::from(all_moves)),
            fibs_rating: decided.then(|| {
                FIBS_RATING_OFFSET - (checker_loss.unwrap_or(0.0) + cube_loss.unwrap_or(0.0))
            }),
            checker_rating_loss: checker_loss,
            cube_rating_loss: cube_loss,
            pr: s.overall_rate().map(|r| 500.0 * r),
        }
    }
}

/// The rating difference the luck-adjusted result stands for in a match of
/// `length` points (gnubg's "Luck based FIBS rating diff."): `win` is
/// player O's chance of winning the match with the luck taken out, 0.5 +
/// O's result − O's luck + X's luck (MWC). None outside (0, 1).
pub fn luck_fibs_rating_diff(win: f64, length: u16) -> Option<f64> {
    let r = win as f32;
    if !(r > 0.0 && r < 1.0) || length == 0 {
        return None;
    }
    let x = -2000.0 / (f64::from(length)).sqrt() as f32 * (1.0 / f64::from(r) - 1.0).log10() as f32;
    Some(f64::from(x.max(-2100.0)))
}

/// Rounded through single precision, as gnubg's float arithmetic is.
fn f32x(x: f64) -> f64 {
    f64::from(x as f32)
}

/// One player's luck over a match, as gnubg's luck analysis rates the
/// dice (analysis.c `LuckAnalysis`: each roll against the average of the
/// 21 rolls, every one played best at 0-ply).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Luck {
    /// In normalised equity (EMG).
    pub total: f64,
    /// In MWC (match play) or points (money).
    pub cost: f64,
    /// Rolls by gnubg's marks: very unlucky, unlucky, unmarked, lucky,
    /// very lucky.
    pub rolls: [u32; 5],
    /// The match's result for the player (MWC or points), and that result
    /// with the luck taken out.
    pub actual: f64,
    pub adjusted: f64,
}

impl Luck {
    /// Luck a move (gnubg divides by every move, forced ones included).
    pub fn rate(&self, total_moves: u32) -> Option<f64> {
        (total_moves > 0).then(|| self.total / f64::from(total_moves))
    }
}

/// gnubg's luck rating for luck a move (analysis.c `getLuckRating`: its
/// roll mark of ten times the rate), in its words.
pub fn luck_rating(per_move: f64) -> &'static str {
    const WORDS: [&str; 5] = [
        "Go to bed",
        "Bad dice, man!",
        "None",
        "Good dice, man!",
        "Go to Las Vegas",
    ];
    WORDS[roll_mark(per_move * 10.0)]
}

/// gnubg's mark of a roll's luck (`Luck` in analysis.c, its default
/// levels 0.3 and 0.6): an index into [`Luck::rolls`].
pub fn roll_mark(luck: f64) -> usize {
    let r = luck as f32;
    if r > 0.6 {
        4
    } else if r > 0.3 {
        3
    } else if r < -0.6 {
        0
    } else if r < -0.3 {
        1
    } else {
        2
    }
}

/// An error total in both units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Error {
    pub count: u32,
    pub error: f64,
    pub cost: f64,
}

impl Error {
    fn add(&mut self, j: &Judgement) {
        self.count += 1;
        self.error += j.error;
        self.cost += j.cost;
    }
}

/// One player's statistics, as gnubg's `show statistics match` gives them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerStats {
    /// Every roll played, forced ones and dances included.
    pub total_moves: u32,
    /// Rolls with a choice of play.
    pub unforced_moves: u32,
    /// Moves by mark: unmarked, doubtful, bad, very bad.
    pub marked: [u32; 4],
    /// Checker play errors (unforced moves only).
    pub checker: Error,
    /// Every cube decision: each roll with the cube available, each double,
    /// take and drop.
    pub total_cube: u32,
    /// The close ones, and every double, take and drop.
    pub close_cube: u32,
    pub doubles: u32,
    pub takes: u32,
    pub drops: u32,
    pub missed_double_below_cp: Error,
    pub missed_double_above_cp: Error,
    pub wrong_double_below_dp: Error,
    pub wrong_double_above_tg: Error,
    pub wrong_take: Error,
    pub wrong_pass: Error,
}

impl PlayerStats {
    /// All cube errors together.
    pub fn cube(&self) -> Error {
        let parts = [
            self.missed_double_below_cp,
            self.missed_double_above_cp,
            self.wrong_double_below_dp,
            self.wrong_double_above_tg,
            self.wrong_take,
            self.wrong_pass,
        ];
        parts.iter().fold(Error::default(), |a, b| Error {
            count: a.count + b.count,
            error: a.error + b.error,
            cost: a.cost + b.cost,
        })
    }

    /// Checker error per unforced move (normalised), if any.
    pub fn checker_rate(&self) -> Option<f64> {
        (self.unforced_moves > 0).then(|| self.checker.error / f64::from(self.unforced_moves))
    }

    /// Cube error per close cube decision, if any.
    pub fn cube_rate(&self) -> Option<f64> {
        (self.close_cube > 0).then(|| self.cube().error / f64::from(self.close_cube))
    }

    /// Both together, per decision counted.
    pub fn overall_rate(&self) -> Option<f64> {
        let n = self.unforced_moves + self.close_cube;
        (n > 0).then(|| (self.checker.error + self.cube().error) / f64::from(n))
    }

    fn count(&mut self, j: &Judgement) {
        match j.kind {
            DecisionKind::Checker => {
                self.total_moves += 1;
                let mark = match j.skill() {
                    Skill::Good => 0,
                    Skill::Doubtful => 1,
                    Skill::Bad => 2,
                    Skill::VeryBad => 3,
                };
                self.marked[mark] += 1;
                if j.counted {
                    self.unforced_moves += 1;
                    self.checker.error += j.error;
                    self.checker.cost += j.cost;
                }
            }
            DecisionKind::Cube | DecisionKind::Take => {
                self.total_cube += 1;
                if j.counted {
                    self.close_cube += 1;
                }
                match j.cube {
                    Some(CubePlay::Double) => self.doubles += 1,
                    Some(CubePlay::Take) => self.takes += 1,
                    Some(CubePlay::Drop) => self.drops += 1,
                    Some(CubePlay::NoDouble) | None => {}
                }
                let bucket = match j.cube_error {
                    Some(CubeError::MissedDoubleBelowCashPoint) => &mut self.missed_double_below_cp,
                    Some(CubeError::MissedDoubleAboveCashPoint) => &mut self.missed_double_above_cp,
                    Some(CubeError::WrongDoubleBelowDoublePoint) => &mut self.wrong_double_below_dp,
                    Some(CubeError::WrongDoubleAboveTooGood) => &mut self.wrong_double_above_tg,
                    Some(CubeError::WrongTake) => &mut self.wrong_take,
                    Some(CubeError::WrongPass) => &mut self.wrong_pass,
                    None => return,
                };
                bucket.add(j);
            }
        }
    }
}

/// Each player's statistics (indexed by `Player::index`).
pub fn summarise<'a>(judgements: impl IntoIterator<Item = &'a Judgement>) -> [PlayerStats; 2] {
    let mut out = [PlayerStats::default(), PlayerStats::default()];
    for j in judgements {
        out[j.player.index()].count(j);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_and_luck_rates_are_marked_at_gnubgs_levels() {
        // Strictly beyond 0.3 and 0.6, as gnubg's `Luck`.
        let marks: Vec<usize> = [0.7, 0.6, 0.35, 0.3, 0.0, -0.3, -0.35, -0.6, -0.7]
            .into_iter()
            .map(roll_mark)
            .collect();
        assert_eq!(marks, [4, 3, 3, 2, 2, 2, 1, 1, 0]);
        // The rating is the mark of ten times the rate a move.
        assert_eq!(luck_rating(0.07), "Go to Las Vegas");
        assert_eq!(luck_rating(0.035), "Good dice, man!");
        assert_eq!(luck_rating(0.0094), "None");
        assert_eq!(luck_rating(-0.035), "Bad dice, man!");
        assert_eq!(luck_rating(-0.07), "Go to bed");
    }

    fn checker(player: Player, error: f64, counted: bool) -> Judgement {
        Judgement {
            kind: DecisionKind::Checker,
            player,
            error,
            cost: error / 10.0,
            cube: None,
            cube_error: None,
            counted,
        }
    }

    #[test]
    fn ratings_follow_gnubgs_thresholds() {
        assert_eq!(rating(0.0), "Supernatural");
        assert_eq!(rating(0.0019), "Supernatural");
        assert_eq!(rating(0.002), "World class");
        assert_eq!(rating(0.0099), "Advanced");
        assert_eq!(rating(0.03), "Beginner");
        assert_eq!(rating(0.5), "Awful!");
    }

    #[test]
    fn forced_moves_count_as_moves_but_not_in_the_rate() {
        let js = [
            checker(Player::O, 0.1, true),
            checker(Player::O, 0.0, false),
            checker(Player::X, 0.05, true),
        ];
        let [o, x] = summarise(&js);
        assert_eq!((o.total_moves, o.unforced_moves), (2, 1));
        assert_eq!(o.marked, [1, 0, 1, 0]);
        assert_eq!(o.checker_rate(), Some(0.1));
        assert_eq!(x.marked, [0, 1, 0, 0]);
        assert_eq!(x.overall_rate(), Some(0.05));
    }

    #[test]
    fn cube_errors_go_to_their_kind() {
        let j = Judgement {
            kind: DecisionKind::Take,
            player: Player::X,
            error: 0.4,
            cost: 0.05,
            cube: Some(CubePlay::Take),
            cube_error: Some(CubeError::WrongTake),
            counted: true,
        };
        let [_, x] = summarise([&j]);
        assert_eq!((x.total_cube, x.close_cube, x.takes), (1, 1, 1));
        assert_eq!(x.wrong_take.count, 1);
        assert_eq!(x.cube().error, 0.4);
        assert_eq!(x.cube_rate(), Some(0.4));
    }
}
