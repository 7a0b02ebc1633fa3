//! The Base64 layer shared by the Position ID and the Match ID: standard
//! alphabet, no padding. Checking the characters here, before the crate
//! decodes, lets an error name the character and where it stands.

use super::error::{IdError, IdKind};
use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;

fn in_alphabet(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '+' || c == '/'
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
///
/// IDs are read millions of times a second in `bgedit convert`, so the
/// characters are decoded straight into one number; any problem (length,
/// alphabet, non-zero padding bits) is then described by the slow path.
pub fn decode_key<const N: usize>(
    kind: IdKind,
    text: &str,
    chars: usize,
) -> Result<[u8; N], IdError> {
    let bytes = text.as_bytes();
    if bytes.len() == chars && N == chars * 6 / 8 {
        // Four characters make three bytes; a last group of two or three
        // characters makes one or two, and its spare bits must be zero.
        let mut key = [0u8; N];
        // A bad character shows in the top bits of its `VALUES` entry; a
        // set spare bit in the low ones.
        let mut bad = 0u32;
        let mut k = 0;
        for group in bytes.chunks(4) {
            let mut v = 0u32;
            for &b in group {
                let d = VALUES[usize::from(b)];
                bad |= u32::from(d & 0xc0);
                v = v << 6 | u32::from(d & 0x3f);
            }
            let bits = 6 * group.len();
            let whole = bits / 8;
            let spare = bits - 8 * whole;
            bad |= v & ((1 << spare) - 1);
            for i in 0..whole {
                key[k + i] = (v >> (spare + 8 * (whole - 1 - i))) as u8;
            }
            k += whole;
        }
        if bad == 0 {
            return Ok(key);
        }
    }
    describe_error(kind, text, chars)
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

/// Encodes a key as Base64 without padding, appending to `out`. The key's
/// length is a constant, so the loops below unroll: this runs twice per
/// line in `bgedit convert`.
pub fn encode_key_into<const N: usize>(key: &[u8; N], out: &mut String) {
    if N > 18 {
        STANDARD_NO_PAD.encode_string(key, out);
        return;
    }
    // Three bytes make four characters; a last one or two bytes make two
    // or three, padded with zero bits. Written to the stack, pushed once.
    let mut buf = [0u8; 24];
    let mut n = 0;
    for group in key.chunks(3) {
        let mut v = 0u32;
        for &b in group {
            v = v << 8 | u32::from(b);
        }
        let chars = (8 * group.len()).div_ceil(6);
        v <<= 6 * chars - 8 * group.len();
        for i in (0..chars).rev() {
            buf[n] = ALPHABET[(v >> (6 * i)) as usize & 63];
            n += 1;
        }
    }
    // Every byte is from the alphabet: always ASCII.
    if let Ok(text) = std::str::from_utf8(&buf[..n]) {
        out.push_str(text);
    }
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
            let mut ours = String::new();
            encode_key_into(&key, &mut ours);
            assert_eq!(ours, STANDARD_NO_PAD.encode(key));
            assert_eq!(decode_key::<10>(IdKind::PositionId, &ours, 14), Ok(key));
            let mut ours = String::new();
            let short: [u8; 9] = key[..9].try_into().unwrap();
            encode_key_into(&short, &mut ours);
            assert_eq!(ours, STANDARD_NO_PAD.encode(&key[..9]));
            assert_eq!(
                decode_key::<9>(IdKind::MatchId, &ours, 12).unwrap(),
                key[..9]
            );
        }
    }
}
