//! eXtreme Gammon's text export, the block players paste into forums:
//!
//! ```text
//! XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10
//!
//! X:Black   O:White
//! Score is X:0 O:0 Money session
//!  +13-14-15-16-17-18------19-20-21-22-23-24-+
//!  | X           O    |   | O              X |
//!  …
//!  +12-11-10--9--8--7-------6--5--4--3--2--1-+
//! Pip count  X: 167  O: 167 X-O: 0-0
//! Cube: 1
//! X to play 52
//! ```
//!
//! The XGID carries the position and match; the `X:… O:…` line the names
//! (which the XGID does not). Reading takes the first XGID in the text and
//! the names line if there is one; the rest (score, pips, board) follows
//! from the XGID and is not read again.
//!
//! XG's text calls the player on roll `X`, wherever the XGID seats them:
//! with its top player on roll (the XGID's turn −1, bgedit's O) the names
//! line, the score, the pips, the cube's owner and the board's letters all
//! name that player `X` (`Score is X:3 O:4 …`, `X to play 63`). Reading
//! takes the roller's letter from the line that says who is on roll and
//! gives the names to the XGID's seats accordingly; writing does as XG.

use super::error::{IdError, IdKind};
use super::xgid;
use crate::codec::text_board;
use crate::domain::{CubeOwner, Names, Player, Position};
use std::fmt::Write;

/// Longest text read (a pasted forum post).
pub(crate) const MAX_LEN: usize = 64 * 1024;

/// Whether `text` is a multi-line block with an XGID line in it.
pub(crate) fn looks_like(text: &str) -> bool {
    let t = text.trim();
    // An XGID line alone is not an export (gnubg's board block with an XGID
    // after it is not): XG's names line or its signature must be there too.
    t.contains('\n')
        && t.lines()
            .any(|l| l.trim_start().to_ascii_uppercase().starts_with("XGID="))
        && t.lines()
            .any(|l| names_line(l).is_some() || l.contains("eXtreme Gammon"))
}

/// What stands between the two names of XG's names line.
const SEPARATOR: &str = "   O:";

/// The names on an `X:name   O:name` line. XG puts three blanks before
/// `O:`: the first such is the separator (bgedit writes none in the first
/// name, so a name holding `O:` reads back as it was written); a line with
/// fewer blanks is split at its last ` O:`.
fn names_line(line: &str) -> Option<Names> {
    let line = line.trim();
    let rest = line.strip_prefix("X:")?;
    let (at, sep) = match rest.find(SEPARATOR) {
        Some(at) => (at, SEPARATOR.len()),
        None => (rest.rfind(" O:")?, " O:".len()),
    };
    let x = rest[..at].trim();
    let o = rest[at + sep..].trim();
    (!x.is_empty() && !o.is_empty()).then(|| Names {
        o: o.to_owned(),
        x: x.to_owned(),
    })
}

/// Reads an XG text export; names not given come from `base`.
pub fn read(text: &str, base: &Names) -> Result<Position, IdError> {
    super::checked_names(read_unchecked(text, base)?, IdKind::Xgid)
}

fn read_unchecked(text: &str, base: &Names) -> Result<Position, IdError> {
    if text.len() > MAX_LEN {
        return Err(IdError::Malformed {
            kind: IdKind::Xgid,
            detail: format!(
                "the text has {} bytes; at most {MAX_LEN} are read",
                text.len()
            ),
        });
    }
    let line = text
        .lines()
        .find(|l| l.trim_start().to_ascii_uppercase().starts_with("XGID="))
        .ok_or_else(|| IdError::Unrecognized("no XGID= line in the text".to_owned()))?;
    let (board, state) = xgid::decode(xgid::strip_prefix(line))?;
    let names = match text.lines().find_map(names_line) {
        // XG's `X` is the roller: the XGID's O when its turn is −1.
        Some(n) if roller_letter(text) == Some(state.on_roll.opponent()) => {
            Names { o: n.x, x: n.o }
        }
        Some(n) => n,
        None => base.clone(),
    };
    Ok(Position {
        board,
        state,
        names,
    })
}

/// The letter (as bgedit's player) of the line that says who is on roll:
/// `X to play 63`, `X on roll, cube action`, `X à jouer 52`: the first line
/// that starts with the letter and a blank, before the analysis.
fn roller_letter(text: &str) -> Option<Player> {
    text.lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("1."))
        .find_map(|l| match l.get(..2) {
            Some("X ") => Some(Player::X),
            Some("O ") => Some(Player::O),
            _ => None,
        })
}

/// Writes the XG-style text export of `position`, as XG writes it: the
/// player on roll is `X` (see the module's notes).
pub fn write(position: &Position, out: &mut String) {
    let (b, s, n) = (&position.board, &position.state, &position.names);
    xgid::encode_into(b, s, out);
    // XG's X and O for bgedit's player.
    let flip = s.on_roll == Player::O;
    let as_xg = |p: Player| if flip { p.opponent() } else { p };
    let (xg_x, xg_o) = (as_xg(Player::X), as_xg(Player::O));
    // The first name may not hold the separator (it would end there): a
    // blank less before its `O:`.
    let mut first = n.of(xg_x).to_owned();
    while first.contains(SEPARATOR) {
        first = first.replace(SEPARATOR, "  O:");
    }
    let _ = write!(out, "\n\nX:{first}{SEPARATOR}{}\n", n.of(xg_o));
    let (x, o) = (s.score_of(xg_x), s.score_of(xg_o));
    if s.is_money() {
        let _ = writeln!(out, "Score is X:{x} O:{o} Money session");
    } else {
        let _ = writeln!(out, "Score is X:{x} O:{o} {} pt.(s) match.", s.match_length);
    }
    // The board as gnubg draws it, without the IDs and the texts beside it.
    let board = text_board::render(position);
    for line in board.lines().skip(2) {
        let cut: String = line
            .chars()
            .take(46)
            .map(|c| match c {
                'X' if flip => 'O',
                'O' if flip => 'X',
                c => c,
            })
            .collect();
        let _ = writeln!(out, "{}", cut.trim_end());
    }
    let (px, po) = (b.pip_count(xg_x), b.pip_count(xg_o));
    let _ = write!(out, "Pip count  X: {px}  O: {po} X-O: {x}-{o}");
    if !s.is_money() {
        let _ = write!(out, "/{}", s.match_length);
    }
    if s.crawford {
        out.push_str(" Crawford");
    }
    out.push('\n');
    let _ = write!(out, "Cube: {}", s.cube_value());
    if let CubeOwner::Owned(p) = s.cube_owner {
        let _ = write!(out, ", {} own cube", as_xg(p));
    }
    out.push('\n');
    let roller = as_xg(s.on_roll);
    if s.double_offered {
        let _ = writeln!(
            out,
            "{roller} doubles, {} to take or pass",
            roller.opponent()
        );
    } else if let Some([a, c]) = s.dice {
        let _ = writeln!(out, "{roller} to play {a}{c}");
    } else {
        let _ = writeln!(out, "{roller} on roll, cube action");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the fuzz target: a names line whose second name holds
    /// ` O:` was split at another place once written and read again.
    #[test]
    fn names_holding_o_colon_read_back_as_written() {
        let text = "XGID=h----g---B----------------:3:0:-1:21:0:0:0:1:10\n\n\
                    X:Black   O: is X:0 O:0 1 pt.(s) match.\nO to play 21\n";
        let first = read(text, &Names::default()).unwrap();
        let mut written = String::new();
        write(&first, &mut written);
        let again = read(&written, &Names::default()).unwrap();
        assert_eq!(again.names, first.names, "{written}");
        let mut twice = String::new();
        write(&again, &mut twice);
        assert_eq!(twice, written);
    }

    #[test]
    fn writes_and_reads_back_with_names() {
        let base = Position::default();
        let p = crate::codec::parse_any("4NvBA0DGzooBBg:QYkqASAAIAAA", &base)
            .unwrap()
            .position;
        let p = Position {
            names: Names {
                o: "alice".into(),
                x: "bob smith".into(),
            },
            ..p
        };
        let mut s = String::new();
        write(&p, &mut s);
        assert!(
            s.starts_with("XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10\n\n"),
            "{s}"
        );
        assert!(s.contains("X:bob smith   O:alice\n"), "{s}");
        assert!(s.contains("Score is X:4 O:2 9 pt.(s) match.\n"), "{s}");
        assert!(s.contains("Pip count  X: 135  O: 145 X-O: 4-2/9\n"), "{s}");
        assert!(s.contains("Cube: 2, O own cube\nX to play 52\n"), "{s}");
        assert!(looks_like(&s));
        let back = read(&s, &Names::default()).unwrap();
        assert_eq!(back.names, p.names);
        assert_eq!(back.board, p.board);
    }
}
