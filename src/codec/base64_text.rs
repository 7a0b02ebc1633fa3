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
    // 6 bits a character; at most 21 characters fit in 128 bits.
    if bytes.len() == chars && chars <= 21 && N * 8 <= chars * 6 {
        let mut acc: u128 = 0;
        let mut bad = 0u8;
        for &b in bytes {
            let v = VALUES[usize::from(b)];
            bad |= v & 0xc0;
            acc = acc << 6 | u128::from(v & 0x3f);
        }
        let spare = chars * 6 - N * 8;
        if bad == 0 && acc & ((1u128 << spare) - 1) == 0 {
            let mut key = [0u8; N];
            for (i, k) in key.iter_mut().enumerate() {
                *k = (acc >> (spare + 8 * (N - 1 - i))) as u8;
            }
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

/// Encodes a key as Base64 without padding, appending to `out`.
pub fn encode_key_into(key: &[u8], out: &mut String) {
    if key.len() <= 15 {
        // By hand into a stack buffer: one push, no engine set-up.
        let mut acc: u128 = 0;
        for &b in key {
            acc = acc << 8 | u128::from(b);
        }
        let chars = (key.len() * 8).div_ceil(6);
        acc <<= chars * 6 - key.len() * 8;
        let mut buf = [0u8; 20];
        for (i, c) in buf[..chars].iter_mut().enumerate() {
            *c = ALPHABET[(acc >> (6 * (chars - 1 - i))) as usize & 63];
        }
        // Every byte is from the alphabet, so this is always ASCII.
        if let Ok(text) = std::str::from_utf8(&buf[..chars]) {
            out.push_str(text);
        }
    } else {
        STANDARD_NO_PAD.encode_string(key, out);
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
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *k = (seed >> 33) as u8;
            }
            let mut ours = String::new();
            encode_key_into(&key, &mut ours);
            assert_eq!(ours, STANDARD_NO_PAD.encode(key));
            assert_eq!(decode_key::<10>(IdKind::PositionId, &ours, 14), Ok(key));
            let mut ours = String::new();
            encode_key_into(&key[..9], &mut ours);
            assert_eq!(ours, STANDARD_NO_PAD.encode(&key[..9]));
            assert_eq!(
                decode_key::<9>(IdKind::MatchId, &ours, 12).unwrap(),
                key[..9]
            );
        }
    }
}
