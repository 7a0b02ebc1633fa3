//! A whole match analysed by gnubg, decision by decision, as gnubg's own
//! `analyse match` does it (analysis.c `AnalyzeMove`): the cube before each
//! roll where the roller could double, every checker play, every double,
//! take and drop; each decision's equity lost in gnubg's normalised units
//! and in MWC (or points), and its mark. Decisions are shared out to J gnubg
//! processes and handed back in match order.
//!
//! The counting into per-player statistics is `domain::match_stats`; a
//! quiz answer is graded by the same judging in `quiz.rs`.

pub mod annotate;
mod error;
mod quiz;
mod replayed;
pub mod report;

pub use error::{JudgeError, NoLuck};
pub use quiz::{QuizAnswer, check_answer, grade, grade_with};
pub use replayed::ReplayedMatch;
pub use report::Report;

use super::gnubg_match::{CubeRecord, GameAnswer, GamesRequest, MatchForGnubg, Piece, Record};
use super::luck::MatchLuck;
use super::request::no_cube_action;
use super::scale::Scale;
use super::{
    Analysis, Engine, EngineError, EngineErrorKind, Request, StartRecord, Waiter, time_limit,
};
use bgedit_core::codec::match_file::FileDecision;
use bgedit_core::codec::{gnubg_id, position_id};
use bgedit_core::domain::cube_decision;
use bgedit_core::domain::match_stats::{CubeError, CubePlay, DecisionKind, Judgement};
use bgedit_core::domain::moves::{self, check_move};
use bgedit_core::domain::notation;
use bgedit_core::domain::{Board, CubeOwner, Player, Position};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

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
}

/// What to ask for one decision of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
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
fn plan(decisions: &[FileDecision]) -> Vec<Option<Task>> {
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

/// Judges decision `d` (0, 1 or 2 judgements: the cube before a roll comes
/// first).
fn judge(
    engine: &mut dyn Engine,
    d: &FileDecision,
    double: Option<&FileDecision>,
    task: Task,
    plies: u8,
    id: u64,
) -> Result<Vec<Judged>, JudgeError> {
    let limit = time_limit(plies, Waiter::Batch);
    let ask = |engine: &mut dyn Engine, position: &Position| -> Result<Analysis, JudgeError> {
        let req = Request {
            id,
            position: position.clone(),
            plies,
            moves: 0,
        };
        Ok(engine.analyse(&req, limit)?)
    };
    let base =
        |kind, position: Position, played: String| Judged::unjudged(d, kind, position, played);
    let mut out = Vec::new();
    match task {
        Task::Checker { cube_first } => {
            if cube_first {
                let mut before = d.position.clone();
                before.state.dice = None;
                let analysis = ask(engine, &before)?;
                let mut j = base(DecisionKind::Cube, before, CubePlay::NoDouble.word().into());
                judge_cube(&mut j, CubePlay::NoDouble, analysis)?;
                out.push(j);
            }
            let req = Request {
                id,
                position: d.position.clone(),
                plies,
                moves: 0,
            };
            let after = after_move(&d.position, &d.played);
            let analysis = engine.analyse_played(&req, after.as_deref().unwrap_or(""), limit)?;
            let mut j = base(DecisionKind::Checker, d.position.clone(), d.played.clone());
            judge_checker(&mut j, after.as_deref(), &d.position, analysis)?;
            out.push(j);
        }
        Task::Double => {
            let analysis = ask(engine, &d.position)?;
            let mut j = base(DecisionKind::Cube, d.position.clone(), d.played.clone());
            judge_cube(&mut j, CubePlay::Double, analysis)?;
            out.push(j);
        }
        Task::Answer(play) => {
            let analysis = ask(engine, &d.position)?;
            let mut j = base(DecisionKind::Take, d.position.clone(), d.played.clone());
            judge_take(&mut j, play, analysis)?;
            out.push(j);
        }
        Task::BeaverTake(_) => {
            let double = double.ok_or(JudgeError::NoBeaverDouble)?;
            let analysis = ask(engine, &double.position)?;
            let mut j = base(DecisionKind::Take, d.position.clone(), d.played.clone());
            judge_beaver_take(&mut j, analysis)?;
            out.push(j);
        }
    }
    Ok(out)
}

/// The Position ID after `played` (gnubg's notation), with the opponent on
/// roll, as the bridge keys each move of its list.
fn after_move(position: &Position, played: &str) -> Option<String> {
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

fn judge_checker(
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
fn judge_cube(j: &mut Judged, play: CubePlay, analysis: Analysis) -> Result<(), JudgeError> {
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
fn judge_take(j: &mut Judged, play: CubePlay, analysis: Analysis) -> Result<(), JudgeError> {
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
fn judge_beaver_take(j: &mut Judged, analysis: Analysis) -> Result<(), JudgeError> {
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
        .map(|m| super::MoveLine {
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
/// gnubg's records do not follow them.
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
fn judge_game(
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

/// How a run is made.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The engine that judges (gnubg, or Open Sage) and its program (gnubg,
    /// or the Python that has bgsage).
    pub engine: super::EngineKind,
    pub program: PathBuf,
    pub plies: u8,
    pub jobs: usize,
    /// Rate the luck of the dice too (gnubg, whole games only).
    pub luck: bool,
    /// The engines a batch keeps from one run to the next (`library
    /// analyse`, a run a match); none: the run starts its own and stops
    /// them at the end.
    pub engines: Option<super::pool::Engines>,
    /// The fewest runs of pieces a match is cut into: `jobs` (the default)
    /// so that a match alone keeps every job busy; 1 in a batch while other
    /// matches wait for the engines, so each request is as large as its
    /// depth allows (every request costs gnubg a load and a wait).
    pub min_runs: Option<usize>,
}

impl RunOptions {
    /// The record of starts this run's engines share.
    fn starts(&self) -> StartRecord {
        self.engines
            .as_ref()
            .map_or_else(StartRecord::batch, |e| e.starts())
    }

    /// An engine for one job: the batch's, or a new one.
    fn open(&self, starts: &StartRecord) -> Box<dyn Engine> {
        match &self.engines {
            Some(kept) => kept.take(self.engine, &self.program),
            None => self
                .engine
                .spec()
                .open(self.program.clone(), starts.clone()),
        }
    }

    /// A job's engine at the end of the run: kept for the batch's next.
    fn done_with(&self, engine: Box<dyn Engine>) {
        if let Some(kept) = &self.engines {
            kept.keep(engine);
        }
    }
}

/// One decision's outcome, in match order: its judgements (none for what
/// gnubg does not judge), or why gnubg could not answer.
pub type Outcome = Result<Vec<Judged>, Failed>;

/// Analyses `decisions` with `opts.jobs` engine processes, handing each
/// decision's outcome to `each` in match order (with its index) as soon as
/// it and those before it are done. `stop` ends the run early (the work
/// under way finishes first).
///
/// With gnubg and the match itself (`whole`), gnubg analyses whole games
/// (`engine::gnubg_match`), the games shared out to the processes; a game
/// whose records do not follow the file's decisions is judged decision by
/// decision. Otherwise (Sage, or positions without a match) each decision
/// is asked on its own.
pub fn run(
    decisions: &[FileDecision],
    opts: &RunOptions,
    whole: Option<&MatchForGnubg>,
    stop: &AtomicBool,
    each: &mut dyn FnMut(usize, Outcome),
) -> Ran {
    let tasks = plan(decisions);
    match whole {
        Some(m) if opts.engine == super::EngineKind::Gnubg => {
            let mut pieces = Pieces {
                wanted: &|_| true,
                done: &mut |_, _| {},
            };
            by_games(decisions, &tasks, opts, m, stop, each, &mut pieces)
        }
        _ => {
            let gave_up = by_decisions(decisions, &tasks, opts, stop, each);
            Ran {
                luck: opts.luck.then_some(Err(NoLuck::NotAMatch)),
                apart: Vec::new(),
                gave_up,
            }
        }
    }
}

/// The pieces of a match (`piece_runs`: a game, or part of one) gnubg is
/// to analyse whole, and what is told as each is done.
pub struct Pieces<'a> {
    /// Whether piece `k` (its place in the match) is asked; the others'
    /// decisions get no outcome.
    pub wanted: &'a dyn Fn(usize) -> bool,
    /// Piece `k` done, its outcomes handed on: each player's luck in it
    /// (O's, X's; gnubg's statistics of the piece), none when the luck was
    /// not asked or not answered.
    pub done: &'a mut dyn FnMut(usize, Option<[f64; 2]>),
}

/// The pieces `pieces.wanted` of `decisions` (a whole match's) analysed
/// whole by gnubg as [`run`] does them, the outcomes handed to `each` with
/// their index in `decisions`: a match stopped part way resumed a piece
/// at a time, each piece asked as the uninterrupted run asks it, so its
/// verdicts and luck are that run's. `None` when gnubg cannot be asked
/// whole games (another engine, no match, or pieces that do not follow
/// the decisions).
pub(crate) fn run_pieces(
    decisions: &[FileDecision],
    opts: &RunOptions,
    whole: Option<&MatchForGnubg>,
    stop: &AtomicBool,
    each: &mut dyn FnMut(usize, Outcome),
    pieces: &mut Pieces<'_>,
) -> Option<Ran> {
    let m = whole.filter(|_| opts.engine == super::EngineKind::Gnubg)?;
    piece_runs(decisions, m.pieces())?;
    Some(by_games(
        decisions,
        &plan(decisions),
        opts,
        m,
        stop,
        each,
        pieces,
    ))
}

/// How a run went, beside the outcomes.
#[derive(Debug, Default)]
pub struct Ran {
    /// The luck of the dice, when asked: gnubg's for every game, or why not.
    pub luck: Option<Result<MatchLuck, NoLuck>>,
    /// The games judged decision by decision although gnubg analysed whole
    /// games, and why (gnubg's records did not follow the file's, or gnubg
    /// failed on the game).
    pub apart: Vec<(usize, String)>,
    /// Why the engine was given up part way (it hung, or failed again and
    /// again), when it was: the decisions after it were not asked.
    pub gave_up: Option<EngineError>,
}

/// Decision `i` judged on its own.
fn judge_at(
    engine: &mut dyn Engine,
    decisions: &[FileDecision],
    tasks: &[Option<Task>],
    i: usize,
    plies: u8,
) -> Result<Vec<Judged>, JudgeError> {
    let d = &decisions[i];
    match tasks[i] {
        None => Ok(Vec::new()),
        Some(task) => {
            let double = match task {
                Task::BeaverTake(at) => decisions.get(at),
                _ => None,
            };
            judge(engine, d, double, task, plies, i as u64 + 1)
        }
    }
}

fn failed(d: &FileDecision, why: &JudgeError) -> Failed {
    Failed {
        game: d.game,
        number: d.number,
        why: why.to_string(),
    }
}

/// The engine is not there: every later request would fail the same way.
fn cannot_start(why: &JudgeError) -> bool {
    matches!(why, JudgeError::Engine(e) if e.engine_missing())
}

/// Hands outcomes on in order as they come, by index.
fn in_order<T>(rx: std::sync::mpsc::Receiver<(usize, T)>, mut each: impl FnMut(usize, T)) {
    let mut waiting = std::collections::BTreeMap::new();
    let mut due = 0;
    for (i, item) in rx {
        waiting.insert(i, item);
        while let Some(item) = waiting.remove(&due) {
            each(due, item);
            due += 1;
        }
    }
}

/// Each decision asked of the engine on its own, shared out to the jobs;
/// why the engine was given up, if it was.
fn by_decisions(
    decisions: &[FileDecision],
    tasks: &[Option<Task>],
    opts: &RunOptions,
    stop: &AtomicBool,
    each: &mut dyn FnMut(usize, Outcome),
) -> Option<EngineError> {
    let next = AtomicUsize::new(0);
    let starts = opts.starts();
    let (tx, rx) = channel::<(usize, Outcome)>();
    let jobs = opts.jobs.clamp(1, decisions.len().max(1));
    let broken = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, starts, broken) = (&next, starts.clone(), &broken);
            scope.spawn(move || {
                let mut engine = opts.open(&starts);
                while !(stop.load(Ordering::Relaxed) || broken.load(Ordering::Relaxed)) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(d) = decisions.get(i) else { break };
                    let outcome =
                        judge_at(&mut *engine, decisions, tasks, i, opts.plies).map_err(|why| {
                            if cannot_start(&why) || starts.given_up().is_some() {
                                broken.store(true, Ordering::Relaxed);
                            }
                            failed(d, &why)
                        });
                    if tx.send((i, outcome)).is_err() {
                        break;
                    }
                }
                opts.done_with(engine);
            });
        }
        drop(tx);
        in_order(rx, each);
    });
    given_up(opts, &starts)
}

/// The engine given up by a batch, as its error.
fn given_up(opts: &RunOptions, starts: &StartRecord) -> Option<EngineError> {
    starts
        .given_up()
        .map(|why| EngineError::new(opts.engine, EngineErrorKind::Unanswered(why)))
}

/// What a piece's request gave: its outcomes, gnubg's answer for it, and
/// why it was judged decision by decision, when it was.
type PieceDone = (Vec<Outcome>, Result<GameAnswer, JudgeError>, Option<String>);

/// Decisions of pieces asked in one request, about, at each depth: 0-ply
/// takes some 1 ms a decision, so that gnubg's wait of up to 25 ms after
/// each request (see `MatchForGnubg::write_pieces`) is a few per cent of
/// it; from 2-ply on, a piece is seconds of work and goes alone, so that a
/// run stopped part way loses little.
const CHUNK: [usize; 4] = [240, 48, 0, 0];

/// The pieces `asked` (places in `games`) cut into runs asked one request
/// each (ranges of `asked`): about [`CHUNK`] decisions, and at least as
/// many runs as jobs, of about equal decisions (each piece goes to the run
/// its middle falls in), so that every job has its share.
fn chunks(
    asked: &[usize],
    games: &[(usize, Range<usize>)],
    jobs: usize,
    plies: u8,
) -> Vec<Range<usize>> {
    let target = CHUNK[usize::from(plies.min(3))];
    if target == 0 {
        return (0..asked.len()).map(|k| k..k + 1).collect();
    }
    let sizes: Vec<usize> = asked.iter().map(|&g| games[g].1.len()).collect();
    let total: usize = sizes.iter().sum::<usize>().max(1);
    let runs = total.div_ceil(target).max(jobs).min(asked.len()).max(1);
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut before = 0;
    for (k, size) in sizes.iter().enumerate() {
        // The run this piece's middle falls in (in half decisions, so that
        // the middle of an odd piece is whole).
        let run = ((2 * before + size) * runs) / (2 * total);
        before += size;
        let open = out.len();
        match out.last_mut() {
            Some(last) if open > run => last.end = k + 1,
            _ => out.push(k..k + 1),
        }
    }
    out
}

/// Whole games analysed by gnubg, shared out to the jobs a run of pieces
/// at a time ([`chunks`]), each piece's outcomes handed on in match order.
fn by_games(
    decisions: &[FileDecision],
    tasks: &[Option<Task>],
    opts: &RunOptions,
    whole: &MatchForGnubg,
    stop: &AtomicBool,
    each: &mut dyn FnMut(usize, Outcome),
    pieces: &mut Pieces<'_>,
) -> Ran {
    let Some(games) = piece_runs(decisions, whole.pieces()) else {
        // The match is not the decisions' (nothing gnubg reads covers them
        // in order): each is asked on its own.
        let gave_up = by_decisions(decisions, tasks, opts, stop, each);
        return Ran {
            luck: opts.luck.then_some(Err(NoLuck::NotTheDecisions)),
            apart: Vec::new(),
            gave_up,
        };
    };
    // The pieces asked, by their place in the match (gnubg's index).
    let asked: Vec<usize> = (0..games.len()).filter(|&g| (pieces.wanted)(g)).collect();
    let runs = chunks(
        &asked,
        &games,
        opts.min_runs.unwrap_or(opts.jobs).max(1),
        opts.plies,
    );
    let copies: Result<Vec<_>, _> = runs
        .iter()
        .map(|r| whole.write_pieces(&asked[r.clone()]))
        .collect();
    let copies = match copies {
        Ok(c) => c,
        Err(why) => {
            let gave_up = by_decisions(decisions, tasks, opts, stop, each);
            return Ran {
                luck: opts.luck.then_some(Err(NoLuck::Copy(why))),
                apart: Vec::new(),
                gave_up,
            };
        }
    };
    let next = AtomicUsize::new(0);
    let starts = opts.starts();
    let (tx, rx) = channel::<(usize, PieceDone)>();
    let jobs = opts.jobs.clamp(1, runs.len().max(1));
    let broken = AtomicBool::new(false);
    let mut luck = opts.luck.then(|| Ok(MatchLuck::default()));
    let mut apart = Vec::new();
    let work = Work {
        decisions,
        tasks,
        opts,
        games: &games,
        asked: &asked,
        broken: &broken,
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, starts, runs, copies, work) = (&next, starts.clone(), &runs, &copies, &work);
            scope.spawn(move || {
                let mut engine = JobEngine {
                    opts,
                    starts: &starts,
                    engine: None,
                };
                'work: while !(stop.load(Ordering::Relaxed) || work.broken.load(Ordering::Relaxed))
                {
                    let r = next.fetch_add(1, Ordering::Relaxed);
                    let (Some(run), Some(copy)) = (runs.get(r), copies.get(r)) else {
                        break;
                    };
                    let answers = work.request(engine.get(), run.clone(), copy.path());
                    if next.load(Ordering::Relaxed) >= runs.len() {
                        // Nothing left to ask: the engine goes on to the
                        // next match while this job judges.
                        engine.release();
                    }
                    let pieces = work.asked[run.clone()].iter().zip(answers);
                    for (k, (&g, answer)) in run.clone().zip(pieces) {
                        // Given up on: the run's later pieces are not asked.
                        if work.broken.load(Ordering::Relaxed) {
                            break 'work;
                        }
                        let piece = work.judge_piece(&mut engine, g, answer);
                        if tx.send((k, piece)).is_err() {
                            break 'work;
                        }
                    }
                }
            });
        }
        drop(tx);
        in_order(rx, |k, (outcomes, answer, why): PieceDone| {
            let g = asked[k];
            let (number, range) = &games[g];
            for (i, o) in range.clone().zip(outcomes) {
                each(i, o);
            }
            apart.extend(why.map(|w| (*number, w)));
            let piece_luck = answer.as_ref().ok().filter(|_| opts.luck).map(|a| {
                // As `MatchLuck::add_game` adds it: nothing for a player
                // gnubg leaves out.
                let of = |p: Player| a.players.get(&p.to_string()).map_or(0.0, |l| l.luck);
                [of(Player::O), of(Player::X)]
            });
            (pieces.done)(g, piece_luck);
            luck = match (luck.take(), answer) {
                (Some(Ok(mut l)), Ok(a)) => {
                    l.add_game(*number, &a);
                    Some(Ok(l))
                }
                (Some(Ok(_)), Err(why)) => Some(Err(NoLuck::Game(*number, why))),
                (other, _) => other,
            };
        });
    });
    Ran {
        // A run stopped early has the luck of some games only.
        luck: luck.filter(|_| !stop.load(Ordering::Relaxed)),
        apart,
        gave_up: given_up(opts, &starts),
    }
}

/// A job's engine: taken when first needed, and handed on (to the batch's
/// next run, or stopped) as soon as the job has nothing more to ask.
struct JobEngine<'a> {
    opts: &'a RunOptions,
    starts: &'a StartRecord,
    engine: Option<Box<dyn Engine>>,
}

impl JobEngine<'_> {
    fn get(&mut self) -> &mut dyn Engine {
        &mut **self
            .engine
            .get_or_insert_with(|| self.opts.open(self.starts))
    }

    fn release(&mut self) {
        if let Some(e) = self.engine.take() {
            self.opts.done_with(e);
        }
    }
}

impl Drop for JobEngine<'_> {
    fn drop(&mut self) {
        self.release();
    }
}

/// What every job of [`by_games`] reads.
struct Work<'a> {
    decisions: &'a [FileDecision],
    tasks: &'a [Option<Task>],
    opts: &'a RunOptions,
    /// Each piece's game and decisions.
    games: &'a [(usize, Range<usize>)],
    /// The pieces asked.
    asked: &'a [usize],
    /// Set when gnubg cannot be asked again.
    broken: &'a AtomicBool,
}

impl Work<'_> {
    /// The pieces `asked[run]`, written in the file at `path`, asked of
    /// `engine` in one request; gnubg's answer for each.
    fn request(
        &self,
        engine: &mut dyn Engine,
        run: Range<usize>,
        path: &std::path::Path,
    ) -> Vec<Result<GameAnswer, JudgeError>> {
        let pieces = &self.asked[run];
        let size: usize = pieces.iter().map(|&g| self.games[g].1.len()).sum();
        let req = GamesRequest {
            path,
            count: pieces.len(),
            plies: self.opts.plies,
            luck: self.opts.luck,
        };
        // The pieces' worth of decisions' time.
        let limit = time_limit(self.opts.plies, Waiter::Batch) * (size as u32 + 1);
        let id = GAME_IDS + pieces.first().map_or(0, |&g| g as u64);
        match engine.analyse_games(id, &req, limit) {
            Ok(list) => list.into_iter().map(Ok).collect(),
            Err(why) => vec![Err(JudgeError::from(why)); pieces.len()],
        }
    }

    /// Piece `g` judged from gnubg's `answer` for it; where gnubg's game
    /// and the file's part ways, each decision asked on its own.
    fn judge_piece(
        &self,
        engine: &mut JobEngine<'_>,
        g: usize,
        answer: Result<GameAnswer, JudgeError>,
    ) -> PieceDone {
        let (decisions, tasks, plies) = (self.decisions, self.tasks, self.opts.plies);
        let range = self.games[g].1.clone();
        let judged = match &answer {
            Ok(a) => judge_game(decisions, range.clone(), tasks, a, plies),
            // gnubg cannot be started, or hung: asking each decision would
            // only fail the same way, slowly.
            Err(why) if cannot_start(why) || engine.starts.given_up().is_some() => {
                self.broken.store(true, Ordering::Relaxed);
                Ok(decisions[range.clone()]
                    .iter()
                    .map(|d| Err(failed(d, why)))
                    .collect())
            }
            Err(why) => Err(why.clone()),
        };
        let (outcomes, apart) = match judged {
            Ok(o) => (o, None),
            Err(why) => (
                range
                    .map(|i| {
                        judge_at(engine.get(), decisions, tasks, i, plies)
                            .map_err(|why| failed(&decisions[i], &why))
                    })
                    .collect(),
                Some(why.to_string()),
            ),
        };
        (outcomes, answer, apart)
    }
}

/// The decisions of each piece gnubg is handed: a run of the list each,
/// the runs in order and covering the list; `None` when the pieces do not
/// follow the decisions (nothing gnubg reads covers the first ones, or the
/// games are in another order), and no run is ever sliced backwards.
pub fn piece_runs(
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

/// Request ids of games, apart from those of single decisions (their
/// index + 1) that a fallback asks on the same process.
const GAME_IDS: u64 = 1 << 40;

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

    /// Pieces of `sizes` decisions, all asked, as `by_games` sees them.
    fn pieces_of(sizes: &[usize]) -> (Vec<usize>, Vec<(usize, Range<usize>)>) {
        let mut at = 0;
        let games = sizes
            .iter()
            .map(|&n| {
                at += n;
                (1, at - n..at)
            })
            .collect();
        ((0..sizes.len()).collect(), games)
    }

    #[test]
    fn pieces_are_asked_in_runs_that_share_the_work_out() {
        let (asked, games) = pieces_of(&[24, 24, 24, 24, 24, 24, 24, 24, 9]);
        let decisions = |r: &Range<usize>| -> usize { r.clone().map(|k| games[k].1.len()).sum() };
        // 0-ply, one job: the match's 201 decisions in one request.
        assert_eq!(chunks(&asked, &games, 1, 0), vec![0..9]);
        // Two jobs: two runs of about equal work, in order, covering all.
        let two = chunks(&asked, &games, 2, 0);
        assert_eq!(two.len(), 2);
        assert_eq!((two[0].start, two[0].end, two[1].end), (0, two[1].start, 9));
        assert!(
            decisions(&two[0]).abs_diff(decisions(&two[1])) <= 24,
            "{two:?}"
        );
        // More decisions than a request's share: more runs than jobs.
        let (asked, games) = pieces_of(&[24; 30]);
        assert_eq!(chunks(&asked, &games, 1, 0).len(), 3);
        // From 2-ply on, each piece alone; never more runs than pieces.
        assert_eq!(chunks(&asked, &games, 1, 2).len(), 30);
        let (asked, games) = pieces_of(&[5]);
        assert_eq!(chunks(&asked, &games, 4, 0), vec![0..1]);
        assert!(chunks(&[], &games, 2, 0).is_empty());
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
