//! Playing moves' part of the snapshot: the move line's question. Playing
//! draws nothing of its own: the held checker is the board's drawing and
//! the line is the footer's, so this file only words what they show.

use bgedit_core::domain::Position;
use bgedit_core::domain::moves::legal_moves;

/// The question of the move input line, with the dice and the count.
pub(crate) fn prompt_label(position: &Position) -> String {
    let s = &position.state;
    match s.dice {
        Some([a, b]) => {
            let n = legal_moves(&position.board, s.on_roll, [a, b]).len();
            format!(
                "Move for {} {a}-{b} ({n} legal move{}; Tab completes)",
                s.on_roll,
                if n == 1 { "" } else { "s" }
            )
        }
        None => "Move (no dice)".to_owned(),
    }
}
