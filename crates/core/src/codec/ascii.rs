//! ASCII bytes as text without a second look at them.
//!
//! The stream commands make and read millions of short ASCII texts a
//! second (IDs, board rows); the standard library's UTF-8 check then costs
//! more than the decoding itself, because it walks a short text byte by
//! byte. An ASCII check runs a word at a time, and ASCII is always UTF-8.

/// `bytes` as text when it is ASCII.
pub fn as_str(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        // SAFETY: every ASCII byte sequence is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        None
    }
}

/// Appends ASCII `bytes` to `out`; anything else goes through the UTF-8
/// check (and is appended only when valid), so a caller's slip never makes
/// a broken `String`.
pub(crate) fn push(out: &mut String, bytes: &[u8]) {
    match as_str(bytes) {
        Some(text) => out.push_str(text),
        None => {
            if let Ok(text) = std::str::from_utf8(bytes) {
                out.push_str(text);
            }
        }
    }
}

/// `bytes` as a `String`: ASCII is taken as it is, anything else is
/// checked (and invalid UTF-8, which a careful writer never makes, replaced
/// rather than trusted).
pub(crate) fn into_string(bytes: Vec<u8>) -> String {
    if bytes.is_ascii() {
        // SAFETY: every ASCII byte sequence is valid UTF-8.
        unsafe { String::from_utf8_unchecked(bytes) }
    } else {
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_is_text_and_anything_else_is_checked() {
        assert_eq!(as_str(b"4HPwATDgc/ABMA"), Some("4HPwATDgc/ABMA"));
        assert_eq!(as_str("é".as_bytes()), None);
        let mut s = String::from("a");
        push(&mut s, "é".as_bytes());
        push(&mut s, b"\\xff");
        push(&mut s, &[0xff]);
        assert_eq!(s, "aé\\xff");
        assert_eq!(into_string(b"X: name".to_vec()), "X: name");
        assert_eq!(into_string("O: é".as_bytes().to_vec()), "O: é");
        assert_eq!(into_string(vec![b'a', 0xff]), "a\u{fffd}");
    }
}
