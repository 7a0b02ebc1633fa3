//! eXtreme Gammon's XGID, both ways.
//!
//! `XGID=board:cube:cube owner:turn:dice:X score:O score:rules:length:max cube`
//!
//! - board: 26 characters. Character 1 is O's bar, 2–25 are points 1–24 as
//!   X counts them, 26 is X's bar; `-` is empty, `A`–`P` are 1–16 X
//!   checkers, `a`–`p` 1–16 O checkers.
//! - cube: log2 of the value. Cube owner: 1 X, 0 centred, −1 O.
//! - turn: 1 X, −1 O: the player on roll, or the doubler when dice is `D`.
//! - dice: `00` not rolled, `D` doubled (the opponent decides), or two digits.
//! - rules: in a match 1 = Crawford game; in money Jacoby (1) + beavers (2).
//! - max cube: log2 of the largest cube allowed.
//!
//! This mapping was checked against gnubg's `set xgid`. gnubg puts the larger
//! die first, so reading does too. gnubg also swaps the players when O is on
//! roll so that the roller sits at the bottom; bgedit keeps the seats as the
//! XGID has them (the same game, seen from X's seat), and the fixtures
//! compare with gnubg after mirroring.

use super::error::{IdError, IdKind};
use crate::domain::match_state::{MAX_CUBE_LOG2, MAX_MATCH_NUMBER, larger_first};
use crate::domain::validation::check_match;
use crate::domain::{Board, CubeOwner, GameState, MatchState, Player, Resignation};
use std::fmt::Write;

const BOARD_LEN: usize = 26;
const FIELDS: usize = 10;

/// Strips an optional `XGID=` prefix (any case).
pub(crate) fn strip_prefix(text: &str) -> &str {
    let t = text.trim();
    match t.get(..5) {
        Some(p) if p.eq_ignore_ascii_case("XGID=") => &t[5..],
        _ => t,
    }
}

fn field_error(index: usize, field: &'static str, value: &str, expected: &'static str) -> IdError {
    IdError::XgidField {
        index,
        field,
        // Quoted in the message: cut like every quoted fragment.
        value: crate::quote::clip(value),
        expected,
    }
}

fn number(
    fields: &[&str],
    index: usize,
    field: &'static str,
    expected: &'static str,
) -> Result<i64, IdError> {
    let value = fields[index - 1];
    decimal(value).ok_or_else(|| field_error(index, field, value, expected))
}

/// A decimal integer with an optional minus sign (no plus sign). The
/// fields are short, so the digits are read directly: eight numbers a line
/// in `bgedit convert`.
fn decimal(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest.as_bytes()),
        None => (false, text.as_bytes()),
    };
    // Eighteen digits always fit; longer text goes to the library.
    if digits.is_empty() || digits.len() > 18 {
        return text.parse::<i64>().ok().filter(|_| !text.starts_with('+'));
    }
    let mut n = 0i64;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n * 10 + i64::from(d - b'0');
    }
    Some(if negative { -n } else { n })
}

fn parse_board(text: &str) -> Result<Board, IdError> {
    let found = text.chars().count();
    if found != BOARD_LEN {
        return Err(IdError::WrongLength {
            kind: IdKind::Xgid,
            expected: BOARD_LEN,
            found,
        });
    }
    let mut o = [0u8; 25];
    let mut x = [0u8; 25];
    for (i, ch) in text.chars().enumerate() {
        let (player, count) = match ch {
            '-' => continue,
            'A'..='P' => (Player::X, ch as u8 - b'A' + 1),
            'a'..='p' => (Player::O, ch as u8 - b'a' + 1),
            _ => {
                return Err(IdError::XgidBoard {
                    position: i + 1,
                    ch,
                    reason: "expected '-', A–P (X's checkers) or a–p (O's checkers)",
                });
            }
        };
        match (i, player) {
            (0, Player::O) => o[24] = count,
            (25, Player::X) => x[24] = count,
            (0, Player::X) => {
                return Err(IdError::XgidBoard {
                    position: 1,
                    ch,
                    reason: "character 1 is O's bar and holds only O's checkers (a–p)",
                });
            }
            (25, Player::O) => {
                return Err(IdError::XgidBoard {
                    position: 26,
                    ch,
                    reason: "character 26 is X's bar and holds only X's checkers (A–P)",
                });
            }
            (point, Player::X) => x[point - 1] = count,
            (point, Player::O) => o[24 - point] = count,
        }
    }
    for (player, side) in [(Player::O, &o), (Player::X, &x)] {
        if side.iter().map(|&n| u32::from(n)).sum::<u32>() > 15 {
            return Err(IdError::TooManyCheckers {
                kind: IdKind::Xgid,
                player,
            });
        }
    }
    // Each board character holds one colour, so two colours on a point
    // cannot be written; the board's own checks still run.
    Board::from_sides(o, x).map_err(|source| IdError::Board {
        kind: IdKind::Xgid,
        source,
    })
}

/// Reads an XGID (with or without `XGID=`).
pub fn decode(text: &str) -> Result<(Board, MatchState), IdError> {
    let body = strip_prefix(text);
    // Ten fields, held without allocating: decoding runs a million times a
    // second in `bgedit convert`.
    let mut fields = [""; FIELDS];
    let mut found = 0;
    let mut start = 0;
    for (i, &b) in body.as_bytes().iter().enumerate() {
        if b == b':' {
            if let Some(slot) = fields.get_mut(found) {
                *slot = &body[start..i];
            }
            found += 1;
            start = i + 1;
        }
    }
    if let Some(slot) = fields.get_mut(found) {
        *slot = &body[start..];
    }
    found += 1;
    if found != FIELDS {
        return Err(IdError::XgidFieldCount { found });
    }
    let board = parse_board(fields[0])?;

    let cube = number(&fields, 2, "cube", "the log2 of the cube value, 0–15")?;
    if !(0..=i64::from(MAX_CUBE_LOG2)).contains(&cube) {
        return Err(field_error(
            2,
            "cube",
            fields[1],
            "the log2 of the cube value, 0–15",
        ));
    }
    const OWNER: &str = "1 (X owns), 0 (centred) or -1 (O owns)";
    let cube_owner = match number(&fields, 3, "cube owner", OWNER)? {
        1 => CubeOwner::Owned(Player::X),
        0 => CubeOwner::Centred,
        -1 => CubeOwner::Owned(Player::O),
        _ => return Err(field_error(3, "cube owner", fields[2], OWNER)),
    };
    const TURN: &str = "1 (X) or -1 (O)";
    let on_roll = match number(&fields, 4, "turn", TURN)? {
        1 => Player::X,
        -1 => Player::O,
        _ => return Err(field_error(4, "turn", fields[3], TURN)),
    };
    const DICE: &str = "00 (not rolled), D (doubled) or two dice 1–6";
    let dice_text = fields[4];
    let (dice, double_offered) = match dice_text.as_bytes() {
        b"D" => (None, true),
        b"00" => (None, false),
        [a @ b'1'..=b'6', b @ b'1'..=b'6'] => (Some(larger_first(a - b'0', b - b'0')), false),
        b"B" | b"R" => {
            return Err(field_error(
                5,
                "dice",
                dice_text,
                "beavers and raccoons on offer cannot be held by a Match ID",
            ));
        }
        _ => return Err(field_error(5, "dice", dice_text, DICE)),
    };
    const SCORE: &str = "a score from 0 to 32767";
    let score_x = number(&fields, 6, "X score", SCORE)?;
    let score_o = number(&fields, 7, "O score", SCORE)?;
    for (i, s) in [(6, score_x), (7, score_o)] {
        if !(0..=i64::from(MAX_MATCH_NUMBER)).contains(&s) {
            return Err(field_error(
                i,
                if i == 6 { "X score" } else { "O score" },
                fields[i - 1],
                SCORE,
            ));
        }
    }
    const LENGTH: &str = "a match length from 0 (money) to 32767";
    let length = number(&fields, 9, "match length", LENGTH)?;
    if !(0..=i64::from(MAX_MATCH_NUMBER)).contains(&length) {
        return Err(field_error(9, "match length", fields[8], LENGTH));
    }
    let rules = number(&fields, 8, "rules", "0–1 in a match, 0–3 in money")?;
    let (crawford, jacoby, beavers) = match (length, rules) {
        (1.., 0 | 1) => (rules == 1, false, false),
        (0, 0..=3) => (false, rules & 1 == 1, rules & 2 == 2),
        (1.., _) => {
            return Err(field_error(
                8,
                "rules",
                fields[7],
                "0 or 1 (Crawford game) in a match",
            ));
        }
        _ => {
            return Err(field_error(
                8,
                "rules",
                fields[7],
                "0–3 in money: Jacoby (1) + beavers (2)",
            ));
        }
    };
    const MAX: &str = "the log2 of the largest cube, 0–15";
    let max_cube = number(&fields, 10, "max cube", MAX)?;
    if !(0..=i64::from(MAX_CUBE_LOG2)).contains(&max_cube) {
        return Err(field_error(10, "max cube", fields[9], MAX));
    }

    let mut state = MatchState {
        cube_log2: cube as u8,
        cube_owner,
        on_roll,
        turn: on_roll,
        double_offered,
        resignation: Resignation::None,
        game_state: GameState::Playing,
        dice,
        match_length: length as u16,
        score: [score_o as u16, score_x as u16],
        crawford,
        jacoby,
        beavers,
        max_cube_log2: max_cube as u8,
    };
    state.turn = state.expected_turn();
    check_match(&state).map_err(|source| IdError::Match {
        kind: IdKind::Xgid,
        source,
    })?;
    Ok((board, state))
}

fn board_char(player: Player, count: u8) -> char {
    if count == 0 {
        return '-';
    }
    let base = match player {
        Player::X => b'A',
        Player::O => b'a',
    };
    char::from(base + count.min(16) - 1)
}

/// Appends the XGID (with its `XGID=` prefix) to `out`.
pub fn encode_into(board: &Board, state: &MatchState, out: &mut String) {
    out.push_str("XGID=");
    out.push(board_char(Player::O, board.side(Player::O)[24]));
    for point in 1..=24usize {
        let x = board.side(Player::X)[point - 1];
        let o = board.side(Player::O)[24 - point];
        out.push(if x > 0 {
            board_char(Player::X, x)
        } else {
            board_char(Player::O, o)
        });
    }
    out.push(board_char(Player::X, board.side(Player::X)[24]));
    let owner = match state.cube_owner {
        CubeOwner::Owned(Player::X) => 1,
        CubeOwner::Centred => 0,
        CubeOwner::Owned(Player::O) => -1,
    };
    let turn = if state.on_roll == Player::X { 1 } else { -1 };
    let _ = write!(out, ":{}:{}:{}:", state.cube_log2, owner, turn);
    match (state.double_offered, state.dice) {
        (true, _) => out.push('D'),
        (false, None) => out.push_str("00"),
        (false, Some([a, b])) => {
            let [a, b] = larger_first(a, b);
            out.push(char::from(b'0' + a.min(9)));
            out.push(char::from(b'0' + b.min(9)));
        }
    }
    let rules = if state.is_money() {
        u8::from(state.jacoby) + 2 * u8::from(state.beavers)
    } else {
        u8::from(state.crawford)
    };
    let _ = write!(
        out,
        ":{}:{}:{}:{}:{}",
        state.score[Player::X.index()],
        state.score[Player::O.index()],
        rules,
        state.match_length,
        state.max_cube_log2
    );
}

pub fn encode(board: &Board, state: &MatchState) -> String {
    let mut s = String::with_capacity(64);
    encode_into(board, state, &mut s);
    s
}

/// What a Match ID holds that an XGID cannot, for `state`: one sentence each.
pub fn dropped_by_xgid(state: &MatchState) -> Vec<String> {
    let mut notes = Vec::new();
    if state.game_state != GameState::Playing {
        notes.push(format!(
            "the game state ({}) is not kept: an XGID is always a game in play",
            state.game_state.words()
        ));
    }
    if state.resignation != Resignation::None {
        notes.push(format!(
            "the resignation on offer ({}) is not kept: an XGID cannot hold one",
            state.resignation.words()
        ));
    }
    // With a resignation on offer the note above already covers the turn.
    if state.resignation == Resignation::None && state.turn != state.expected_turn() {
        notes.push(format!(
            "the player to decide ({}) is not kept: an XGID derives it from the player on roll",
            state.turn
        ));
    }
    if state.double_offered && state.dice.is_some() {
        notes.push("the dice are not kept: an XGID with a double on offer has no dice".to_owned());
    }
    if !state.is_money() && state.jacoby {
        notes.push("the Match ID's Jacoby bit (unused in match play) is not kept: gnubg reads a match XGID with it off".to_owned());
    }
    if state.is_money() && state.crawford {
        notes.push("the Crawford flag is not kept in a money game".to_owned());
    }
    notes
}

/// What an XGID holds that a GNUBG ID cannot.
pub fn dropped_by_gnubg_id(state: &MatchState) -> Vec<String> {
    let mut notes = Vec::new();
    if state.is_money() && !state.beavers {
        notes.push(
            "\"no beavers\" is not kept: a GNUBG ID does not carry the beaver rule".to_owned(),
        );
    }
    if state.max_cube_log2 != crate::domain::match_state::DEFAULT_MAX_CUBE_LOG2 {
        notes.push(format!(
            "the maximum cube ({}) is not kept: a GNUBG ID does not carry it",
            1u32 << state.max_cube_log2
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_read_as_the_library_reads_them_without_a_plus() {
        for text in [
            "0",
            "1",
            "-1",
            "007",
            "-0",
            "32767",
            "-",
            "",
            "+1",
            "1a",
            " 1",
            "1 ",
            "99999999999999999",
            "999999999999999999",
            "9999999999999999999",
            "-9223372036854775808",
            "12345678901234567890",
            "１",
        ] {
            let library = text.parse::<i64>().ok().filter(|_| !text.starts_with('+'));
            assert_eq!(decimal(text), library, "{text:?}");
        }
    }
    use crate::domain::Place;

    const START: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10";

    #[test]
    fn starting_position_round_trips() {
        let (board, state) = decode(START).unwrap();
        assert_eq!(board, Board::starting());
        assert_eq!(state.on_roll, Player::X);
        assert!(state.jacoby && state.beavers);
        assert_eq!(encode(&board, &state), START);
    }

    #[test]
    fn prefix_is_optional() {
        assert_eq!(decode(&START[5..]).unwrap(), decode(START).unwrap());
        assert_eq!(
            decode("xgid=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10").unwrap(),
            decode(START).unwrap()
        );
    }

    #[test]
    fn bars_points_and_scores_map_as_gnubg_reads_them() {
        // Checked with gnubg: O has one on its bar, X one on its ace point
        // and two on its 22 point; X leads 3-1 in a 7-point match.
        let (board, state) = decode("XGID=aA--------------------B---:0:0:1:00:3:1:0:7:10").unwrap();
        assert_eq!(board.count(Player::O, Place::Bar(Player::O)), 1);
        assert_eq!(board.count(Player::X, Place::Point(1)), 1);
        assert_eq!(board.count(Player::X, Place::Point(22)), 2);
        assert_eq!(state.score, [1, 3]);
        assert_eq!(state.match_length, 7);
        assert!(!state.jacoby, "gnubg reads a match XGID with Jacoby off");
    }

    #[test]
    fn lower_case_is_o_counted_from_xs_side() {
        let text = format!("XGID=--a{}:0:0:1:00:0:0:0:0:10", "-".repeat(23));
        let (board, _) = decode(&text).unwrap();
        assert_eq!(board.count(Player::O, Place::Point(2)), 1);
        assert_eq!(board.side(Player::O)[22], 1, "X's 2 point is O's 23 point");
        assert_eq!(encode(&board, &decode(&text).unwrap().1), text);
    }

    #[test]
    fn dice_are_read_larger_first_and_d_means_doubled() {
        let (_, s) = decode("XGID=-b----E-C---eE---c-e----B-:0:0:1:25:0:0:3:0:10").unwrap();
        assert_eq!(s.dice, Some([5, 2]));
        let (_, s) = decode("XGID=-b----E-C---eE---c-e----B-:1:1:-1:D:0:0:3:0:10").unwrap();
        assert!(s.double_offered);
        assert_eq!(s.on_roll, Player::O);
        assert_eq!(s.turn, Player::X);
        assert_eq!(s.dice, None);
    }

    #[test]
    fn errors_name_the_field() {
        let e = decode("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:3:0:10").unwrap_err();
        assert_eq!(
            e.to_string(),
            "XGID field 3 (cube owner) is '2': 1 (X owns), 0 (centred) or -1 (O owns)"
        );
        let e = decode("XGID=-b----E-C---eE---c-e----B-:0:0:1:07:0:0:3:0:10").unwrap_err();
        assert!(
            e.to_string().starts_with("XGID field 5 (dice) is '07'"),
            "{e}"
        );
        let e = decode("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0").unwrap_err();
        assert_eq!(e, IdError::XgidFieldCount { found: 9 });
        let e = decode("XGID=-b----E-C---eE---c-e--?-B-:0:0:1:00:0:0:3:0:10").unwrap_err();
        assert!(
            matches!(
                e,
                IdError::XgidBoard {
                    position: 23,
                    ch: '?',
                    ..
                }
            ),
            "{e:?}"
        );
        let e = decode("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10").unwrap_err();
        assert!(matches!(e, IdError::XgidBoard { position: 1, .. }), "{e:?}");
        let e = decode("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10").unwrap_err();
        assert!(
            e.to_string()
                .contains("X's score 7 is not below the match length 7"),
            "{e}"
        );
        let e = decode("XGID=-b----E-C---eE---c-e----BP:0:0:1:00:0:0:3:0:10").unwrap_err();
        assert_eq!(
            e,
            IdError::TooManyCheckers {
                kind: IdKind::Xgid,
                player: Player::X
            }
        );
    }

    #[test]
    fn crawford_flag_in_a_match() {
        let (_, s) = decode("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:3:1:7:10").unwrap();
        assert!(s.crawford);
        assert_eq!(s.score, [3, 6]);
    }

    #[test]
    fn what_does_not_fit_is_named() {
        let s = MatchState {
            resignation: Resignation::Gammon,
            game_state: GameState::Resigned,
            ..MatchState::default()
        };
        let notes = dropped_by_xgid(&s);
        assert!(notes.iter().any(|n| n.contains("resignation")));
        assert!(notes.iter().any(|n| n.contains("game state")));
        let s = MatchState {
            beavers: false,
            max_cube_log2: 8,
            ..MatchState::default()
        };
        assert_eq!(dropped_by_gnubg_id(&s).len(), 2);
        assert!(dropped_by_gnubg_id(&MatchState::default()).is_empty());
    }
}
