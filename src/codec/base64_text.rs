//! The Base64 layer shared by the Position ID and the Match ID: standard
//! alphabet, no padding. Checking the characters here, before the crate
//! decodes, lets an error name the character and where it stands.

use super::error::{IdError, IdKind};
use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;

fn in_alphabet(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '+' || c == '/'
}

/// Decodes an ID of exactly `chars` characters into its `N`-byte key.
pub fn decode_key<const N: usize>(
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
    STANDARD_NO_PAD.encode_string(key, out);
}
