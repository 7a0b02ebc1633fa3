//! gnubg's two header lines, as `show board` begins:
//!
//! ```text
//!  GNU Backgammon  Position ID: 4NvBA0DGzooBBg
//!                  Match ID   : QYkqASAAIAAA
//! ```
//!
//! Reading them is [`super::detect`]'s job (it takes them anywhere in
//! a pasted text); this writes them.

use super::{match_id, position_id};
use crate::domain::Position;

/// Appends the two lines, the second without a newline.
pub fn write(position: &Position, out: &mut String) {
    out.push_str(" GNU Backgammon  Position ID: ");
    position_id::encode_into(&position.board, position.state.on_roll, out);
    out.push_str("\n                 Match ID   : ");
    match_id::encode_into(&position.state, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines_read_back() {
        let p = Position::default();
        let mut s = String::new();
        write(&p, &mut s);
        assert_eq!(
            s,
            " GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n                 Match ID   : cAkAAAAAAAAA"
        );
        let back = crate::codec::parse_any(&s, &p).unwrap();
        assert_eq!(back.position, p);
    }
}
