//! FIBS `board:` lines, as gnubg prints them with `set output rawboard on`
//! and as FIBS clients exchange them, both ways.
//!
//! `board:player:opponent:length:player's score:opponent's score:` then 26
//! counts (index 0 and 25 the bars, 1–24 the points; the player's checkers
//! have the sign of `colour`), then `turn:dice:dice:opponent's dice:
//! opponent's dice:cube:player may double:opponent may double:doubled:
//! colour:direction:home:bar:player off:opponent off:player on bar:opponent
//! on bar:can move:forced move:did Crawford:redoubles` — 53 fields in all.
//!
//! gnubg writes X as the player (colour 1, direction −1, so index i is X's
//! point i), O as the opponent, `turn` 1 when X is on roll, the dice twice,
//! `doubled` −1 when X must answer a double and 1 when O must, `did
//! Crawford` 1 after the Crawford game and (1.07) the last field 0 in the
//! Crawford game, else 1. Names have `:` replaced by `_`. Match length 9999
//! is FIBS's unlimited (money) session.

use super::error::{IdError, IdKind};
use crate::domain::match_state::MAX_MATCH_NUMBER;
use crate::domain::validation::check_match;
use crate::domain::{Board, CubeOwner, MatchState, Names, Player, Position};
use std::fmt::Write;

const FIELDS: usize = 53;
/// Longest line read.
pub(crate) const MAX_LEN: usize = 4096;

fn err(detail: impl Into<String>) -> IdError {
    IdError::Malformed {
        kind: IdKind::Fibs,
        detail: detail.into(),
    }
}

/// Whether `text` is a FIBS board line.
pub(crate) fn looks_like(text: &str) -> bool {
    text.trim_start().starts_with("board:")
}

const FIELD_NAMES: [&str; FIELDS] = [
    "board",
    "player",
    "opponent",
    "match length",
    "player's score",
    "opponent's score",
    "bar",
    "point 1",
    "point 2",
    "point 3",
    "point 4",
    "point 5",
    "point 6",
    "point 7",
    "point 8",
    "point 9",
    "point 10",
    "point 11",
    "point 12",
    "point 13",
    "point 14",
    "point 15",
    "point 16",
    "point 17",
    "point 18",
    "point 19",
    "point 20",
    "point 21",
    "point 22",
    "point 23",
    "point 24",
    "bar",
    "turn",
    "die 1",
    "die 2",
    "opponent's die 1",
    "opponent's die 2",
    "cube",
    "player may double",
    "opponent may double",
    "doubled",
    "colour",
    "direction",
    "home",
    "bar index",
    "player off",
    "opponent off",
    "player on bar",
    "opponent on bar",
    "can move",
    "forced move",
    "did Crawford",
    "redoubles",
];

/// Reads a FIBS board line: X is the player, O the opponent.
pub fn read(text: &str) -> Result<Position, IdError> {
    super::checked_names(read_unchecked(text)?, IdKind::Fibs)
}

fn read_unchecked(text: &str) -> Result<Position, IdError> {
    let (fields, n) = split_fields(text)?;
    let colour = n[41];
    let direction = n[42];
    if colour.abs() != 1 || direction.abs() != 1 {
        return Err(err(format!(
            "colour {colour} and direction {direction}: each is 1 or -1"
        )));
    }
    let board = read_board(&n, colour, direction)?;
    let state = read_state(&n, colour)?;
    Ok(Position {
        board,
        state,
        names: Names {
            o: fields[2].to_owned(),
            x: fields[1].to_owned(),
        },
    })
}

/// The line's 53 fields as written and, from the fourth on, as numbers.
fn split_fields(text: &str) -> Result<(Vec<&str>, [i64; FIELDS]), IdError> {
    let text = text.trim();
    if text.len() > MAX_LEN {
        return Err(err(format!(
            "the line has {} bytes; at most {MAX_LEN} are read",
            text.len()
        )));
    }
    let fields: Vec<&str> = text.split(':').collect();
    if fields.len() != FIELDS {
        return Err(err(format!(
            "{} fields; a board line has {FIELDS} (board:player:opponent:length:…)",
            fields.len()
        )));
    }
    if fields[0] != "board" {
        return Err(err("a board line starts with 'board:'"));
    }
    let mut n = [0i64; FIELDS];
    for (i, f) in fields.iter().enumerate().skip(3) {
        n[i] = f.trim().parse().map_err(|_| {
            err(format!(
                "field {} ({}) is '{f}', not a number",
                i + 1,
                FIELD_NAMES[i]
            ))
        })?;
    }
    Ok((fields, n))
}

/// Field `i`, the signed count `v`, as a number of checkers.
fn checker_count(v: i64, i: usize) -> Result<u8, IdError> {
    u8::try_from(v.abs())
        .ok()
        .filter(|&c| c <= 15)
        .ok_or_else(|| {
            err(format!(
                "field {} ({}) is {v}: at most 15",
                i + 1,
                FIELD_NAMES[i]
            ))
        })
}

/// The board from the 26 count fields, turned so that X is the player.
fn read_board(n: &[i64; FIELDS], colour: i64, direction: i64) -> Result<Board, IdError> {
    let (mut x, mut o) = ([0u8; 25], [0u8; 25]);
    // Physical index 1–24 of the board fields; the player's own point.
    for own in 0..24usize {
        let field = if direction < 0 { own + 1 } else { 24 - own };
        let v = n[6 + field];
        let c = checker_count(v, 6 + field)?;
        if v * colour > 0 {
            x[own] = c;
        } else if v != 0 {
            o[23 - own] = c;
        }
    }
    let (my_bar, their_bar) = if direction < 0 { (31, 6) } else { (6, 31) };
    x[24] = checker_count(n[my_bar], my_bar)?;
    o[24] = checker_count(n[their_bar], their_bar)?;
    Board::from_sides(o, x).map_err(|source| IdError::Board {
        kind: IdKind::Fibs,
        source,
    })
}

/// Field `i` as a match length or score.
fn match_number(n: &[i64; FIELDS], i: usize) -> Result<u16, IdError> {
    u16::try_from(n[i])
        .ok()
        .filter(|&v| v <= MAX_MATCH_NUMBER)
        .ok_or_else(|| {
            err(format!(
                "field {} ({}) is {}: 0 to {MAX_MATCH_NUMBER}",
                i + 1,
                FIELD_NAMES[i],
                n[i]
            ))
        })
}

/// The match state: length and score, turn, dice, cube, Crawford.
fn read_state(n: &[i64; FIELDS], colour: i64) -> Result<MatchState, IdError> {
    let mut state = MatchState {
        match_length: if n[3] == 9999 { 0 } else { match_number(n, 3)? },
        ..MatchState::default()
    };
    state.score[Player::X.index()] = match_number(n, 4)?;
    state.score[Player::O.index()] = match_number(n, 5)?;
    state.jacoby = state.is_money();
    let turn = n[32];
    if turn == 0 {
        return Err(err("field 33 (turn) is 0: the game is over"));
    }
    state.on_roll = if turn * colour > 0 {
        Player::X
    } else {
        Player::O
    };
    state.dice = read_dice(n)?;
    read_cube(n, colour, &mut state)?;
    let at_last_point = state.match_length > 0
        && state
            .score
            .iter()
            .any(|&s| s.saturating_add(1) == state.match_length);
    state.crawford = at_last_point && n[51] == 0;
    check_match(&state).map_err(|source| IdError::Match {
        kind: IdKind::Fibs,
        source,
    })?;
    Ok(state)
}

/// Field `i` as a die, 0 for not rolled.
fn die(n: &[i64; FIELDS], i: usize) -> Result<u8, IdError> {
    u8::try_from(n[i]).ok().filter(|&d| d <= 6).ok_or_else(|| {
        err(format!(
            "field {} ({}) is {}: 0 to 6",
            i + 1,
            FIELD_NAMES[i],
            n[i]
        ))
    })
}

/// The dice: the player's, else the opponent's (a line has both pairs).
fn read_dice(n: &[i64; FIELDS]) -> Result<Option<[u8; 2]>, IdError> {
    let (mut d0, mut d1) = (die(n, 33)?, die(n, 34)?);
    if d0 == 0 {
        (d0, d1) = (die(n, 35)?, die(n, 36)?);
    }
    match (d0, d1) {
        (0, 0) => Ok(None),
        (a, b) if a > 0 && b > 0 => Ok(Some([a, b])),
        (a, b) => Err(err(format!(
            "dice {a} and {b}: both 1–6, or both 0 for not rolled"
        ))),
    }
}

/// The cube's value and owner, and a double on offer (which sets who
/// decides, and so who rolled).
fn read_cube(n: &[i64; FIELDS], colour: i64, state: &mut MatchState) -> Result<(), IdError> {
    let cube = n[37];
    if cube < 1 || !(cube as u64).is_power_of_two() || cube > 1 << 15 {
        return Err(err(format!(
            "field 38 (cube) is {cube}: a power of two from 1 to 32768"
        )));
    }
    state.cube_log2 = (cube as u64).trailing_zeros() as u8;
    state.cube_owner = match (n[38] != 0, n[39] != 0) {
        (true, false) => CubeOwner::Owned(Player::X),
        (false, true) => CubeOwner::Owned(Player::O),
        _ => CubeOwner::Centred,
    };
    if n[40] != 0 {
        state.double_offered = true;
        let decider = if n[40] * colour < 0 {
            Player::X
        } else {
            Player::O
        };
        state.turn = decider;
        state.on_roll = decider.opponent();
    } else {
        state.turn = state.on_roll;
    }
    Ok(())
}

fn name(s: &str, out: &mut String) {
    out.extend(s.chars().map(|c| match c {
        ':' => '_',
        c if c.is_control() => ' ',
        c => c,
    }));
}

/// Writes `position` as gnubg 1.07's raw board.
pub fn write(position: &Position, out: &mut String) {
    let (b, s) = (&position.board, &position.state);
    out.push_str("board:");
    name(&position.names.x, out);
    out.push(':');
    name(&position.names.o, out);
    let _ = write!(
        out,
        ":{}:{}:{}:{}:",
        s.match_length,
        s.score_of(Player::X),
        s.score_of(Player::O),
        -i32::from(b.side(Player::O)[24])
    );
    let (x, o) = (b.side(Player::X), b.side(Player::O));
    for i in 0..24 {
        let theirs = o[23 - i];
        let v = if theirs > 0 {
            -i32::from(theirs)
        } else {
            i32::from(x[i])
        };
        let _ = write!(out, "{v}:");
    }
    let [d0, d1] = s.dice.unwrap_or([0, 0]);
    let owner = s.cube_owner;
    let doubled = match (s.double_offered, s.turn) {
        (false, _) => 0,
        (true, Player::X) => -1,
        (true, Player::O) => 1,
    };
    let post_crawford = s.match_length > 0
        && !s.crawford
        && s.score
            .iter()
            .any(|&v| v.saturating_add(1) == s.match_length);
    let _ = write!(
        out,
        "{}:{}:{d0}:{d1}:{d0}:{d1}:{}:{}:{}:{doubled}:1:-1:0:25:{}:{}:0:0:0:0:{}:{}",
        x[24],
        if s.on_roll == Player::X { 1 } else { -1 },
        s.cube_value(),
        u8::from(owner != CubeOwner::Owned(Player::O)),
        u8::from(owner != CubeOwner::Owned(Player::X)),
        b.borne_off(Player::X),
        b.borne_off(Player::O),
        u8::from(post_crawford),
        u8::from(!s.crawford),
    );
}

/// What a FIBS line does not hold.
pub(crate) fn losses(position: &Position) -> Vec<String> {
    let s = &position.state;
    let mut notes = Vec::new();
    if s.resignation != crate::domain::Resignation::None {
        notes.push("the resignation on offer is not kept: a FIBS board has none".into());
    }
    if s.game_state != crate::domain::GameState::Playing {
        notes.push(format!(
            "the game state ({}) is not kept: a FIBS board is a game in play",
            s.game_state.words()
        ));
    }
    if s.resignation == crate::domain::Resignation::None && s.turn != s.expected_turn() {
        notes.push(format!(
            "the player to decide ({}) is not kept: a FIBS board derives it from the roll and the double",
            s.turn
        ));
    }
    let at_last_point = s.match_length > 0
        && s.score
            .iter()
            .any(|&v| v.saturating_add(1) == s.match_length);
    if s.crawford && !at_last_point {
        notes.push(
            "the Crawford flag is not kept: a FIBS board has it only with a player one point away"
                .into(),
        );
    }
    if s.match_length == 9999 {
        notes.push("a 9999-point match reads back as money: FIBS's unlimited session".into());
    }
    if s.jacoby != s.is_money() {
        notes.push("the Jacoby setting is not kept: a FIBS board has none".into());
    }
    if position.names.o.contains(':') || position.names.x.contains(':') {
        notes.push("':' in a name becomes '_': FIBS separates fields with ':'".into());
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    const GNUBG: &str = "board:root:gnubg:9:4:2:-1:0:2:0:0:2:3:0:2:1:1:0:-4:2:0:0:0:-3:-2:-5:0:2:0:0:0:0:1:5:2:5:2:2:0:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

    #[test]
    fn reads_and_writes_gnubgs_raw_board() {
        let p = read(GNUBG).unwrap();
        assert_eq!(
            crate::codec::gnubg_id::encode(&p.board, &p.state),
            "4NvBA0DGzooBBg:QYkqASAAIAAE"
        );
        assert_eq!((p.names.o.as_str(), p.names.x.as_str()), ("gnubg", "root"));
        let mut s = String::new();
        write(&p, &mut s);
        assert_eq!(s, GNUBG);
    }

    #[test]
    fn bad_fields_are_named() {
        let e = read("board:a:b:1").unwrap_err().to_string();
        assert!(e.contains("4 fields"), "{e}");
        let bad = GNUBG.replace(":9:4:2:", ":9:x:2:");
        assert!(read(&bad).unwrap_err().to_string().contains("field 5"));
    }
}
