//! What gnubg answers, read from the bridge's JSON lines and checked: an
//! answer with numbers out of range or the wrong shape is refused as garbage.
//!
//! An equity's range depends on the position. Money equities are per cube,
//! at most a backgammon's 3. In match play gnubg normalises the match
//! winning chances to the cube's points at the score (eval.c `mwc2eq`:
//! winning them is +1, losing them −1), so an equity is in range when it
//! stands for chances between 0 and 1; with a cube worth more than the
//! match needs that reaches far past ±3 (`mkBMmUrDBwAAAA:cwlPAhABCAAE`, an
//! 8-cube at 17-away/1-away: gnubg's own `hint` says +16.91).

use super::scale::Scale;
use bgedit_core::domain::Position;
use serde::{Deserialize, Serialize};

/// The largest money equity accepted: a backgammon is 3, and rollouts and
/// rounding stay well inside 10.
const MONEY_LIMIT: f64 = 10.0;

/// Win, win gammon, win backgammon, lose gammon, lose backgammon: gnubg's
/// five outputs for the player on roll.
pub type Probs = [f64; 5];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// A rollout's standard error of the equity, and of the MWC in match
    /// play.
    #[serde(default)]
    pub std_error: Option<f64>,
    #[serde(default)]
    pub mwc_std_error: Option<f64>,
}

/// A rollout behind an answer: gnubg's settings, how far it got, and the
/// cube's standard errors (the moves carry their own).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rollout {
    /// Trials done, and asked for.
    pub trials: u32,
    pub of: u32,
    pub seed: u32,
    /// Plies after which each trial is cut off (0: played to the end).
    pub truncate: u8,
    /// The depth of the evaluation at the truncation point, as the engine
    /// says it used it (gnubg's count); None from an engine that does not.
    #[serde(default)]
    pub truncate_plies: Option<u8>,
    /// The depth the rollout players move and double at.
    pub plies: u8,
    pub cubeful: bool,
    /// Variance reduction (gnubg's lookahead).
    pub vr: bool,
    /// Quasi-random dice.
    pub quasi: bool,
    /// Seconds so far.
    pub elapsed: f64,
    /// The engine's threads, when it says.
    #[serde(default)]
    pub threads: Option<u16>,
    /// Whether the same seed and settings give the same numbers again:
    /// not for gnubg on more than one thread.
    #[serde(default = "reproducible")]
    pub reproducible: bool,
    /// Stopped before `of` trials.
    pub stopped: bool,
    #[serde(default)]
    pub no_double_se: Option<f64>,
    #[serde(default)]
    pub double_take_se: Option<f64>,
}

impl Rollout {
    /// Seconds left at the rate so far, while it runs.
    pub fn seconds_left(&self) -> Option<f64> {
        (self.trials > 0 && self.trials < self.of && !self.stopped)
            .then(|| self.elapsed * f64::from(self.of - self.trials) / f64::from(self.trials))
    }

    /// "1296 trials, seed 1, cubeful, VR, quasi-random, 0-ply players" and
    /// how it ended.
    pub fn describe(&self) -> String {
        let mut s = if self.trials < self.of {
            format!("{} of {} trials", self.trials, self.of)
        } else {
            format!("{} trials", self.trials)
        };
        s.push_str(&format!(", seed {}", self.seed));
        s.push_str(if self.cubeful {
            ", cubeful"
        } else {
            ", cubeless"
        });
        if self.vr {
            s.push_str(", variance reduction");
        }
        if self.quasi {
            s.push_str(", quasi-random dice");
        }
        if self.truncate > 0 {
            s.push_str(&format!(", truncated at {} plies", self.truncate));
            if let Some(p) = self.truncate_plies {
                s.push_str(&format!(" and evaluated there at {p}-ply"));
            }
        }
        s.push_str(&format!(", {}-ply players", self.plies));
        if !self.reproducible {
            let on = self
                .threads
                .map_or("threads".to_owned(), |t| format!("{t} threads"));
            s.push_str(&format!(
                "; on {on}: not reproducible, the same seed may give other last digits (one thread does not)"
            ));
        }
        if self.stopped {
            s.push_str(" (stopped)");
        }
        s
    }
}

/// An engine that does not say is reproducible: Sage's threaded rollouts
/// give the same numbers for the same seed.
fn reproducible() -> bool {
    true
}

/// Half the width of a 95% confidence interval for a standard error.
pub fn interval95(std_error: f64) -> f64 {
    1.96 * std_error
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Analysis {
    /// Dice rolled: the ranked moves (empty when the roll cannot be played).
    Moves {
        plies: u8,
        moves: Vec<MoveLine>,
        /// Set when the moves were rolled out.
        #[serde(default)]
        rollout: Option<Box<Rollout>>,
    },
    /// No dice: the cube decision, from the side of the player on roll.
    Cube {
        plies: u8,
        /// gnubg's proper action, e.g. "Double, take".
        action: String,
        no_double: f64,
        double_take: f64,
        double_pass: f64,
        /// gnubg's best cube equity (its `FindCubeDecision`, beavers and
        /// too-good included): what a match analysis measures errors from.
        #[serde(default)]
        optimal: Option<f64>,
        #[serde(default)]
        no_double_mwc: Option<f64>,
        #[serde(default)]
        double_take_mwc: Option<f64>,
        #[serde(default)]
        double_pass_mwc: Option<f64>,
        probs: Probs,
        cubeless: f64,
        #[serde(default)]
        rollout: Option<Box<Rollout>>,
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
        #[serde(default)]
        rollout: Option<Box<Rollout>>,
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
impl Eq for Rollout {}
impl Eq for Analysis {}

/// A bridge line: an answer, or the error it reports for a request.
#[derive(Debug, Deserialize)]
struct Line {
    id: Option<u64>,
    error: Option<String>,
    #[serde(flatten)]
    rest: serde_json::Value,
}

/// A line from an engine's bridge that is not a well-formed reply. The
/// engine is restarted; the text says what came.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Garbage {
    /// Not a reply at all (the line cut to 80 characters).
    #[error("{engine} answered garbage: {line:?}")]
    Line { engine: &'static str, line: String },
    /// A reply of the wrong shape: what was wrong, and the line.
    #[error("{engine} answered garbage ({why}): {line:?}")]
    Shape {
        engine: &'static str,
        why: String,
        line: String,
    },
    /// A reply whose numbers cannot be (a probability past 1, an equity
    /// past what the score allows).
    #[error("{engine} answered garbage: numbers out of range")]
    Numbers { engine: &'static str },
}

impl Garbage {
    /// The start of `text`, as a garbage message shows it.
    pub(crate) fn shown(text: &str) -> String {
        text.chars().take(80).collect()
    }
}

/// Why an answer's numbers are refused by [`check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("numbers out of range")]
pub(crate) struct OutOfRange;

/// A request the engine refused, in its own words (its bridge's `error`):
/// data, worded for the user by `EngineErrorKind::Refused`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub said: String,
}

/// One reply read from the bridge.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Ready,
    Answer(u64, Result<Analysis, Refused>),
    /// A rollout's answer so far; the last one comes as an `Answer`.
    Progress(u64, Analysis),
    /// A rollout's progress without numbers yet (Sage's cube rollouts give
    /// none until the end): a chance to stop it.
    Tick(u64, Box<Rollout>),
}

/// The largest equity an answer may hold without being garbage: ±10 (room
/// over money's ±3), or in match play the normalised equities of winning
/// and of losing the match at `position`'s score and cube when they reach
/// further (gnubg's default table, single precision: a little slack).
pub(crate) fn equity_limit(position: &Position) -> f64 {
    let ends = Scale::of(&position.state)
        .ok()
        .flatten()
        .map(Scale::equity_range);
    ends.map_or(MONEY_LIMIT, |(lose, win)| {
        MONEY_LIMIT.max(lose.abs().max(win.abs()) * 1.001 + 0.001)
    })
}

/// Whether an answer's equities pass ±3, the most a money equity can be:
/// they come from a cube worth more than the match needs, and a reader
/// should be told why.
pub(crate) fn past_money_range(a: &Analysis) -> bool {
    equities(a).iter().any(|e| e.abs() > 3.0 + 1e-6)
}

/// Every equity an answer holds.
fn equities(a: &Analysis) -> Vec<f64> {
    match a {
        Analysis::Moves { moves, .. } => moves.iter().map(|m| m.equity).collect(),
        Analysis::Cube {
            no_double,
            double_take,
            double_pass,
            cubeless,
            ..
        } => vec![*no_double, *double_take, *double_pass, *cubeless],
        Analysis::Take {
            take,
            pass,
            cubeless,
            ..
        } => vec![*take, *pass, *cubeless],
        Analysis::Eval { cubeless, .. } => vec![*cubeless],
        Analysis::Over { .. } => Vec::new(),
    }
}

/// Reads one bridge line; `Err` for anything that is not a well-formed
/// reply. Equities are held to money's range: [`parse_reply`] knows the
/// position.
pub fn parse_line(text: &str) -> Result<Reply, Garbage> {
    parse_with(text, MONEY_LIMIT)
}

/// Reads one bridge line answering a request about `position`.
pub(crate) fn parse_reply(text: &str, position: &Position) -> Result<Reply, Garbage> {
    parse_with(text, equity_limit(position))
}

fn parse_with(text: &str, limit: f64) -> Result<Reply, Garbage> {
    let garbage = || Garbage::Line {
        engine: "gnubg",
        line: Garbage::shown(text),
    };
    let line: Line = serde_json::from_str(text).map_err(|_| garbage())?;
    if line.rest.get("ready").and_then(|v| v.as_bool()) == Some(true) {
        return Ok(Reply::Ready);
    }
    let id = line.id.ok_or_else(garbage)?;
    if let Some(e) = line.error {
        return Ok(Reply::Answer(id, Err(Refused { said: e })));
    }
    let partial = line.rest.get("partial").and_then(|v| v.as_bool()) == Some(true);
    let analysis: Analysis = serde_json::from_value(line.rest).map_err(|_| garbage())?;
    check(&analysis, limit).map_err(|OutOfRange| Garbage::Numbers { engine: "gnubg" })?;
    Ok(if partial {
        Reply::Progress(id, analysis)
    } else {
        Reply::Answer(id, Ok(analysis))
    })
}

/// Checks an answer's numbers, its equities against `limit`
/// ([`equity_limit`]).
pub(crate) fn check(a: &Analysis, limit: f64) -> Result<(), OutOfRange> {
    let probs_ok = |p: &Probs| {
        p.iter()
            .all(|x| x.is_finite() && (-1e-6..=1.0 + 1e-6).contains(x))
    };
    let eq_ok = |e: f64| e.is_finite() && e.abs() <= limit;
    let se_ok = |e: Option<f64>| e.is_none_or(|x| x.is_finite() && (0.0..=10.0).contains(&x));
    let rollout_ok = a.rollout().is_none_or(|r| {
        r.elapsed.is_finite()
            && r.elapsed >= 0.0
            && r.trials <= r.of
            && se_ok(r.no_double_se)
            && se_ok(r.double_take_se)
    });
    let ok = rollout_ok
        && match a {
            Analysis::Moves { moves, .. } => moves.iter().all(|m| {
                probs_ok(&m.probs)
                    && eq_ok(m.equity)
                    && !m.notation.is_empty()
                    && m.after.len() == 14
                    && se_ok(m.std_error)
                    && se_ok(m.mwc_std_error)
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
    if ok { Ok(()) } else { Err(OutOfRange) }
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

    /// The rollout behind this answer, if it was rolled out.
    pub fn rollout(&self) -> Option<&Rollout> {
        match self {
            Analysis::Moves { rollout, .. }
            | Analysis::Cube { rollout, .. }
            | Analysis::Take { rollout, .. } => rollout.as_deref(),
            _ => None,
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
        assert_eq!(
            parse_line(&bad).unwrap_err().to_string(),
            "gnubg answered garbage: numbers out of range"
        );
        assert_eq!(parse_line(r#"{"ready":true}"#), Ok(Reply::Ready));
        assert!(!past_money_range(&Analysis::Eval {
            plies: 0,
            probs: [0.5, 0.1, 0.0, 0.1, 0.0],
            cubeless: 2.5
        }));
        assert_eq!(
            parse_line(r#"{"id":4,"error":"no"}"#),
            Ok(Reply::Answer(
                4,
                Err(Refused {
                    said: "no".to_owned()
                })
            ))
        );
    }

    /// An 8-cube in an 18-point match, X 17-away and O 1-away (gnubg's
    /// `hint`: `5/2* 5/off Eq.: +16.910`). gnubg's normalised equity is
    /// (2·MWC − (W + L)) / (W − L), W and L the roller's chances on
    /// winning and on losing the cube's 8 points: L is 0 (O wins the
    /// match) and W small (X then 9-away against 1-away), so chances
    /// between 0 and 1 reach from −1 to 2/W − 1, far past ±3.
    #[test]
    fn equities_past_three_are_in_range_when_the_cube_outgrows_the_match() {
        let position =
            bgedit_core::codec::parse_any("mkBMmUrDBwAAAA:cwlPAhABCAAE", &Position::default())
                .unwrap()
                .position;
        let s = &position.state;
        assert_eq!((s.match_length, s.score, s.cube_value()), (18, [17, 1], 8));
        let met = bgedit_core::codec::met_xml::shared_default_met();
        let roller = s.on_roll.index();
        let at = |who| f64::from(met.after(s.score, 18, roller, 8, who, s.crawford));
        let (win, lose) = (at(roller), at(1 - roller));
        assert!(
            lose.abs() < 1e-9 && (0.0..0.2).contains(&win),
            "{win} {lose}"
        );
        let top = (2.0 - (win + lose)) / (win - lose);
        assert!(top > 16.91, "{top}");
        let limit = equity_limit(&position);
        assert!((limit - top).abs() < 0.05 * top, "{limit} {top}");

        let line = |eq: f64| {
            format!(
                r#"{{"kind":"moves","plies":0,"id":9,"moves":[{{"move":"5/2* 5/off","equity":{eq},"mwc":0.6227,"probs":[0.873,0.728,0.495,0.0,0.0],"after":"sGfwATDgc/ABMA"}}]}}"#
            )
        };
        match parse_reply(&line(16.910), &position).unwrap() {
            Reply::Answer(9, Ok(a)) => assert!(past_money_range(&a)),
            other => panic!("{other:?}"),
        }
        // Past the chances of winning the match outright: garbage still.
        let past = parse_reply(&line(top + 1.0), &position).unwrap_err();
        assert_eq!(past, Garbage::Numbers { engine: "gnubg" }, "{past}");
        // Without the position, money's range.
        assert!(parse_line(&line(16.910)).is_err());
        // A money position keeps ±10.
        let money =
            bgedit_core::codec::parse_any("4HPwATDgc/ABMA:cAkFAAAAAAAE", &Position::default())
                .unwrap()
                .position;
        assert_eq!(equity_limit(&money), 10.0);
        // A 5-point match at 0-0 with a 1-cube keeps ±10 too.
        let small =
            bgedit_core::codec::parse_any("4HPwATDgc/ABMA:cAmlAAAAAAAE", &Position::default())
                .unwrap()
                .position;
        assert_eq!(equity_limit(&small), 10.0);
    }
}
