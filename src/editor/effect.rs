//! What the reducer asks the outside world to do. The runtime performs these
//! and reports results back as actions; the reducer itself does no I/O.

use super::action::CopyTarget;
use super::library::Request;
use crate::domain::Position;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Write the position to the save file.
    Save(Position),
    /// Put `text` on the clipboard.
    Copy { target: CopyTarget, text: String },
    /// Read the clipboard and send back `Action::Pasted`.
    ReadClipboard,
    /// Leave: restore the terminal and print the final IDs.
    Quit,
    /// Ask the library worker; it answers with `Action::Library`.
    Library(Request),
}
