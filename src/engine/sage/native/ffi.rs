//! The one place bgedit calls C: Open Sage's core through bgedit's shim
//! (`shim.cpp`, built by build.rs). Every call is checked here and comes
//! back as a Rust value or a [`NativeError`]; the shim catches every C++
//! exception, and no Rust callback is handed to C, so no panic or exception
//! crosses the boundary.

use std::ffi::{CStr, CString, c_char, c_int};
use std::path::Path;
use std::ptr::NonNull;

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

/// A position as the shim takes it (`BgeSageState`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct State {
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
pub struct Move {
    pub board: [c_int; 26],
    pub probs: [f64; 5],
    pub equity: f64,
    pub cubeless: f64,
}

/// A cube decision, as the shim gives it (`BgeSageCube`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Cube {
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

const OK: c_int = 0;
const TOO_SMALL: c_int = 2;
const ERR_LEN: usize = 512;

/// The shim's functions, as build.rs compiled them.
#[cfg(bgedit_sage_core)]
mod c {
    use super::{Cube, Move, Opaque, State};
    use std::ffi::{c_char, c_int};

    unsafe extern "C" {
        pub fn bge_sage_open(
            strategy_type: *const c_char,
            paths: *const *const c_char,
            hidden: *const c_int,
            count: c_int,
            bearoff: *const c_char,
            out: *mut *mut Opaque,
            err: *mut c_char,
            len: usize,
        ) -> c_int;
        pub fn bge_sage_close(engine: *mut Opaque);
        pub fn bge_sage_moves(
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
        pub fn bge_sage_cube(
            engine: *const Opaque,
            state: *const State,
            out: *mut Cube,
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
    use super::{Cube, Move, Opaque, State};
    use std::ffi::{c_char, c_int};

    const NOT_BUILT: c_int = 3;
    const WHY: &[u8] = b"not built into this bgedit (no C++ compiler when it was built)\0";

    /// # Safety
    /// `err` points to `len` writable bytes.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn bge_sage_open(
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

    pub unsafe fn bge_sage_close(_engine: *mut Opaque) {}

    #[allow(clippy::too_many_arguments)]
    pub unsafe fn bge_sage_moves(
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

    pub unsafe fn bge_sage_cube(
        _engine: *const Opaque,
        _state: *const State,
        _out: *mut Cube,
        _err: *mut c_char,
        _len: usize,
    ) -> c_int {
        NOT_BUILT
    }
}

use c::{bge_sage_close, bge_sage_cube, bge_sage_moves, bge_sage_open};

/// Whether Sage's core was compiled into this bgedit (build.rs builds it
/// where a C++17 compiler is found, and says so where not).
pub fn built() -> bool {
    cfg!(bgedit_sage_core)
}

/// Whether this CPU runs the core as it was compiled: on x86-64 it needs
/// AVX2 and FMA (Sage's own build flags); nothing may call into it
/// otherwise, not even to load it.
pub fn cpu_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        true
    }
}

/// Sage's core, loaded: its networks and bear-off database.
pub struct Core {
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

fn c_path(p: &Path) -> Result<CString, NativeError> {
    let s = p
        .to_str()
        .ok_or_else(|| NativeError::Path(p.display().to_string()))?;
    CString::new(s).map_err(|_| NativeError::Path(p.display().to_string()))
}

impl Core {
    /// Loads the networks `models` (each a weights file and its hidden
    /// size) laid out as `strategy` says, and the bear-off database.
    pub fn open(
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
    pub fn moves(&self, state: &State, dice: (u8, u8)) -> Result<Vec<Move>, NativeError> {
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
    pub fn cube(&self, state: &State) -> Result<Cube, NativeError> {
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
}

impl Drop for Core {
    fn drop(&mut self) {
        // SAFETY: `self.ptr` came from `bge_sage_open` and is freed once,
        // here.
        unsafe { bge_sage_close(self.ptr.as_ptr()) }
    }
}
