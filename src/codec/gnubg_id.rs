//! The GNUBG ID, `POSITIONID:MATCHID`. Finding it in pasted text (labels,
//! header lines, a whole board block) is `detect`'s job.

use super::{match_id, position_id};
use crate::domain::{Board, MatchState};

/// Appends `POSITIONID:MATCHID` to `out`.
pub fn encode_into(board: &Board, state: &MatchState, out: &mut String) {
    position_id::encode_into(board, state.on_roll, out);
    out.push(':');
    match_id::encode_into(state, out);
}

pub fn encode(board: &Board, state: &MatchState) -> String {
    let mut s = String::with_capacity(27);
    encode_into(board, state, &mut s);
    s
}
