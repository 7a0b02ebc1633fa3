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

/// A position as `convert --to json` writes it: the model's JSON with
/// gnubg's class and both sides' game plans (`"plans": {"O": …, "X": …}`,
/// each classified from its own side as Sage's `classify_game_plans`
/// names them). Where Sage's core cannot classify, `"plans"` is `null` and
/// standard error says why, once a run (unless `quiet`).
pub(crate) fn json_line(position: &bgedit_core::domain::Position, quiet: bool) -> String {
    use std::sync::atomic::{AtomicBool, Ordering};
    static SAID: AtomicBool = AtomicBool::new(false);
    let mut value = bgedit_core::codec::json::to_json(position);
    value.class = Some(
        bgedit_core::domain::position_class::class_of(&position.board)
            .name()
            .to_owned(),
    );
    let plans = bgedit_engine::plans(position);
    if let Err(e) = &plans
        && !quiet
        && !SAID.swap(true, Ordering::Relaxed)
    {
        bgedit_core::say!("bgedit: no game plans (\"plans\": null): {e}");
    }
    value.plans = Some(plans.ok());
    bgedit_core::quote::json(&value)
}
