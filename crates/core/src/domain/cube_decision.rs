//! gnubg's proper cube action from the three cubeful equities of a cube
//! decision (eval.c `FindBestCubeDecision`), for a roller who may double:
//! the equity of the best action (what a match analysis measures a cube
//! error from) and gnubg's words for it. Single precision, as gnubg.

use super::{CubeOwner, MatchState};

/// gnubg's proper action and its equity (normalised).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeDecision {
    pub optimal: f32,
    /// gnubg's words, e.g. "Double, take", "Too good to redouble, pass".
    pub words: &'static str,
}

/// gnubg's `isOptional`: two equities the same to 1e-5.
fn optional(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1.0e-5
}

/// The proper action for the roller in `state` (who may double) from no
/// double, double/take and double/pass (normalised equities) and whether
/// the roller can win a gammon (gnubg's `winGammon`).
pub fn best(nd: f32, dt: f32, dp: f32, state: &MatchState, win_gammon: bool) -> CubeDecision {
    let centred = state.cube_owner == CubeOwner::Centred;
    let money = state.is_money();
    let pick = |first: &'static str, re: &'static str| if centred { first } else { re };
    let (optimal, words) = if dt >= nd && dp >= nd {
        if dp > dt {
            // Double, take (a beaver, or no double, where beavers are
            // allowed and the take is below zero).
            let f = optional(dt, nd);
            let words = if money && (-2.0..=0.0).contains(&dt) && state.beavers {
                if dt * 2.0 < nd {
                    "No double, beaver"
                } else if f {
                    "Optional double, beaver"
                } else {
                    "Double, beaver"
                }
            } else if f {
                pick("Optional double, take", "Optional redouble, take")
            } else {
                pick("Double, take", "Redouble, take")
            };
            (dt, words)
        } else {
            // Double, pass; optional when no double is as good and a gammon
            // is there to play for.
            let words = if optional(nd, dp) && win_gammon && (!money || !centred || !state.jacoby) {
                pick("Optional double, pass", "Optional redouble, pass")
            } else {
                pick("Double, pass", "Redouble, pass")
            };
            (dp, words)
        }
    } else {
        let words = if nd > dt {
            if dt > dp {
                if win_gammon {
                    pick("Too good to double, pass", "Too good to redouble, pass")
                } else {
                    pick("Double, pass", "Redouble, pass")
                }
            } else if nd > dp {
                if win_gammon {
                    pick("Too good to double, take", "Too good to redouble, take")
                } else {
                    pick("No double, take", "No redouble, take")
                }
            } else if money && (-2.0..=0.0).contains(&dt) && state.beavers {
                pick("No double, beaver", "No redouble, beaver")
            } else {
                pick("No double, take", "No redouble, take")
            }
        } else if win_gammon {
            pick("Too good to double, pass", "Too good to redouble, pass")
        } else {
            pick("Double, pass", "Redouble, pass")
        };
        (nd, words)
    };
    CubeDecision { optimal, words }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Player;

    fn money() -> MatchState {
        MatchState {
            beavers: false,
            ..MatchState::default()
        }
    }

    #[test]
    fn each_region_of_gnubg() {
        let s = money();
        let d = |nd, dt, dp, g| best(nd, dt, dp, &s, g);
        assert_eq!(
            d(0.5, 0.6, 1.0, true),
            CubeDecision {
                optimal: 0.6,
                words: "Double, take"
            }
        );
        assert_eq!(d(0.5, 1.2, 1.0, true).words, "Double, pass");
        assert_eq!(
            d(0.7, 0.6, 1.0, true),
            CubeDecision {
                optimal: 0.7,
                words: "No double, take"
            }
        );
        assert_eq!(d(1.1, 1.05, 1.0, true).words, "Too good to double, pass");
        assert_eq!(d(1.1, 1.05, 1.0, false).words, "Double, pass");
        assert_eq!(d(1.1, 0.9, 1.0, true).words, "Too good to double, take");
        assert_eq!(d(1.1, 0.9, 1.0, false).words, "No double, take");
        assert_eq!(d(0.9, 1.2, 0.8, true).words, "Too good to double, pass");
        // Optional only where the gammon counts: not for money with the
        // cube centred under the Jacoby rule.
        assert_eq!(d(1.0, 1.2, 1.0, true).words, "Double, pass");
        let no_jacoby = MatchState {
            jacoby: false,
            ..money()
        };
        assert_eq!(
            best(1.0, 1.2, 1.0, &no_jacoby, true).words,
            "Optional double, pass"
        );
        assert_eq!(best(1.0, 1.2, 1.0, &no_jacoby, false).words, "Double, pass");
        assert_eq!(d(0.6, 0.6, 1.0, true).words, "Optional double, take");
    }

    #[test]
    fn redoubles_and_beavers() {
        let owned = MatchState {
            cube_owner: CubeOwner::Owned(Player::X),
            on_roll: Player::X,
            ..money()
        };
        assert_eq!(best(0.5, 0.6, 1.0, &owned, true).words, "Redouble, take");
        assert_eq!(
            best(1.1, 1.05, 1.0, &owned, true).words,
            "Too good to redouble, pass"
        );
        let beavers = MatchState {
            beavers: true,
            ..money()
        };
        // A take below zero: the taker beavers; doubling then costs more
        // than it gains when twice the take is below no double.
        assert_eq!(
            best(-0.5, -0.2, 1.0, &beavers, true).words,
            "Double, beaver"
        );
        assert_eq!(
            best(-0.3, -0.2, 1.0, &beavers, true),
            CubeDecision {
                optimal: -0.2,
                words: "No double, beaver"
            }
        );
        assert_eq!(
            best(-0.1, -0.2, 1.0, &beavers, true).words,
            "No double, beaver"
        );
        assert_eq!(best(-0.3, -0.2, 1.0, &money(), true).words, "Double, take");
        let matchplay = MatchState {
            match_length: 7,
            beavers: true,
            ..money()
        };
        assert_eq!(
            best(-0.3, -0.2, 1.0, &matchplay, true).words,
            "Double, take"
        );
    }
}
