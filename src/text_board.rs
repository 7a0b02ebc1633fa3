//! gnubg's board text, exactly as gnubg 1.07 prints it for `show board`:
//! two ID lines and thirteen board lines, trailing spaces and plural forms
//! included. The test fixtures compare this byte for byte with gnubg's own
//! output for hundreds of positions.
//!
//! The board is always drawn physically the same way (X's home board at the
//! bottom right, O's at the top right); only the point labels, counted for
//! the player on roll, and the `v`/`^` marker change with who is on roll.

use crate::codec::{match_id, position_id};
use crate::domain::{Board, CubeOwner, MatchState, Names, Player, Position, Resignation};
use std::fmt::Write;

/// Lines in a board text.
pub const LINES: usize = 15;

const LABELS_TOP_FOR_X: &str = " +13-14-15-16-17-18------19-20-21-22-23-24-+     ";
const LABELS_BOTTOM_FOR_X: &str = " +12-11-10--9--8--7-------6--5--4--3--2--1-+     ";
const BAR_LINE: &str = "|                  |BAR|                  |     ";
/// The fifth checker row: a count above 5 is a digit or letter (gnubg's
/// `achX`/`achO` tables).
const FIFTH_X: &[u8; 16] = b"     X6789ABCDEF";
const FIFTH_O: &[u8; 16] = b"     O6789ABCDEF";

/// The texts gnubg writes beside the board: index 0 beside the top label
/// line, 1–2 beside the first two rows, 3 beside the bar line, 4–5 beside
/// the last two rows, 6 beside the bottom label line.
#[derive(Default)]
struct Sidebar {
    slots: [Option<String>; 7],
}

fn points(n: u16) -> String {
    if n == 1 {
        "1 point".to_owned()
    } else {
        format!("{n} points")
    }
}

fn match_words(length: u16) -> String {
    if length == 1 {
        "1 point match".to_owned()
    } else {
        format!("{length} points match")
    }
}

/// Whether either player has borne off everything (gnubg's `GameStatus`).
fn game_is_over(board: &Board) -> bool {
    Player::BOTH.iter().any(|&p| board.on_board(p) == 0)
}

fn sidebar(board: &Board, state: &MatchState, names: &Names) -> Sidebar {
    let mut s = Sidebar::default();
    let header = |p: Player| format!("{}: {}", p.symbol(), names.of(p));
    let slot_of = |p: Player, top: usize, bottom: usize| if p == Player::X { bottom } else { top };
    s.slots[0] = Some(header(Player::O));
    s.slots[6] = Some(header(Player::X));
    s.slots[1] = Some(points(state.score[0]));
    s.slots[5] = Some(points(state.score[1]));
    let cube = state.cube_value();
    if state.double_offered {
        // The offer is shown on the side of the player who must answer it;
        // nothing else (roll, cube, match) is shown, as in gnubg.
        s.slots[slot_of(state.turn, 2, 4)] = Some(format!("Cube offered at {}", cube * 2));
        return s;
    }
    let mut roll = match state.dice {
        Some([a, b]) => format!("Rolled {a}{b}"),
        None if !game_is_over(board) => "On roll".to_owned(),
        None => String::new(),
    };
    if state.resignation != Resignation::None {
        let _ = write!(roll, ", resigns {}", state.resignation.words());
    }
    s.slots[slot_of(state.on_roll, 2, 4)] = Some(roll);
    match state.cube_owner {
        CubeOwner::Centred => {
            s.slots[3] = Some(if state.is_money() {
                format!("(Cube: {cube})")
            } else if state.match_length == 1 {
                match_words(1)
            } else if state.crawford {
                format!("{} (Crawford game)", match_words(state.match_length))
            } else {
                format!("{} (Cube: {cube})", match_words(state.match_length))
            });
        }
        CubeOwner::Owned(owner) => {
            s.slots[slot_of(owner, 0, 6)] = Some(format!("{} (Cube: {cube})", header(owner)));
            if !state.is_money() {
                s.slots[3] = Some(match_words(state.match_length));
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

/// One checker row: six points, the bar, six points, the tray.
fn checker_row(
    out: &mut Vec<u8>,
    board: &Board,
    left: impl Iterator<Item = usize>,
    right: impl Iterator<Item = usize>,
    bar: (u8, u8, &[u8; 16]),
    tray: (u8, u8),
    row: u8,
) {
    out.extend_from_slice(b" |");
    for p in left {
        out.extend_from_slice(&[b' ', cell(board, p, row), b' ']);
    }
    out.extend_from_slice(&[b'|', b' ', bar_cell(bar.0, bar.1, bar.2, row), b' ', b'|']);
    for p in right {
        out.extend_from_slice(&[b' ', cell(board, p, row), b' ']);
    }
    out.extend_from_slice(b"| ");
    let (off, symbol) = tray;
    // Three columns of five: the tray fills column by column.
    for column in 0..3u8 {
        out.push(if off > 5 * column + row { symbol } else { b' ' });
    }
}

/// Appends gnubg's 15-line board text (each line ending in `\n`) to `out`.
pub fn write_board(out: &mut String, position: &Position) {
    let Position {
        board,
        state,
        names,
    } = position;
    let side = sidebar(board, state, names);
    let mut bytes = std::mem::take(out).into_bytes();
    let text = |bytes: &mut Vec<u8>, i: usize| {
        if let Some(t) = &side.slots[i] {
            bytes.extend_from_slice(t.as_bytes());
        }
    };
    let x_on_roll = state.on_roll == Player::X;
    let mut ids = String::with_capacity(14);
    position_id::encode_into(board, state.on_roll, &mut ids);
    bytes.extend_from_slice(b" GNU Backgammon  Position ID: ");
    bytes.extend_from_slice(ids.as_bytes());
    bytes.extend_from_slice(b"\n                 Match ID   : ");
    ids.clear();
    match_id::encode_into(state, &mut ids);
    bytes.extend_from_slice(ids.as_bytes());
    bytes.push(b'\n');

    let (top_labels, bottom_labels) = if x_on_roll {
        (LABELS_TOP_FOR_X, LABELS_BOTTOM_FOR_X)
    } else {
        (LABELS_BOTTOM_FOR_X, LABELS_TOP_FOR_X)
    };
    bytes.extend_from_slice(top_labels.as_bytes());
    text(&mut bytes, 0);
    bytes.push(b'\n');

    let o_bar = board.side(Player::O)[24];
    let x_bar = board.side(Player::X)[24];
    let o_off = board.borne_off(Player::O);
    let x_off = board.borne_off(Player::X);
    for row in 0..5u8 {
        checker_row(
            &mut bytes,
            board,
            13..=18,
            19..=24,
            (o_bar, b'O', FIFTH_O),
            (o_off, b'O'),
            row,
        );
        if row < 4 {
            bytes.push(b' ');
        }
        if row < 2 {
            text(&mut bytes, usize::from(row) + 1);
        }
        bytes.push(b'\n');
    }

    bytes.push(if x_on_roll { b'v' } else { b'^' });
    bytes.extend_from_slice(BAR_LINE.as_bytes());
    text(&mut bytes, 3);
    bytes.push(b'\n');

    for row in (0..5u8).rev() {
        checker_row(
            &mut bytes,
            board,
            (7..=12).rev(),
            (1..=6).rev(),
            (x_bar, b'X', FIFTH_X),
            (x_off, b'X'),
            row,
        );
        if row < 4 {
            bytes.push(b' ');
        }
        if row < 2 {
            text(&mut bytes, 5 - usize::from(row));
        }
        bytes.push(b'\n');
    }

    bytes.extend_from_slice(bottom_labels.as_bytes());
    text(&mut bytes, 6);
    bytes.push(b'\n');
    // Only ASCII and the (UTF-8) names were written, so this cannot fail;
    // fall back to a lossy copy rather than panic.
    *out = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
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
