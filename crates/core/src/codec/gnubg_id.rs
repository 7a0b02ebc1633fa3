//! The GNUBG ID, `POSITIONID:MATCHID`. Finding it in pasted text (labels,
//! header lines, a whole board block) is `detect`'s job.

use super::{match_id, position_id};
use crate::domain::{Board, MatchState};

/// Appends `POSITIONID:MATCHID` to `out`, built on the stack and pushed
/// once (`bgedit convert` writes millions).
pub fn encode_into(board: &Board, state: &MatchState, out: &mut String) {
    let mut id = [b':'; position_id::LEN + 1 + match_id::LEN];
    id[..position_id::LEN].copy_from_slice(&position_id::encode_chars(board, state.on_roll));
    id[position_id::LEN + 1..].copy_from_slice(&match_id::encode_chars(state));
    super::ascii::push(out, &id);
}

pub fn encode(board: &Board, state: &MatchState) -> String {
    let mut s = String::with_capacity(27);
    encode_into(board, state, &mut s);
    s
}
