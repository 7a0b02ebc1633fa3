//! Playing moves in the editor: the move input line (`M`, Enter plays,
//! Tab completes), picking a checker up and dropping it (`Space`, `Esc`
//! puts it back, the mouse drags it), rolling the dice (`r`) and passing
//! the turn (`P`). Pure like the reducer it belongs to: the dice come back
//! from the runtime as an action.
//!
//! - `state.rs`: the checker held, the steps dropped, the actions
//! - `update.rs`: what the actions do (pure)
//! - `keys.rs`: playing's rows of the normal mode's bindings
//! - `view.rs`: the move line's question, for the snapshot
//! - `dice.rs`: random dice, for the runtime (`r` asks for them)

pub(crate) mod dice;
pub(crate) mod keys;
pub mod state;
pub mod update;
pub mod view;

// What other features use of playing: a click on the board may start a
// drag (the board's update tells play of it), and the quiz's move line
// completes a move as the board's does.
pub(crate) use update::{completion, note_press};
