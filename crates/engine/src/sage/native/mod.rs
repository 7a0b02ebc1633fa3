//! Open Sage inside bgedit: its C++ core (vendor/bgsage, built by build.rs)
//! called through `ffi.rs`, the one module with `unsafe`. `--engine sage`
//! opens [`SageEngine`], which loads the core at its first request and
//! answers in-process; where it cannot (a CPU without AVX2/FMA, no bgsage
//! weights, another bgsage version than the one vendored) it runs the
//! Python bridge as before and says why. Its data files are checked before
//! Sage's C++ reads them (`data.rs`): a damaged one is refused, named, and
//! never answered through the bridge instead (whose Sage reads the same
//! files). Rollouts run in-process too
//! (`rollout.rs`), with the bridge's progress and stop.
//!
//! The weights and bear-off database are not built in: they are read from
//! the installed `bgsage` package (its Python is asked once where they are),
//! or from `--sage-data DIR` (a copy of the package's `_assets`: `models/`,
//! `data/`).
//!
//! A request is put to the core as it is written for the bridge
//! (`super::request_value`), and the core's answer is written as the
//! bridge's line and read by the bridge's reader (`super::parse_line`): the
//! two roads name moves, word cube actions and check numbers the same way.

mod data;
mod ffi;
mod rollout;

use super::super::answer::{Analysis, Reply, Rollout};
use super::super::failure::{
    CoreError, DataError, EngineError, EngineErrorKind, NotHere, OsError, StartRecord,
};
use super::super::process::Process;
use super::super::request::{self, Request, RolloutSettings};
use super::super::spec::Spec;
use super::super::{Engine, EngineKind};
use super::data_dir::VERSION;
pub(crate) use ffi::{NativeError, cpu_supported};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// Where Sage's weights and bear-off data are, and how its networks are
/// laid out.
#[derive(Clone, Debug, PartialEq)]
pub struct Assets {
    pub version: String,
    pub strategy: String,
    pub models: Vec<(PathBuf, i32)>,
    pub bearoff: PathBuf,
}

/// Asks `python` where its bgsage keeps its weights.
const WHERE: &str = r#"
import json
from importlib.metadata import version
from bgsage.weights import default_weights, bearoff_db_path
w = default_weights()
print(json.dumps({"version": version("bgsage"), "strategy": w.strategy_type,
    "paths": [str(p) for p in w.weight_paths_list], "hidden": list(w.hidden_sizes_list),
    "bearoff": bearoff_db_path()}))
"#;

/// Sage's data as `python`'s bgsage has it; asked once per Python a run.
pub(crate) fn assets_from_python(python: &Path) -> Result<Assets, DataError> {
    static ASKED: OnceLock<Mutex<HashMap<PathBuf, Result<Assets, DataError>>>> = OnceLock::new();
    let mut asked = ASKED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    asked
        .entry(python.to_path_buf())
        .or_insert_with(|| ask_python(python))
        .clone()
}

fn ask_python(python: &Path) -> Result<Assets, DataError> {
    let program = || python.to_path_buf();
    let out = std::process::Command::new(python)
        .args(["-c", WHERE])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| DataError::Run {
            program: program(),
            error: OsError::from(&e),
        })?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().last().unwrap_or("it failed").to_owned();
        return Err(DataError::Said {
            program: program(),
            said: bgedit_core::quote::printable(&last).into_owned(),
        });
    }
    let v: Value = serde_json::from_slice(&out.stdout)
        .map_err(|_| DataError::Unsaid { program: program() })?;
    let text = |k: &str| v[k].as_str().map(str::to_owned);
    let (Some(version), Some(strategy), Some(bearoff)) =
        (text("version"), text("strategy"), text("bearoff"))
    else {
        return Err(DataError::NoData { program: program() });
    };
    let paths = v["paths"].as_array().cloned().unwrap_or_default();
    let hidden = v["hidden"].as_array().cloned().unwrap_or_default();
    let models: Vec<(PathBuf, i32)> = paths
        .iter()
        .zip(&hidden)
        .filter_map(|(p, h)| Some((PathBuf::from(p.as_str()?), i32::try_from(h.as_i64()?).ok()?)))
        .collect();
    if models.is_empty() || models.len() != paths.len() || paths.len() != hidden.len() {
        return Err(DataError::Layout { program: program() });
    }
    checked(Assets {
        version,
        strategy,
        models,
        bearoff: PathBuf::from(bearoff),
    })
}

fn checked(a: Assets) -> Result<Assets, DataError> {
    if a.version != VERSION {
        return Err(DataError::Version { found: a.version });
    }
    Ok(a)
}

/// bgsage 2.0.20260907's production model ("stage11", weights.py): 24
/// networks in this order, the first of 100 hidden units, the rest 400.
const STAGE11: [&str; 24] = [
    "sl_s9_purerace",
    "sl_s9_race_race",
    "sl_s9_race_att",
    "sl_s9_race_prim",
    "sl_s9_race_anch",
    "sl_s9_att_race",
    "sl_s9_att_att",
    "sl_s9_att_prim",
    "sl_s9_att_anch",
    "sl_s9_prim_race",
    "sl_s9_prim_att",
    "sl_s9_prim_anch",
    "sl_s9_prim_anch",
    "sl_s9_anch_race",
    "sl_s9_anch_att",
    "sl_s9_prim_anch",
    "sl_s9_prim_anch",
    "sl_s11_bg_deep",
    "sl_s11_bg_middle",
    "sl_s11_bg_double",
    "sl_s11_bg_p3",
    "sl_s11_bg_containment",
    "sl_s11_bg_snake",
    "sl_s11_bg_massive",
];

/// Sage's data in `dir` (a copy of bgsage's `_assets`: `models/*.weights.best`,
/// `data/bearoff_1sided.db`), laid out as bgsage 2.0.20260907 lays it out.
pub(crate) fn assets_from_dir(dir: &Path) -> Result<Assets, DataError> {
    let models: Vec<(PathBuf, i32)> = STAGE11
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let hidden = if i == 0 { 100 } else { 400 };
            (
                dir.join("models").join(format!("{name}.weights.best")),
                hidden,
            )
        })
        .collect();
    let bearoff = dir.join("data").join("bearoff_1sided.db");
    for p in models.iter().map(|(p, _)| p).chain([&bearoff]) {
        if !p.is_file() {
            return Err(DataError::Dir {
                dir: bgedit_core::quote::printable(&dir.display().to_string()).into_owned(),
                missing: p.strip_prefix(dir).unwrap_or(p).to_path_buf(),
            });
        }
    }
    Ok(Assets {
        version: VERSION.to_owned(),
        strategy: "backgame_pair_phased".to_owned(),
        models,
        bearoff,
    })
}

/// Sage's core loaded from `assets`, each file checked first (`data.rs`):
/// a damaged one is refused, named, before Sage's code reads it.
fn load(assets: &Assets) -> Result<Core, EngineErrorKind> {
    data::check(assets).map_err(EngineErrorKind::Data)?;
    ffi::Core::open(&assets.strategy, &assets.models, &assets.bearoff)
        .map(Core)
        .map_err(|e| EngineErrorKind::Core(e.into()))
}

/// Sage's core, loaded.
pub struct Core(ffi::Core);

/// What became of one of Sage's data files read as bgedit reads them (the
/// fuzz targets' way into Sage's loaders).
#[cfg(feature = "internals")]
#[derive(Debug)]
pub enum Probed {
    /// bgedit's check refused it (Sage's code never saw it).
    Refused(super::super::failure::DataFault),
    /// The check let it through, and Sage, given it, answered these
    /// chances.
    Answered([f64; 5]),
    /// The check let it through; Sage's core is not here to be asked.
    NoCore,
}

/// The bytes of a network file of `hidden` units and `inputs` inputs
/// (`net`), or of the bear-off database (`None`), read as bgedit reads
/// Sage's data: checked, then (written to `scratch`) loaded by Sage's own
/// loader and used. An error is Sage failing on a file the check let
/// through: a hole in the check.
#[cfg(feature = "internals")]
pub fn probe(bytes: &[u8], net: Option<(i32, i32)>, scratch: &Path) -> Result<Probed, NativeError> {
    let checked = match net {
        Some((hidden, inputs)) => data::check_net(bytes, hidden, inputs),
        None => data::check_bearoff(bytes),
    };
    if let Err(fault) = checked {
        return Ok(Probed::Refused(fault));
    }
    if !ffi::built() || !cpu_supported() {
        return Ok(Probed::NoCore);
    }
    std::fs::write(scratch, bytes).map_err(|e| NativeError::Failed(e.to_string()))?;
    ffi::probe(scratch, net).map(Probed::Answered)
}

/// Why Sage's core could not classify a position's plans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PlansFault {
    NotBuilt,
    Cpu,
    Refused(NativeError),
    Unnamed(i32),
}

/// Each side's game plan of `board`, by Sage's own `classify_game_plan`
/// (the player's from the board, the opponent's from it flipped, as its
/// `classify_game_plans`); only where the core is built in and the CPU
/// runs it.
pub(crate) fn plans(
    board: &bgedit_core::domain::Board,
) -> Result<bgedit_core::domain::game_plan::Plans, PlansFault> {
    use bgedit_core::domain::Player;
    use bgedit_core::domain::game_plan::{GamePlan, Plans};
    if !ffi::built() {
        return Err(PlansFault::NotBuilt);
    }
    if !cpu_supported() {
        return Err(PlansFault::Cpu);
    }
    let (o, x) = ffi::game_plans(&super::to_sage(board, Player::O)).map_err(PlansFault::Refused)?;
    let named = |code| GamePlan::from_code(code).ok_or(PlansFault::Unnamed(code));
    Ok(Plans {
        o: named(o)?,
        x: named(x)?,
    })
}

/// A bear-off database in Sage's layout whose numbers hold together but
/// mean nothing (every position off at once, no gammons): the start the
/// tests and the fuzz target damage.
#[cfg(feature = "internals")]
pub fn sample_bearoff() -> Vec<u8> {
    data::sample_bearoff()
}

/// How an engine answers: in-process, through the bridge (and why), or
/// not at all: its data is refused, and the bridge would read the same.
enum Road {
    Unopened,
    Core(Core),
    Bridge(NotHere),
    Refused(EngineErrorKind),
}

/// Open Sage as an [`Engine`]: in-process when it can be, else the bridge.
pub(crate) struct SageEngine {
    spec: &'static Spec,
    program: PathBuf,
    starts: StartRecord,
    threads: u8,
    road: Road,
    /// The bridge: every request when the core is not there.
    bridge: Option<Process>,
}

/// The engine `--engine sage` opens: `program` is Sage's Python.
pub(crate) fn open(program: PathBuf, starts: StartRecord) -> Box<dyn Engine> {
    Box::new(SageEngine {
        spec: EngineKind::Sage.spec(),
        program,
        starts,
        threads: 0,
        road: Road::Unopened,
        bridge: None,
    })
}

impl SageEngine {
    /// Loads the core at the first request. Data the user named
    /// (`--sage-data`) that is not whole, and data that is damaged
    /// wherever it was found, are refused for this request and every
    /// later one (the bridge would read the same files); a core that is
    /// not here (not built, this CPU, no data found) sends every request
    /// to the bridge, which says why.
    fn ready(&mut self) -> Result<(), EngineError> {
        match &self.road {
            Road::Unopened => {}
            Road::Refused(kind) => return Err(EngineError::new(EngineKind::Sage, kind.clone())),
            Road::Core(_) | Road::Bridge(_) => return Ok(()),
        }
        self.road = self.road_here();
        match &self.road {
            Road::Refused(kind) => Err(EngineError::new(EngineKind::Sage, kind.clone())),
            _ => Ok(()),
        }
    }

    fn road_here(&self) -> Road {
        if std::env::var("BGEDIT_SAGE_BRIDGE").as_deref() == Ok("1") {
            // Asked for (to compare the two roads, or to step around the
            // built-in core).
            return Road::Bridge(NotHere::Asked {
                by: "BGEDIT_SAGE_BRIDGE=1",
            });
        }
        let assets = match super::data_dir::named() {
            Some(dir) => match assets_from_dir(dir) {
                Ok(a) => a,
                Err(e) => return Road::Refused(EngineErrorKind::Data(e)),
            },
            None if !ffi::built() => return Road::Bridge(NotHere::NotBuilt),
            None if !cpu_supported() => return Road::Bridge(NotHere::Cpu { lacks: "AVX2/FMA" }),
            None => match assets_from_python(&self.program) {
                Ok(a) => a,
                Err(e) => return Road::Bridge(NotHere::Data(e)),
            },
        };
        match load(&assets) {
            Ok(core) => Road::Core(core),
            Err(kind) => Road::Refused(kind),
        }
    }

    fn bridge(&mut self) -> &mut Process {
        let (program, starts) = (&self.program, &self.starts);
        let threads = self.threads;
        let p = self.bridge.get_or_insert_with(|| {
            Process::sharing(EngineKind::Sage, program.clone(), starts.clone())
        });
        p.set_threads(threads);
        p
    }

    /// Why the bridge answers, once that is known, in Sage's words.
    pub(crate) fn bridged_because(&self) -> Option<String> {
        match &self.road {
            Road::Bridge(why) => Some(why.said_by(self.spec).to_string()),
            _ => None,
        }
    }
}

impl Engine for SageEngine {
    fn kind(&self) -> EngineKind {
        EngineKind::Sage
    }

    /// The version, and which road: the panel's header shows it
    /// (`bgsage 2.0.20260907 in-process`, `… via Python (why)`).
    fn version(&self) -> Option<String> {
        let v = match &self.road {
            Road::Core(_) => return Some(format!("{VERSION} in-process")),
            _ => self.bridge.as_ref().and_then(|b| b.version())?,
        };
        Some(match self.bridged_because() {
            Some(why) => format!("{v} via Python ({})", bgedit_core::quote::printable(&why)),
            None => format!("{v} via Python"),
        })
    }

    fn in_process(&self) -> bool {
        matches!(self.road, Road::Core(_))
    }

    fn set_threads(&mut self, threads: u8) {
        self.threads = threads;
    }

    fn warm_up(&mut self) -> Result<(), EngineError> {
        self.ready()?;
        match self.road {
            Road::Core(_) => Ok(()),
            _ => self.bridge().warm_up(),
        }
    }

    /// Loads the core (asking Sage's Python where its data is, once) but
    /// never starts the bridge.
    fn ready_in_process(&mut self) -> Result<(), EngineError> {
        self.ready()?;
        let why = match &self.road {
            Road::Core(_) => return Ok(()),
            Road::Bridge(why) => why.clone(),
            Road::Unopened | Road::Refused(_) => NotHere::NotLoaded,
        };
        Err(EngineError::new(
            EngineKind::Sage,
            EngineErrorKind::NotInProcessHere(why),
        ))
    }

    fn pid(&self) -> Option<u32> {
        self.bridge.as_ref().and_then(|b| b.pid())
    }

    /// In-process, an answer is not cut short: `limit` is the bridge's.
    fn analyse(&mut self, req: &Request, limit: Duration) -> Result<Analysis, EngineError> {
        if let Some(reason) = request::nothing_to_analyse(&req.position) {
            return Ok(Analysis::Over { reason });
        }
        within_table(req)?;
        self.ready()?;
        match &self.road {
            Road::Core(core) => answer(core, req),
            _ => self.bridge().analyse(req, limit),
        }
    }

    /// Sage's lists are whole: the played move is among them.
    fn analyse_played(
        &mut self,
        req: &Request,
        _played_after: &str,
        limit: Duration,
    ) -> Result<Analysis, EngineError> {
        let all = Request {
            moves: 0,
            ..req.clone()
        };
        self.analyse(&all, limit)
    }

    fn rollout(
        &mut self,
        req: &Request,
        settings: &RolloutSettings,
        limit: Duration,
        progress: &mut dyn FnMut(&Rollout, Option<&Analysis>) -> bool,
    ) -> Result<Analysis, EngineError> {
        if let Some(reason) = request::nothing_to_analyse(&req.position) {
            return Ok(Analysis::Over { reason });
        }
        within_table(req)?;
        self.ready()?;
        match &self.road {
            Road::Core(core) => rollout::run(core, req, settings, self.threads, progress),
            _ => self.bridge().rollout(req, settings, limit, progress),
        }
    }
}

/// Refuses a score past Sage's match equity table, on either road (the
/// bridge's Sage has the same table).
fn within_table(req: &Request) -> Result<(), EngineError> {
    match super::past_table(req) {
        Some(past) => Err(EngineError::new(
            EngineKind::Sage,
            EngineErrorKind::PastTable(past),
        )),
        None => Ok(()),
    }
}

/// `req` answered by the core, read as the bridge's line for it is read.
fn answer(core: &Core, req: &Request) -> Result<Analysis, EngineError> {
    read(&answer_line(core, req)?, req)
}

/// The bridge's answer line for `req`, from the core.
fn answer_line(core: &Core, req: &Request) -> Result<Value, EngineError> {
    let v = super::request_value(req, None);
    let state = state_of(&v, req.plies);
    let level = super::level(req.plies);
    let plies = req.plies.min(request::MAX_PLIES);
    let taking = v["double"].as_bool() == Some(true);
    let mut line = match dice_of(&v) {
        Some(dice) if !taking => {
            let moves = core.0.moves(&state, dice).map_err(sage)?;
            let k = if req.moves == 0 {
                moves.len()
            } else {
                req.moves
            };
            let list: Vec<Value> = moves
                .iter()
                .take(k)
                .map(|m| {
                    json!({"board": m.board.to_vec(), "equity": m.equity, "probs": nested(m.probs),
                           "level": level, "plies": plies})
                })
                .collect();
            json!({"kind": "moves", "moves": list, "level": level})
        }
        _ => {
            let c = core.0.cube(&state).map_err(sage)?;
            cube_line(&c, &v, taking, &level)
        }
    };
    line["id"] = json!(req.id);
    line["plies"] = json!(plies);
    Ok(line)
}

/// The core's failure, as Sage's.
fn sage(e: NativeError) -> EngineError {
    EngineError::new(EngineKind::Sage, EngineErrorKind::Core(e.into()))
}

impl From<NativeError> for CoreError {
    fn from(e: NativeError) -> CoreError {
        match e {
            NativeError::Failed(said) => CoreError::Said(said),
            NativeError::Path(path) => CoreError::Path(path),
        }
    }
}

/// The dice of a bridge request, when it has them.
fn dice_of(v: &Value) -> Option<(u8, u8)> {
    let d = v["dice"].as_array()?;
    let die = |i: usize| u8::try_from(d.get(i)?.as_u64()?).ok();
    Some((die(0)?, die(1)?))
}

/// A line the bridge would write, read as the bridge's are.
fn read(line: &Value, req: &Request) -> Result<Analysis, EngineError> {
    let failed = |kind| Err(EngineError::new(EngineKind::Sage, kind));
    match super::parse_line(&line.to_string(), req) {
        Ok(Reply::Answer(_, Ok(a))) => Ok(a),
        Ok(Reply::Answer(_, Err(r))) => failed(EngineErrorKind::Refused { said: r.said }),
        Ok(_) => failed(EngineErrorKind::NoAnswer),
        Err(g) => failed(EngineErrorKind::Unreadable(g)),
    }
}

/// The bridge's request as the shim's state, at Sage's depth for `plies`.
fn state_of(v: &Value, plies: u8) -> ffi::State {
    let int = |k: &str| {
        v[k].as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .unwrap_or(0)
    };
    let flag = |k: &str| i32::from(v[k].as_bool() == Some(true));
    let mut board = [0i32; 26];
    if let Some(cells) = v["board"].as_array() {
        for (b, c) in board.iter_mut().zip(cells) {
            *b = c.as_i64().and_then(|n| i32::try_from(n).ok()).unwrap_or(0);
        }
    }
    ffi::State {
        board,
        cube_value: int("cube"),
        cube_owner: match v["owner"].as_str() {
            Some("player") => 1,
            Some("opponent") => 2,
            _ => 0,
        },
        away1: int("away1"),
        away2: int("away2"),
        crawford: flag("crawford"),
        jacoby: flag("jacoby"),
        beaver: flag("beavers"),
        ply: i32::from(plies.min(request::MAX_PLIES)) + 1,
    }
}

/// A cube answer as the bridge writes it (`cube_answer`): for the doubler,
/// or for the taker when a double is on offer; the chances alone where
/// there is no cube action.
fn cube_line(c: &ffi::Cube, v: &Value, taking: bool, level: &str) -> Value {
    let p = nested(c.probs);
    if taking {
        return json!({"kind": "take", "take": -c.double_take, "pass": -c.double_pass,
            "proper": if c.should_take != 0 { "take" } else { "pass" },
            "probs": [1.0 - p[0], p[3], p[4], p[1], p[2]], "cubeless": -c.cubeless,
            "level": level});
    }
    if v["no_cube"].as_bool() == Some(true) {
        return json!({"kind": "eval", "probs": p, "cubeless": c.cubeless, "level": level});
    }
    let owner = v["owner"].as_str().unwrap_or("centered");
    json!({"kind": "cube", "no_double": c.no_double, "double_take": c.double_take,
        "double_pass": c.double_pass, "optimal": c.optimal,
        "action": action_words(c, owner == "player"), "probs": p,
        "cubeless": c.cubeless, "level": level})
}

/// The chances as bgsage's `Probabilities` gives them: the network's may
/// put a backgammon above its gammon, or a gammon above the win, by a hair;
/// bgsage clamps them so each is within the one it is part of.
fn nested(p: [f64; 5]) -> [f64; 5] {
    let [win, mut gw, mut bw, mut gl, mut bl] = p;
    gw = gw.min(win);
    bw = bw.min(gw);
    gl = gl.min(1.0 - win);
    bl = bl.min(gl);
    [win, gw, bw, gl, bl]
}

/// Sage's verdict in gnubg's words (the bridge's `action_words`), so both
/// engines' actions compare.
fn action_words(c: &ffi::Cube, redouble: bool) -> String {
    let (no, yes, re) = if redouble {
        ("No redouble", "Redouble", "re")
    } else {
        ("No double", "Double", "")
    };
    match (c.should_double != 0, c.should_take != 0, c.is_beaver != 0) {
        (false, false, _) => format!("Too good to {re}double, pass"),
        (false, true, true) => format!("{no}, beaver"),
        (false, true, false) => format!("{no}, take"),
        (true, _, true) => format!("{yes}, beaver"),
        (true, true, false) => format!("{yes}, take"),
        (true, false, false) => format!("{yes}, pass"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_are_worded_as_the_bridge_words_them() {
        let c = |d: i32, t: i32, b: i32| ffi::Cube {
            should_double: d,
            should_take: t,
            is_beaver: b,
            ..Default::default()
        };
        assert_eq!(action_words(&c(0, 0, 0), false), "Too good to double, pass");
        assert_eq!(
            action_words(&c(0, 0, 0), true),
            "Too good to redouble, pass"
        );
        assert_eq!(action_words(&c(0, 1, 1), false), "No double, beaver");
        assert_eq!(action_words(&c(0, 1, 0), true), "No redouble, take");
        assert_eq!(action_words(&c(1, 1, 1), true), "Redouble, beaver");
        assert_eq!(action_words(&c(1, 1, 0), false), "Double, take");
        assert_eq!(action_words(&c(1, 0, 0), true), "Redouble, pass");
    }

    #[test]
    fn chances_are_nested_as_bgsage_nests_them() {
        // A backgammon above its gammon (the network's, in a race where
        // the opponent has borne off), a gammon loss above the loss.
        assert_eq!(
            nested([0.97, 0.0, 0.0004, 0.05, 0.06]),
            [0.97, 0.0, 0.0, 1.0 - 0.97, 1.0 - 0.97]
        );
        let fine = [0.5, 0.2, 0.01, 0.1, 0.005];
        assert_eq!(nested(fine), fine);
    }

    #[test]
    fn a_data_dir_without_sages_files_is_named_in_the_error() {
        let dir = std::env::temp_dir().join("bgedit-no-sage-data");
        let e = EngineError::new(
            EngineKind::Sage,
            EngineErrorKind::Data(assets_from_dir(&dir).unwrap_err()),
        )
        .to_string();
        assert!(e.starts_with("--sage-data "), "{e}");
        assert!(e.contains("models/sl_s9_purerace.weights.best"), "{e}");
    }
}

/// The fuzz targets' road, walked once: what the check takes reaches
/// Sage's loaders, which answer; what it refuses never does.
#[cfg(all(test, feature = "internals"))]
mod probes {
    use super::*;

    #[test]
    fn sages_loaders_are_given_what_the_check_takes() {
        if !ffi::built() || !cpu_supported() {
            eprintln!("skipped: no Sage core here");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let scratch = dir.path().join("file");
        // Two hidden units over the pure race's 196 inputs, small weights.
        let mut net: Vec<u8> = [2i32, 196, 5]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        for i in 0..2 * 197 + 5 * 3 {
            net.extend_from_slice(&(((i % 7) as f32 - 3.0) / 10.0).to_le_bytes());
        }
        let answered = |p: Result<Probed, NativeError>| match p {
            Ok(Probed::Answered(p)) => assert!(p.iter().all(|x| x.is_finite()), "{p:?}"),
            other => panic!("not answered: {other:?}"),
        };
        answered(probe(&net, Some((2, 196)), &scratch));
        answered(probe(&sample_bearoff(), None, &scratch));
        assert!(matches!(
            probe(&net[..40], Some((2, 196)), &scratch),
            Ok(Probed::Refused(_))
        ));
    }
}
