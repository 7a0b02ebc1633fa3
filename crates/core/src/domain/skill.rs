//! How bad a decision was, in gnubg's words: the equity it gave away against
//! gnubg 1.07's default thresholds (`set analysis threshold
//! doubtful|bad|verybad`; `show analysis` prints -0.030, -0.060, -0.120), in
//! money equity or, in match play, normalised equity. Older gnubg (and its
//! manual) used 0.04, 0.08 and 0.16; gnubg 1.07 marks with these.

/// gnubg 1.07's default thresholds.
pub const DOUBTFUL: f64 = 0.03;
pub const BAD: f64 = 0.06;
pub(crate) const VERY_BAD: f64 = 0.12;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skill {
    /// Below the doubtful threshold.
    Good,
    Doubtful,
    Bad,
    VeryBad,
}

impl Skill {
    /// The skill of a decision that gave away `error` (≥ 0). gnubg marks
    /// an error beyond a threshold (`r < -threshold`, in single precision),
    /// not one equal to it.
    pub fn of(error: f64) -> Skill {
        let e = error as f32;
        if e > VERY_BAD as f32 {
            Skill::VeryBad
        } else if e > BAD as f32 {
            Skill::Bad
        } else if e > DOUBTFUL as f32 {
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

/// A number to 3 places with its sign (`+0.706`, `-0.083`), and `0.000`
/// for what shows as zero: never `-0.000` (a perfect move's error, an
/// equity a hair below 0).
pub fn signed3(v: f64) -> String {
    if v.abs() < 0.0005 {
        "0.000".to_owned()
    } else {
        format!("{v:+.3}")
    }
}

/// An error as the lists show it, the equity given away: `-0.083`, and
/// `0.000` for none.
pub fn given_away(error: f64) -> String {
    signed3(-error.abs())
}

/// An error to 3 places, `0.000` for none (never `-0.000`).
pub fn unsigned3(error: f64) -> String {
    if error.abs() < 0.0005 {
        "0.000".to_owned()
    } else {
        format!("{error:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_never_negative() {
        assert_eq!(signed3(-0.0), "0.000");
        assert_eq!(signed3(-0.0004), "0.000");
        assert_eq!(signed3(0.706), "+0.706");
        assert_eq!(signed3(-0.0831), "-0.083");
        assert_eq!(given_away(0.0), "0.000");
        assert_eq!(given_away(0.083), "-0.083");
        assert_eq!(unsigned3(-0.0), "0.000");
        assert_eq!(unsigned3(0.2424), "0.242");
    }

    #[test]
    fn thresholds_are_gnubg_1_07s_and_strict() {
        assert_eq!(Skill::of(0.0299), Skill::Good);
        assert_eq!(Skill::of(0.03), Skill::Good);
        assert_eq!(Skill::of(0.0393), Skill::Doubtful);
        assert_eq!(Skill::of(0.061).mark(), "?");
        assert_eq!(Skill::of(0.2).mark(), "??");
        assert_eq!(Skill::of(0.1).word(), "bad");
    }
}
