//! What gnubg answers, read from the bridge's JSON lines and checked: an
//! answer with numbers out of range or the wrong shape is refused as garbage.

use serde::Deserialize;

/// Win, win gammon, win backgammon, lose gammon, lose backgammon: gnubg's
/// five outputs for the player on roll.
pub type Probs = [f64; 5];

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct MoveLine {
    /// gnubg's notation, e.g. "8/5 6/5".
    #[serde(rename = "move")]
    pub notation: String,
    pub equity: f64,
    /// Match winning chances, in match play.
    #[serde(default)]
    pub mwc: Option<f64>,
    pub probs: Probs,
    /// The Position ID after the move, with the opponent on roll.
    pub after: String,
    /// The depth this move was evaluated at: gnubg's move filter evaluates
    /// only the leading candidates at the depth asked for.
    #[serde(default)]
    pub plies: Option<u8>,
}

impl MoveLine {
    /// This move's depth, or the list's when gnubg did not say.
    pub fn depth(&self, list_plies: u8) -> u8 {
        self.plies.unwrap_or(list_plies)
    }
}

/// Where a move list's depths change, when gnubg's filter left some moves
/// shallower than the depth asked for: (first shallower move's index, its
/// depth).
pub fn shallow_tail(list_plies: u8, moves: &[MoveLine]) -> Option<(usize, u8)> {
    moves
        .iter()
        .position(|m| m.depth(list_plies) < list_plies)
        .map(|i| (i, moves[i].depth(list_plies)))
}

/// One analysis, as gnubg gave it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Analysis {
    /// Dice rolled: the ranked moves (empty when the roll cannot be played).
    Moves { plies: u8, moves: Vec<MoveLine> },
    /// No dice: the cube decision, from the side of the player on roll.
    Cube {
        plies: u8,
        /// gnubg's proper action, e.g. "Double, take".
        action: String,
        no_double: f64,
        double_take: f64,
        double_pass: f64,
        #[serde(default)]
        no_double_mwc: Option<f64>,
        #[serde(default)]
        double_take_mwc: Option<f64>,
        #[serde(default)]
        double_pass_mwc: Option<f64>,
        probs: Probs,
        cubeless: f64,
    },
    /// A double on offer: take or pass, for the player taking.
    Take {
        plies: u8,
        take: f64,
        pass: f64,
        #[serde(default)]
        take_mwc: Option<f64>,
        #[serde(default)]
        pass_mwc: Option<f64>,
        /// "take" or "pass".
        proper: String,
        probs: Probs,
        cubeless: f64,
    },
    /// No cube action possible: the chances only.
    Eval {
        plies: u8,
        probs: Probs,
        cubeless: f64,
    },
    /// Nothing to analyse.
    Over { reason: String },
}

// Every number is checked finite before an answer is accepted, so equality
// is total and the editor's model can stay `Eq`.
impl Eq for MoveLine {}
impl Eq for Analysis {}

/// A bridge line: an answer, or the error it reports for a request.
#[derive(Debug, Deserialize)]
struct Line {
    id: Option<u64>,
    error: Option<String>,
    #[serde(flatten)]
    rest: serde_json::Value,
}

/// One reply read from the bridge.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Ready,
    Answer(u64, Result<Analysis, String>),
}

/// Reads one bridge line; `Err` for anything that is not a well-formed reply.
pub fn parse_line(text: &str) -> Result<Reply, String> {
    let short: String = text.chars().take(80).collect();
    let garbage = || format!("gnubg answered garbage: {short:?}");
    let line: Line = serde_json::from_str(text).map_err(|_| garbage())?;
    if line.rest.get("ready").and_then(|v| v.as_bool()) == Some(true) {
        return Ok(Reply::Ready);
    }
    let id = line.id.ok_or_else(garbage)?;
    if let Some(e) = line.error {
        return Ok(Reply::Answer(id, Err(e)));
    }
    let analysis: Analysis = serde_json::from_value(line.rest).map_err(|_| garbage())?;
    check(&analysis).map_err(|e| format!("gnubg answered garbage: {e}"))?;
    Ok(Reply::Answer(id, Ok(analysis)))
}

fn check(a: &Analysis) -> Result<(), String> {
    let probs_ok = |p: &Probs| {
        p.iter()
            .all(|x| x.is_finite() && (-1e-6..=1.0 + 1e-6).contains(x))
    };
    let eq_ok = |e: f64| e.is_finite() && e.abs() <= 10.0;
    let ok = match a {
        Analysis::Moves { moves, .. } => moves.iter().all(|m| {
            probs_ok(&m.probs) && eq_ok(m.equity) && !m.notation.is_empty() && m.after.len() == 14
        }),
        Analysis::Cube {
            no_double,
            double_take,
            double_pass,
            probs,
            cubeless,
            ..
        } => {
            probs_ok(probs)
                && [*no_double, *double_take, *double_pass, *cubeless]
                    .into_iter()
                    .all(eq_ok)
        }
        Analysis::Take {
            take,
            pass,
            probs,
            cubeless,
            ..
        } => probs_ok(probs) && [*take, *pass, *cubeless].into_iter().all(eq_ok),
        Analysis::Eval {
            probs, cubeless, ..
        } => probs_ok(probs) && eq_ok(*cubeless),
        Analysis::Over { .. } => true,
    };
    if ok {
        Ok(())
    } else {
        Err("numbers out of range".to_owned())
    }
}

impl Analysis {
    /// The depth gnubg used, if it evaluated anything.
    pub fn plies(&self) -> Option<u8> {
        match self {
            Analysis::Moves { plies, .. }
            | Analysis::Cube { plies, .. }
            | Analysis::Take { plies, .. }
            | Analysis::Eval { plies, .. } => Some(*plies),
            Analysis::Over { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_moves_and_refuses_garbage() {
        let line = r#"{"kind":"moves","plies":0,"id":3,"moves":[{"move":"8/5 6/5","equity":0.2,"probs":[0.55,0.17,0.01,0.12,0.005],"after":"sGfwATDgc/ABMA"}]}"#;
        match parse_line(line).unwrap() {
            Reply::Answer(3, Ok(Analysis::Moves { moves, .. })) => {
                assert_eq!(moves[0].notation, "8/5 6/5")
            }
            other => panic!("{other:?}"),
        }
        assert!(parse_line("GNU Backgammon 1.07").is_err());
        let bad = line.replace("0.55", "7.5");
        assert!(parse_line(&bad).unwrap_err().contains("out of range"));
        assert_eq!(parse_line(r#"{"ready":true}"#), Ok(Reply::Ready));
        assert_eq!(
            parse_line(r#"{"id":4,"error":"no"}"#),
            Ok(Reply::Answer(4, Err("no".to_owned())))
        );
    }
}
