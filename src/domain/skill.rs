//! How bad a decision was, in gnubg's words: the equity it gave away against
//! gnubg's default thresholds (`set analysis threshold doubtful|bad|verybad`:
//! 0.04, 0.08, 0.16, in money equity or, in match play, normalised equity).

/// gnubg's default thresholds.
pub const DOUBTFUL: f64 = 0.04;
pub const BAD: f64 = 0.08;
pub const VERY_BAD: f64 = 0.16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skill {
    /// Below the doubtful threshold.
    Good,
    Doubtful,
    Bad,
    VeryBad,
}

impl Skill {
    /// The skill of a decision that gave away `error` (≥ 0).
    pub fn of(error: f64) -> Skill {
        if error >= VERY_BAD {
            Skill::VeryBad
        } else if error >= BAD {
            Skill::Bad
        } else if error >= DOUBTFUL {
            Skill::Doubtful
        } else {
            Skill::Good
        }
    }

    /// gnubg's mark: `?!`, `?`, `??`, nothing for a good decision.
    pub fn mark(self) -> &'static str {
        match self {
            Skill::Good => "",
            Skill::Doubtful => "?!",
            Skill::Bad => "?",
            Skill::VeryBad => "??",
        }
    }

    /// gnubg's word for it.
    pub fn word(self) -> &'static str {
        match self {
            Skill::Good => "correct",
            Skill::Doubtful => "doubtful",
            Skill::Bad => "bad",
            Skill::VeryBad => "very bad",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_gnubgs_and_inclusive() {
        assert_eq!(Skill::of(0.0399), Skill::Good);
        assert_eq!(Skill::of(0.04), Skill::Doubtful);
        assert_eq!(Skill::of(0.08).mark(), "?");
        assert_eq!(Skill::of(0.2).mark(), "??");
        assert_eq!(Skill::of(0.1).word(), "bad");
    }
}
