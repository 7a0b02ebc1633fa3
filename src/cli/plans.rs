//! Open Sage's game-plan classifier handed to the library at the start:
//! the library may not ask an engine (the engine wall), and stores every
//! position's plans with the one it is handed (`derive::classify_plans_with`).
//! Handed only where this bgedit has Sage's core and this CPU runs it;
//! elsewhere the library keeps plans as unknown, never guessed.

/// Installs the classifier when it can answer.
pub fn hand_to_library() {
    if bgedit_engine::plans::plans_available().is_ok() {
        bgedit_library::derive::classify_plans_with(|p| bgedit_engine::plans(p).ok());
    }
}
