//! The one place bgedit calls C: Open Sage's core through bgedit's shim
//! (`shim.cpp`, built by build.rs). Every call is checked here and comes
//! back as a Rust value or a [`NativeError`]; the shim catches every C++
//! exception. The one Rust function handed to C, a rollout's progress
//! ([`on_progress`]), catches any panic and only stores numbers, so no panic
//! or exception crosses the boundary.

use std::ffi::{CStr, CString, c_char, c_int, c_uint, c_void};
use std::path::Path;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

/// Why Sage's core could not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NativeError {
    #[error("Sage (in-process): {0}")]
    Failed(String),
    #[error("Sage (in-process): a path that is not valid UTF-8 or holds a NUL: {0}")]
    Path(String),
}

#[repr(C)]
struct Opaque {
    _private: [u8; 0],
}

/// The shim's stop flag of one rollout (`BgeSageStop`).
#[repr(C)]
struct StopFlag {
    _private: [u8; 0],
}

/// A position as the shim takes it (`BgeSageState`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct State {
    pub board: [c_int; 26],
    pub cube_value: c_int,
    /// 0 centred, 1 the player on roll, 2 the opponent.
    pub cube_owner: c_int,
    pub away1: c_int,
    pub away2: c_int,
    pub crawford: c_int,
    pub jacoby: c_int,
    pub beaver: c_int,
    /// Sage's count: 1 is the network alone.
    pub ply: c_int,
}

/// One move, as the shim gives it (`BgeSageMove`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Move {
    pub board: [c_int; 26],
    pub probs: [f64; 5],
    pub equity: f64,
    pub cubeless: f64,
}

/// A cube decision, as the shim gives it (`BgeSageCube`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cube {
    pub probs: [f64; 5],
    pub cubeless: f64,
    pub no_double: f64,
    pub double_take: f64,
    pub double_pass: f64,
    pub optimal: f64,
    pub should_double: c_int,
    pub should_take: c_int,
    pub is_beaver: c_int,
}

/// A rollout's settings as the shim takes them (`BgeSageRollout`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RolloutSettings {
    pub trials: c_int,
    /// Half-moves after which a trial is evaluated; 0 plays it out.
    pub truncate: c_int,
    /// The players' depth in Sage's count (1 is the network alone).
    pub ply: c_int,
    /// 0: as bgsage picks (a thread a CPU, at least 2).
    pub threads: c_int,
    /// How many moves are rolled out (bgsage's `filter_max_moves`).
    pub candidates: c_int,
    pub seed: c_uint,
    /// The depth at the truncation point in Sage's count; -1: the players'.
    pub truncation_ply: c_int,
}

/// One move of a rollout's list, as the shim gives it (`BgeSageRolled`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Rolled {
    pub board: [c_int; 26],
    pub probs: [f64; 5],
    /// Cubeful.
    pub equity: f64,
    pub cubeless: f64,
    /// Negative for a move not rolled out.
    pub std_error: f64,
    /// 0 rolled out, else the Sage ply of the filter's value.
    pub level: c_int,
}

/// A cube decision rolled out (`BgeSageRolledCube`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RolledCube {
    pub cube: Cube,
    pub no_double_se: f64,
    pub double_take_se: f64,
}

/// The shim's progress function (`BgeSageProgress`).
type Progress = unsafe extern "C" fn(
    ctx: *mut c_void,
    done: c_int,
    total: c_int,
    finished: *const Rolled,
) -> c_int;

const OK: c_int = 0;
const TOO_SMALL: c_int = 2;
const STOPPED: c_int = 4;
const ERR_LEN: usize = 512;

/// The shim's functions, as build.rs compiled them.
#[cfg(bgedit_sage_core)]
mod c {
    use super::{
        Cube, Move, Opaque, Progress, Rolled, RolledCube, RolloutSettings, State, StopFlag,
    };
    use std::ffi::{c_char, c_int, c_void};

    unsafe extern "C" {
        pub(crate) fn bge_sage_open(
            strategy_type: *const c_char,
            paths: *const *const c_char,
            hidden: *const c_int,
            count: c_int,
            bearoff: *const c_char,
            out: *mut *mut Opaque,
            err: *mut c_char,
            len: usize,
        ) -> c_int;
        pub(crate) fn bge_sage_close(engine: *mut Opaque);
        pub(crate) fn bge_sage_moves(
            engine: *const Opaque,
            state: *const State,
            d1: c_int,
            d2: c_int,
            out: *mut Move,
            cap: c_int,
            n: *mut c_int,
            err: *mut c_char,
            len: usize,
        ) -> c_int;
        pub(crate) fn bge_sage_cube(
            engine: *const Opaque,
            state: *const State,
            out: *mut Cube,
            err: *mut c_char,
            len: usize,
        ) -> c_int;
        pub(crate) fn bge_sage_stop_new() -> *mut StopFlag;
        pub(crate) fn bge_sage_stop_set(stop: *mut StopFlag);
        pub(crate) fn bge_sage_stop_free(stop: *mut StopFlag);
        pub(crate) fn bge_sage_rollout_moves(
            engine: *const Opaque,
            state: *const State,
            d1: c_int,
            d2: c_int,
            settings: *const RolloutSettings,
            stop: *mut StopFlag,
            progress: Option<Progress>,
            ctx: *mut c_void,
            out: *mut Rolled,
            cap: c_int,
            n: *mut c_int,
            err: *mut c_char,
            len: usize,
        ) -> c_int;
        pub(crate) fn bge_sage_rollout_cube(
            engine: *const Opaque,
            state: *const State,
            settings: *const RolloutSettings,
            stop: *mut StopFlag,
            progress: Option<Progress>,
            ctx: *mut c_void,
            out: *mut RolledCube,
            err: *mut c_char,
            len: usize,
        ) -> c_int;
        pub(crate) fn bge_sage_game_plans(
            board: *const c_int,
            player: *mut c_int,
            opponent: *mut c_int,
            err: *mut c_char,
            len: usize,
        ) -> c_int;
        #[cfg(feature = "internals")]
        pub(crate) fn bge_sage_probe_net(
            path: *const c_char,
            hidden: c_int,
            inputs: c_int,
            out: *mut f64,
            err: *mut c_char,
            len: usize,
        ) -> c_int;
        #[cfg(feature = "internals")]
        pub(crate) fn bge_sage_probe_bearoff(
            path: *const c_char,
            out: *mut f64,
            err: *mut c_char,
            len: usize,
        ) -> c_int;
    }
}

/// This bgedit was built without a C++ compiler, so without Sage's core:
/// opening it says so (and the bridge answers instead); nothing else is
/// reached without an open core, and each answers the same.
#[cfg(not(bgedit_sage_core))]
mod c {
    use super::{
        Cube, Move, Opaque, Progress, Rolled, RolledCube, RolloutSettings, State, StopFlag,
    };
    use std::ffi::{c_char, c_int, c_void};

    const NOT_BUILT: c_int = 3;
    const WHY: &[u8] = b"not built into this bgedit (no C++ compiler when it was built)\0";

    /// # Safety
    /// `err` points to `len` writable bytes.
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn bge_sage_open(
        _strategy_type: *const c_char,
        _paths: *const *const c_char,
        _hidden: *const c_int,
        _count: c_int,
        _bearoff: *const c_char,
        _out: *mut *mut Opaque,
        err: *mut c_char,
        len: usize,
    ) -> c_int {
        let n = WHY.len().min(len);
        // SAFETY: the caller gives `len` writable bytes at `err`; the text
        // ends with its NUL, kept when it fits.
        unsafe { std::ptr::copy_nonoverlapping(WHY.as_ptr().cast(), err, n) };
        NOT_BUILT
    }

    pub(crate) unsafe fn bge_sage_close(_engine: *mut Opaque) {}

    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn bge_sage_moves(
        _engine: *const Opaque,
        _state: *const State,
        _d1: c_int,
        _d2: c_int,
        _out: *mut Move,
        _cap: c_int,
        _n: *mut c_int,
        _err: *mut c_char,
        _len: usize,
    ) -> c_int {
        NOT_BUILT
    }

    pub(crate) unsafe fn bge_sage_cube(
        _engine: *const Opaque,
        _state: *const State,
        _out: *mut Cube,
        _err: *mut c_char,
        _len: usize,
    ) -> c_int {
        NOT_BUILT
    }

    pub(crate) unsafe fn bge_sage_stop_new() -> *mut StopFlag {
        std::ptr::null_mut()
    }

    pub(crate) unsafe fn bge_sage_stop_set(_stop: *mut StopFlag) {}

    pub(crate) unsafe fn bge_sage_stop_free(_stop: *mut StopFlag) {}

    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn bge_sage_rollout_moves(
        _engine: *const Opaque,
        _state: *const State,
        _d1: c_int,
        _d2: c_int,
        _settings: *const RolloutSettings,
        _stop: *mut StopFlag,
        _progress: Option<Progress>,
        _ctx: *mut c_void,
        _out: *mut Rolled,
        _cap: c_int,
        _n: *mut c_int,
        _err: *mut c_char,
        _len: usize,
    ) -> c_int {
        NOT_BUILT
    }

    #[cfg(feature = "internals")]
    pub(crate) unsafe fn bge_sage_probe_net(
        _path: *const c_char,
        _hidden: c_int,
        _inputs: c_int,
        _out: *mut f64,
        _err: *mut c_char,
        _len: usize,
    ) -> c_int {
        NOT_BUILT
    }

    #[cfg(feature = "internals")]
    pub(crate) unsafe fn bge_sage_probe_bearoff(
        _path: *const c_char,
        _out: *mut f64,
        _err: *mut c_char,
        _len: usize,
    ) -> c_int {
        NOT_BUILT
    }

    pub(crate) unsafe fn bge_sage_game_plans(
        _board: *const c_int,
        _player: *mut c_int,
        _opponent: *mut c_int,
        _err: *mut c_char,
        _len: usize,
    ) -> c_int {
        NOT_BUILT
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn bge_sage_rollout_cube(
        _engine: *const Opaque,
        _state: *const State,
        _settings: *const RolloutSettings,
        _stop: *mut StopFlag,
        _progress: Option<Progress>,
        _ctx: *mut c_void,
        _out: *mut RolledCube,
        _err: *mut c_char,
        _len: usize,
    ) -> c_int {
        NOT_BUILT
    }
}

use c::{
    bge_sage_close, bge_sage_cube, bge_sage_game_plans, bge_sage_moves, bge_sage_open,
    bge_sage_rollout_cube, bge_sage_rollout_moves, bge_sage_stop_free, bge_sage_stop_new,
    bge_sage_stop_set,
};

/// Whether Sage's core was compiled into this bgedit (build.rs builds it
/// where a C++17 compiler is found, and says so where not).
pub(crate) fn built() -> bool {
    cfg!(bgedit_sage_core)
}

/// Whether this CPU runs the core as it was compiled: on x86-64 it needs
/// AVX2 and FMA (Sage's own build flags); nothing may call into it
/// otherwise, not even to load it.
pub(crate) fn cpu_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        true
    }
}

/// What a running rollout has said so far: shared by Sage's worker threads
/// (through [`on_progress`]) and the thread watching it.
#[derive(Debug, Default)]
pub(crate) struct Ticks {
    done: AtomicI32,
    total: AtomicI32,
    stop: AtomicBool,
    finished: Mutex<Vec<Rolled>>,
}

impl Ticks {
    /// Trials done and planned (done > planned while moves the filter
    /// dropped are rolled out after all).
    pub(crate) fn progress(&self) -> (i32, i32) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// The moves rolled out so far, in the order they were finished.
    pub(crate) fn finished(&self) -> Vec<Rolled> {
        self.finished
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Asks the rollout to stop: Sage ends it after the trials in hand.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }
}

/// The shim's progress function: stores the numbers, says whether to go on.
/// Called from Sage's worker threads, several at once.
unsafe extern "C" fn on_progress(
    ctx: *mut c_void,
    done: c_int,
    total: c_int,
    finished: *const Rolled,
) -> c_int {
    // SAFETY: `ctx` is the `&Ticks` that `Core::rollout` passed, alive
    // until the shim's call returns (the shim calls this only during it);
    // `Ticks` is Sync. `finished` is null or points to a move the shim
    // keeps alive for this call.
    let go_on = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let ticks = unsafe { &*ctx.cast::<Ticks>() };
        ticks.done.fetch_max(done, Ordering::Relaxed);
        ticks.total.store(total, Ordering::Relaxed);
        if let Some(m) = unsafe { finished.as_ref() } {
            ticks
                .finished
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(*m);
        }
        !ticks.stop.load(Ordering::Acquire)
    }));
    // A panic stops the rollout rather than unwinding into C++.
    c_int::from(go_on.unwrap_or(false))
}

/// What a rollout is asked.
#[derive(Clone, Copy, Debug)]
pub(crate) enum RolloutJob {
    /// The moves of these dice.
    Moves(State, (u8, u8), RolloutSettings),
    /// The cube decision before the roll.
    Cube(State, RolloutSettings),
}

/// How a rollout ended.
#[derive(Clone, Debug)]
pub(crate) enum RolloutEnd {
    /// Every move, best first.
    Moves(Vec<Rolled>),
    Cube(RolledCube),
    /// Stopped: the moves rolled out by then (none for a cube decision),
    /// and the trials done and planned when it stopped.
    Stopped(Vec<Rolled>, (i32, i32)),
}

/// The engine's pointer and the rollout's stop flag, handed to the thread
/// that runs the rollout.
struct EnginePtr(NonNull<Opaque>, NonNull<StopFlag>);

// SAFETY: only sent to the one thread running a rollout, while the `Core`
// it came from is borrowed by `Core::rollout` (which joins that thread
// before it returns) and so used by nobody else; the stop flag is an
// atomic the shim reads and sets from any thread, freed after the join.
unsafe impl Send for EnginePtr {}

/// Runs `job` on the engine at `ptr`, reporting to `ticks`.
fn run_rollout(
    ptr: &EnginePtr,
    job: &RolloutJob,
    ticks: &Ticks,
) -> Result<RolloutEnd, NativeError> {
    let ctx = std::ptr::from_ref(ticks).cast_mut().cast::<c_void>();
    let mut err = [0u8; ERR_LEN];
    match job {
        RolloutJob::Cube(state, settings) => {
            let mut out = RolledCube::default();
            // SAFETY: the engine is live (see `EnginePtr`); `state`,
            // `settings`, `out` and `err` (ERR_LEN bytes) are valid for the
            // call; `ctx` is `ticks`, alive until it returns, as
            // `on_progress` expects.
            let rc = unsafe {
                bge_sage_rollout_cube(
                    ptr.0.as_ptr(),
                    state,
                    settings,
                    ptr.1.as_ptr(),
                    Some(on_progress),
                    ctx,
                    &mut out,
                    err.as_mut_ptr().cast(),
                    ERR_LEN,
                )
            };
            match rc {
                OK => Ok(RolloutEnd::Cube(out)),
                STOPPED => Ok(RolloutEnd::Stopped(Vec::new(), ticks.progress())),
                _ => Err(NativeError::Failed(message(&err))),
            }
        }
        RolloutJob::Moves(state, dice, settings) => {
            let mut cap: usize = 64;
            loop {
                let mut out = vec![Rolled::default(); cap];
                let mut n: c_int = 0;
                let cap_c = c_int::try_from(cap).unwrap_or(c_int::MAX);
                // SAFETY: as above; `out` has room for `cap_c` moves and `n`
                // is valid for the call.
                let rc = unsafe {
                    bge_sage_rollout_moves(
                        ptr.0.as_ptr(),
                        state,
                        c_int::from(dice.0),
                        c_int::from(dice.1),
                        settings,
                        ptr.1.as_ptr(),
                        Some(on_progress),
                        ctx,
                        out.as_mut_ptr(),
                        cap_c,
                        &mut n,
                        err.as_mut_ptr().cast(),
                        ERR_LEN,
                    )
                };
                let n = usize::try_from(n).unwrap_or(0);
                out.truncate(n.min(cap));
                match rc {
                    OK => return Ok(RolloutEnd::Moves(out)),
                    STOPPED => return Ok(RolloutEnd::Stopped(out, ticks.progress())),
                    TOO_SMALL if n > cap => cap = n,
                    _ => return Err(NativeError::Failed(message(&err))),
                }
            }
        }
    }
}

/// Sage's core, loaded: its networks and bear-off database.
pub(crate) struct Core {
    ptr: NonNull<Opaque>,
}

// SAFETY: the shim's engine is a plain C++ object with no thread-affine
// state (no thread-locals it relies on between calls, no thread ids kept),
// so it may move to another thread. `Core` is not `Sync`: it is used from
// one thread at a time, by the one `Engine` that owns it.
unsafe impl Send for Core {}

fn message(buf: &[u8]) -> String {
    let text = CStr::from_bytes_until_nul(buf)
        .map(|c| c.to_string_lossy().into_owned())
        .unwrap_or_default();
    if text.is_empty() {
        "Sage failed without saying why".to_owned()
    } else {
        text
    }
}

/// Both sides' game plans of `board` (Sage's board, from its player's
/// side) as Sage's `GamePlan` values: the player's, the opponent's. Only
/// where the core is built in and this CPU runs it (the caller checks
/// [`built`] and [`cpu_supported`] first: code built for AVX2 must not run
/// on a CPU without it).
pub(crate) fn game_plans(board: &[c_int; 26]) -> Result<(c_int, c_int), NativeError> {
    let (mut player, mut opponent) = (-1, -1);
    let mut err = [0u8; ERR_LEN];
    // SAFETY: `board` is 26 ints as the shim reads them; the two outputs
    // are valid for the call; `err` is ERR_LEN bytes.
    let rc = unsafe {
        bge_sage_game_plans(
            board.as_ptr(),
            &mut player,
            &mut opponent,
            err.as_mut_ptr().cast(),
            ERR_LEN,
        )
    };
    if rc == OK {
        Ok((player, opponent))
    } else {
        Err(NativeError::Failed(message(&err)))
    }
}

fn c_path(p: &Path) -> Result<CString, NativeError> {
    let s = p
        .to_str()
        .ok_or_else(|| NativeError::Path(p.display().to_string()))?;
    CString::new(s).map_err(|_| NativeError::Path(p.display().to_string()))
}

impl Core {
    /// Loads the networks `models` (each a weights file and its hidden
    /// size) laid out as `strategy` says, and the bear-off database.
    pub(crate) fn open(
        strategy: &str,
        models: &[(std::path::PathBuf, i32)],
        bearoff: &Path,
    ) -> Result<Core, NativeError> {
        if !cpu_supported() {
            return Err(NativeError::Failed(
                "this CPU lacks AVX2 or FMA, which bgedit's build of Sage needs".to_owned(),
            ));
        }
        let kind = CString::new(strategy).map_err(|_| NativeError::Path(strategy.to_owned()))?;
        let paths: Vec<CString> = models
            .iter()
            .map(|(p, _)| c_path(p))
            .collect::<Result<_, _>>()?;
        let ptrs: Vec<*const c_char> = paths.iter().map(|p| p.as_ptr()).collect();
        let hidden: Vec<c_int> = models.iter().map(|(_, h)| *h).collect();
        let count = c_int::try_from(models.len())
            .map_err(|_| NativeError::Failed("too many model files".to_owned()))?;
        let bearoff = c_path(bearoff)?;
        let mut out: *mut Opaque = std::ptr::null_mut();
        let mut err = [0u8; ERR_LEN];
        // SAFETY: every pointer is to a live, NUL-terminated CString or a
        // vector of `count` elements, all outliving the call; the shim
        // copies what it keeps; `err` is ERR_LEN bytes and the shim writes
        // at most ERR_LEN with a NUL. We checked the CPU runs the core.
        let rc = unsafe {
            bge_sage_open(
                kind.as_ptr(),
                ptrs.as_ptr(),
                hidden.as_ptr(),
                count,
                bearoff.as_ptr(),
                &mut out,
                err.as_mut_ptr().cast(),
                ERR_LEN,
            )
        };
        match NonNull::new(out) {
            Some(ptr) if rc == OK => Ok(Core { ptr }),
            _ => Err(NativeError::Failed(message(&err))),
        }
    }

    /// Every legal move of `dice` from `state`, best first.
    pub(crate) fn moves(&self, state: &State, dice: (u8, u8)) -> Result<Vec<Move>, NativeError> {
        let mut cap: usize = 64;
        loop {
            let mut out = vec![Move::default(); cap];
            let mut n: c_int = 0;
            let mut err = [0u8; ERR_LEN];
            let cap_c = c_int::try_from(cap).unwrap_or(c_int::MAX);
            // SAFETY: `self.ptr` is a live engine from `bge_sage_open`;
            // `out` has room for `cap_c` moves, `state` and `n` are valid
            // for the call, `err` is ERR_LEN bytes.
            let rc = unsafe {
                bge_sage_moves(
                    self.ptr.as_ptr(),
                    state,
                    c_int::from(dice.0),
                    c_int::from(dice.1),
                    out.as_mut_ptr(),
                    cap_c,
                    &mut n,
                    err.as_mut_ptr().cast(),
                    ERR_LEN,
                )
            };
            let n = usize::try_from(n).unwrap_or(0);
            match rc {
                OK => {
                    out.truncate(n.min(cap));
                    return Ok(out);
                }
                TOO_SMALL if n > cap => cap = n,
                _ => return Err(NativeError::Failed(message(&err))),
            }
        }
    }

    /// The cube decision of the player on roll in `state`.
    pub(crate) fn cube(&self, state: &State) -> Result<Cube, NativeError> {
        let mut out = Cube::default();
        let mut err = [0u8; ERR_LEN];
        // SAFETY: `self.ptr` is a live engine; `state` and `out` are valid
        // for the call; `err` is ERR_LEN bytes.
        let rc = unsafe {
            bge_sage_cube(
                self.ptr.as_ptr(),
                state,
                &mut out,
                err.as_mut_ptr().cast(),
                ERR_LEN,
            )
        };
        if rc == OK {
            Ok(out)
        } else {
            Err(NativeError::Failed(message(&err)))
        }
    }

    /// Rolls `job` out on a thread of its own while this thread calls
    /// `watch` about every `poll` with what the rollout has said; `watch` returning false stops the rollout, which
    /// then ends with what it has. Sage's own worker threads are joined
    /// before the shim returns, and that thread before this does, so nothing
    /// of the rollout outlives the call.
    pub(crate) fn rollout(
        &self,
        job: RolloutJob,
        poll: Duration,
        watch: &mut dyn FnMut(&Ticks) -> bool,
    ) -> Result<RolloutEnd, NativeError> {
        let ticks = Ticks::default();
        // SAFETY: makes a flag the shim owns; freed below, once.
        let stop = NonNull::new(unsafe { bge_sage_stop_new() })
            .ok_or_else(|| NativeError::Failed("no memory for the rollout".to_owned()))?;
        let ptr = EnginePtr(self.ptr, stop);
        let end = std::thread::scope(|s| {
            let (done_tx, done_rx) = mpsc::channel::<()>();
            let ticks = &ticks;
            // Sage's N-ply search recurses on the calling thread as on its
            // own workers: the stack of a main thread, not a spawned one's 2 MiB.
            let runner = std::thread::Builder::new()
                .name("bgedit-sage-rollout".to_owned())
                .stack_size(8 << 20)
                .spawn_scoped(s, move || {
                    let end = run_rollout(&ptr, &job, ticks);
                    let _ = done_tx.send(());
                    end
                })
                .map_err(|e| NativeError::Failed(format!("no thread for the rollout: {e}")))?;
            while let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(poll) {
                if !watch(ticks) {
                    ticks.stop();
                    // SAFETY: the flag lives until after the join below;
                    // setting it is an atomic store, safe from any thread.
                    unsafe { bge_sage_stop_set(stop.as_ptr()) };
                }
            }
            runner.join().unwrap_or_else(|_| {
                Err(NativeError::Failed(
                    "the rollout's thread failed".to_owned(),
                ))
            })
        });
        // SAFETY: the rollout's thread has been joined: nothing uses the
        // flag any more; made by `bge_sage_stop_new`, freed once.
        unsafe { bge_sage_stop_free(stop.as_ptr()) };
        end
    }
}

/// One data file loaded by Sage's own loader on its own and asked a few
/// positions (shim.cpp's probes, for the fuzz targets): a network of
/// `hidden` units and `inputs` inputs, or the bear-off database
/// (`net: None`). The last chances asked.
#[cfg(feature = "internals")]
pub(crate) fn probe(path: &Path, net: Option<(i32, i32)>) -> Result<[f64; 5], NativeError> {
    let file = c_path(path)?;
    let mut out = [0f64; 5];
    let mut err = [0u8; ERR_LEN];
    // SAFETY: `file` is a live NUL-terminated string, `out` has room for
    // the 5 chances the shim writes, `err` is ERR_LEN bytes; the shim
    // keeps none of them. The CPU is checked by the caller.
    let rc = unsafe {
        match net {
            Some((hidden, inputs)) => c::bge_sage_probe_net(
                file.as_ptr(),
                hidden,
                inputs,
                out.as_mut_ptr(),
                err.as_mut_ptr().cast(),
                ERR_LEN,
            ),
            None => c::bge_sage_probe_bearoff(
                file.as_ptr(),
                out.as_mut_ptr(),
                err.as_mut_ptr().cast(),
                ERR_LEN,
            ),
        }
    };
    if rc == OK {
        Ok(out)
    } else {
        Err(NativeError::Failed(message(&err)))
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        // SAFETY: `self.ptr` came from `bge_sage_open` and is freed once,
        // here.
        unsafe { bge_sage_close(self.ptr.as_ptr()) }
    }
}
