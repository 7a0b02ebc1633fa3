//! The judging, pure: a match's decisions judged from an engine's answers
//! as gnubg's own `analyse match` judges them (analysis.c `AnalyzeMove`):
//! which decisions are judged (the cube before each roll where the roller
//! could double, every checker play, every double, take and drop), each
//! one's equity lost in gnubg's normalised units and in MWC (or points)
//! and its mark, from a position's answer or from gnubg's records of a
//! whole game. No engine is asked here, no thread started, nothing waited
//! on: `ask.rs` asks, `schedule.rs` shares the asking out.

use super::JudgeError;
use crate::Analysis;
use crate::gnubg_match::{CubeRecord, GameAnswer, Piece, Record};
use crate::request::no_cube_action;
use crate::scale::Scale;
use bgedit_core::codec::match_file::FileDecision;
use bgedit_core::codec::{gnubg_id, position_id};
use bgedit_core::domain::cube_decision;
use bgedit_core::domain::match_stats::{CubeError, CubePlay, DecisionKind, Judgement};
use bgedit_core::domain::moves::{self, check_move};
use bgedit_core::domain::notation;
use bgedit_core::domain::{Board, CubeOwner, Player, Position};
use std::ops::Range;

/// gnubg's "close" cube decision (eval.c `isCloseCubedecision`): doubling
/// is less than very bad.
const CLOSE: f64 = 0.16;

/// One judged decision of the match.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    pub game: usize,
    /// The decision's move number in its game (the cube before a roll has
    /// the roll's number).
    pub number: usize,
    pub player: Player,
    pub name: String,
    pub dice: Option<[u8; 2]>,
    /// The position the decision was made in (the cube decision before a
    /// roll: without the dice).
    pub position: Position,
    /// What was played, in gnubg's words.
    pub played: String,
    /// gnubg's best choice.
    pub best: String,
    /// The played move's place in gnubg's list (checker play).
    pub played_rank: Option<usize>,
    pub judgement: Judgement,
    /// gnubg's answer the judgement was made from.
    pub analysis: Analysis,
}

// Every number comes from a checked answer (finite), so equality is total:
// the editor's model, which holds verdicts, stays `Eq`.
impl Eq for Judged {}

impl Judged {
    /// Decision `d` (in `position`: the cube before a roll has no dice)
    /// with nothing judged yet: no error, no best, no analysis; what
    /// `judge` fills in.
    pub fn unjudged(
        d: &FileDecision,
        kind: DecisionKind,
        position: Position,
        played: String,
    ) -> Judged {
        Judged {
            game: d.game,
            number: d.number,
            player: d.player,
            name: d.position.names.of(d.player).to_owned(),
            dice: position.state.dice,
            position,
            played,
            best: String::new(),
            played_rank: None,
            judgement: Judgement {
                kind,
                player: d.player,
                error: 0.0,
                cost: 0.0,
                cube: None,
                cube_error: None,
                counted: false,
            },
            analysis: Analysis::Over {
                reason: String::new(),
            },
        }
    }

    pub fn kind(&self) -> DecisionKind {
        self.judgement.kind
    }

    pub fn gnubg_id(&self) -> String {
        gnubg_id::encode(&self.position.board, &self.position.state)
    }

    /// The engine's cube equities (normalised, from the decider's side) of
    /// a double (`[no double, double/take, double/pass]`) or a take
    /// (`[take, pass]`), each judged from its own kind of answer (a
    /// beaver's take, judged from the double's, has none): what a
    /// player's cube thresholds are read from.
    /// None for a checker play.
    pub fn cube_equities(&self) -> Option<Vec<f64>> {
        match (self.kind(), &self.analysis) {
            (
                DecisionKind::Cube,
                Analysis::Cube {
                    no_double,
                    double_take,
                    double_pass,
                    ..
                },
            ) => Some(vec![*no_double, *double_take, *double_pass]),
            (DecisionKind::Take, Analysis::Take { take, pass, .. }) => Some(vec![*take, *pass]),
            _ => None,
        }
    }
}

/// What to ask for one decision of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Task {
    /// A roll played; `cube_first` when the roller could have doubled.
    Checker {
        cube_first: bool,
    },
    Double,
    Answer(CubePlay),
    /// The take of a beaver, by the player who doubled: gnubg 1.07 counts
    /// it as a take (its `DoubleType` of a beaver, cast to a take type, is
    /// "normal") judged from the original double's analysis, the decision
    /// at this index.
    BeaverTake(usize),
}

/// Which decisions gnubg's match analysis judges, in file order: gnubg
/// leaves out beavers and the take of a beaver (its `DoubleType` is not
/// normal), resignations, set-ups and the cube before each game's first
/// roll.
pub(super) fn plan(decisions: &[FileDecision]) -> Vec<Option<Task>> {
    let mut out = Vec::with_capacity(decisions.len());
    let mut after_beaver = false;
    let mut last_double = 0;
    let mut game = 0;
    for (i, d) in decisions.iter().enumerate() {
        if d.game != game {
            game = d.game;
            after_beaver = false;
        }
        // gnubg records a beaver as a double by the player doubled (a
        // double with one on offer), as some files do.
        let beaver =
            d.played == "beaver" || (d.played == "double" && d.position.state.double_offered);
        let task = match d.played.as_str() {
            _ if beaver => None,
            "take" if after_beaver => Some(Task::BeaverTake(last_double)),
            "double" if !after_beaver => Some(Task::Double),
            "take" if !after_beaver => Some(Task::Answer(CubePlay::Take)),
            "drop" if !after_beaver => Some(Task::Answer(CubePlay::Drop)),
            _ if d.dice.is_some() && d.number > 0 => Some(Task::Checker {
                cube_first: !is_opening(&d.position.board) && may_double(&d.position),
            }),
            _ => None,
        };
        match d.played.as_str() {
            _ if beaver => after_beaver = true,
            "double" => last_double = i,
            "take" | "drop" => after_beaver = false,
            _ => {}
        }
        out.push(task);
    }
    out
}

fn is_opening(board: &Board) -> bool {
    board == &Board::starting()
}

/// gnubg's `GetDPEq`: the player on roll has the cube and it is alive.
fn may_double(p: &Position) -> bool {
    let s = &p.state;
    let me = s.on_roll;
    let access = match s.cube_owner {
        CubeOwner::Centred => true,
        CubeOwner::Owned(owner) => owner == me,
    };
    if s.is_money() {
        return access;
    }
    let length = u32::from(s.match_length);
    let post_crawford = !s.crawford && s.score.iter().any(|&x| u32::from(x) + 1 == length);
    !s.crawford
        && u32::from(s.score_of(me)) + s.cube_value() < length
        && !(post_crawford && u32::from(s.score_of(me)) + 1 == length)
        && access
}

/// One decision's outcome, in match order: its judgements (none for what
/// gnubg does not judge), or why the engine could not answer.
pub type Outcome = Result<Vec<Judged>, Failed>;

/// How a decision's analysis went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failed {
    pub game: usize,
    pub number: usize,
    pub why: String,
}

/// Why an answer of the wrong kind cannot be judged, in words: a cube
/// action in a position where nobody may double (a file's illegal double,
/// as gnubg accepts it) says why, not the answer's internals.
fn unexpected(what: &'static str, position: &Position, analysis: &Analysis) -> JudgeError {
    let why = match analysis {
        Analysis::Eval { .. } => no_cube_action(position).map_or_else(
            || "no cube action".to_owned(),
            |r| format!("no cube action: {r}"),
        ),
        Analysis::Over { reason } => reason.clone(),
        Analysis::Moves { .. } => "a move list".to_owned(),
        Analysis::Cube { .. } => "a cube decision".to_owned(),
        Analysis::Take { .. } => "a take decision".to_owned(),
    };
    JudgeError::Unexpected { what, why }
}

/// The Position ID after `played` (gnubg's notation), with the opponent on
/// roll, as the bridge keys each move of its list.
pub(super) fn after_move(position: &Position, played: &str) -> Option<String> {
    let typed = notation::parse(played).ok()?;
    let legal = check_move(position, &typed).ok()?;
    let next = moves::apply(position, &legal);
    Some(position_id::encode(
        &next.board,
        position.state.on_roll.opponent(),
    ))
}

fn points(position: &Position) -> f64 {
    f64::from(position.state.cube_value())
}

/// The cost of `error` (normalised equity) when the engine gave no MWC
/// (Sage): in points for money, the error times the cube; in a match
/// gnubg's `eq2mwc(error) - eq2mwc(0)` through its match equity table, as
/// its statistics count an error.
fn cost_of(error: f64, position: &Position) -> Result<f64, JudgeError> {
    Ok(match Scale::of(&position.state)? {
        Some(s) => error * f64::from(s.win - s.lose) / 2.0,
        None => error * points(position),
    })
}

pub(super) fn judge_checker(
    j: &mut Judged,
    after: Option<&str>,
    position: &Position,
    analysis: Analysis,
) -> Result<(), JudgeError> {
    let Analysis::Moves { moves, .. } = &analysis else {
        return Err(unexpected("no move list", &j.position, &analysis));
    };
    if let Some(best) = moves.first() {
        j.best = best.notation.clone();
        // gnubg's `rChequerSkill` stays 0 when the played move is not in
        // its list (a dance has no list).
        if let Some(at) = after.and_then(|a| moves.iter().position(|m| m.after == a)) {
            let played = &moves[at];
            j.played_rank = Some(at);
            j.judgement.error = (best.equity - played.equity).max(0.0);
            j.judgement.cost = match (best.mwc, played.mwc) {
                (Some(b), Some(p)) => (b - p).max(0.0),
                _ => cost_of(j.judgement.error, position)?,
            };
        } else if after.is_some() && !j.played.is_empty() {
            return Err(JudgeError::NotLegal(j.played.clone()));
        }
    }
    j.judgement.counted = moves.len() > 1;
    j.analysis = analysis;
    Ok(())
}

/// Double or no double, by the player on roll: gnubg's errors against its
/// optimal cube action, and its classes (missed double below or above the
/// cash point, wrong double below the double point or above too good).
pub(super) fn judge_cube(
    j: &mut Judged,
    play: CubePlay,
    analysis: Analysis,
) -> Result<(), JudgeError> {
    let Analysis::Cube {
        no_double: nd,
        double_take: dt,
        double_pass: dp,
        optimal,
        no_double_mwc,
        double_pass_mwc,
        double_take_mwc,
        ..
    } = &analysis
    else {
        return Err(unexpected("no cube decision", &j.position, &analysis));
    };
    let (nd, dt, dp) = (*nd, *dt, *dp);
    let optimal = optimal.unwrap_or_else(|| nd.max(dt.min(dp)));
    let doubled = dt.min(dp);
    j.best = if nd < optimal { "double" } else { "no double" }.to_owned();
    let skill = match play {
        CubePlay::NoDouble => {
            // gnubg counts a roll as close when doubling is less than very
            // bad; a double is always counted.
            j.judgement.counted = optimal - dt.min(1.0) < CLOSE;
            let s = nd - optimal;
            if s < 0.0 {
                j.judgement.cube_error = Some(if dt > 1.0 {
                    CubeError::MissedDoubleAboveCashPoint
                } else {
                    CubeError::MissedDoubleBelowCashPoint
                });
            }
            s
        }
        _ => {
            j.judgement.counted = true;
            let s = doubled - optimal;
            if s < 0.0 {
                j.judgement.cube_error = Some(if nd > 1.0 {
                    CubeError::WrongDoubleAboveTooGood
                } else {
                    CubeError::WrongDoubleBelowDoublePoint
                });
            }
            s
        }
    };
    j.judgement.cube = Some(play);
    j.judgement.error = (-skill).max(0.0);
    // gnubg's cost is eq2mwc(skill) - eq2mwc(0): the error times the MWC
    // one normalised point is worth at this score and cube.
    j.judgement.cost = match (no_double_mwc, double_pass_mwc, double_take_mwc) {
        (Some(ndm), Some(dpm), Some(dtm)) => {
            let scale = if (dp - nd).abs() > 1e-6 {
                (dpm - ndm) / (dp - nd)
            } else if (dt - nd).abs() > 1e-6 {
                (dtm - ndm) / (dt - nd)
            } else {
                0.0
            };
            j.judgement.error * scale
        }
        _ => cost_of(j.judgement.error, &j.position)?,
    };
    j.analysis = analysis;
    Ok(())
}

/// Take or drop, by the player doubled.
pub(super) fn judge_take(
    j: &mut Judged,
    play: CubePlay,
    analysis: Analysis,
) -> Result<(), JudgeError> {
    let Analysis::Take {
        take,
        pass,
        take_mwc,
        pass_mwc,
        ..
    } = &analysis
    else {
        return Err(unexpected("no take decision", &j.position, &analysis));
    };
    let (mine, other, mine_mwc, other_mwc) = match play {
        CubePlay::Take => (*take, *pass, *take_mwc, *pass_mwc),
        _ => (*pass, *take, *pass_mwc, *take_mwc),
    };
    j.best = if take >= pass { "take" } else { "drop" }.to_owned();
    j.judgement.cube = Some(play);
    j.judgement.counted = true;
    if mine < other {
        j.judgement.error = other - mine;
        j.judgement.cube_error = Some(if play == CubePlay::Take {
            CubeError::WrongTake
        } else {
            CubeError::WrongPass
        });
        j.judgement.cost = match (mine_mwc, other_mwc) {
            (Some(m), Some(o)) => o - m,
            _ => cost_of(j.judgement.error, &j.position)?,
        };
    }
    j.analysis = analysis;
    Ok(())
}

/// The take of a beaver, judged as gnubg 1.07 does: the original double's
/// analysis, from the doubler's side, read as if the doubler were the one
/// doubled (`-DT < -DP` is its "wrong take").
pub(super) fn judge_beaver_take(j: &mut Judged, analysis: Analysis) -> Result<(), JudgeError> {
    let Analysis::Cube {
        double_take: dt,
        double_pass: dp,
        ..
    } = &analysis
    else {
        return Err(unexpected("no cube decision", &j.position, &analysis));
    };
    j.best = if dt > dp { "drop" } else { "take" }.to_owned();
    j.judgement.cube = Some(CubePlay::Take);
    j.judgement.counted = true;
    if -dt < -dp {
        j.judgement.error = dt - dp;
        j.judgement.cube_error = Some(CubeError::WrongTake);
        j.judgement.cost = cost_of(j.judgement.error, &j.position)?;
    }
    j.analysis = analysis;
    Ok(())
}

/// gnubg's cube analysis in `position` (the roller to double), as the
/// bridge's `cfevaluate` answer gives it: gnubg's `FindCubeDecision` on
/// the equities its analysis kept (MWC in match play, normalised here).
fn cube_from(c: &CubeRecord, position: &Position) -> Result<Analysis, JudgeError> {
    let state = &position.state;
    let (nd, dt) = (c.nd as f32, c.dt as f32);
    let (nd, dt, dp, mwc) = match Scale::of(state)? {
        Some(s) => (
            s.to_equity(nd),
            s.to_equity(dt),
            s.to_equity(s.win),
            Some((nd, dt, s.win)),
        ),
        None => (nd, dt, 1.0, None),
    };
    let best = cube_decision::best(nd, dt, dp, state, c.probs[1] > 0.0);
    Ok(Analysis::Cube {
        plies: c.plies,
        action: best.words.to_owned(),
        no_double: nd.into(),
        double_take: dt.into(),
        double_pass: dp.into(),
        optimal: Some(best.optimal.into()),
        no_double_mwc: mwc.map(|m| m.0.into()),
        double_take_mwc: mwc.map(|m| m.1.into()),
        double_pass_mwc: mwc.map(|m| m.2.into()),
        probs: c.probs,
        cubeless: c.cubeless,
        rollout: None,
    })
}

/// The same cube analysis for the player doubled in `position`: take or
/// pass, the doubler's figures turned round.
fn take_from(c: &CubeRecord, position: &Position) -> Result<Analysis, JudgeError> {
    let Analysis::Cube {
        double_take: dt,
        double_pass: dp,
        double_take_mwc,
        double_pass_mwc,
        probs: [w, wg, wbg, lg, lbg],
        cubeless,
        plies,
        ..
    } = cube_from(c, position)?
    else {
        unreachable!("cube_from gives a cube decision")
    };
    Ok(Analysis::Take {
        plies,
        take: -dt,
        pass: -dp,
        take_mwc: double_take_mwc.map(|m| 1.0 - m),
        pass_mwc: double_pass_mwc.map(|m| 1.0 - m),
        proper: if dt <= dp { "take" } else { "pass" }.to_owned(),
        probs: [1.0 - w, lg, lbg, wg, wbg],
        cubeless: -cubeless,
        rollout: None,
    })
}

/// gnubg's move list for a roll in `position` (none for a dance), with
/// each move's MWC in match play.
fn moves_from(r: &Record, position: &Position, plies: u8) -> Result<Analysis, JudgeError> {
    let scale = Scale::of(&position.state)?;
    let moves = r
        .moves
        .iter()
        .flatten()
        .map(|m| crate::MoveLine {
            mwc: scale.map(|s| s.to_mwc(m.equity as f32).into()),
            ..m.clone()
        })
        .collect();
    Ok(Analysis::Moves {
        plies,
        moves,
        rollout: None,
    })
}

/// What gnubg records for decision `d` (`move`, `double`, `take`, `drop`),
/// or nothing (resignations and their answers, set-ups, the position of a
/// game of set-ups alone).
fn recorded_as(d: &FileDecision) -> Option<&'static str> {
    match d.played.as_str() {
        // gnubg records a beaver as a double by the player doubled.
        "double" | "beaver" => Some("double"),
        "take" => Some("take"),
        "drop" => Some("drop"),
        _ if d.dice.is_some() && d.number > 0 && !d.played.is_empty() => Some("move"),
        _ => None,
    }
}

/// The place of each decision of `range` among gnubg's records of its game,
/// checked action by action (who, what, the dice, the position before).
fn align(
    decisions: &[FileDecision],
    range: Range<usize>,
    records: &[Record],
) -> Result<Vec<Option<usize>>, JudgeError> {
    let mut played = records
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.action.as_str(), "move" | "double" | "take" | "drop"));
    let mut out = Vec::with_capacity(range.len());
    for d in &decisions[range] {
        let Some(kind) = recorded_as(d) else {
            out.push(None);
            continue;
        };
        let Some((k, r)) = played.next() else {
            return Err(JudgeError::GameEndsBefore(d.number));
        };
        let sorted = |x: [u8; 2]| [x[0].min(x[1]), x[0].max(x[1])];
        let same = r.action == kind
            && r.player == Some(d.player)
            && (kind != "move" || r.dice.map(sorted) == d.dice.map(sorted))
            && r.board.as_ref().is_none_or(|b| {
                *b == position_id::encode(&d.position.board, d.position.state.on_roll)
            });
        if !same {
            return Err(JudgeError::NotTheFiles {
                number: d.number,
                action: r.action.clone(),
                played: d.played.clone(),
            });
        }
        out.push(Some(k));
    }
    match played.next() {
        Some(_) => Err(JudgeError::GoesOn),
        None => Ok(out),
    }
}

/// Game `game` of `decisions` (a whole match's) judged from gnubg's
/// analysis of it, an outcome for each of its decisions in order; or why
/// gnubg's records do not follow them. A run judges each piece it asked
/// (`judge_game`); this is the fuzz targets' and the tests' way in.
#[cfg(feature = "internals")]
pub fn judge_recorded_game(
    decisions: &[FileDecision],
    game: usize,
    answer: &GameAnswer,
    plies: u8,
) -> Result<Vec<Outcome>, JudgeError> {
    let start = decisions.partition_point(|d| d.game < game);
    let end = decisions.partition_point(|d| d.game <= game);
    judge_game(decisions, start..end, &plan(decisions), answer, plies)
}

/// The decisions of one game judged from gnubg's own analysis of it, or
/// why its records do not follow the file's decisions.
pub(super) fn judge_game(
    decisions: &[FileDecision],
    range: Range<usize>,
    tasks: &[Option<Task>],
    answer: &GameAnswer,
    plies: u8,
) -> Result<Vec<Outcome>, JudgeError> {
    let places = align(decisions, range.clone(), &answer.records)?;
    let start = range.start;
    let record = |i: usize| {
        i.checked_sub(start)
            .and_then(|k| places.get(k).copied().flatten())
            .map(|k| &answer.records[k])
    };
    let cube_of = |i: usize| {
        record(i)
            .and_then(|r| r.cube.as_ref())
            .ok_or(JudgeError::NoCubeRecord)
    };
    let mut last_double = None;
    let mut out = Vec::with_capacity(range.len());
    for i in range {
        let d = &decisions[i];
        let base =
            |kind, position: Position, played: String| Judged::unjudged(d, kind, position, played);
        let judged = (|| -> Result<Vec<Judged>, JudgeError> {
            let Some(task) = tasks[i] else {
                return Ok(Vec::new());
            };
            let mut out = Vec::new();
            match task {
                Task::Checker { cube_first } => {
                    let r = record(i).ok_or(JudgeError::NoRecord)?;
                    if cube_first {
                        let mut before = d.position.clone();
                        before.state.dice = None;
                        let analysis = cube_from(cube_of(i)?, &before)?;
                        let mut j =
                            base(DecisionKind::Cube, before, CubePlay::NoDouble.word().into());
                        judge_cube(&mut j, CubePlay::NoDouble, analysis)?;
                        out.push(j);
                    }
                    let after = after_move(&d.position, &d.played);
                    let analysis = moves_from(r, &d.position, plies)?;
                    let mut j = base(DecisionKind::Checker, d.position.clone(), d.played.clone());
                    judge_checker(&mut j, after.as_deref(), &d.position, analysis)?;
                    out.push(j);
                }
                Task::Double => {
                    last_double = Some(i);
                    let analysis = cube_from(cube_of(i)?, &d.position)?;
                    let mut j = base(DecisionKind::Cube, d.position.clone(), d.played.clone());
                    judge_cube(&mut j, CubePlay::Double, analysis)?;
                    out.push(j);
                }
                Task::Answer(play) => {
                    let at = last_double.ok_or(JudgeError::NoDoubleTaken)?;
                    let analysis = take_from(cube_of(at)?, &decisions[at].position)?;
                    let mut j = base(DecisionKind::Take, d.position.clone(), d.played.clone());
                    judge_take(&mut j, play, analysis)?;
                    out.push(j);
                }
                Task::BeaverTake(at) => {
                    let analysis = cube_from(cube_of(at)?, &decisions[at].position)?;
                    let mut j = base(DecisionKind::Take, d.position.clone(), d.played.clone());
                    judge_beaver_take(&mut j, analysis)?;
                    out.push(j);
                }
            }
            Ok(out)
        })();
        out.push(judged.map_err(|why| failed(d, &why)));
    }
    Ok(out)
}

pub(super) fn failed(d: &FileDecision, why: &JudgeError) -> Failed {
    Failed {
        game: d.game,
        number: d.number,
        why: why.to_string(),
    }
}

/// The decisions of each piece gnubg is handed: a run of the list each,
/// the runs in order and covering the list; `None` when the pieces do not
/// follow the decisions (nothing gnubg reads covers the first ones, or the
/// games are in another order), and no run is ever sliced backwards.
pub(crate) fn piece_runs(
    decisions: &[FileDecision],
    pieces: &[Piece],
) -> Option<Vec<(usize, Range<usize>)>> {
    let firsts: Vec<usize> = pieces
        .iter()
        .map(|p| decisions.partition_point(|d| (d.game, d.number) < (p.game, p.first)))
        .collect();
    let ordered = decisions.is_sorted_by_key(|d| (d.game, d.number)) && firsts.is_sorted();
    if firsts.first() != Some(&0) || !ordered {
        return None;
    }
    let runs = pieces
        .iter()
        .zip(&firsts)
        .enumerate()
        .map(|(k, (p, &first))| {
            let end = firsts.get(k + 1).copied().unwrap_or(decisions.len());
            (p.game, first..end)
        })
        .collect();
    Some(runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bgedit_core::domain::MatchState;

    fn position(
        score: [u16; 2],
        length: u16,
        crawford: bool,
        cube_log2: u8,
        owner: CubeOwner,
    ) -> Position {
        let mut state = MatchState {
            match_length: length,
            crawford,
            cube_log2,
            cube_owner: owner,
            ..MatchState::default()
        };
        state.score = score;
        // The player on roll is O throughout.
        state.on_roll = Player::O;
        state.turn = Player::O;
        Position {
            board: Board::starting(),
            state,
            names: Default::default(),
        }
    }

    #[test]
    fn the_cube_is_available_as_gnubg_says() {
        let c = CubeOwner::Centred;
        assert!(may_double(&position([0, 0], 7, false, 0, c)));
        // Crawford, a dead cube, and the leader post-Crawford.
        assert!(!may_double(&position([6, 0], 7, true, 0, c)));
        assert!(!may_double(&position([5, 0], 7, false, 1, c)));
        assert!(may_double(&position([0, 6], 7, false, 0, c)));
        assert!(!may_double(&position([6, 0], 7, false, 0, c)));
        // The opponent's cube.
        assert!(!may_double(&position(
            [0, 0],
            0,
            false,
            1,
            CubeOwner::Owned(Player::X)
        )));
        assert!(may_double(&position(
            [0, 0],
            0,
            false,
            1,
            CubeOwner::Owned(Player::O)
        )));
    }
}
