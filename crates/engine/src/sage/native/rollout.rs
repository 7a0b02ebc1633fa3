//! Sage's rollout in-process: the request put to the core as the bridge
//! (`assets/sage_bridge.py`) puts it to bgsage, and its progress, stop and
//! answer given as the bridge gives them: a tick at once, the moves rolled
//! out so far about every `chunk_ms`, a stop asked for between any two polls
//! (Sage ends after the trials in hand), and, stopped, the moves rolled out
//! by then — or, with none yet, the evaluation at the depth asked for.

use super::super::super::answer::{Analysis, Reply, Rollout};
use super::super::super::failure::EngineError;
use super::super::super::request::{MAX_PLIES, Request, RolloutSettings};
use super::super::super::spec::Capabilities;
use super::{Core, answer_line, cube_line, dice_of, ffi, nested, read, sage, state_of};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Rolls `req` out in-process; `progress` as `Engine::rollout` has it.
pub(super) fn run(
    core: &Core,
    req: &Request,
    settings: &RolloutSettings,
    threads: u8,
    progress: &mut dyn FnMut(&Rollout, Option<&Analysis>) -> bool,
) -> Result<Analysis, EngineError> {
    let v = super::super::request_value(req, Some((settings, threads)));
    let state = state_of(&v, req.plies);
    let ro = shim_settings(settings, threads);
    let taking = v["double"].as_bool() == Some(true);
    let job = match dice_of(&v) {
        Some(dice) if !taking => ffi::RolloutJob::Moves(state, dice, ro),
        _ => ffi::RolloutJob::Cube(state, ro),
    };
    let info = Info {
        settings,
        started: Instant::now(),
    };
    let chunk = Duration::from_millis(u64::from(settings.chunk_ms.max(50)));
    let mut next_chunk = Instant::now();
    let mut watch = |t: &ffi::Ticks| {
        let (done, of) = t.progress();
        let so_far = info.rollout(done, of, false);
        if Instant::now() >= next_chunk {
            next_chunk = Instant::now() + chunk;
            if let Some(partial) = partial(&t.finished(), &so_far, req) {
                return progress(&so_far, Some(&partial));
            }
        }
        progress(&so_far, None)
    };
    let end = core
        .0
        .rollout(job, Capabilities::STOP_POLL, &mut watch)
        .map_err(sage)?;
    let whole = ro.trials;
    let mut line = match end {
        ffi::RolloutEnd::Moves(moves) => {
            let k = if req.moves == 0 {
                moves.len()
            } else {
                req.moves
            };
            let list: Vec<Value> = moves.iter().take(k).map(final_entry).collect();
            json!({"kind": "moves", "moves": list, "rollout": info.json(whole, whole, false)})
        }
        ffi::RolloutEnd::Cube(c) => {
            // The bridge's rollout answers the cube even where the position
            // has no cube action.
            let mut asked = v.clone();
            asked["no_cube"] = json!(false);
            let mut line = cube_line(&c.cube, &asked, taking, "Rollout");
            let mut r = info.json(whole, whole, false);
            r["no_double_se"] = json!(c.no_double_se);
            r["double_take_se"] = json!(c.double_take_se);
            line["rollout"] = r;
            line
        }
        ffi::RolloutEnd::Stopped(moves, (done, of)) => {
            stopped(core, req, &moves, info.json(done, of, true))?
        }
    };
    line["id"] = json!(req.id);
    line["plies"] = json!(req.plies.min(MAX_PLIES));
    read(&line, req)
}

/// bgedit's settings as the bridge hands them to bgsage.
fn shim_settings(settings: &RolloutSettings, threads: u8) -> ffi::RolloutSettings {
    ffi::RolloutSettings {
        trials: i32::try_from(settings.trials.max(1)).unwrap_or(i32::MAX),
        truncate: i32::from(settings.truncate),
        ply: i32::from(settings.plies.min(MAX_PLIES)) + 1,
        threads: i32::from(threads),
        // The shim takes up to 64 (bgsage's filter keeps at most that many
        // within its window in any position bgedit has met).
        candidates: i32::try_from(settings.candidates.clamp(1, 64)).unwrap_or(64),
        seed: settings.seed,
        truncation_ply: settings
            .truncate_plies
            .map_or(-1, |p| i32::from(p.min(MAX_PLIES)) + 1),
    }
}

/// The rollout's description, as the bridge's `info` writes it.
struct Info<'a> {
    settings: &'a RolloutSettings,
    started: Instant,
}

impl Info<'_> {
    fn json(&self, done: i32, of: i32, stopped: bool) -> Value {
        let s = self.settings;
        let total = s.trials.max(1);
        // Trials in one candidate's count, as the bridge counts them.
        let share = i64::from(done.max(0)) * i64::from(total) / i64::from(of.max(1));
        json!({"trials": u32::try_from(share).unwrap_or(u32::MAX).min(total), "of": total,
               "seed": s.seed, "truncate": s.truncate,
               "truncate_plies": s.truncate_plies.unwrap_or(s.plies).min(MAX_PLIES),
               "plies": s.plies.min(MAX_PLIES),
               "cubeful": true, "vr": false, "quasi": false,
               "elapsed": self.started.elapsed().as_secs_f64(), "stopped": stopped})
    }

    fn rollout(&self, done: i32, of: i32, stopped: bool) -> Rollout {
        let s = self.settings;
        serde_json::from_value(self.json(done, of, stopped)).unwrap_or(Rollout {
            trials: 0,
            of: s.trials,
            seed: s.seed,
            truncate: s.truncate,
            truncate_plies: Some(s.truncate_plies.unwrap_or(s.plies).min(MAX_PLIES)),
            plies: s.plies,
            cubeful: true,
            vr: false,
            quasi: false,
            elapsed: 0.0,
            threads: None,
            reproducible: true,
            stopped,
            no_double_se: None,
            double_take_se: None,
        })
    }
}

/// A move as the bridge writes one rolled out so far (`partial_moves`).
fn partial_entry(m: &ffi::Rolled) -> Value {
    json!({"board": m.board.to_vec(), "equity": m.equity, "probs": m.probs,
           "level": "Rollout", "std_error": m.std_error})
}

/// A move of the finished list as the bridge writes it (`move_entry`).
fn final_entry(m: &ffi::Rolled) -> Value {
    let mut e = json!({"board": m.board.to_vec(), "equity": m.equity,
                       "probs": nested(m.probs)});
    if m.level == 0 {
        e["level"] = json!("Rollout");
    } else {
        e["level"] = json!(format!("{}-ply", m.level));
        e["plies"] = json!(m.level - 1);
    }
    if m.std_error >= 0.0 {
        e["std_error"] = json!(m.std_error);
    }
    e
}

/// The answer so far, once a move is rolled out.
fn partial(moves: &[ffi::Rolled], so_far: &Rollout, req: &Request) -> Option<Analysis> {
    if moves.is_empty() {
        return None;
    }
    let list: Vec<Value> = moves.iter().map(partial_entry).collect();
    let line = json!({"id": req.id, "kind": "moves", "moves": list, "partial": true,
                      "rollout": so_far, "plies": req.plies.min(MAX_PLIES)});
    match super::super::parse_line(&line.to_string(), req) {
        Ok(Reply::Progress(_, a)) => Some(a),
        _ => None,
    }
}

/// A stopped rollout's answer: the moves rolled out, else the evaluation at
/// the depth asked for (its moves marked as a stopped rollout).
fn stopped(
    core: &Core,
    req: &Request,
    moves: &[ffi::Rolled],
    rollout: Value,
) -> Result<Value, EngineError> {
    if !moves.is_empty() {
        let list: Vec<Value> = moves.iter().map(partial_entry).collect();
        return Ok(json!({"kind": "moves", "moves": list, "rollout": rollout}));
    }
    let mut line = answer_line(core, req)?;
    if line["kind"] == "moves" {
        line["rollout"] = rollout;
    }
    Ok(line)
}
