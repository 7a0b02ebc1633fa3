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

/// Lines in a board text.
pub const LINES: usize = 15;

const LABELS_TOP_FOR_X: &str = " +13-14-15-16-17-18------19-20-21-22-23-24-+     ";
const LABELS_BOTTOM_FOR_X: &str = " +12-11-10--9--8--7-------6--5--4--3--2--1-+     ";
const BAR_LINE: &str = "|                  |BAR|                  |     ";
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
fn push_number(out: &mut String, n: u32) {
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
    push_ascii(out, &digits[i..]);
}

impl SideText<'_> {
    /// Appends the text, as gnubg words it (plurals included).
    fn push_into(&self, out: &mut String) {
        match *self {
            SideText::None => {}
            SideText::Header(p, name, cube) => {
                out.push(p.symbol());
                out.push_str(": ");
                out.push_str(name);
                if let Some(c) = cube {
                    out.push_str(" (Cube: ");
                    push_number(out, c);
                    out.push(')');
                }
            }
            SideText::Score(1) => out.push_str("1 point"),
            SideText::Score(n) => {
                push_number(out, u32::from(n));
                out.push_str(" points");
            }
            SideText::Roll(dice, over, resignation) => {
                match dice {
                    Some([a, b]) => {
                        out.push_str("Rolled ");
                        push_number(out, u32::from(a));
                        push_number(out, u32::from(b));
                    }
                    None if !over => out.push_str("On roll"),
                    None => {}
                }
                if resignation != Resignation::None {
                    out.push_str(", resigns ");
                    out.push_str(resignation.words());
                }
            }
            SideText::Offered(n) => {
                out.push_str("Cube offered at ");
                push_number(out, n);
            }
            SideText::MoneyCube(n) => {
                out.push_str("(Cube: ");
                push_number(out, n);
                out.push(')');
            }
            SideText::Match(length, note) => {
                if length == 1 {
                    out.push_str("1 point match");
                } else {
                    push_number(out, u32::from(length));
                    out.push_str(" points match");
                }
                match note {
                    MatchNote::None => {}
                    MatchNote::Cube(c) => {
                        out.push_str(" (Cube: ");
                        push_number(out, c);
                        out.push(')');
                    }
                    MatchNote::Crawford => out.push_str(" (Crawford game)"),
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

/// The checker character at physical point `point` (X's numbering) on row
/// `row` (0 nearest the edge, 4 the fifth row).
fn cell(board: &Board, point: usize, row: u8) -> u8 {
    let x = board.side(Player::X)[point - 1];
    let o = board.side(Player::O)[24 - point];
    if row == 4 {
        if x > 0 {
            FIFTH_X[usize::from(x.min(15))]
        } else {
            FIFTH_O[usize::from(o.min(15))]
        }
    } else if x > row {
        b'X'
    } else if o > row {
        b'O'
    } else {
        b' '
    }
}

fn bar_cell(count: u8, symbol: u8, fifth: &[u8; 16], row: u8) -> u8 {
    if row == 4 {
        fifth[usize::from(count.min(15))]
    } else if count > row {
        symbol
    } else {
        b' '
    }
}

/// One checker row of the top half (`top`, O's bar and tray) or the bottom
/// half (X's): six points, the bar, six points, the tray, given how many
/// checkers that half's owner has borne off. Returns the line and its length.
fn checker_row(board: &Board, top: bool, off: u8, row: u8) -> ([u8; 49], usize) {
    let mut line = *EMPTY_ROW;
    let (owner, fifth) = if top {
        (Player::O, FIFTH_O)
    } else {
        (Player::X, FIFTH_X)
    };
    for i in 0..6 {
        // Top: 13–18 then 19–24; bottom: 12–7 then 6–1 (X's numbering).
        let (left, right) = if top {
            (13 + i, 19 + i)
        } else {
            (12 - i, 6 - i)
        };
        line[3 + 3 * i] = cell(board, left, row);
        line[26 + 3 * i] = cell(board, right, row);
    }
    line[22] = bar_cell(board.side(owner)[24], owner.symbol() as u8, fifth, row);
    // Three columns of five: the tray fills column by column.
    for column in 0..3u8 {
        if off > 5 * column + row {
            line[45 + usize::from(column)] = owner.symbol() as u8;
        }
    }
    // The fifth row ends at the tray; the others have a space before the text.
    (line, if row == 4 { 48 } else { 49 })
}

fn push_ascii(out: &mut String, bytes: &[u8]) {
    // Every byte written here is ASCII, so this never fails.
    if let Ok(text) = std::str::from_utf8(bytes) {
        out.push_str(text);
    }
}

/// Appends gnubg's 15-line board text (each line ending in `\n`) to `out`.
pub fn write_board(out: &mut String, position: &Position) {
    write_board_parts(out, &position.board, &position.state, &position.names);
}

/// `write_board` for a board, state and names held apart (the CLI keeps one
/// set of names for a whole stream).
pub fn write_board_parts(out: &mut String, board: &Board, state: &MatchState, names: &Names) {
    let side = sidebar(board, state, names);
    let text = |out: &mut String, i: usize| side[i].push_into(out);
    let x_on_roll = state.on_roll == Player::X;
    out.push_str(" GNU Backgammon  Position ID: ");
    position_id::encode_into(board, state.on_roll, out);
    out.push_str("\n                 Match ID   : ");
    match_id::encode_into(state, out);
    out.push('\n');

    let (top_labels, bottom_labels) = if x_on_roll {
        (LABELS_TOP_FOR_X, LABELS_BOTTOM_FOR_X)
    } else {
        (LABELS_BOTTOM_FOR_X, LABELS_TOP_FOR_X)
    };
    out.push_str(top_labels);
    text(out, 0);
    out.push('\n');
    let o_off = board.borne_off(Player::O);
    for row in 0..5u8 {
        let (line, len) = checker_row(board, true, o_off, row);
        push_ascii(out, &line[..len]);
        if row < 2 {
            text(out, usize::from(row) + 1);
        }
        out.push('\n');
    }
    out.push(if x_on_roll { 'v' } else { '^' });
    out.push_str(BAR_LINE);
    text(out, 3);
    out.push('\n');
    let x_off = board.borne_off(Player::X);
    for row in (0..5u8).rev() {
        let (line, len) = checker_row(board, false, x_off, row);
        push_ascii(out, &line[..len]);
        if row < 2 {
            text(out, 5 - usize::from(row));
        }
        out.push('\n');
    }
    out.push_str(bottom_labels);
    text(out, 6);
    out.push('\n');
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
        assert_eq!(render(&Position::default()).lines().count(), LINES);
    }
}
