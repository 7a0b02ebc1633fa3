//! A player's own cube thresholds: from their take/pass and double/no
//! double decisions with the engine's equities, where they actually take
//! and double, against where they should (pure).
//!
//! Each decision is read on one edge of the cube's window, as a margin in
//! normalised equity from the side of the player deciding, positive where
//! acting is right:
//! - the **take point**: take − pass, acting = taking;
//! - the **double point** (the lower edge of the doubling window, where the
//!   opponent should still take: DT ≤ DP): DT − ND, acting = doubling;
//! - the **too-good point** (the upper edge, where the opponent should pass:
//!   DP < DT): DP − ND, acting = doubling (below it the position is too good
//!   to double).
//!
//! The player's effective threshold on an edge is the margin at which they
//! act half the time: a logistic regression of acting on the margin,
//! P(act) = σ(a + b·m), gives t = −a/b, with a 95% interval by the delta
//! method from the fit's information matrix. A positive t means they act
//! only well past the right point (they pass positions worth taking up to
//! t past the take point); a negative t, that they act short of it. Where
//! the decisions are separated (every act above every non-act) the fit has
//! no finite answer: any threshold between the highest margin not acted on
//! and the lowest acted on fits them all, so that gap is the interval and
//! its middle the estimate.

use super::match_stats::DecisionKind;

/// An edge of the cube's window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Edge {
    Take,
    Double,
    TooGood,
}

impl Edge {
    pub const ALL: [Edge; 3] = [Edge::Take, Edge::Double, Edge::TooGood];

    pub fn name(self) -> &'static str {
        match self {
            Edge::Take => "take",
            Edge::Double => "double",
            Edge::TooGood => "too-good",
        }
    }
}

/// One decision on an edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeChoice {
    pub edge: Edge,
    /// Equity of acting minus not acting, from the decider's side.
    pub margin: f64,
    /// They took (take edge) or doubled (the other two).
    pub acted: bool,
}

/// The decision of `kind` with the engine's cube equities (`[nd, dt, dp]`
/// for a double, `[take, pass]` for a take), and whether the player acted.
/// `None` for a checker play or equities of the wrong shape.
pub fn choice(kind: DecisionKind, equities: &[f64], acted: bool) -> Option<CubeChoice> {
    if !equities.iter().all(|e| e.is_finite()) {
        return None;
    }
    let (edge, margin) = match (kind, equities) {
        (DecisionKind::Take, &[take, pass]) => (Edge::Take, take - pass),
        (DecisionKind::Cube, &[nd, dt, dp]) if dt <= dp => (Edge::Double, dt - nd),
        (DecisionKind::Cube, &[nd, _, dp]) => (Edge::TooGood, dp - nd),
        _ => return None,
    };
    Some(CubeChoice {
        edge,
        margin,
        acted,
    })
}

/// A player's threshold on one edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold {
    /// The margin at which they act half the time (0 is right).
    pub estimate: f64,
    /// Its 95% interval.
    pub low: f64,
    pub high: f64,
    /// The decisions it is from.
    pub decisions: usize,
    /// The decisions were separated (the interval is the gap between them).
    pub separated: bool,
}

/// Why no threshold can be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoThreshold {
    #[error("no decision")]
    Empty,
    #[error("the player always acted, or never, on these {0} decisions")]
    OneSided(usize),
    #[error("the player acted less the better acting was, over these {0} decisions")]
    Backwards(usize),
}

/// The gap between the highest margin not acted on and the lowest acted
/// on, when every act lies above every non-act.
fn gap(choices: &[(f64, bool)]) -> Option<(f64, f64)> {
    let below = choices
        .iter()
        .filter(|c| !c.1)
        .map(|c| c.0)
        .fold(f64::NEG_INFINITY, f64::max);
    let above = choices
        .iter()
        .filter(|c| c.1)
        .map(|c| c.0)
        .fold(f64::INFINITY, f64::min);
    (below < above).then_some((below, above))
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Logistic regression by Newton's method: (a, b) and the inverse of the
/// information matrix, or `None` when it does not converge.
fn fit(choices: &[(f64, bool)]) -> Option<([f64; 2], [[f64; 2]; 2])> {
    let (mut a, mut b) = (0.0, 0.0);
    for _ in 0..100 {
        let (mut g, mut h) = ([0.0; 2], [[0.0; 2]; 2]);
        for &(m, acted) in choices {
            let p = sigmoid(a + b * m);
            let r = f64::from(u8::from(acted)) - p;
            let w = p * (1.0 - p);
            g[0] += r;
            g[1] += r * m;
            h[0][0] += w;
            h[0][1] += w * m;
            h[1][1] += w * m * m;
        }
        let det = h[0][0] * h[1][1] - h[0][1] * h[0][1];
        if det.abs() < 1e-300 || !det.is_finite() {
            return None;
        }
        let inv = [
            [h[1][1] / det, -h[0][1] / det],
            [-h[0][1] / det, h[0][0] / det],
        ];
        let step = [
            inv[0][0] * g[0] + inv[0][1] * g[1],
            inv[1][0] * g[0] + inv[1][1] * g[1],
        ];
        a += step[0];
        b += step[1];
        if step[0].abs() < 1e-10 && step[1].abs() < 1e-10 * b.abs().max(1.0) {
            return Some(([a, b], inv));
        }
    }
    None
}

/// The player's threshold from their decisions on one edge (`(margin,
/// acted)`).
pub fn threshold(choices: &[(f64, bool)]) -> Result<Threshold, NoThreshold> {
    let n = choices.len();
    let acted = choices.iter().filter(|c| c.1).count();
    if n == 0 {
        return Err(NoThreshold::Empty);
    }
    if acted == 0 || acted == n {
        return Err(NoThreshold::OneSided(n));
    }
    if let Some((low, high)) = gap(choices) {
        return Ok(Threshold {
            estimate: (low + high) / 2.0,
            low,
            high,
            decisions: n,
            separated: true,
        });
    }
    let ([a, b], v) = fit(choices).ok_or(NoThreshold::Backwards(n))?;
    if b <= 0.0 {
        return Err(NoThreshold::Backwards(n));
    }
    let t = -a / b;
    // d t / d a = -1/b, d t / d b = a/b² = -t/b.
    let var = (v[0][0] + 2.0 * t * v[0][1] + t * t * v[1][1]) / (b * b);
    let half = 1.959_964 * var.max(0.0).sqrt();
    Ok(Threshold {
        estimate: t,
        low: t - half,
        high: t + half,
        decisions: n,
        separated: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_are_read_from_the_deciders_side() {
        let take = choice(DecisionKind::Take, &[-0.9, -1.0], false).unwrap();
        assert_eq!(take.edge, Edge::Take);
        assert!((take.margin - 0.1).abs() < 1e-12);
        // DT below DP: the double point's edge.
        let d = choice(DecisionKind::Cube, &[0.5, 0.6, 1.0], true).unwrap();
        assert_eq!(d.edge, Edge::Double);
        assert!((d.margin - 0.1).abs() < 1e-12);
        // DP below DT: the too-good edge; ND above DP: too good.
        let g = choice(DecisionKind::Cube, &[1.1, 1.3, 1.0], true).unwrap();
        assert_eq!(g.edge, Edge::TooGood);
        assert!((g.margin + 0.1).abs() < 1e-12);
        assert_eq!(choice(DecisionKind::Checker, &[0.1, 0.2], true), None);
        assert_eq!(choice(DecisionKind::Take, &[0.1, 0.2, 0.3], true), None);
    }

    /// A player who acts with probability σ(k (m − t)) at margins spread
    /// evenly, counted in exact proportions: the fit gives back t.
    #[test]
    fn a_known_threshold_is_found_with_its_interval() {
        let (t, k) = (0.06, 40.0);
        let mut choices = Vec::new();
        for i in 0..=40 {
            let m = -0.3 + 0.015 * f64::from(i);
            let p = sigmoid(k * (m - t));
            // 200 decisions at each margin, acted on in proportion p.
            let acted = (p * 200.0).round() as usize;
            choices.extend((0..200).map(|j| (m, j < acted)));
        }
        let th = threshold(&choices).unwrap();
        assert!(!th.separated);
        assert!((th.estimate - t).abs() < 0.002, "{th:?}");
        assert!(th.low < t && t < th.high, "{th:?}");
        assert!(th.high - th.low < 0.02, "{th:?}");
        // Fewer decisions: a wider interval around the same point.
        let few: Vec<(f64, bool)> = choices.iter().step_by(20).copied().collect();
        let wide = threshold(&few).unwrap();
        assert!(wide.high - wide.low > th.high - th.low, "{wide:?}");
    }

    #[test]
    fn separated_decisions_give_the_gap() {
        // Takes everything 0.04 or more past the take point, passes below.
        let choices = [
            (-0.1, false),
            (0.0, false),
            (0.02, false),
            (0.04, true),
            (0.2, true),
        ];
        let th = threshold(&choices).unwrap();
        assert!(th.separated);
        assert_eq!((th.low, th.high), (0.02, 0.04));
        assert!((th.estimate - 0.03).abs() < 1e-12);
        assert_eq!(threshold(&[]), Err(NoThreshold::Empty));
        assert_eq!(
            threshold(&[(0.1, true), (0.2, true)]),
            Err(NoThreshold::OneSided(2))
        );
        // Acting only where it is wrong.
        let backwards = [
            (0.3, false),
            (0.2, false),
            (0.25, true),
            (-0.2, true),
            (-0.1, true),
            (0.1, false),
        ];
        assert_eq!(threshold(&backwards), Err(NoThreshold::Backwards(6)));
    }
}
