//! Two engines' verdicts on one position, compared: where gnubg and Sage
//! disagree (a different best move, cube action or take decision) and by
//! how much, each engine measuring the other's pick by its own numbers.
//! Pure; shared by `bgedit analyse --engine both` and the editor's panel.

use super::Analysis;
use super::matrix::short_action;
use serde::Serialize;

/// What the two engines disagree on, if anything.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Disagreement {
    /// "move", "cube" or "take".
    pub on: &'static str,
    /// gnubg's pick and Sage's, in gnubg's words (a move, or ND, D/T, ...).
    pub gnubg: String,
    pub sage: String,
    /// What Sage's pick costs by gnubg's numbers, and gnubg's pick by
    /// Sage's (≥ 0; None when one list does not hold the other's pick).
    pub gnubg_gap: Option<f64>,
    pub sage_gap: Option<f64>,
    /// The depth of the other's pick in gnubg's list, and in Sage's, when
    /// it is shallower than the list (a move left outside the engine's
    /// move filter): its gap then compares two depths and is marked. None
    /// when the pick is at the list's depth. Callers that compare ask the
    /// engine again with the pick at the full depth first ([`deepen`]).
    pub gnubg_gap_plies: Option<u8>,
    pub sage_gap_plies: Option<u8>,
}

impl Disagreement {
    /// `engine`'s pick: the reference's, or the other engine's.
    pub fn pick(&self, engine: super::EngineKind) -> &str {
        if engine.is_reference() {
            &self.gnubg
        } else {
            &self.sage
        }
    }

    /// What the other engine's pick costs by `engine`'s numbers.
    pub fn gap(&self, engine: super::EngineKind) -> Option<f64> {
        if engine.is_reference() {
            self.gnubg_gap
        } else {
            self.sage_gap
        }
    }

    /// One line for the panel and the CLI's text. A gap whose move is
    /// below its list's depth says so.
    pub fn describe(&self) -> String {
        let gap = |g: Option<f64>, shallow: Option<u8>| match (g, shallow) {
            (None, _) => "not listed".to_owned(),
            (Some(g), None) => format!("{g:.3}"),
            (Some(g), Some(p)) => {
                format!("{g:.3}, with that pick at {p}-ply only: outside the move filter")
            }
        };
        let what = match self.on {
            "move" => "best move",
            "cube" => "cube action",
            _ => "take decision",
        };
        format!(
            "engines disagree on the {what}: gnubg {} (Sage's pick costs {} by gnubg), Sage {} (gnubg's pick costs {} by Sage)",
            self.gnubg,
            gap(self.gnubg_gap, self.gnubg_gap_plies),
            self.sage,
            gap(self.sage_gap, self.sage_gap_plies)
        )
    }
}

/// The equity of doubling for the roller: the taker picks the smaller.
fn doubled(double_take: f64, double_pass: f64) -> f64 {
    double_take.min(double_pass)
}

/// The roller's equity after `action` (ND, TG, D/T, D/P ...).
fn cube_value_of(action: &str, no_double: f64, double_take: f64, double_pass: f64) -> f64 {
    match action {
        "ND" | "ND/B" | "TG" => no_double,
        _ => doubled(double_take, double_pass),
    }
}

/// A cube action as a player acts on it: a beaver is a take for this
/// purpose (the doubler's action and the answer to it are what count).
fn plain_action(action: &str) -> &'static str {
    match short_action(action) {
        "ND/B" => "ND",
        "D/B" => "D/T",
        other => other,
    }
}

/// What an answer picks, in the words [`compare`] compares (a move, a cube
/// action, a take decision), with which of the three it is; `None` when it
/// ranks nothing (no legal move, no cube action, the game over).
pub fn pick(a: &Analysis) -> Option<(&'static str, String)> {
    match a {
        Analysis::Moves { moves, .. } => moves.first().map(|m| ("move", m.notation.clone())),
        Analysis::Cube { action, .. } => Some(("cube", plain_action(action).to_owned())),
        Analysis::Take { proper, .. } => Some(("take", proper.clone())),
        _ => None,
    }
}

/// The depth of the move `notation` in the move list `a`, when it is
/// shallower than the list's own (outside the engine's move filter).
fn shallow_pick(a: &Analysis, notation: &str) -> Option<u8> {
    let Analysis::Moves {
        moves,
        plies,
        rollout: None,
    } = a
    else {
        return None;
    };
    let m = moves.iter().find(|m| m.notation == notation)?;
    (m.depth(*plies) < *plies).then(|| m.depth(*plies))
}

/// The other engine's best move, when `mine` prices it at another depth
/// than its own list's (left outside its engine's move filter) or does not
/// list it: the Position ID after it, for asking `mine`'s engine again
/// with that move at the full depth (`Engine::analyse_played`), so that a
/// comparison never sets one depth against another. None when the engines
/// pick alike, the answers are no move lists, or the pick is priced at the
/// list's depth already.
pub fn deepen(mine: &Analysis, theirs: &Analysis) -> Option<String> {
    let (
        Analysis::Moves {
            moves,
            plies,
            rollout: None,
        },
        Analysis::Moves { moves: other, .. },
    ) = (mine, theirs)
    else {
        return None;
    };
    let (best, pick) = (moves.first()?, other.first()?);
    if best.notation == pick.notation {
        return None;
    }
    match moves.iter().find(|m| m.notation == pick.notation) {
        Some(m) if m.depth(*plies) >= *plies => None,
        _ => Some(pick.after.clone()),
    }
}

/// Whether the two answers about one position disagree, and how.
pub fn compare(gnubg: &Analysis, sage: &Analysis) -> Option<Disagreement> {
    match (gnubg, sage) {
        (Analysis::Moves { moves: g, .. }, Analysis::Moves { moves: s, .. }) => {
            let (gb, sb) = (g.first()?, s.first()?);
            if gb.notation == sb.notation {
                return None;
            }
            let cost = |list: &[super::MoveLine], best: f64, other: &str| {
                list.iter()
                    .find(|m| m.notation == other)
                    .map(|m| (best - m.equity).max(0.0))
            };
            Some(Disagreement {
                on: "move",
                gnubg: gb.notation.clone(),
                sage: sb.notation.clone(),
                gnubg_gap: cost(g, gb.equity, &sb.notation),
                sage_gap: cost(s, sb.equity, &gb.notation),
                gnubg_gap_plies: shallow_pick(gnubg, &sb.notation),
                sage_gap_plies: shallow_pick(sage, &gb.notation),
            })
        }
        (
            Analysis::Cube {
                action: ga,
                no_double: gn,
                double_take: gt,
                double_pass: gp,
                ..
            },
            Analysis::Cube {
                action: sa,
                no_double: sn,
                double_take: st,
                double_pass: sp,
                ..
            },
        ) => {
            let (g, s) = (plain_action(ga), plain_action(sa));
            if g == s {
                return None;
            }
            let gap = |mine: &str, theirs: &str, n: f64, t: f64, p: f64| {
                let best = cube_value_of(mine, n, t, p);
                let other = cube_value_of(theirs, n, t, p);
                // Both double but disagree on the take: what the wrong
                // answer costs the taker.
                let taker = (mine != "ND" && mine != "TG" && theirs != "ND" && theirs != "TG")
                    .then(|| (t - p).abs());
                Some(taker.unwrap_or((best - other).abs()))
            };
            Some(Disagreement {
                on: "cube",
                gnubg: g.to_owned(),
                sage: s.to_owned(),
                gnubg_gap: gap(g, s, *gn, *gt, *gp),
                sage_gap: gap(s, g, *sn, *st, *sp),
                gnubg_gap_plies: None,
                sage_gap_plies: None,
            })
        }
        (
            Analysis::Take {
                proper: gp,
                take: gt,
                pass: gpa,
                ..
            },
            Analysis::Take {
                proper: sp,
                take: st,
                pass: spa,
                ..
            },
        ) => (gp != sp).then(|| Disagreement {
            on: "take",
            gnubg: gp.clone(),
            sage: sp.clone(),
            gnubg_gap: Some((gt - gpa).abs()),
            sage_gap: Some((st - spa).abs()),
            gnubg_gap_plies: None,
            sage_gap_plies: None,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MoveLine;

    fn line(notation: &str, equity: f64) -> MoveLine {
        MoveLine {
            notation: notation.to_owned(),
            equity,
            mwc: None,
            probs: [0.5, 0.1, 0.0, 0.1, 0.0],
            after: "4HPwATDgc/ABMA".to_owned(),
            plies: None,
            std_error: None,
            mwc_std_error: None,
        }
    }

    fn moves(list: &[(&str, f64)]) -> Analysis {
        Analysis::Moves {
            plies: 0,
            moves: list.iter().map(|(n, e)| line(n, *e)).collect(),
            rollout: None,
        }
    }

    fn cube(action: &str, nd: f64, dt: f64, dp: f64) -> Analysis {
        Analysis::Cube {
            plies: 0,
            action: action.to_owned(),
            no_double: nd,
            double_take: dt,
            double_pass: dp,
            optimal: None,
            no_double_mwc: None,
            double_take_mwc: None,
            double_pass_mwc: None,
            probs: [0.7, 0.2, 0.0, 0.05, 0.0],
            cubeless: 0.5,
            rollout: None,
        }
    }

    #[test]
    fn the_same_best_move_is_no_disagreement() {
        let g = moves(&[("8/5 6/5", 0.2), ("24/21 13/12", 0.1)]);
        let s = moves(&[("8/5 6/5", 0.25), ("13/10 6/5", 0.2)]);
        assert_eq!(compare(&g, &s), None);
    }

    #[test]
    fn each_engine_prices_the_others_best_move() {
        let g = moves(&[("24/18 13/8", 0.01), ("13/7 13/8", -0.02)]);
        let s = moves(&[("13/7 13/8", 0.03), ("24/18 13/8", 0.0), ("x", -1.0)]);
        let d = compare(&g, &s).unwrap();
        assert_eq!(
            (d.gnubg.as_str(), d.sage.as_str()),
            ("24/18 13/8", "13/7 13/8")
        );
        assert!((d.gnubg_gap.unwrap() - 0.03).abs() < 1e-12);
        assert!((d.sage_gap.unwrap() - 0.03).abs() < 1e-12);
        // A pick the other list does not hold has no price.
        let s2 = moves(&[("6/1 6/2", 0.1)]);
        assert_eq!(compare(&g, &s2).unwrap().gnubg_gap, None);
        assert!(d.describe().contains("best move"), "{}", d.describe());
    }

    #[test]
    fn a_pick_outside_the_move_filter_is_marked_and_asked_again() {
        let mut g = moves(&[("10/2", 0.223), ("8/5 8/3*", 0.177), ("8/3* 6/3", 0.114)]);
        if let Analysis::Moves { plies, moves, .. } = &mut g {
            *plies = 2;
            moves[2].plies = Some(0);
            moves[2].after = "after-sage".to_owned();
        }
        let mut s = moves(&[("8/3* 6/3", 0.208), ("10/2", 0.196)]);
        if let Analysis::Moves { plies, moves, .. } = &mut s {
            *plies = 2;
            moves[0].after = "after-sage".to_owned();
        }
        let d = compare(&g, &s).unwrap();
        assert_eq!((d.gnubg_gap_plies, d.sage_gap_plies), (Some(0), None));
        assert!(d.describe().contains("at 0-ply only"), "{}", d.describe());
        // gnubg is asked again for Sage's pick; Sage lists gnubg's at depth.
        assert_eq!(deepen(&g, &s).as_deref(), Some("after-sage"));
        assert_eq!(deepen(&s, &g), None);
        // Not listed at all (a list cut short): asked again too.
        let short = moves(&[("10/2", 0.223)]);
        assert_eq!(deepen(&short, &s).as_deref(), Some("after-sage"));
        // At the list's depth, or the same pick: nothing to ask.
        if let Analysis::Moves { moves, .. } = &mut g {
            moves[2].plies = Some(2);
        }
        assert_eq!(deepen(&g, &s), None);
        assert_eq!(compare(&g, &s).unwrap().gnubg_gap_plies, None);
        assert_eq!(deepen(&s, &s), None);
    }

    #[test]
    fn a_pick_is_what_a_player_acts_on() {
        let m = moves(&[("8/5 6/5", 0.2), ("24/21 13/12", 0.1)]);
        assert_eq!(pick(&m), Some(("move", "8/5 6/5".to_owned())));
        assert_eq!(pick(&moves(&[])), None, "no legal move");
        let beaver = cube("No double, beaver", 0.1, -0.3, 1.0);
        assert_eq!(pick(&beaver), Some(("cube", "ND".to_owned())));
        let redouble = cube("Redouble, take", 0.6, 0.7, 1.0);
        assert_eq!(pick(&redouble), Some(("cube", "D/T".to_owned())));
        let eval = Analysis::Eval {
            plies: 0,
            probs: [0.5, 0.1, 0.0, 0.1, 0.0],
            cubeless: 0.0,
        };
        assert_eq!(pick(&eval), None, "no cube action");
    }

    #[test]
    fn cube_actions_compare_by_their_short_names() {
        let g = cube("Double, take", 0.60, 0.65, 1.0);
        let s = cube("No double, take", 0.62, 0.58, 1.0);
        let d = compare(&g, &s).unwrap();
        assert_eq!(
            (d.on, d.gnubg.as_str(), d.sage.as_str()),
            ("cube", "D/T", "ND")
        );
        assert!((d.gnubg_gap.unwrap() - 0.05).abs() < 1e-12);
        assert!((d.sage_gap.unwrap() - 0.04).abs() < 1e-12);
        // "Redouble, take" is D/T too, and a beaver is a take.
        assert_eq!(compare(&g, &cube("Redouble, take", 0.6, 0.7, 1.0)), None);
        assert_eq!(compare(&g, &cube("Double, beaver", 0.6, 0.7, 1.0)), None);
        let nd = cube("No double, take", 0.1, -0.3, 1.0);
        assert_eq!(
            compare(&nd, &cube("No double, beaver", 0.1, -0.3, 1.0)),
            None
        );
        // Both double, one passes: the taker's gap.
        let d = compare(&g, &cube("Double, pass", 0.6, 1.2, 1.0)).unwrap();
        assert!((d.sage_gap.unwrap() - 0.2).abs() < 1e-12);
    }
}
