//! Quoting user text inside messages, cut one way everywhere: at most
//! [`QUOTE_CHARS`] characters, then `…`. A 500 MB name or line never becomes
//! a 500 MB message, and every message cuts at the same place.
//!
//! And the one place text is made safe for a terminal: [`printable`]
//! escapes control and bidi characters, [`Shown`] and [`say!`](crate::say) print through
//! it, [`json`] writes them as JSON's `\uXXXX`.

use std::fmt;

/// Characters of user text a message quotes before cutting.
pub(crate) const QUOTE_CHARS: usize = 40;

/// `text` cut to [`QUOTE_CHARS`] characters, with `…` when something was cut.
pub fn clip(text: &str) -> String {
    Clipped(text).to_string()
}

/// Displays `text` cut to [`QUOTE_CHARS`] characters (`…` when cut), without
/// copying it first.
#[derive(Clone, Copy)]
pub struct Clipped<'a>(pub &'a str);

impl fmt::Display for Clipped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(QUOTE_CHARS) {
            Some((end, _)) => write!(f, "{}…", &self.0[..end]),
            None => f.write_str(self.0),
        }
    }
}

/// Cuts every double-quoted fragment of a message written by another crate
/// (serde_json quotes the strings it did not expect) the same way.
pub(crate) fn clip_quoted_fragments(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(256));
    let mut rest = message;
    while let Some(open) = rest.find('"') {
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        // The fragment runs to the last quote of the message: a quoted value
        // may itself hold escaped quotes.
        match after.rfind('"') {
            Some(close) => {
                out.push_str(&clip(&after[..close]));
                out.push('"');
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&clip(after));
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_and_long_text_is_cut_at_forty_characters() {
        assert_eq!(clip("shwo"), "shwo");
        let long = "é".repeat(100);
        let cut = clip(&long);
        assert_eq!(cut.chars().count(), QUOTE_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(clip(&"a".repeat(40)), "a".repeat(40));
    }

    #[test]
    fn quoted_fragments_of_other_messages_are_cut() {
        let long = "x".repeat(1000);
        let msg = format!("invalid type: string \"{long}\", expected u16 at line 1 column 1010");
        let cut = clip_quoted_fragments(&msg);
        assert_eq!(
            cut,
            format!(
                "invalid type: string \"{}…\", expected u16 at line 1 column 1010",
                "x".repeat(40)
            )
        );
        assert_eq!(clip_quoted_fragments("no quotes"), "no quotes");
    }
}

/// Whether `c` must not reach a terminal as it is: a control character (C0,
/// DEL, C1 such as the one-byte CSI U+009B) but line feed and tab, or a bidi
/// embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which
/// reorder the text after them on screen (a name that reads backwards, a
/// file name that hides its extension). The marks U+200E/U+200F reorder
/// nothing and are kept.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// Whether `b` may begin a character [`is_unsafe`] holds: a C0 control but
/// line feed and tab, DEL, or the first byte of U+0080–U+00BF (the C1
/// controls among them) or of U+2000–U+2FFF (the bidi controls among
/// them). No other byte of UTF-8 starts one, so text without these bytes
/// needs no look at its characters.
const fn may_start_unsafe(b: u8) -> bool {
    (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f || b == 0xc2 || b == 0xe2
}

/// Whether `text` holds no character [`is_unsafe`]: its bytes first, a
/// block at a time (the block is tested whole, without a branch a byte, so
/// the compiler tests it in vector registers), its characters only where a
/// byte may start one. A board's text or an ID is told clean in a few
/// hundred instructions, not decoded character by character.
pub fn is_printable(text: &str) -> bool {
    const BLOCK: usize = 32;
    let bytes = text.as_bytes();
    let mut blocks = bytes.chunks_exact(BLOCK);
    let suspect = |block: &[u8]| {
        block
            .iter()
            .fold(false, |any, &b| any | may_start_unsafe(b))
    };
    let clean = blocks.all(|block| !suspect(block)) && !suspect(blocks.remainder());
    clean || !text.chars().any(is_unsafe)
}

/// `text` made safe to print on a terminal or to write into an export: a
/// character `is_unsafe` is written as its escape (`\x1b`, `\u{9b}`,
/// `\u{202e}`), so that text from a file, a file name, an argument, a paste
/// or an engine can never set a window title, write the clipboard (OSC 52),
/// clear the screen or turn the rest of a line around. Text without such
/// characters is returned as it is, uncopied. The one rule for everything
/// that reaches a terminal; JSON goes through [`json`], which applies it in
/// JSON's own escapes.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if is_printable(text) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            let code = u32::from(c);
            if code < 0x80 {
                out.push_str(&format!("\\x{code:02x}"));
            } else {
                out.push_str(&format!("\\u{{{code:x}}}"));
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `value` as one line of JSON in which every character `is_unsafe` is a
/// `\uXXXX` escape. serde_json escapes C0 but writes DEL, C1 (U+009B, a
/// terminal's CSI) and the bidi controls as they are; a `jq`-less reader
/// of the output sees them raw. Outside strings JSON is ASCII, so each such
/// character is inside a string, where the escape means the same character.
pub fn json(value: &impl serde::Serialize) -> String {
    let text = serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned());
    if is_printable(&text) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod printable_tests {
    use super::printable;

    #[test]
    fn escapes_and_bells_are_shown_not_sent() {
        let hostile = "note\x1b]52;c;aGk=\x07 \x1b[2J\u{9b}31m\r end\n\tok";
        let shown = printable(hostile);
        assert!(
            !shown
                .chars()
                .any(|c| c.is_control() && c != '\n' && c != '\t')
        );
        assert_eq!(
            shown,
            "note\\x1b]52;c;aGk=\\x07 \\x1b[2J\\u{9b}31m\\x0d end\n\tok"
        );
        assert!(matches!(printable("plain"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn del_c1_and_bidi_controls_are_escaped_and_marks_kept() {
        let hostile = "a\x7fb\u{85}c\u{202e}d\u{2066}e\u{2069}f\u{202a}g\u{200f}h";
        assert_eq!(
            printable(hostile),
            "a\\x7fb\\u{85}c\\u{202e}d\\u{2066}e\\u{2069}f\\u{202a}g\u{200f}h"
        );
    }

    #[test]
    fn the_byte_test_finds_every_unsafe_character_wherever_it_is() {
        // Every character alone, and inside text long enough to fill
        // blocks, at each place of a block and in the remainder.
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            assert_eq!(
                super::is_printable(c.encode_utf8(&mut [0; 4])),
                !super::is_unsafe(c),
                "{c:?}"
            );
        }
        let clean = "é°£ 24/18 13/11 \u{200f}\n\t".repeat(8);
        assert!(super::is_printable(&clean));
        for bad in ['\x1b', '\x7f', '\u{9b}', '\u{202e}', '\u{2066}'] {
            for at in 0..clean.len() {
                if clean.is_char_boundary(at) {
                    let text = format!("{}{bad}{}", &clean[..at], &clean[at..]);
                    assert!(!super::is_printable(&text), "{bad:?} at {at}");
                }
            }
        }
    }

    #[test]
    fn json_escapes_what_serde_json_leaves_raw_and_reads_back_the_same() {
        let hostile = "\x1b]0;t\x07 \u{9b}2J \u{202e}gpj.exe \u{2066}x\x7f";
        let v = serde_json::json!({ "name": hostile });
        let line = super::json(&v);
        assert!(line.is_ascii(), "{line}");
        assert!(
            line.contains("\\u009b") && line.contains("\\u202e"),
            "{line}"
        );
        let back: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(back, v);
    }
}

/// Displays anything printable ([`printable`] of its text): for a message
/// that quotes a file's, a name's, an argument's or an engine's words.
pub struct Shown<T>(pub T);

impl<T: fmt::Display> fmt::Display for Shown<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&printable(&self.0.to_string()))
    }
}

/// `eprintln!` with the whole message made [`printable`]: the one way a
/// command line message reaches standard error.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        // Written, never a panic: `eprintln!` panics when standard error is
        // gone (a closed terminal), and nothing is left to tell then.
        {
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "{}",
                $crate::quote::printable(&format!($($arg)*))
            );
        }
    };
}
