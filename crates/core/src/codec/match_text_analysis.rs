//! gnubg's analysis in its `export match text`, read into the match model
//! as the other formats' analyses are: under a checker play, `Rolled 41:`
//! and the candidates gnubg ranked (`*    1. Cubeful 0-ply    6/2*/1*
//! Eq.: -0.150`, each with its probabilities on the next line); under a
//! cube action, or before a roll, `Cube analysis` with its three cubeful
//! equities (`1. No double  +0.009`); and at a game's end `gnubg wins 2
//! points`. The equities are gnubg's normalised ones (EMG in a match),
//! from the side of the player deciding: a take's are turned to the
//! doubler's side, as the model keeps every cube analysis.

use crate::domain::match_record::{FileAnalysis, RankedMove};

/// gnubg's depth words for a verdict: `gnubg 2-ply`, `gnubg rollout`.
fn depth_of(words: &[&str]) -> String {
    match words {
        [_, ply, ..] if ply.ends_with("-ply") => format!("gnubg {ply}"),
        [first, ..] if first.eq_ignore_ascii_case("rollout") => "gnubg rollout".to_owned(),
        [ply, ..] if ply.ends_with("-ply") => format!("gnubg {ply}"),
        _ => "gnubg".to_owned(),
    }
}

/// A number with its sign as gnubg writes it (`+0.009`, `-1.000`).
fn number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// gnubg's six probabilities line (`0.499 0.137 0.008 - 0.501 0.141
/// 0.007`) as the model's five: win, gammon, backgammon, lose gammon,
/// lose backgammon.
fn probs(line: &str) -> Option<[f64; 5]> {
    let v: Vec<f64> = line
        .split_whitespace()
        .filter(|t| *t != "-")
        .map(number)
        .collect::<Option<Vec<f64>>>()?;
    match v.as_slice() {
        [w, wg, wbg, _l, lg, lbg] => Some([*w, *wg, *wbg, *lg, *lbg]),
        _ => None,
    }
}

/// One candidate line: `*    1. Cubeful 0-ply    24/23 13/11   Eq.: -0.009`
/// (with `(-0.016)` after the equity below the first).
fn candidate(line: &str) -> Option<RankedMove> {
    let t = line.trim_start().trim_start_matches('*').trim_start();
    let (rank, rest) = t.split_once(". ")?;
    rank.trim().parse::<u32>().ok()?;
    let (before, after) = rest.split_once("Eq.:")?;
    let equity = number(after.split_whitespace().next()?)?;
    let words: Vec<&str> = before.split_whitespace().collect();
    // `Cubeful 0-ply` or `Cubeless 2-ply` (two words), `Rollout` (one).
    let skip = if words.first()?.eq_ignore_ascii_case("rollout") {
        1
    } else {
        2
    };
    let notation = words.get(skip..)?.join(" ");
    if notation.is_empty() {
        return None;
    }
    Some(RankedMove {
        notation,
        equity,
        probs: None,
        depth: depth_of(&words),
    })
}

/// The candidates after a `Rolled NN:` line, as ranked, best first.
pub(super) fn moves(lines: &[&str]) -> Option<FileAnalysis> {
    let mut moves: Vec<RankedMove> = Vec::new();
    for line in lines {
        let t = line.trim();
        if t.is_empty() && !moves.is_empty() {
            break;
        }
        if let Some(m) = candidate(line) {
            moves.push(m);
        } else if let Some(p) = probs(t)
            && let Some(last) = moves.last_mut()
            && last.probs.is_none()
        {
            last.probs = Some(p);
        } else if !t.is_empty() {
            break;
        }
    }
    (!moves.is_empty()).then_some(FileAnalysis::Moves { moves })
}

/// The three cubeful equities after a `Cube analysis` line, from the side
/// of the player whose decision it is; `taker` turns them to the
/// doubler's side.
pub(super) fn cube(lines: &[&str], taker: bool) -> Option<FileAnalysis> {
    let (mut nd, mut dt, mut dp, mut depth, mut p) = (None, None, None, None, None);
    for line in lines.iter().take(12) {
        let t = line.trim();
        if let Some(rest) = t.split_once(". ").map(|(_, r)| r) {
            let value = |label: &str| {
                rest.strip_prefix(label)
                    .and_then(|v| number(v.split_whitespace().next()?))
            };
            nd = nd.or_else(|| value("No double"));
            dt = dt.or_else(|| value("Double, take"));
            dp = dp.or_else(|| value("Double, pass"));
        } else if t.contains("cubeless equity") || t.starts_with("Rollout") {
            depth = Some(depth_of(&t.split_whitespace().collect::<Vec<_>>()));
        } else if p.is_none() {
            p = probs(t);
        }
        if t.starts_with("Proper cube action") {
            break;
        }
    }
    let sign = if taker { -1.0 } else { 1.0 };
    Some(FileAnalysis::Cube {
        no_double: sign * nd?,
        double_take: sign * dt?,
        double_pass: sign * dp?,
        // The doubler's chances: a taker's are the other way round.
        probs: p.map(|[w, wg, wbg, lg, lbg]| {
            if taker {
                [1.0 - w, lg, lbg, wg, wbg]
            } else {
                [w, wg, wbg, lg, lbg]
            }
        }),
        depth: depth.unwrap_or_else(|| "gnubg".to_owned()),
    })
}

/// `gnubg wins 2 points`: the winner's name and the points.
pub(super) fn wins(line: &str) -> Option<(String, u32)> {
    let t = line.trim();
    let (name, rest) = t.rsplit_once(" wins ")?;
    let mut words = rest.split_whitespace();
    let points = words.next()?.parse().ok()?;
    matches!(words.next(), Some("point" | "points")).then(|| (name.to_owned(), points))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_cube_and_results_read_as_gnubg_writes_them() {
        let lines = [
            "*    1. Cubeful 0-ply    6/2*/1*                      Eq.: -0.150",
            "       0.465 0.138 0.005 - 0.535 0.157 0.011",
            "     2. Cubeful 0-ply    24/23 13/9                   Eq.: -0.151 (-0.001)",
            "       0.467 0.126 0.006 - 0.533 0.154 0.009",
            "",
            "",
        ];
        let Some(FileAnalysis::Moves { moves }) = moves(&lines) else {
            panic!("moves")
        };
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0].notation, "6/2*/1*");
        assert_eq!(moves[0].depth, "gnubg 0-ply");
        assert_eq!(moves[1].equity, -0.151);
        assert_eq!(moves[0].probs, Some([0.465, 0.138, 0.005, 0.157, 0.011]));
        let cube_lines = [
            "0-ply cubeless equity -0.761 (Money: -0.761)",
            "  0.120 0.000 0.000 - 0.880 0.000 0.000",
            "Cubeful equities:",
            "1. Double, pass        -1.000",
            "2. Double, take        -1.517  (-0.517)",
            "3. No double           -0.761  (+0.239)",
            "Proper cube action: Redouble, pass",
        ];
        let Some(FileAnalysis::Cube {
            no_double,
            double_take,
            double_pass,
            depth,
            ..
        }) = cube(&cube_lines, true)
        else {
            panic!("cube")
        };
        assert_eq!((no_double, double_take, double_pass), (0.761, 1.517, 1.0));
        assert_eq!(depth, "gnubg 0-ply");
        assert_eq!(wins("gnubg wins 2 points"), Some(("gnubg".to_owned(), 2)));
        assert_eq!(
            wins("alice b wins 1 point"),
            Some(("alice b".to_owned(), 1))
        );
        assert_eq!(wins("nobody wins anything"), None);
    }
}
