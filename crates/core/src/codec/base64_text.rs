//! The Base64 layer shared by the Position ID and the Match ID: standard
//! alphabet, no padding. Checking the characters here, before the crate
//! decodes, lets an error name the character and where it stands.

use super::error::{IdError, IdKind};
use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;

fn in_alphabet(c: char) -> bool {
    u8::try_from(c).is_ok_and(is_id_byte)
}

/// Whether `b` is a character of the Base64 alphabet IDs are written in.
pub(crate) fn is_id_byte(b: u8) -> bool {
    VALUES[usize::from(b)] != INVALID
}

/// Each byte's 6-bit value in the standard alphabet, or `INVALID`.
const INVALID: u8 = 0xff;
const VALUES: [u8; 256] = {
    let mut t = [INVALID; 256];
    let mut i = 0;
    while i < 64 {
        t[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    t
};
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Decodes an ID of exactly `chars` characters into its `N`-byte key.
#[cfg(test)]
fn decode_key<const N: usize>(kind: IdKind, text: &str, chars: usize) -> Result<[u8; N], IdError> {
    assert_eq!(chars, (8 * N).div_ceil(6));
    let bits = decode_bits::<N>(kind, text)?;
    let mut key = [0u8; N];
    key.copy_from_slice(&bits.to_le_bytes()[..N]);
    Ok(key)
}

/// Decodes an ID of exactly `chars` characters into its `N`-byte key, read
/// as one little-endian number: key byte `j`'s bit `b` is bit `8j + b`, the
/// order in which gnubg's keys are laid out.
///
/// IDs are read millions of times a second in `bgedit convert`, so the
/// characters are folded into one number through a table; any problem
/// (length, alphabet, non-zero padding bits) is then described by the slow
/// path.
///
/// `chars` is the ID's length, which `N` decides (`(8N)/6` rounded up); it
/// is a constant here so the loops unroll.
pub(crate) fn decode_bits<const N: usize>(kind: IdKind, text: &str) -> Result<u128, IdError> {
    const { assert!(N >= 1 && N <= 13) };
    let chars: usize = const { (8 * N).div_ceil(6) };
    let bytes = text.as_bytes();
    if bytes.len() == chars {
        // Base64 is big-endian: the first character holds the top bits.
        // Ten characters fill a 64-bit word; the rest go in a second one.
        // A bad character shows in the top bits of its `VALUES` entry.
        let split = chars.min(10);
        let mut bad = 0u8;
        let mut word = |part: &[u8]| {
            part.iter().fold(0u64, |w, &b| {
                let d = VALUES[usize::from(b)];
                bad |= d;
                w << 6 | u64::from(d & 0x3f)
            })
        };
        let high = word(&bytes[..split]);
        let low = word(&bytes[split..]);
        let v = u128::from(high) << (6 * (chars - split)) | u128::from(low);
        // The spare bits of the last character (4 of a Position ID's 84)
        // must be zero, or the ID is not canonical.
        let spare = 6 * chars - 8 * N;
        if bad & 0xc0 == 0 && v & ((1 << spare) - 1) == 0 {
            // Byte-reversed, the first byte becomes the least significant.
            return Ok(((v >> spare) << (128 - 8 * N)).swap_bytes());
        }
    }
    describe_error::<N>(kind, text, chars).map(|key| {
        let mut le = [0u8; 16];
        le[..N].copy_from_slice(&key);
        u128::from_le_bytes(le)
    })
}

/// Why `text` is not an ID of `chars` characters.
fn describe_error<const N: usize>(
    kind: IdKind,
    text: &str,
    chars: usize,
) -> Result<[u8; N], IdError> {
    let found = text.chars().count();
    if found != chars {
        return Err(IdError::WrongLength {
            kind,
            expected: chars,
            found,
        });
    }
    if let Some((i, ch)) = text.chars().enumerate().find(|&(_, c)| !in_alphabet(c)) {
        return Err(IdError::BadCharacter {
            kind,
            position: i + 1,
            ch,
        });
    }
    // 14 characters carry 84 bits for an 80-bit key: the last character's
    // low bits must be zero, or the ID is not canonical.
    let mut key = [0u8; N];
    let mut buf = [0u8; 16];
    match STANDARD_NO_PAD.decode_slice(text.as_bytes(), &mut buf) {
        Ok(n) if n == N => {
            key.copy_from_slice(&buf[..N]);
            Ok(key)
        }
        Ok(n) => Err(IdError::WrongLength {
            kind,
            expected: chars,
            found: n,
        }),
        Err(base64::DecodeSliceError::DecodeError(base64::DecodeError::InvalidLastSymbol {
            ..
        })) => Err(IdError::BitsPastEnd {
            kind,
            bit: N * 8 + 1,
        }),
        Err(e) => Err(IdError::Malformed {
            kind,
            detail: e.to_string(),
        }),
    }
}

/// Encodes a key as Base64 without padding, appending to `out` (tests build
/// IDs bit by bit with it).
#[cfg(test)]
pub(crate) fn encode_key_into<const N: usize>(key: &[u8; N], out: &mut String) {
    STANDARD_NO_PAD.encode_string(key, out);
}

/// The `C` Base64 characters (without padding) of the `N`-byte key held in
/// `bits` (as [`decode_bits`] returns it). This runs twice per line in
/// `bgedit convert`: the characters are cut from one number, on the stack.
pub(crate) fn encode_chars<const N: usize, const C: usize>(bits: u128) -> [u8; C] {
    // Up to 18 characters: the first 8 fit the high word.
    const { assert!(N >= 1 && N <= 13 && C == (8 * N).div_ceil(6)) };
    // Big-endian again, the last character padded with zero bits. The
    // last ten characters are cut from one 64-bit word, the first ones
    // from another: no 128-bit shift per character.
    let v = (bits.swap_bytes() >> (128 - 8 * N)) << (6 * C - 8 * N);
    let split = C.saturating_sub(10);
    let (high, low) = ((v >> 60) as u64, v as u64);
    let mut id = [0u8; C];
    for (i, c) in id[..split].iter_mut().enumerate() {
        *c = ALPHABET[(high >> (6 * (split - 1 - i))) as usize & 63];
    }
    for (i, c) in id[split..].iter_mut().enumerate() {
        *c = ALPHABET[(low >> (6 * (C - split - 1 - i))) as usize & 63];
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_paths_agree_with_the_base64_crate() {
        let mut seed = 7u64;
        for _ in 0..2000 {
            let mut key = [0u8; 10];
            for k in key.iter_mut() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *k = (seed >> 33) as u8;
            }
            let bits = |k: &[u8]| {
                let mut le = [0u8; 16];
                le[..k.len()].copy_from_slice(k);
                u128::from_le_bytes(le)
            };
            let ours = encode_chars::<10, 14>(bits(&key));
            let ours = std::str::from_utf8(&ours).unwrap();
            assert_eq!(ours, STANDARD_NO_PAD.encode(key));
            assert_eq!(decode_key::<10>(IdKind::PositionId, ours, 14), Ok(key));
            let short: [u8; 9] = key[..9].try_into().unwrap();
            let ours = encode_chars::<9, 12>(bits(&short));
            let ours = std::str::from_utf8(&ours).unwrap();
            assert_eq!(ours, STANDARD_NO_PAD.encode(short));
            assert_eq!(
                decode_key::<9>(IdKind::MatchId, ours, 12).unwrap(),
                key[..9]
            );
        }
    }
}
