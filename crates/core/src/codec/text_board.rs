//! gnubg's board text, exactly as gnubg 1.07 prints it for `show board`:
//! two ID lines and thirteen board lines, trailing spaces and plural forms
//! included. The test fixtures compare this byte for byte with gnubg's own
//! output for hundreds of positions.
//!
//! The board is always drawn physically the same way (X's home board at the
//! bottom right, O's at the top right); only the point labels, counted for
//! the player on roll, and the `v`/`^` marker change with who is on roll.
//!
//! `bgedit show` draws hundreds of thousands of boards a second, so a board
//! is written without allocating: checker rows are filled into a fixed line
//! and the texts beside the board are written straight into the output.

use crate::codec::{match_id, position_id};
use crate::domain::{Board, CubeOwner, MatchState, Names, Player, Position, Resignation};

const LABELS_TOP_FOR_X: &[u8; 49] = b" +13-14-15-16-17-18------19-20-21-22-23-24-+     ";
const LABELS_BOTTOM_FOR_X: &[u8; 49] = b" +12-11-10--9--8--7-------6--5--4--3--2--1-+     ";
const BAR_LINE: &[u8; 48] = b"|                  |BAR|                  |     ";
/// A checker row before its cells are filled: points, bar, points, tray and
/// the space before the side text (which the fifth row does not have).
const EMPTY_ROW: &[u8; 49] = b" |                  |   |                  |     ";
/// The fifth checker row: a count above 5 is a digit or letter (gnubg's
/// `achX`/`achO` tables).
const FIFTH_X: &[u8; 16] = b"     X6789ABCDEF";
const FIFTH_O: &[u8; 16] = b"     O6789ABCDEF";

/// A text gnubg writes beside the board.
#[derive(Clone, Copy)]
enum SideText<'a> {
    None,
    /// `O: name`, with `(Cube: N)` when that player owns the cube.
    Header(Player, &'a str, Option<u32>),
    /// `N point(s)`.
    Score(u16),
    /// `Rolled 52` / `On roll` / nothing when the game is over, and the
    /// resignation on offer.
    Roll(Option<[u8; 2]>, bool, Resignation),
    /// `Cube offered at N`.
    Offered(u32),
    /// `(Cube: N)` in money play.
    MoneyCube(u32),
    /// `N points match`, with `(Cube: N)` or `(Crawford game)` after it.
    Match(u16, MatchNote),
}

#[derive(Clone, Copy)]
enum MatchNote {
    None,
    Cube(u32),
    Crawford,
}

/// Appends `n` in decimal: formatting machinery costs more than the rest of
/// a side text, and `bgedit show` writes millions of them.
fn push_number(out: &mut Vec<u8>, n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

impl SideText<'_> {
    /// Appends the text, as gnubg words it (plurals included).
    fn push_into(&self, out: &mut Vec<u8>) {
        match *self {
            SideText::None => {}
            SideText::Header(p, name, cube) => {
                out.push(p.symbol() as u8);
                out.extend_from_slice(b": ");
                out.extend_from_slice(name.as_bytes());
                if let Some(c) = cube {
                    out.extend_from_slice(b" (Cube: ");
                    push_number(out, c);
                    out.push(b')');
                }
            }
            SideText::Score(1) => out.extend_from_slice(b"1 point"),
            SideText::Score(n) => {
                push_number(out, u32::from(n));
                out.extend_from_slice(b" points");
            }
            SideText::Roll(dice, over, resignation) => {
                match dice {
                    Some([a, b]) => {
                        out.extend_from_slice(b"Rolled ");
                        push_number(out, u32::from(a));
                        push_number(out, u32::from(b));
                    }
                    None if !over => out.extend_from_slice(b"On roll"),
                    None => {}
                }
                if resignation != Resignation::None {
                    out.extend_from_slice(b", resigns ");
                    out.extend_from_slice(resignation.words().as_bytes());
                }
            }
            SideText::Offered(n) => {
                out.extend_from_slice(b"Cube offered at ");
                push_number(out, n);
            }
            SideText::MoneyCube(n) => {
                out.extend_from_slice(b"(Cube: ");
                push_number(out, n);
                out.push(b')');
            }
            SideText::Match(length, note) => {
                if length == 1 {
                    out.extend_from_slice(b"1 point match");
                } else {
                    push_number(out, u32::from(length));
                    out.extend_from_slice(b" points match");
                }
                match note {
                    MatchNote::None => {}
                    MatchNote::Cube(c) => {
                        out.extend_from_slice(b" (Cube: ");
                        push_number(out, c);
                        out.push(b')');
                    }
                    MatchNote::Crawford => out.extend_from_slice(b" (Crawford game)"),
                }
            }
        }
    }
}

/// Whether either player has borne off everything (gnubg's `GameStatus`).
fn game_is_over(board: &Board) -> bool {
    Player::BOTH.iter().any(|&p| board.on_board(p) == 0)
}

/// The texts beside the board: index 0 beside the top label line, 1–2
/// beside the first two rows, 3 beside the bar line, 4–5 beside the last two
/// rows, 6 beside the bottom label line. This follows gnubg's `ShowBoard`.
fn sidebar<'a>(board: &Board, state: &MatchState, names: &'a Names) -> [SideText<'a>; 7] {
    let mut s = [SideText::None; 7];
    let slot_of = |p: Player, top: usize, bottom: usize| if p == Player::X { bottom } else { top };
    s[0] = SideText::Header(Player::O, names.of(Player::O), None);
    s[6] = SideText::Header(Player::X, names.of(Player::X), None);
    s[1] = SideText::Score(state.score[0]);
    s[5] = SideText::Score(state.score[1]);
    let cube = state.cube_value();
    if state.double_offered {
        // The offer is shown on the side of the player who must answer it;
        // nothing else (roll, cube, match) is shown, as in gnubg.
        s[slot_of(state.turn, 2, 4)] = SideText::Offered(cube * 2);
        return s;
    }
    s[slot_of(state.on_roll, 2, 4)] =
        SideText::Roll(state.dice, game_is_over(board), state.resignation);
    match state.cube_owner {
        CubeOwner::Centred => {
            s[3] = if state.is_money() {
                SideText::MoneyCube(cube)
            } else if state.match_length == 1 {
                SideText::Match(1, MatchNote::None)
            } else if state.crawford {
                SideText::Match(state.match_length, MatchNote::Crawford)
            } else {
                SideText::Match(state.match_length, MatchNote::Cube(cube))
            };
        }
        CubeOwner::Owned(owner) => {
            s[slot_of(owner, 0, 6)] = SideText::Header(owner, names.of(owner), Some(cube));
            if !state.is_money() {
                s[3] = SideText::Match(state.match_length, MatchNote::None);
            }
        }
    }
    s
}

/// What a checker cell shows, by row (0 nearest the edge, 4 the fifth row)
/// and by what the place holds: 0–15 of O's checkers (index 0–15) or 1–15
/// of X's (index 17–31). A checker on each of the first four rows it
/// fills; on the fifth, the symbol or the count (gnubg's `achX`/`achO`).
const CELL: [[u8; 32]; 5] = {
    let mut t = [[b' '; 32]; 5];
    let mut n = 0;
    while n < 16 {
        let mut row = 0;
        while row < 4 {
            if n > row {
                t[row][n] = b'O';
                t[row][16 + n] = b'X';
            }
            row += 1;
        }
        t[4][n] = FIFTH_O[n];
        t[4][16 + n] = FIFTH_X[n];
        n += 1;
    }
    t
};

/// The [`CELL`] index of a place holding `x` of X's and `o` of O's
/// checkers (a point holds one colour; X's when it has any).
fn cell_index(x: u8, o: u8) -> usize {
    if x > 0 {
        16 + usize::from(x.min(15))
    } else {
        usize::from(o.min(15))
    }
}

/// Where each of a row's cells goes: six points, the bar, six points, and
/// the tray's three columns.
const CELL_AT: [usize; 16] = [3, 6, 9, 12, 15, 18, 22, 26, 29, 32, 35, 38, 41, 45, 46, 47];

/// One half's five checker rows, from the edge inwards: the top half (O's
/// bar and tray) or the bottom (X's). Each is a whole 49-byte line: points,
/// bar, points, tray and the space before the side text (which the fifth
/// row, the last, does not have). What each cell holds is found once, then
/// each row is a lookup per cell.
fn half_rows(board: &Board, owner: Player) -> [[u8; 49]; 5] {
    let (x, o) = (board.side(Player::X), board.side(Player::O));
    let top = owner == Player::O;
    let mut held = [0usize; 16];
    for i in 0..6 {
        // Top: 13–18 then 19–24; bottom: 12–7 then 6–1 (X's numbering).
        let (left, right) = if top {
            (13 + i, 19 + i)
        } else {
            (12 - i, 6 - i)
        };
        held[i] = cell_index(x[left - 1], o[24 - left]);
        held[7 + i] = cell_index(x[right - 1], o[24 - right]);
    }
    let bar = board.side(owner)[24];
    held[6] = if top {
        cell_index(0, bar)
    } else {
        cell_index(bar, 0)
    };
    // Three columns of five: the tray fills column by column, the fifth
    // row included (5 of a colour is its symbol on every row).
    let off = board.borne_off(owner);
    for (column, skip) in [0u8, 5, 10].into_iter().enumerate() {
        let n = off.saturating_sub(skip).min(5);
        held[13 + column] = if top {
            cell_index(0, n)
        } else {
            cell_index(n, 0)
        };
    }
    let mut rows = [*EMPTY_ROW; 5];
    for (row, line) in rows.iter_mut().enumerate() {
        let chars = &CELL[row];
        for (&at, &h) in CELL_AT.iter().zip(&held) {
            line[at] = chars[h];
        }
    }
    rows
}

/// Appends gnubg's 15-line board text (each line ending in `\n`) to `out`.
pub fn write_board(out: &mut String, position: &Position) {
    write_board_parts(out, &position.board, &position.state, &position.names);
}

/// `write_board` for a board, state and names held apart (the CLI keeps one
/// set of names for a whole stream).
pub fn write_board_parts(out: &mut String, board: &Board, state: &MatchState, names: &Names) {
    // Built as bytes (fixed lines, lookups, the names' own UTF-8) and
    // checked as text once: cheaper than a check per piece, and a board is
    // drawn hundreds of thousands of times a second by `bgedit show`.
    let mut bytes = std::mem::take(out).into_bytes();
    write_board_bytes(&mut bytes, board, state, names);
    *out = crate::codec::ascii::into_string(bytes);
}

fn write_board_bytes(out: &mut Vec<u8>, board: &Board, state: &MatchState, names: &Names) {
    let side = sidebar(board, state, names);
    let text = |out: &mut Vec<u8>, i: usize| side[i].push_into(out);
    let x_on_roll = state.on_roll == Player::X;
    out.extend_from_slice(b" GNU Backgammon  Position ID: ");
    out.extend_from_slice(&position_id::encode_chars(board, state.on_roll));
    out.extend_from_slice(b"\n                 Match ID   : ");
    out.extend_from_slice(&match_id::encode_chars(state));
    out.push(b'\n');

    let (top_labels, bottom_labels) = if x_on_roll {
        (LABELS_TOP_FOR_X, LABELS_BOTTOM_FOR_X)
    } else {
        (LABELS_BOTTOM_FOR_X, LABELS_TOP_FOR_X)
    };
    out.extend_from_slice(top_labels);
    text(out, 0);
    out.push(b'\n');
    // The fifth row ends at the tray; the others have a space before the
    // text. Whole rows are copied (a fixed length copies fastest) and the
    // fifth row's space is taken back.
    let row = |out: &mut Vec<u8>, line: &[u8; 49], fifth: bool| {
        out.extend_from_slice(line);
        if fifth {
            out.pop();
        }
    };
    let top = half_rows(board, Player::O);
    for (r, line) in top.iter().enumerate() {
        row(out, line, r == 4);
        if r < 2 {
            text(out, r + 1);
        }
        out.push(b'\n');
    }
    out.push(if x_on_roll { b'v' } else { b'^' });
    out.extend_from_slice(BAR_LINE);
    text(out, 3);
    out.push(b'\n');
    let bottom = half_rows(board, Player::X);
    for (r, line) in bottom.iter().enumerate().rev() {
        row(out, line, r == 4);
        if r < 2 {
            text(out, 5 - r);
        }
        out.push(b'\n');
    }
    out.extend_from_slice(bottom_labels);
    text(out, 6);
    out.push(b'\n');
}

/// gnubg's board text for `position`.
pub fn render(position: &Position) -> String {
    let mut s = String::with_capacity(1200);
    write_board(&mut s, position);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gnubg 1.07's `show board` for its own start, names set to the
    /// defaults (trailing spaces matter).
    const START: &str = concat!(
        " GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n",
        "                 Match ID   : cAkAAAAAAAAA\n",
        " +13-14-15-16-17-18------19-20-21-22-23-24-+     O: White\n",
        " | X           O    |   | O              X |     0 points\n",
        " | X           O    |   | O              X |     \n",
        " | X           O    |   | O                |     \n",
        " | X                |   | O                |     \n",
        " | X                |   | O                |    \n",
        "v|                  |BAR|                  |     (Cube: 1)\n",
        " | O                |   | X                |    \n",
        " | O                |   | X                |     \n",
        " | O           X    |   | X                |     \n",
        " | O           X    |   | X              O |     On roll\n",
        " | O           X    |   | X              O |     0 points\n",
        " +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: Black\n",
    );

    #[test]
    fn starting_position_matches_gnubg() {
        assert_eq!(render(&Position::default()), START);
    }

    #[test]
    fn text_has_fifteen_lines() {
        assert_eq!(render(&Position::default()).lines().count(), 15);
    }
}
