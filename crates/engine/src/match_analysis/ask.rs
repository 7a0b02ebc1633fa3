//! One decision asked of an engine and judged (`judge.rs`): the cube
//! before the roll and the checker play, the double, the take, each asked
//! as its own request. Used where no whole game is handed over (an engine
//! that does not read whole games, a game whose records part from the
//! file's) and for a quiz's answer; no thread is started here.

use super::JudgeError;
use super::judge::{
    Judged, Task, after_move, judge_beaver_take, judge_checker, judge_cube, judge_take,
};
use crate::{Analysis, Engine, Request, time_limit_for};
use bgedit_core::codec::match_file::FileDecision;
use bgedit_core::domain::Position;
use bgedit_core::domain::match_stats::{CubePlay, DecisionKind};

/// Judges decision `d` (0, 1 or 2 judgements: the cube before a roll comes
/// first).
pub(super) fn judge(
    engine: &mut dyn Engine,
    d: &FileDecision,
    double: Option<&FileDecision>,
    task: Task,
    plies: u8,
    id: u64,
) -> Result<Vec<Judged>, JudgeError> {
    // One decision of the match: its share of a match's time.
    let limit = time_limit_for(plies, 1);
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

/// Decision `i` judged on its own.
pub(super) fn judge_at(
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
