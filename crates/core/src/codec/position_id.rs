//! gnubg's Position ID: the board as an 80-bit key in 14 Base64 characters.
//!
//! The key holds the player *not* on roll first, then the player on roll,
//! each from its own ace point to its 24 point and then the bar: a one for
//! every checker and a zero to close each place. The English manual says the
//! roller comes first; gnubg itself and the Japanese description agree that
//! it does not, and gnubg is what users paste from.

use super::base64_text::{self, decode_bits};
use super::error::{IdError, IdKind};
use crate::domain::{Board, CHECKERS_PER_SIDE, Player};

/// Characters in a Position ID.
pub(crate) const LEN: usize = 14;
const KEY_BYTES: usize = 10;

/// The 10-byte key of `board` seen by `on_roll`.
#[cfg(test)]
fn key(board: &Board, on_roll: Player) -> [u8; KEY_BYTES] {
    let mut key = [0u8; KEY_BYTES];
    key.copy_from_slice(&key_bits(board, on_roll).to_le_bytes()[..KEY_BYTES]);
    key
}

/// The key as one little-endian number (key byte `j`'s bit `b` is bit
/// `8j + b`).
///
/// Each place is a run of ones then a zero. Fifteen checkers and 25 places
/// take at most 40 bits, so each side is built in one 64-bit word, two
/// places at a time through [`PAIRS`], and the two sides are joined once
/// (and cut at the key's 80 bits, as gnubg cuts an over-full board's).
fn key_bits(board: &Board, on_roll: Player) -> u128 {
    // Two counts share a table index only when each is at most 15: their
    // bits together show it.
    let all_bits = |p: Player| board.side(p).iter().fold(0, |m, &n| m | n);
    if (all_bits(Player::O) | all_bits(Player::X)) > CHECKERS_PER_SIDE {
        return key_bits_of_invalid(board, on_roll);
    }
    let side = |player: Player| {
        let places = board.side(player);
        let mut bits = 0u64;
        let mut at = 0u32;
        // Every count is at most 15 here: two fit in one table index.
        for pair in places[..24].chunks_exact(2) {
            let (ones, len) = PAIRS[usize::from(pair[0] | pair[1] << 4)];
            // Past 64 bits (an over-full side) the result is not used.
            bits |= u64::from(ones).wrapping_shl(at);
            at += u32::from(len);
        }
        let bar = places[24];
        bits |= ((1u64 << bar) - 1).wrapping_shl(at);
        (bits, at + u32::from(bar) + 1)
    };
    let (first, first_len) = side(on_roll.opponent());
    let (second, second_len) = side(on_roll);
    // Up to 39 checkers a side fit a word; more only on a board far out of
    // the rules, written the slow way.
    if first_len > 64 || second_len > 64 {
        return key_bits_of_invalid(board, on_roll);
    }
    (u128::from(first) | u128::from(second) << first_len) & KEY_MASK
}

/// Two places' runs (index: the first count, plus the second times 16):
/// the bits and their length.
const PAIRS: [(u32, u8); 256] = {
    let mut table = [(0u32, 0u8); 256];
    let mut i = 0;
    while i < 256 {
        let (a, b) = (i & 15, i >> 4);
        table[i] = (
            ((1u32 << a) - 1) | ((1u32 << b) - 1) << (a + 1),
            (a + b + 2) as u8,
        );
        i += 1;
    }
    table
};

const KEY_MASK: u128 = (1 << (8 * KEY_BYTES)) - 1;

/// The key of a board with more than 15 checkers a side (the editor can
/// hold one while the user edits): written bit by bit and cut at the key's
/// end, as gnubg cuts it.
fn key_bits_of_invalid(board: &Board, on_roll: Player) -> u128 {
    let mut bits = 0u128;
    let mut at = 0u32;
    for player in [on_roll.opponent(), on_roll] {
        for &count in board.side(player) {
            let count = u32::from(count.min(CHECKERS_PER_SIDE));
            if at < 128 {
                bits |= u128::from((1u32 << count) - 1) << at;
            }
            at = (at + count + 1).min(128);
        }
    }
    bits & KEY_MASK
}

/// Appends the Position ID of `board` with `on_roll` to move to `out`.
pub fn encode_into(board: &Board, on_roll: Player, out: &mut String) {
    super::ascii::push(out, &encode_chars(board, on_roll));
}

/// The Position ID's characters, for writers that build bytes.
pub(crate) fn encode_chars(board: &Board, on_roll: Player) -> [u8; LEN] {
    base64_text::encode_chars::<KEY_BYTES, LEN>(key_bits(board, on_roll))
}

pub fn encode(board: &Board, on_roll: Player) -> String {
    let mut s = String::with_capacity(LEN);
    encode_into(board, on_roll, &mut s);
    s
}

/// Reads a Position ID; `on_roll` says whose checkers come second in it.
pub fn decode(id: &str, on_roll: Player) -> Result<Board, IdError> {
    let bits = decode_bits::<KEY_BYTES>(IdKind::PositionId, id)?;
    match runs(bits) {
        Some(sides) => {
            let (o, x) = match on_roll {
                Player::X => (sides[0], sides[1]),
                Player::O => (sides[1], sides[0]),
            };
            Board::from_sides(o, x).map_err(|source| IdError::Board {
                kind: IdKind::PositionId,
                source,
            })
        }
        None => {
            let mut key = [0u8; KEY_BYTES];
            key.copy_from_slice(&bits.to_le_bytes()[..KEY_BYTES]);
            Err(key_error(&key, on_roll))
        }
    }
}

/// For each byte value, its runs of ones read from the low bit: the run
/// before each zero (packed a byte each, the first zero's lowest), how many
/// zeros it has, and the ones after its last zero. A key is read a byte at a
/// time through it, ten steps instead of fifty.
#[derive(Clone, Copy)]
struct ByteRuns {
    runs: u64,
    zeros: u8,
    /// The ones left open at the byte's top: added to the next run.
    tail: u8,
    /// 0xff when the byte has no zero, so the open run goes on through it.
    keep: u8,
}

const BYTE_RUNS: [ByteRuns; 256] = {
    let mut table = [ByteRuns {
        runs: 0,
        zeros: 0,
        tail: 0,
        keep: 0,
    }; 256];
    let mut b = 0;
    while b < 256 {
        let mut runs = 0u64;
        let mut zeros = 0u8;
        let mut run = 0u64;
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                run += 1;
            } else {
                runs |= run << (8 * zeros);
                zeros += 1;
                run = 0;
            }
            bit += 1;
        }
        table[b] = ByteRuns {
            runs,
            zeros,
            tail: run as u8,
            keep: if zeros == 0 { 0xff } else { 0 },
        };
        b += 1;
    }
    table
};

/// The 50 runs of a valid key (each zero closes a place): `None` when the
/// key breaks a rule, which `key_error` names.
fn runs(bits: u128) -> Option<[[u8; 25]; 2]> {
    // A valid key has 50 zeros closing the places and nothing after the
    // last one: with `ones` checkers, that zero is bit ones + 49 and every
    // bit from it on is zero.
    let ones = bits.count_ones();
    if ones > 2 * u32::from(CHECKERS_PER_SIDE) || bits >> (ones + 49) != 0 {
        return None;
    }
    // Room for the last byte's eight runs written past the 80th zero.
    let mut counts = [0u8; 8 * KEY_BYTES + 8];
    let mut found = 0usize;
    let mut open = 0u8;
    for byte in &bits.to_le_bytes()[..KEY_BYTES] {
        let r = BYTE_RUNS[usize::from(*byte)];
        // Written whole; a byte without zeros is overwritten by the next.
        counts[found..found + 8].copy_from_slice(&r.runs.to_le_bytes());
        counts[found] += open;
        open = (open & r.keep) + r.tail;
        found += usize::from(r.zeros);
    }
    let mut sides = [[0u8; 25]; 2];
    sides[0].copy_from_slice(&counts[..25]);
    sides[1].copy_from_slice(&counts[25..50]);
    let first: u32 = sides[0].iter().map(|&n| u32::from(n)).sum();
    let fifteen = u32::from(CHECKERS_PER_SIDE);
    (first <= fifteen && ones - first <= fifteen).then_some(sides)
}

/// Which rule a key that `runs` refused breaks, read bit by bit.
fn key_error(key: &[u8; KEY_BYTES], on_roll: Player) -> IdError {
    let mut buf = [0u8; KEY_BYTES + 8];
    buf[..KEY_BYTES].copy_from_slice(key);
    // Each run is read from a 32-bit window at the current bit; a run of 16
    // or more is already too many checkers. Bits past the key read as zero,
    // so a run never reads past it.
    let mut at = 0usize;
    let mut sides = [[0u8; 25]; 2];
    for (slot, player) in [on_roll.opponent(), on_roll].into_iter().enumerate() {
        let mut total = 0u32;
        for count in sides[slot].iter_mut() {
            let byte = (at / 8).min(KEY_BYTES);
            let mut word = [0u8; 4];
            word.copy_from_slice(&buf[byte..byte + 4]);
            let run = (u32::from_le_bytes(word) >> (at % 8)).trailing_ones();
            total += run;
            if total > u32::from(CHECKERS_PER_SIDE) {
                return IdError::TooManyCheckers {
                    kind: IdKind::PositionId,
                    player,
                };
            }
            *count = run as u8;
            at += run as usize + 1;
        }
    }
    // At most 30 ones and 50 zeros: `at` is at most 80 here.
    let mut le = [0u8; 16];
    le[..KEY_BYTES].copy_from_slice(key);
    let rest = u128::from_le_bytes(le) >> at;
    if rest != 0 {
        return IdError::BitsPastEnd {
            kind: IdKind::PositionId,
            bit: at + rest.trailing_zeros() as usize + 1,
        };
    }
    // `runs` only refuses keys that break one of the rules above.
    IdError::TooManyCheckers {
        kind: IdKind::PositionId,
        player: on_roll,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::base64_text::encode_key_into;
    use crate::codec::key_bits::BitWriter;
    use crate::domain::{BoardError, Place};

    #[test]
    fn starting_position_is_the_manual_example() {
        assert_eq!(encode(&Board::starting(), Player::X), "4HPwATDgc/ABMA");
        assert_eq!(
            key(&Board::starting(), Player::X),
            [0xE0, 0x73, 0xF0, 0x01, 0x30, 0xE0, 0x73, 0xF0, 0x01, 0x30]
        );
        assert_eq!(
            decode("4HPwATDgc/ABMA", Player::O).unwrap(),
            Board::starting()
        );
    }

    /// The Japanese page's example, with X on roll (its match ID, cAEAAAAAAAAA
    /// or QYkqASAAIAAA, has X on roll): the key starts with O, not on roll.
    /// Its hex line misprints two bytes (40 B6 BE); the bits give 40 C6 CE.
    #[test]
    fn japanese_example_puts_the_player_not_on_roll_first() {
        let board = decode("4NvBA0DGzooBBg", Player::X).unwrap();
        let k = key(&board, Player::X);
        assert_eq!(
            k,
            [0xE0, 0xDB, 0xC1, 0x03, 0x40, 0xC6, 0xCE, 0x8A, 0x01, 0x06]
        );
        // O, not on roll: 5 on its 6 point, 2 on 7, 3 on 8, 4 on 13, 1 on the bar.
        let o = board.side(Player::O);
        assert_eq!((o[5], o[6], o[7], o[12], o[24]), (5, 2, 3, 4, 1));
        // X, on roll: 2 on 2, 2 on 5, 3 on 6, 2 on 8, 1 on 9 and 10, 2 on 13, 2 on 21.
        let x = board.side(Player::X);
        assert_eq!(
            (x[1], x[4], x[5], x[7], x[8], x[9], x[12], x[20]),
            (2, 2, 3, 2, 1, 1, 2, 2)
        );
        assert_eq!(board.pip_count(Player::X), 135);
        assert_eq!(board.pip_count(Player::O), 145);
        assert_eq!(encode(&board, Player::X), "4NvBA0DGzooBBg");
    }

    #[test]
    fn empty_board_is_all_zero_key() {
        assert_eq!(encode(&Board::empty(), Player::X), "AAAAAAAAAAAAAA");
        assert_eq!(decode("AAAAAAAAAAAAAA", Player::X).unwrap(), Board::empty());
    }

    #[test]
    fn wrong_length_is_named() {
        let err = decode("4HPwATDgc/ABM", Player::X).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Position ID: 13 characters; a Position ID has 14"
        );
    }

    #[test]
    fn bad_character_is_named_with_its_place() {
        let err = decode("4HPwATDgc!ABMA", Player::X).unwrap_err();
        assert_eq!(
            err,
            IdError::BadCharacter {
                kind: IdKind::PositionId,
                position: 10,
                ch: '!'
            }
        );
    }

    #[test]
    fn sixteen_checkers_are_refused() {
        // 16 ones then zeros: 16 checkers on the ace point of O.
        let err = decode("//8AAAAAAAAAAA", Player::X).unwrap_err();
        assert_eq!(
            err,
            IdError::TooManyCheckers {
                kind: IdKind::PositionId,
                player: Player::O
            }
        );
    }

    #[test]
    fn both_players_on_one_point_are_refused_with_the_point() {
        // O on its 24 point (X's 1 point) and X on its 1 point.
        let mut w = BitWriter::<10>::new();
        for i in 0..25 {
            w.push_run(u8::from(i == 23));
        }
        for i in 0..25 {
            w.push_run(u8::from(i == 0));
        }
        let mut id = String::new();
        encode_key_into(&w.into_bytes(), &mut id);
        let err = decode(&id, Player::X).unwrap_err();
        assert_eq!(
            err,
            IdError::Board {
                kind: IdKind::PositionId,
                source: BoardError::BothOnPoint {
                    point: 1,
                    o_point: 24
                }
            }
        );
    }

    #[test]
    fn bits_past_the_key_are_refused() {
        // The empty board's 50 zeros, then a stray one at bit 51.
        let mut w = BitWriter::<10>::new();
        for _ in 0..50 {
            w.push(false);
        }
        w.push(true);
        let mut id = String::new();
        encode_key_into(&w.into_bytes(), &mut id);
        assert_eq!(
            decode(&id, Player::X).unwrap_err(),
            IdError::BitsPastEnd {
                kind: IdKind::PositionId,
                bit: 51
            }
        );
        // And in the Base64 padding bits of the last character.
        assert!(matches!(
            decode("AAAAAAAAAAAAAB", Player::X).unwrap_err(),
            IdError::BitsPastEnd { .. }
        ));
    }

    #[test]
    fn random_keys_are_refused_or_read_back_exactly() {
        let mut seed = 99u64;
        for i in 0..20_000 {
            let mut key = [0u8; KEY_BYTES];
            for k in key.iter_mut() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *k = (seed >> 33) as u8;
            }
            // Sparse keys too, so that valid ones come up.
            if i % 2 == 0 {
                for k in key.iter_mut() {
                    *k &= (seed >> 40) as u8 & 0x55;
                }
                key[9] &= 0x03;
            }
            let mut id = String::new();
            encode_key_into(&key, &mut id);
            match decode(&id, Player::X) {
                Ok(board) => assert_eq!(super::key(&board, Player::X), key),
                Err(e) => assert!(
                    matches!(
                        e,
                        IdError::TooManyCheckers { .. }
                            | IdError::BitsPastEnd { .. }
                            | IdError::Board { .. }
                    ),
                    "{e:?}"
                ),
            }
        }
    }

    /// The key written the plain way: a one per checker and a zero after
    /// each place, bit by bit, cut at 80 bits.
    fn plain_key(sides: [[u8; 25]; 2], on_roll: Player) -> u128 {
        let (first, second) = match on_roll {
            Player::X => (sides[0], sides[1]),
            Player::O => (sides[1], sides[0]),
        };
        let mut bits = 0u128;
        let mut at = 0;
        for count in first.into_iter().chain(second) {
            for _ in 0..count.min(15) {
                if at < 80 {
                    bits |= 1 << at;
                }
                at += 1;
            }
            at += 1;
        }
        bits
    }

    #[test]
    fn the_fast_key_is_the_plain_key_for_any_board() {
        let mut seed = 5u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for i in 0..20_000 {
            let mut sides = [[0u8; 25]; 2];
            // Up to 15 a side, and every tenth board over (the editor can
            // hold one while the user edits).
            let most = if i % 10 == 0 { 40 } else { 15 };
            for side in sides.iter_mut() {
                for _ in 0..next(most + 1) {
                    side[next(25) as usize] += 1;
                }
            }
            let board = Board::from_sides_unchecked(sides[0], sides[1]);
            for on_roll in Player::BOTH {
                assert_eq!(
                    key_bits(&board, on_roll),
                    plain_key(sides, on_roll),
                    "{sides:?} {on_roll:?}"
                );
                if board.validate().is_ok() {
                    assert_eq!(decode(&encode(&board, on_roll), on_roll), Ok(board.clone()));
                }
            }
        }
    }

    #[test]
    fn on_roll_decides_orientation() {
        let board = Board::empty()
            .with_count(Player::X, Place::Point(3), 2)
            .unwrap();
        let id = encode(&board, Player::X);
        assert_eq!(decode(&id, Player::X).unwrap(), board);
        // The same ID read with O on roll gives O the checkers on its 3 point.
        assert_eq!(decode(&id, Player::O).unwrap(), board.mirrored());
    }
}
