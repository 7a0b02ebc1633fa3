//! The error function in single precision, as gnubg gets it.
//!
//! gnubg calls the C library's `erff`; its last bit decides some of the
//! digits `show matchequitytable` prints. On glibc bgedit calls the same
//! function, so it prints what gnubg prints on that machine; elsewhere it
//! uses the `libm` crate's port, which agrees to within an ulp (against
//! glibc 2.36, the fixtures' C library, that moves 36 of the 50,688 MET
//! values gnubg prints by one unit in the last digit).

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod sys {
    unsafe extern "C" {
        // The C library's erff: a pure function of its argument.
        safe fn erff(x: f32) -> f32;
    }

    pub(crate) fn erf(x: f32) -> f32 {
        erff(x)
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod sys {
    pub(crate) fn erf(x: f32) -> f32 {
        libm::erff(x)
    }
}

/// erf(x) in single precision.
pub fn erff(x: f32) -> f32 {
    sys::erf(x)
}
