//! An analysis as text in gnubg's `hint` layout, for forums (the editor's
//! copy key) and for `bgedit analyse --format text`.

use super::answer::{Analysis, Probs};
use std::fmt::Write;

/// How match equities are shown: gnubg's normalised equity, or match
/// winning chances. Money play always shows equity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Units {
    #[default]
    Equity,
    Mwc,
}

fn probs_line(p: &Probs) -> String {
    format!(
        "{:.3} {:.3} {:.3} - {:.3} {:.3} {:.3}",
        p[0],
        p[1],
        p[2],
        1.0 - p[0],
        p[3],
        p[4]
    )
}

/// One value in the chosen units: "+0.123" or "51.23%".
pub fn value(equity: f64, mwc: Option<f64>, units: Units) -> String {
    match (units, mwc) {
        (Units::Mwc, Some(m)) => format!("{:.2}%", m * 100.0),
        _ => format!("{equity:+.3}"),
    }
}

/// The difference from the best, in the chosen units.
pub fn diff(equity: f64, best: f64, mwc: Option<(f64, f64)>, units: Units) -> String {
    match (units, mwc) {
        (Units::Mwc, Some((m, b))) => format!("({:+.2}%)", (m - b) * 100.0),
        _ => format!("({:+.3})", equity - best),
    }
}

/// The depth of an analysis as its rows are, in `engine`'s count: `asked`
/// for an even list, and where the engine's move filter left moves
/// shallower, what it did. gnubg takes every move to the depth asked only
/// among the moves within its filter of the best: when one move leads by
/// more, none goes deeper (each row says `Cubeful 0-ply` in its `hint`).
pub fn depth_words(engine: super::EngineKind, a: &Analysis, asked: u8) -> String {
    let ply = |p: u8| engine.depth_label(p);
    let Analysis::Moves {
        moves,
        rollout: None,
        ..
    } = a
    else {
        return ply(asked);
    };
    match super::answer::shallow_tail(asked, moves) {
        Some((0, d)) if moves.iter().all(|m| m.depth(asked) == d) => format!(
            "{}, {} asked: one move leads beyond {}'s move filter, so none went deeper",
            ply(d),
            ply(asked),
            engine.name()
        ),
        Some((first, d)) => format!(
            "{}, moves {}+ at {}: beyond {}'s move filter",
            ply(asked),
            first + 1,
            ply(d),
            engine.name()
        ),
        None => ply(asked),
    }
}

/// The whole analysis. `limit` caps the moves listed.
pub fn render(a: &Analysis, units: Units, limit: usize) -> String {
    render_for(a, units, limit, super::EngineKind::Gnubg)
}

/// The whole analysis of `engine`, its depths in its own count (Sage's
/// 1-ply is gnubg's 0-ply).
pub fn render_for(a: &Analysis, units: Units, limit: usize, engine: super::EngineKind) -> String {
    let ply = |p: u8| engine.depth_label(p);
    let mut out = String::new();
    match a {
        Analysis::Moves {
            plies,
            moves,
            rollout,
        } => {
            if moves.is_empty() {
                out.push_str("No legal moves: the roll cannot be played\n");
            }
            let best = moves.first().map(|m| (m.equity, m.mwc));
            for (i, m) in moves.iter().take(limit).enumerate() {
                let (be, bm) = best.expect("moves listed");
                let eq = value(m.equity, m.mwc, units);
                let d = if i == 0 {
                    String::new()
                } else {
                    format!(" {}", diff(m.equity, be, m.mwc.zip(bm), units))
                };
                // gnubg's label: "Rollout" for a rolled-out move.
                // A move the rollout left out (Sage keeps its filter's
                // numbers) says its own depth.
                let label = match rollout {
                    Some(_) if m.plies.is_none() => "Rollout        ".to_owned(),
                    _ => format!("Cubeful {}    ", ply(m.depth(*plies))),
                };
                let _ = writeln!(out, "{:>5}. {label}{:<28} Eq.: {eq}{d}", i + 1, m.notation);
                let _ = writeln!(out, "       {}", probs_line(&m.probs));
                if let Some(se) = m.std_error {
                    let _ = writeln!(out, "       {}", spread(se, m.mwc_std_error, units));
                }
            }
            if let Some(r) = rollout {
                let _ = writeln!(out, "Rollout: {}", r.describe());
            }
        }
        Analysis::Cube {
            plies,
            action,
            no_double,
            double_take,
            double_pass,
            no_double_mwc,
            double_take_mwc,
            double_pass_mwc,
            probs,
            cubeless,
            rollout,
            ..
        } => {
            let _ = writeln!(out, "Cube analysis");
            let depth = rollout
                .as_ref()
                .map_or(ply(*plies), |_| "Rollout".to_owned());
            let _ = writeln!(out, "{depth} cubeless equity {cubeless:+.3}");
            let _ = writeln!(out, "  {}", probs_line(probs));
            let _ = writeln!(out, "Cubeful equities:");
            let best = no_double.max(double_take.min(*double_pass));
            let best_mwc = no_double_mwc.zip(double_take_mwc.zip(*double_pass_mwc));
            let best_mwc = best_mwc.map(|(n, (t, p))| n.max(t.min(p)));
            let nd = ("No double", *no_double, *no_double_mwc);
            let dt = ("Double, take", *double_take, *double_take_mwc);
            let dp = ("Double, pass", *double_pass, *double_pass_mwc);
            // gnubg lists the proper action first.
            let rows = if double_take.min(*double_pass) > *no_double {
                if double_take <= double_pass {
                    [dt, dp, nd]
                } else {
                    [dp, dt, nd]
                }
            } else {
                [nd, dt, dp]
            };
            for (i, (label, e, m)) in rows.into_iter().enumerate() {
                let d = if i == 0 {
                    String::new()
                } else {
                    format!("  {}", diff(e, best, m.zip(best_mwc), units))
                };
                let _ = writeln!(out, "{}. {label:<16} {:>8}{d}", i + 1, value(e, m, units));
            }
            let _ = writeln!(out, "Proper cube action: {action}");
            if let Some(r) = rollout {
                // Money equities only: the standard errors are in equity.
                if let (Some(n), Some(t)) = (r.no_double_se, r.double_take_se) {
                    let _ = writeln!(
                        out,
                        "Standard error: no double {}, double/take {}",
                        spread_value(n),
                        spread_value(t)
                    );
                }
                let _ = writeln!(out, "Rollout: {}", r.describe());
            }
        }
        Analysis::Take {
            plies,
            take,
            pass,
            take_mwc,
            pass_mwc,
            proper,
            probs,
            cubeless,
            rollout,
        } => {
            let depth = rollout
                .as_ref()
                .map_or(ply(*plies), |_| "rollout".to_owned());
            let _ = writeln!(out, "Take analysis ({depth}), for the player doubled");
            let _ = writeln!(out, "Cubeless equity {cubeless:+.3}");
            let _ = writeln!(out, "  {}", probs_line(probs));
            let _ = writeln!(out, "1. Take   {:>8}", value(*take, *take_mwc, units));
            let _ = writeln!(out, "2. Pass   {:>8}", value(*pass, *pass_mwc, units));
            let _ = writeln!(out, "Proper action: {}", capital(proper));
            if let Some(r) = rollout {
                if let Some(t) = r.double_take_se {
                    let _ = writeln!(out, "Standard error: take {}", spread_value(t));
                }
                let _ = writeln!(out, "Rollout: {}", r.describe());
            }
        }
        Analysis::Eval {
            plies,
            probs,
            cubeless,
        } => {
            let _ = writeln!(out, "{} cubeless equity {cubeless:+.3}", ply(*plies));
            let _ = writeln!(out, "  {}", probs_line(probs));
        }
        Analysis::Over { reason } => {
            let _ = writeln!(out, "{}", capital(reason));
        }
    }
    if super::answer::past_money_range(a) {
        out.push_str(PAST_MONEY_NOTE);
    }
    out
}

/// Why an equity can pass ±3 (gnubg's `mwc2eq`).
pub(crate) const PAST_MONEY_NOTE: &str = "\
Note: an equity past ±3 is right here. In match play it is the match
winning chances rescaled to the cube's points at this score (winning
them +1, losing them −1): a cube worth more than the match needs goes
further.
";

/// A standard error with its 95% interval: "± 0.012 (95%: ± 0.024)".
pub(crate) fn spread(se: f64, mwc_se: Option<f64>, units: Units) -> String {
    match (units, mwc_se) {
        (Units::Mwc, Some(m)) => format!(
            "SE {:.2}% (95%: ±{:.2}%)",
            m * 100.0,
            super::answer::interval95(m) * 100.0
        ),
        _ => format!(
            "SE {} (95%: ±{:.3})",
            spread_value(se),
            super::answer::interval95(se)
        ),
    }
}

fn spread_value(se: f64) -> String {
    format!("{se:.3}")
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MoveLine;

    #[test]
    fn moves_follow_gnubgs_hint_layout() {
        let m = |n: &str, e: f64| MoveLine {
            notation: n.into(),
            equity: e,
            mwc: None,
            probs: [0.551, 0.174, 0.013, 0.124, 0.005],
            after: "sGfwATDgc/ABMA".into(),
            plies: None,
            std_error: None,
            mwc_std_error: None,
        };
        let a = Analysis::Moves {
            plies: 0,
            moves: vec![m("8/5 6/5", 0.007), m("24/23 13/10", -0.189)],
            rollout: None,
        };
        let text = render(&a, Units::Equity, 10);
        assert!(
            text.starts_with("    1. Cubeful 0-ply    8/5 6/5"),
            "{text}"
        );
        assert!(text.contains("Eq.: -0.189 (-0.196)"), "{text}");
        assert!(
            text.contains("0.551 0.174 0.013 - 0.449 0.124 0.005"),
            "{text}"
        );
    }
}
