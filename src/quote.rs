//! Quoting user text inside messages, cut one way everywhere: at most
//! [`QUOTE_CHARS`] characters, then `…`. A 500 MB name or line never becomes
//! a 500 MB message, and every message cuts at the same place.

use std::fmt;

/// Characters of user text a message quotes before cutting.
pub const QUOTE_CHARS: usize = 40;

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
pub fn clip_quoted_fragments(message: &str) -> String {
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

/// `text` made safe to print on a terminal or to write into an export: a
/// control character (but line feed and tab) is written as its escape
/// (`\x1b`, `\u{9b}`), so that text from a file or a paste can never set a
/// window title, write the clipboard (OSC 52) or clear the screen. Text
/// without such characters is returned as it is, uncopied.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
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
}
