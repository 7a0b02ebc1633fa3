//! gnubg's Match ID: the match state as a 72-bit key in 12 Base64 characters.
//!
//! Fields, least significant bit first: cube log2 (4), cube owner (2: 0 O,
//! 1 X, 3 centred), player on roll (1), Crawford (1), game state (3), player
//! to decide (1), double offered (1), resignation (2), die 1 (3), die 2 (3),
//! match length (15), O's score (15), X's score (15), and a 67th bit that is
//! 1 when the Jacoby rule is *off*. gnubg echoes that bit in match play too,
//! so it is kept to reproduce an imported ID exactly. The larger die is
//! written first, as gnubg writes it; a smaller-first ID is read in its own
//! order (gnubg then shows "Rolled 25") and written back larger first.

use super::base64_text::{self, decode_bits};
use super::error::{IdError, IdKind};
use crate::domain::match_state::{DEFAULT_MAX_CUBE_LOG2, MAX_CUBE_LOG2, larger_first};
use crate::domain::validation::check_match;
use crate::domain::{CubeOwner, GameState, MatchState, Player, Resignation};

/// Characters in a Match ID.
pub(crate) const LEN: usize = 12;
const KEY_BYTES: usize = 9;
/// Bits gnubg defines, the Jacoby bit included.
const USED_BITS: usize = 67;

fn player_bit(p: Player) -> u32 {
    p.index() as u32
}

/// The 9-byte key of a match state. Fields are masked to their width; a
/// state that passed validation fits without loss.
#[cfg(test)]
fn key(state: &MatchState) -> [u8; KEY_BYTES] {
    let mut key = [0u8; KEY_BYTES];
    key.copy_from_slice(&key_bits(state).to_le_bytes()[..KEY_BYTES]);
    key
}

/// The key as one little-endian number, the first field in the low bits.
fn key_bits(state: &MatchState) -> u128 {
    let mut bits: u128 = 0;
    let mut at = 0u32;
    let mut push = |value: u32, width: u32| {
        bits |= u128::from(value & ((1 << width) - 1)) << at;
        at += width;
    };
    push(u32::from(state.cube_log2.min(MAX_CUBE_LOG2)), 4);
    push(
        match state.cube_owner {
            CubeOwner::Owned(p) => player_bit(p),
            CubeOwner::Centred => 3,
        },
        2,
    );
    push(player_bit(state.on_roll), 1);
    push(u32::from(state.crawford), 1);
    push(u32::from(state.game_state.code()), 3);
    push(player_bit(state.turn), 1);
    push(u32::from(state.double_offered), 1);
    push(u32::from(state.resignation.code()), 2);
    let [d1, d2] = state.dice.map_or([0, 0], |[a, b]| larger_first(a, b));
    push(u32::from(d1), 3);
    push(u32::from(d2), 3);
    push(u32::from(state.match_length), 15);
    push(u32::from(state.score[0]), 15);
    push(u32::from(state.score[1]), 15);
    push(u32::from(!state.jacoby), 1);
    bits
}

pub fn encode_into(state: &MatchState, out: &mut String) {
    super::ascii::push(out, &encode_chars(state));
}

/// The Match ID's characters, for writers that build bytes.
pub(crate) fn encode_chars(state: &MatchState) -> [u8; LEN] {
    base64_text::encode_chars::<KEY_BYTES, LEN>(key_bits(state))
}

pub fn encode(state: &MatchState) -> String {
    let mut s = String::with_capacity(LEN);
    encode_into(state, &mut s);
    s
}

/// Reads a Match ID. The fields that only XGID carries (beavers, maximum
/// cube) take their defaults. Broken rules are errors; warnings are left to
/// `domain::validation`.
pub fn decode(id: &str) -> Result<MatchState, IdError> {
    let mut bits = decode_bits::<KEY_BYTES>(IdKind::MatchId, id)?;
    let mut field = |width: u32| {
        let v = (bits & ((1 << width) - 1)) as u32;
        bits >>= width;
        v
    };
    let cube_log2 = field(4) as u8;
    let cube_owner = match field(2) {
        0 => CubeOwner::Owned(Player::O),
        1 => CubeOwner::Owned(Player::X),
        3 => CubeOwner::Centred,
        code => return Err(IdError::CubeOwnerCode(code as u8)),
    };
    let on_roll = Player::from_index(field(1) as usize);
    let crawford = field(1) == 1;
    let game_state = {
        let code = field(3) as u8;
        GameState::from_code(code).ok_or(IdError::GameStateCode(code))?
    };
    let turn = Player::from_index(field(1) as usize);
    let double_offered = field(1) == 1;
    // Two bits, so always 0–3.
    let resignation = Resignation::from_code(field(2) as u8).unwrap_or(Resignation::None);
    let (first, second) = (field(3) as u8, field(3) as u8);
    let dice = match (first, second) {
        (0, 0) => None,
        (1..=6, 1..=6) => Some([first, second]),
        _ => return Err(IdError::Dice { first, second }),
    };
    let match_length = field(15) as u16;
    let score = [field(15) as u16, field(15) as u16];
    let jacoby = field(1) == 0;
    // What is left are the bits past the 67 gnubg defines.
    if bits != 0 {
        return Err(IdError::BitsPastEnd {
            kind: IdKind::MatchId,
            bit: USED_BITS + bits.trailing_zeros() as usize + 1,
        });
    }
    let state = MatchState {
        cube_log2,
        cube_owner,
        on_roll,
        turn,
        double_offered,
        resignation,
        game_state,
        dice,
        match_length,
        score,
        crawford,
        jacoby,
        beavers: true,
        max_cube_log2: DEFAULT_MAX_CUBE_LOG2,
    };
    check_match(&state).map_err(|source| IdError::Match {
        kind: IdKind::MatchId,
        source,
    })?;
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::base64_text::encode_key_into;
    use crate::codec::key_bits::BitWriter;
    use crate::domain::MatchError;

    /// The manual's example: 2-4 in a 9-point match, O holds a 2-cube and X
    /// has just rolled 52.
    #[test]
    fn manual_example() {
        let state = decode("QYkqASAAIAAA").unwrap();
        assert_eq!(state.cube_value(), 2);
        assert_eq!(state.cube_owner, CubeOwner::Owned(Player::O));
        assert_eq!(state.on_roll, Player::X);
        assert_eq!(state.turn, Player::X);
        assert_eq!(state.game_state, GameState::Playing);
        assert_eq!(state.dice, Some([5, 2]));
        assert_eq!(state.match_length, 9);
        assert_eq!(state.score, [2, 4]);
        assert!(!state.crawford);
        assert!(state.jacoby);
        assert_eq!(
            key(&state),
            [0x41, 0x89, 0x2A, 0x01, 0x20, 0x00, 0x20, 0x00, 0x00]
        );
        assert_eq!(encode(&state), "QYkqASAAIAAA");
    }

    #[test]
    fn default_state_is_gnubgs_start() {
        assert_eq!(encode(&MatchState::default()), "cAkAAAAAAAAA");
        assert_eq!(decode("cAkAAAAAAAAA").unwrap(), MatchState::default());
    }

    #[test]
    fn jacoby_bit_is_kept_in_match_play_and_money() {
        // gnubg's start with Jacoby off: the 67th bit makes the last 'E'.
        let s = decode("cAkAAAAAAAAE").unwrap();
        assert!(!s.jacoby);
        assert_eq!(encode(&s), "cAkAAAAAAAAE");
        // A 5-point match with the bit set, as gnubg echoes it.
        let s = decode("cAmgAAAAAAAE").unwrap();
        assert_eq!(s.match_length, 5);
        assert!(!s.jacoby);
        assert_eq!(encode(&s), "cAmgAAAAAAAE");
    }

    #[test]
    fn larger_die_is_written_first() {
        // Given EgH1ABAACAAA (2 then 5), gnubg shows "Rolled 25" and writes
        // the Match ID back as EoHqABAACAAA (5 then 2).
        let s = decode("EgH1ABAACAAA").unwrap();
        assert_eq!(s.dice, Some([2, 5]));
        assert_eq!(encode(&s), "EoHqABAACAAA");
        let s = decode("EoHqABAACAAA").unwrap();
        assert_eq!(s.dice, Some([5, 2]));
        assert_eq!(encode(&s), "EoHqABAACAAA");
    }

    fn with_field(state: &MatchState, f: impl FnOnce(&mut BitWriter<9>)) -> String {
        // Re-encode a state's first 15 bits, then let `f` write the rest.
        let mut w = BitWriter::<9>::new();
        w.push_field(u32::from(state.cube_log2), 4);
        f(&mut w);
        let mut s = String::new();
        encode_key_into(&w.into_bytes(), &mut s);
        s
    }

    #[test]
    fn cube_owner_code_two_is_refused() {
        let id = with_field(&MatchState::default(), |w| w.push_field(2, 2));
        assert_eq!(decode(&id), Err(IdError::CubeOwnerCode(2)));
    }

    #[test]
    fn game_states_five_to_seven_are_refused() {
        for code in 5..=7 {
            let id = with_field(&MatchState::default(), |w| {
                w.push_field(3, 2);
                w.push_field(1, 1);
                w.push_field(0, 1);
                w.push_field(code, 3);
            });
            assert_eq!(decode(&id), Err(IdError::GameStateCode(code as u8)));
        }
    }

    #[test]
    fn dice_zero_and_seven_are_refused() {
        for (a, b) in [(0, 3), (3, 0), (7, 1), (1, 7), (0, 7)] {
            let id = with_field(&MatchState::default(), |w| {
                w.push_field(3, 2);
                w.push_field(1, 1);
                w.push_field(0, 1);
                w.push_field(1, 3);
                w.push_field(1, 1);
                w.push_field(0, 1);
                w.push_field(0, 2);
                w.push_field(a, 3);
                w.push_field(b, 3);
            });
            assert_eq!(
                decode(&id),
                Err(IdError::Dice {
                    first: a as u8,
                    second: b as u8
                })
            );
        }
        let msg = IdError::Dice {
            first: 0,
            second: 7,
        }
        .to_string();
        assert!(msg.contains("dice 0 and 7"), "{msg}");
    }

    #[test]
    fn score_at_or_above_length_and_crawford_in_money_are_refused() {
        let s = MatchState {
            match_length: 5,
            score: [5, 0],
            ..MatchState::default()
        };
        assert_eq!(
            decode(&encode(&s)),
            Err(IdError::Match {
                kind: IdKind::MatchId,
                source: MatchError::ScoreNotBelowLength {
                    player: Player::O,
                    score: 5,
                    length: 5
                }
            })
        );
        let s = MatchState {
            crawford: true,
            ..MatchState::default()
        };
        assert!(matches!(
            decode(&encode(&s)),
            Err(IdError::Match {
                source: MatchError::CrawfordInMoneyGame,
                ..
            })
        ));
    }

    #[test]
    fn bits_past_the_jacoby_bit_are_refused() {
        // cAkAAAAAAAAI: bit 68 set.
        assert_eq!(
            decode("cAkAAAAAAAAI"),
            Err(IdError::BitsPastEnd {
                kind: IdKind::MatchId,
                bit: 68
            })
        );
    }

    #[test]
    fn long_matches_decode() {
        let s = MatchState {
            match_length: 65,
            ..MatchState::default()
        };
        assert_eq!(decode(&encode(&s)).unwrap().match_length, 65);
    }
}
