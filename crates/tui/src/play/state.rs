//! Playing's state and actions, pure data: the model holds the state, the
//! actions come from keys, the mouse and the runtime (`play::update` does
//! them).

use bgedit_core::domain::notation::Step;
use bgedit_core::domain::{Place, Player, Position};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayAction {
    /// Opens the move input line.
    OpenPrompt,
    /// Plays the typed move (the input line's Enter).
    Submit(String),
    /// Tab in the move input line: the next legal move starting with what
    /// was typed.
    Complete,
    /// Picks up the top checker at the cursor, or drops the one held.
    PickOrDrop,
    /// Puts the held checker back.
    PutBack,
    /// The mouse moved with the left button down over a place.
    DragTo(Place),
    /// The left button was released over a place.
    Release(Place),
    /// Asks the runtime for random dice.
    Roll,
    /// Passes the turn without moving.
    Pass,
    /// The runtime could not get random dice.
    RollFailed(super::dice::DiceError),
}

/// A checker picked up and not yet dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carry {
    pub player: Player,
    pub from: Place,
}

/// Steps dropped one at a time with dice set, to say whether they make a
/// legal move. `last` is the position after the latest drop: any other edit
/// in between starts the count again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track {
    pub start: Position,
    pub steps: Vec<Step>,
    pub last: Position,
}

/// The editor's move state, kept in the model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayState {
    pub carrying: Option<Carry>,
    pub track: Option<Track>,
    /// (typed stem, index of the completion shown) while Tab cycles.
    pub completion: Option<(String, usize)>,
    /// A left press on a place: where, and the position before the click it
    /// made (a drag that follows takes that click back).
    pub press: Option<(Place, Position, usize)>,
}
