//! Each side's game plan in a position, as Open Sage classifies it: its
//! C++ `classify_game_plan`, in bgedit's own build of its core (the shim's
//! `bge_sage_game_plans`), never a copy of ours, so the plans are exactly
//! Sage's. Where the core is not built in or this CPU cannot run it, the
//! answer says so; nothing guesses a plan.

use bgedit_core::domain::Position;
pub use bgedit_core::domain::game_plan::{GamePlan, Plans};

use super::sage::native::{self, PlansFault};

/// Why no plans could be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlansError {
    #[error(
        "game plans are Open Sage's, and its core is not built into this bgedit \
         (there was no C++ compiler when it was built)"
    )]
    NotBuilt,
    #[error("game plans are Open Sage's, and this CPU cannot run its core (it needs AVX2 and FMA)")]
    Cpu,
    #[error("Open Sage's core refused the position: {why}")]
    Refused { why: String },
    #[error("Open Sage's core gave a game plan it has no name for (code {code})")]
    Unnamed { code: i32 },
}

/// Both sides' plans of `position`, each from its own side (as Sage's
/// `classify_game_plans` gives them). Who is on roll does not change them:
/// Sage classifies a side by the checkers alone.
pub fn plans(position: &Position) -> Result<Plans, PlansError> {
    native::plans(&position.board).map_err(|f| match f {
        PlansFault::NotBuilt => PlansError::NotBuilt,
        PlansFault::Cpu => PlansError::Cpu,
        PlansFault::Refused(e) => PlansError::Refused { why: e.to_string() },
        PlansFault::Unnamed(code) => PlansError::Unnamed { code },
    })
}

/// Whether [`plans`] can answer in this bgedit on this CPU.
pub fn plans_available() -> Result<(), PlansError> {
    plans(&Position::default()).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_classified_or_the_reason_is_said() {
        match plans(&Position::default()) {
            // Sage's own answer for its starting board (bgsage 2.0:
            // classify_game_plans(STARTING_BOARD)): checked against its
            // Python in tests/properties.
            Ok(p) => assert_eq!(p.o, p.x, "the start is symmetric: {p:?}"),
            Err(e) => assert!(matches!(e, PlansError::NotBuilt | PlansError::Cpu), "{e}"),
        }
    }
}
