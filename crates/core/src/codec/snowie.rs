//! Snowie's text position (gnubg's `export position snowietxt` and `import
//! snowietxt`), both ways.
//!
//! One line of `;`-separated fields, ending with `;`:
//! `length;jacoby;0;money;on roll;roller's name;opponent's name;crawford;
//! roller's score;opponent's score;cube;owner;-opponent's bar;24 points;
//! roller's bar;die;die;` — 40 fields. The player on roll is 0 for gnubg's
//! player 0 (O), 1 for X; the owner is 0 centred, 1 the roller, −1 the
//! opponent; the points are the roller's own 1–24, the roller's checkers
//! positive and the opponent's negative. Names cannot hold `;`.

use super::error::{IdError, IdKind};
use crate::domain::match_state::MAX_MATCH_NUMBER;
use crate::domain::validation::check_match;
use crate::domain::{Board, CubeOwner, MatchState, Names, Player, Position};
use std::fmt::Write;

const FIELDS: usize = 40;
/// Longest text read.
pub(crate) const MAX_LEN: usize = 4096;

fn err(detail: impl Into<String>) -> IdError {
    IdError::Malformed {
        kind: IdKind::Snowie,
        detail: detail.into(),
    }
}

/// Whether `text` has Snowie's shape: 40 `;`-separated fields (a 41st empty
/// after the last `;`), the first a number.
pub(crate) fn looks_like(text: &str) -> bool {
    let t = text.trim();
    let n = t.split(';').count();
    (n == FIELDS || n == FIELDS + 1)
        && t.split(';')
            .next()
            .is_some_and(|f| f.trim().parse::<u32>().is_ok())
}

/// Reads a Snowie text position.
pub fn read(text: &str) -> Result<Position, IdError> {
    super::checked_names(read_unchecked(text)?, IdKind::Snowie)
}

fn read_unchecked(text: &str) -> Result<Position, IdError> {
    let t = text.trim();
    if t.len() > MAX_LEN {
        return Err(err(format!(
            "the text has {} bytes; at most {MAX_LEN} are read",
            t.len()
        )));
    }
    let mut fields: Vec<&str> = t.split(';').collect();
    if fields.len() == FIELDS + 1 && fields[FIELDS].trim().is_empty() {
        fields.pop();
    }
    if fields.len() != FIELDS {
        return Err(err(format!(
            "{} fields; a Snowie position has {FIELDS}, each ended by ';' (a name with ';' breaks it)",
            fields.len()
        )));
    }
    let num = |i: usize, what: &str| -> Result<i64, IdError> {
        fields[i].trim().parse().map_err(|_| {
            err(format!(
                "field {} ({what}) is '{}', not a number",
                i + 1,
                fields[i]
            ))
        })
    };
    let small = |i: usize, what: &str, max: i64| -> Result<i64, IdError> {
        let v = num(i, what)?;
        if (-max..=max).contains(&v) {
            Ok(v)
        } else {
            Err(err(format!(
                "field {} ({what}) is {v}: at most {max}",
                i + 1
            )))
        }
    };
    let roller = match num(4, "player on roll")? {
        0 => Player::O,
        1 => Player::X,
        v => {
            return Err(err(format!(
                "field 5 (player on roll) is {v}: 0 (O) or 1 (X)"
            )));
        }
    };
    let (mut mine, mut theirs) = ([0u8; 25], [0u8; 25]);
    theirs[24] = small(12, "opponent's bar", 15)?.unsigned_abs() as u8;
    for i in 0..24 {
        let v = small(13 + i, "point", 15)?;
        if v > 0 {
            mine[i] = v as u8;
        } else if v < 0 {
            theirs[23 - i] = v.unsigned_abs() as u8;
        }
    }
    mine[24] = small(37, "roller's bar", 15)?.unsigned_abs() as u8;
    let (o, x) = match roller {
        Player::X => (theirs, mine),
        Player::O => (mine, theirs),
    };
    let board = Board::from_sides(o, x).map_err(|source| IdError::Board {
        kind: IdKind::Snowie,
        source,
    })?;
    let score = |i: usize, what: &str| -> Result<u16, IdError> {
        let v = num(i, what)?;
        u16::try_from(v)
            .ok()
            .filter(|&v| v <= MAX_MATCH_NUMBER)
            .ok_or_else(|| {
                err(format!(
                    "field {} ({what}) is {v}: 0 to {MAX_MATCH_NUMBER}",
                    i + 1
                ))
            })
    };
    let mut state = MatchState {
        match_length: score(0, "match length")?,
        on_roll: roller,
        turn: roller,
        crawford: num(7, "Crawford game")? != 0,
        ..MatchState::default()
    };
    state.jacoby = state.is_money() && num(1, "Jacoby")? != 0;
    state.score[roller.index()] = score(8, "roller's score")?;
    state.score[roller.opponent().index()] = score(9, "opponent's score")?;
    let cube = num(10, "cube")?;
    if cube < 1 || !(cube as u64).is_power_of_two() || cube > 1 << 15 {
        return Err(err(format!(
            "field 11 (cube) is {cube}: a power of two from 1 to 32768"
        )));
    }
    state.cube_log2 = (cube as u64).trailing_zeros() as u8;
    state.cube_owner = match num(11, "cube owner")? {
        0 => CubeOwner::Centred,
        1 => CubeOwner::Owned(roller),
        -1 => CubeOwner::Owned(roller.opponent()),
        v => {
            return Err(err(format!(
                "field 12 (cube owner) is {v}: 0 centred, 1 the roller, -1 the opponent"
            )));
        }
    };
    let d = [small(38, "die", 6)?, small(39, "die", 6)?];
    state.dice = match d {
        [0, 0] => None,
        [a, b] if a > 0 && b > 0 => Some([a as u8, b as u8]),
        [a, b] => {
            return Err(err(format!(
                "dice {a} and {b}: both 1–6, or both 0 for not rolled"
            )));
        }
    };
    check_match(&state).map_err(|source| IdError::Match {
        kind: IdKind::Snowie,
        source,
    })?;
    let (first, second) = (fields[5].trim().to_owned(), fields[6].trim().to_owned());
    let names = match roller {
        Player::X => Names {
            x: first,
            o: second,
        },
        Player::O => Names {
            o: first,
            x: second,
        },
    };
    Ok(Position {
        board,
        state,
        names,
    })
}

fn name(s: &str, out: &mut String) {
    out.extend(s.chars().map(|c| match c {
        ';' => ',',
        c if c.is_control() => ' ',
        c => c,
    }));
}

/// Writes `position` as gnubg's `export position snowietxt` does.
pub fn write(position: &Position, out: &mut String) {
    let (b, s) = (&position.board, &position.state);
    let roller = s.on_roll;
    let other = roller.opponent();
    let _ = write!(
        out,
        "{};{};0;{};{};",
        s.match_length,
        u8::from(s.is_money() && s.jacoby),
        u8::from(s.is_money()),
        roller.index()
    );
    name(position.names.of(roller), out);
    out.push(';');
    name(position.names.of(other), out);
    let owner = match s.cube_owner {
        CubeOwner::Centred => 0,
        CubeOwner::Owned(p) if p == roller => 1,
        CubeOwner::Owned(_) => -1,
    };
    let _ = write!(
        out,
        ";{};{};{};{};{owner};{};",
        u8::from(s.crawford),
        s.score_of(roller),
        s.score_of(other),
        s.cube_value(),
        -i32::from(b.side(other)[24])
    );
    let (mine, theirs) = (b.side(roller), b.side(other));
    for i in 0..24 {
        let v = if mine[i] > 0 {
            i32::from(mine[i])
        } else {
            -i32::from(theirs[23 - i])
        };
        let _ = write!(out, "{v};");
    }
    let [d0, d1] = s.dice.unwrap_or([0, 0]);
    let _ = write!(out, "{};{d0};{d1};", mine[24]);
}

/// What a Snowie position does not hold.
pub(crate) fn losses(position: &Position) -> Vec<String> {
    let s = &position.state;
    let mut notes = Vec::new();
    if s.double_offered {
        notes.push("the double on offer is not kept: a Snowie position has none".into());
    }
    if s.resignation != crate::domain::Resignation::None {
        notes.push("the resignation on offer is not kept: a Snowie position has none".into());
    } else if !s.double_offered && s.turn != s.on_roll {
        notes.push(format!(
            "the player to decide ({}) is not kept: Snowie names the player on roll",
            s.turn
        ));
    }
    if s.game_state != crate::domain::GameState::Playing {
        notes.push(format!(
            "the game state ({}) is not kept: a Snowie position is a game in play",
            s.game_state.words()
        ));
    }
    if !s.is_money() && s.jacoby {
        notes.push("the Match ID's Jacoby bit (unused in match play) is not kept".into());
    }
    if s.is_money() && !s.beavers {
        notes.push("beavers off is not kept: a Snowie position has no beaver rule".into());
    }
    if position.names.o.contains(';') || position.names.x.contains(';') {
        notes.push("';' in a name becomes ',': Snowie separates fields with ';'".into());
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    const GNUBG: &str = "9;0;0;0;1;root;gnubg;0;4;2;2;-1;-1;0;2;0;0;2;3;0;2;1;1;0;-4;2;0;0;0;-3;-2;-5;0;2;0;0;0;0;5;2;";

    #[test]
    fn reads_and_writes_gnubgs_export() {
        let p = read(GNUBG).unwrap();
        assert_eq!(
            crate::codec::gnubg_id::encode(&p.board, &p.state),
            "4NvBA0DGzooBBg:QYkqASAAIAAE"
        );
        let mut s = String::new();
        write(&p, &mut s);
        assert_eq!(s, GNUBG);
        assert!(looks_like(GNUBG));
    }

    #[test]
    fn bad_fields_are_named() {
        let e = read(&GNUBG.replace("9;0;0;0;1;", "9;0;0;0;7;"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("field 5"), "{e}");
        assert!(read("1;2;3").is_err());
    }
}
