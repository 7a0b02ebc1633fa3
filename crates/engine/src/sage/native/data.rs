//! Sage's data files held to the layout bgsage 2.0.20260907 writes them in
//! (neural_net.cpp's `save_weights`, bearoff.cpp's `save`) before its C++
//! reads them. Sage's loaders trust their files: a bear-off header's count
//! is allocated as it says, a gammon index is followed wherever it points,
//! and one NaN weight becomes the index of its sigmoid table; bgedit runs
//! that code inside its own process, so a damaged or foreign file would
//! take the program down, or answer with numbers that mean nothing. Each
//! file is read whole and checked here: sizes against headers, every float
//! finite and in range, every index in range.

use super::Assets;
use crate::failure::{DataError, DataFault, OsError};
use std::path::Path;

/// Inputs of Sage's pure-race network, the first of every layout, and of
/// every other (encoding.h's `TESAURO_INPUTS`, `EXTENDED_CONTACT_INPUTS`).
const RACE_INPUTS: i32 = 196;
const CONTACT_INPUTS: i32 = 244;
const OUTPUTS: i32 = 5;
/// A network file: hidden units, inputs and outputs as three 32-bit
/// integers, then its floats.
const NET_HEADER: u64 = 12;

/// The largest weight taken, either way. bgsage 2.0.20260907's largest is
/// 20.3; a finite weight can still overflow the network's sums to an
/// infinity and then a NaN (which Sage's sigmoid table is indexed with),
/// but not one within this: a hidden unit adds 245 weights times inputs
/// below 10, an output 401 weights times units below 1.
const MOST_WEIGHT: f32 = 1000.0;

/// bearoff.h's layout: the mark "BEAR", version 1, then points, checkers,
/// rolls, positions and gammon distributions as 32-bit integers.
const BEAR_MARK: u32 = 0x4245_4152;
const BEAR_VERSION: u32 = 1;
const BEAR_HEADER: u64 = 28;
const POINTS: u32 = 6;
const CHECKERS: u32 = 15;
const ROLLS: u32 = 32;
/// One-sided positions of up to 15 checkers on 6 points: C(21, 6).
const POSITIONS: u32 = 54_264;
/// Those with all 15 on the board, each with a gammon distribution:
/// C(20, 5).
const GAMMON_POSITIONS: u32 = 15_504;
/// A distribution's chances are sixteen-bit fractions of this.
const WHOLE: u32 = 65_535;

/// Every file of `assets`, read and checked; the first fault found, named
/// with its file.
pub(crate) fn check(assets: &Assets) -> Result<(), DataError> {
    for (i, (path, hidden)) in assets.models.iter().enumerate() {
        let inputs = if i == 0 { RACE_INPUTS } else { CONTACT_INPUTS };
        checked_file(path, |bytes| check_net(bytes, *hidden, inputs))?;
    }
    checked_file(&assets.bearoff, check_bearoff)
}

fn checked_file(
    path: &Path,
    check: impl FnOnce(&[u8]) -> Result<(), DataFault>,
) -> Result<(), DataError> {
    let damaged = |fault| DataError::Damaged {
        file: path.to_path_buf(),
        fault,
    };
    let bytes =
        std::fs::read(path).map_err(|e| damaged(DataFault::Unreadable(OsError::from(&e))))?;
    check(&bytes).map_err(damaged)
}

/// The `i`th little-endian 32-bit word of `bytes` (which holds it).
fn word(bytes: &[u8], i: usize) -> [u8; 4] {
    let mut w = [0; 4];
    w.copy_from_slice(&bytes[4 * i..4 * i + 4]);
    w
}

/// A network file of `hidden` hidden units and `inputs` inputs, as Sage
/// takes it for its place in the layout.
pub(crate) fn check_net(bytes: &[u8], hidden: i32, inputs: i32) -> Result<(), DataFault> {
    let found = bytes.len() as u64;
    if found < NET_HEADER {
        return Err(DataFault::NoHeader {
            found,
            header: NET_HEADER,
        });
    }
    let header = [0, 1, 2].map(|i| i32::from_le_bytes(word(bytes, i)));
    let (Ok(h), Ok(n)) = (u64::try_from(hidden), u64::try_from(inputs)) else {
        return Err(DataFault::NetShape {
            found: header,
            want: [hidden, inputs],
        });
    };
    if header != [hidden, inputs, OUTPUTS] {
        return Err(DataFault::NetShape {
            found: header,
            want: [hidden, inputs],
        });
    }
    let floats = h * (n + 1) + OUTPUTS as u64 * (h + 1);
    let want = NET_HEADER + 4 * floats;
    if found != want {
        return Err(DataFault::Size { found, want });
    }
    let weights = &bytes[NET_HEADER as usize..];
    let Some(index) = first_past(weights, MOST_WEIGHT.to_bits()) else {
        return Ok(());
    };
    let at = 4 * index;
    let w = f32::from_le_bytes([
        weights[at],
        weights[at + 1],
        weights[at + 2],
        weights[at + 3],
    ]);
    let (index, bits) = (index as u64, w.to_bits());
    Err(if w.is_finite() {
        DataFault::TooLarge {
            index,
            bits,
            most: MOST_WEIGHT as u32,
        }
    } else {
        DataFault::NotFinite { index, bits }
    })
}

/// The index of the first float of `floats` (little-endian) whose size,
/// without its sign, is past the float whose bits are `most`: a float's
/// size orders as its bits do, and NaNs and infinities have the largest.
/// Four floats a step, each in its 32-bit lane of a 128-bit word (a lane
/// past `most` carries into its top bit, never into the next lane): the
/// tests' unoptimised build reads Sage's 3.75 million weights in
/// hundredths of a second, not in the editor's pause before its deeper
/// analysis.
fn first_past(floats: &[u8], most: u32) -> Option<usize> {
    const LANES: u128 = 0x0000_0001_0000_0001_0000_0001_0000_0001;
    let size = LANES * 0x7fff_ffff;
    let over = LANES * u128::from(0x7fff_ffff - most);
    let top = LANES * 0x8000_0000;
    let words = floats.chunks_exact(16);
    let tail = words.remainder().len() / 4;
    let flagged = words
        .map(|w| u128::from_le_bytes(w.try_into().unwrap_or([0; 16])))
        .position(|w| ((w & size) + over) & top != 0);
    let from = flagged.map_or(floats.len() / 4 - tail, |i| 4 * i);
    (from..floats.len() / 4).find(|&i| {
        let b = &floats[4 * i..4 * i + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]]) & 0x7fff_ffff > most
    })
}

/// A one-sided bear-off database.
pub(crate) fn check_bearoff(bytes: &[u8]) -> Result<(), DataFault> {
    let found = bytes.len() as u64;
    if found < BEAR_HEADER {
        return Err(DataFault::NoHeader {
            found,
            header: BEAR_HEADER,
        });
    }
    let header: [u32; 7] = std::array::from_fn(|i| u32::from_le_bytes(word(bytes, i)));
    if header[0] != BEAR_MARK {
        return Err(DataFault::NotBearoff);
    }
    if header[1] != BEAR_VERSION {
        return Err(DataFault::BearoffVersion {
            found: header[1],
            reads: BEAR_VERSION,
        });
    }
    let shape = [header[2], header[3], header[4], header[5]];
    let want_shape = [POINTS, CHECKERS, ROLLS, POSITIONS];
    if shape != want_shape {
        return Err(DataFault::BearoffShape {
            found: shape,
            want: want_shape,
        });
    }
    let gammons = header[6];
    // A distribution, a mean and a gammon index a position, then the
    // gammon distributions: the header's count checked against the file
    // before anything is read by it.
    let dist = u64::from(ROLLS) * 2;
    let want = BEAR_HEADER + u64::from(POSITIONS) * (dist + 8) + u64::from(gammons) * dist;
    if found != want {
        return Err(DataFault::BearoffSize {
            gammons,
            found,
            want,
        });
    }
    if gammons != GAMMON_POSITIONS {
        return Err(DataFault::GammonCount {
            found: gammons,
            want: GAMMON_POSITIONS,
        });
    }
    let body = &bytes[BEAR_HEADER as usize..];
    let (dists, rest) = body.split_at(POSITIONS as usize * dist as usize);
    let (means, rest) = rest.split_at(POSITIONS as usize * 4);
    let (indexes, gammon_dists) = rest.split_at(POSITIONS as usize * 4);
    check_distributions(dists)?;
    check_means(means)?;
    check_gammon_indexes(indexes, gammons)?;
    check_gammon_distributions(gammon_dists)
}

/// Each position's chances of being off in 0..32 rolls add up to one.
fn check_distributions(dists: &[u8]) -> Result<(), DataFault> {
    for (position, d) in (0u32..).zip(dists.chunks_exact(ROLLS as usize * 2)) {
        let sum = sum_sixteens(d);
        if sum != WHOLE {
            return Err(DataFault::Distribution { position, sum });
        }
    }
    Ok(())
}

/// The sum of the little-endian 16-bit numbers of `chunk` (64 bytes), eight
/// a step: each pair added in a 32-bit lane of a 128-bit word (far from
/// full: four words make at most 524,280 a lane), the lanes then added.
fn sum_sixteens(chunk: &[u8]) -> u32 {
    const LOW: u128 = 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;
    let lanes: u128 = chunk
        .chunks_exact(16)
        .map(|w| u128::from_le_bytes(w.try_into().unwrap_or([0; 16])))
        .map(|w| (w & LOW) + ((w >> 16) & LOW))
        .sum();
    (0..4).map(|i| (lanes >> (32 * i)) as u32).sum()
}

/// Each position's mean number of rolls is a number of rolls the table
/// holds.
fn check_means(means: &[u8]) -> Result<(), DataFault> {
    for (position, m) in (0u32..).zip(means.chunks_exact(4)) {
        let m = f32::from_le_bytes([m[0], m[1], m[2], m[3]]);
        if !(0.0..=ROLLS as f32).contains(&m) {
            return Err(DataFault::MeanRolls {
                position,
                bits: m.to_bits(),
                most: ROLLS,
            });
        }
    }
    Ok(())
}

/// The gammon indexes count up one by one over the positions that have
/// one (-1 where there is none) and end at the count the header gives:
/// each is then in range, and each distribution is some position's.
fn check_gammon_indexes(indexes: &[u8], count: u32) -> Result<(), DataFault> {
    let mut due: u32 = 0;
    for (position, i) in (0u32..).zip(indexes.chunks_exact(4)) {
        let found = i32::from_le_bytes([i[0], i[1], i[2], i[3]]);
        if found == -1 {
            continue;
        }
        match u32::try_from(found) {
            Ok(at) if at == due => due += 1,
            Ok(at) if at < count => {
                return Err(DataFault::GammonIndexOrder {
                    position,
                    found,
                    due,
                });
            }
            _ => {
                return Err(DataFault::GammonIndexPast {
                    position,
                    found,
                    count,
                });
            }
        }
    }
    if due != count {
        return Err(DataFault::GammonsLeft { used: due, count });
    }
    Ok(())
}

/// Each gammon distribution is the chance of no checker off yet after 0,
/// 1, ... rolls: certain at first, then falling.
fn check_gammon_distributions(dists: &[u8]) -> Result<(), DataFault> {
    for (index, d) in (0u32..).zip(dists.chunks_exact(ROLLS as usize * 2)) {
        if u16::from_le_bytes([d[0], d[1]]) != WHOLE as u16 || !falling(d) {
            return Err(DataFault::GammonDistribution { index });
        }
    }
    Ok(())
}

/// Whether the little-endian 16-bit numbers of `chunk` (64 bytes) never
/// rise, eight a step: the even and odd numbers of a 128-bit word each in
/// the low half of a 32-bit lane, each compared with the one after it by a
/// subtraction from the lane's bit 16, which stays set where the first is
/// not smaller (and no lane borrows from the next).
fn falling(chunk: &[u8]) -> bool {
    const LOW: u128 = 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;
    const BIT: u128 = 0x0001_0000_0001_0000_0001_0000_0001_0000;
    let not_below = |a: u128, b: u128| ((a | BIT) - b) & BIT == BIT;
    let words: Vec<u128> = chunk
        .chunks_exact(16)
        .map(|w| u128::from_le_bytes(w.try_into().unwrap_or([0; 16])))
        .collect();
    words.iter().enumerate().all(|(j, &w)| {
        let even = w & LOW;
        let odd = (w >> 16) & LOW;
        // The next numbers after the odd ones: the word's own even ones
        // from the second on, then the next word's first (none after the
        // last: 0, which nothing is below).
        let next_first = words.get(j + 1).map_or(0, |n| n & 0xffff);
        let after_odd = (even >> 32) | (next_first << 96);
        not_below(even, odd) && not_below(odd, after_odd)
    })
}

/// A bear-off database in Sage's layout whose numbers hold together but
/// mean nothing: every position off in 0 rolls, the first positions with
/// the gammon distributions, each certain at first and 0 after.
#[cfg(any(test, feature = "internals"))]
pub(crate) fn sample_bearoff() -> Vec<u8> {
    let mut out = Vec::new();
    let header = [
        BEAR_MARK,
        BEAR_VERSION,
        POINTS,
        CHECKERS,
        ROLLS,
        POSITIONS,
        GAMMON_POSITIONS,
    ];
    for w in header {
        out.extend_from_slice(&w.to_le_bytes());
    }
    let at_once = |out: &mut Vec<u8>| {
        out.extend_from_slice(&(WHOLE as u16).to_le_bytes());
        out.extend(std::iter::repeat_n(0u8, (ROLLS as usize - 1) * 2));
    };
    for _ in 0..POSITIONS {
        at_once(&mut out);
    }
    for _ in 0..POSITIONS {
        out.extend_from_slice(&0f32.to_le_bytes());
    }
    for position in 0..POSITIONS as i32 {
        let index = if position < GAMMON_POSITIONS as i32 {
            position
        } else {
            -1
        };
        out.extend_from_slice(&index.to_le_bytes());
    }
    for _ in 0..GAMMON_POSITIONS {
        at_once(&mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network of `hidden` units and `inputs` inputs, every weight `w`.
    fn net(hidden: i32, inputs: i32, w: f32) -> Vec<u8> {
        let mut out = Vec::new();
        for h in [hidden, inputs, OUTPUTS] {
            out.extend_from_slice(&h.to_le_bytes());
        }
        let floats = hidden * (inputs + 1) + OUTPUTS * (hidden + 1);
        for _ in 0..floats {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    fn put_f32(bytes: &mut [u8], at: usize, x: f32) {
        bytes[at..at + 4].copy_from_slice(&x.to_le_bytes());
    }

    #[test]
    fn a_whole_network_is_taken_and_each_fault_is_named() {
        let good = net(3, RACE_INPUTS, 0.25);
        assert_eq!(check_net(&good, 3, RACE_INPUTS), Ok(()));
        // The header bgsage writes, another version's size.
        assert_eq!(
            check_net(&good, 400, RACE_INPUTS),
            Err(DataFault::NetShape {
                found: [3, RACE_INPUTS, 5],
                want: [400, RACE_INPUTS]
            })
        );
        let want = good.len() as u64;
        assert_eq!(
            check_net(&good[..100], 3, RACE_INPUTS),
            Err(DataFault::Size { found: 100, want })
        );
        let mut longer = good.clone();
        longer.push(0);
        let e = check_net(&longer, 3, RACE_INPUTS).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} bytes where its header makes {want}: 1 bytes more than its data",
                want + 1
            )
        );
        assert_eq!(
            check_net(&good[..8], 3, RACE_INPUTS),
            Err(DataFault::NoHeader {
                found: 8,
                header: 12
            })
        );
        let mut nan = good.clone();
        put_f32(&mut nan, 12 + 4 * 7, f32::NAN);
        let e = check_net(&nan, 3, RACE_INPUTS).unwrap_err();
        assert!(matches!(e, DataFault::NotFinite { index: 7, .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "weight 7 of the network is NaN: not a finite number"
        );
        let mut huge = good.clone();
        put_f32(&mut huge, good.len() - 4, -3.0e38);
        let e = check_net(&huge, 3, RACE_INPUTS).unwrap_err();
        assert!(
            e.to_string()
                .contains("past any trained network's (at most 1000 either way)"),
            "{e}"
        );
        assert!(check_net(&good, -3, RACE_INPUTS).is_err());
    }

    /// A small generator of test numbers (no dependency): xorshift.
    fn numbers(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// The lanes of a 128-bit word read as each float, number or pair
    /// is read one by one, on every kind of float and every place in a
    /// word and past the last whole word.
    #[test]
    fn four_and_eight_a_step_reads_as_one_by_one() {
        let mut next = numbers(40);
        let special = [
            f32::NAN,
            f32::INFINITY,
            -f32::INFINITY,
            1000.0,
            -1000.0,
            1000.0001,
            3.0e38,
        ];
        for len in 0..40 {
            for _ in 0..50 {
                let mut floats: Vec<f32> = (0..len)
                    .map(|_| (next() % 4000) as f32 / 2.0 - 1000.0)
                    .collect();
                if len > 0 && next().is_multiple_of(2) {
                    let at = next() as usize % len;
                    floats[at] = special[next() as usize % special.len()];
                }
                let bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
                let naive = floats
                    .iter()
                    .position(|f| f.is_nan() || f.abs() > MOST_WEIGHT);
                assert_eq!(
                    first_past(&bytes, MOST_WEIGHT.to_bits()),
                    naive,
                    "{floats:?}"
                );
            }
        }
        for _ in 0..2000 {
            let mut d: Vec<u16> = (0..32).map(|_| (next() % 65_536) as u16).collect();
            if next().is_multiple_of(2) {
                d.sort_unstable_by(|a, b| b.cmp(a));
                if next().is_multiple_of(2) {
                    let at = next() as usize % 32;
                    d[at] = d[at].saturating_add((next() % 3) as u16);
                }
            }
            let bytes: Vec<u8> = d.iter().flat_map(|n| n.to_le_bytes()).collect();
            assert_eq!(falling(&bytes), d.windows(2).all(|w| w[0] >= w[1]), "{d:?}");
            let sum: u32 = d.iter().map(|&n| u32::from(n)).sum();
            assert_eq!(sum_sixteens(&bytes), sum, "{d:?}");
        }
    }

    #[test]
    fn a_whole_bearoff_database_is_taken() {
        assert_eq!(check_bearoff(&sample_bearoff()), Ok(()));
    }

    const MEANS: usize = 28 + 54_264 * 64;
    const INDEXES: usize = MEANS + 54_264 * 4;

    fn put_u32(bytes: &mut [u8], at: usize, x: u32) {
        bytes[at..at + 4].copy_from_slice(&x.to_le_bytes());
    }

    #[test]
    fn a_bearoff_header_is_held_to_the_file() {
        let good = sample_bearoff();
        let mut count = good.clone();
        // The file: a count of 50 million from a file of 3.9 MB.
        put_u32(&mut count, 24, 50_000_000);
        count.truncate(INDEXES + 54_264 * 4);
        assert_eq!(
            check_bearoff(&count),
            Err(DataFault::BearoffSize {
                gammons: 50_000_000,
                found: 3_907_036,
                want: 3_907_036 + 50_000_000 * 64
            })
        );
        let mut fewer = good[..INDEXES + 54_264 * 4 + 64].to_vec();
        put_u32(&mut fewer, 24, 1);
        assert_eq!(
            check_bearoff(&fewer),
            Err(DataFault::GammonCount {
                found: 1,
                want: 15_504
            })
        );
        let mut version = good.clone();
        put_u32(&mut version, 4, 2);
        assert_eq!(
            check_bearoff(&version),
            Err(DataFault::BearoffVersion { found: 2, reads: 1 })
        );
        let mut shape = good.clone();
        put_u32(&mut shape, 16, 30);
        assert!(matches!(
            check_bearoff(&shape),
            Err(DataFault::BearoffShape { .. })
        ));
        assert_eq!(
            check_bearoff(b"BEAR"),
            Err(DataFault::NoHeader {
                found: 4,
                header: 28
            })
        );
        let mut mark = good;
        mark[0] = b'X';
        assert_eq!(check_bearoff(&mark), Err(DataFault::NotBearoff));
    }

    #[test]
    fn a_bearoff_databases_numbers_and_indexes_are_held_in_range() {
        let good = sample_bearoff();
        let mut past = good.clone();
        // Position 20's gammon index past the distributions held.
        put_u32(&mut past, INDEXES + 4 * 20, 100_000_020);
        let e = check_bearoff(&past).unwrap_err();
        assert_eq!(
            e.to_string(),
            "position 20's gammon index is 100000020, past the 15504 gammon distributions the file holds"
        );
        let mut order = good.clone();
        put_u32(&mut order, INDEXES + 4 * 20, 21);
        assert!(matches!(
            check_bearoff(&order),
            Err(DataFault::GammonIndexOrder {
                position: 20,
                found: 21,
                due: 20
            })
        ));
        let mut left = good.clone();
        put_u32(&mut left, INDEXES + 4 * 15_503, u32::MAX);
        assert_eq!(
            check_bearoff(&left),
            Err(DataFault::GammonsLeft {
                used: 15_503,
                count: 15_504
            })
        );
        let mut negative = good.clone();
        put_u32(&mut negative, INDEXES + 4 * 3, (-7i32) as u32);
        assert!(matches!(
            check_bearoff(&negative),
            Err(DataFault::GammonIndexPast {
                position: 3,
                found: -7,
                ..
            })
        ));
        let mut mean = good.clone();
        put_f32(&mut mean, MEANS + 4 * 9, f32::NAN);
        assert!(matches!(
            check_bearoff(&mean),
            Err(DataFault::MeanRolls { position: 9, .. })
        ));
        let mut dist = good.clone();
        dist[28 + 64 * 5 + 2] = 1;
        assert_eq!(
            check_bearoff(&dist),
            Err(DataFault::Distribution {
                position: 5,
                sum: 65_536
            })
        );
        let mut gammon = good.clone();
        let last = gammon.len() - 2;
        gammon[last] = 1;
        assert_eq!(
            check_bearoff(&gammon),
            Err(DataFault::GammonDistribution { index: 15_503 })
        );
    }
}
