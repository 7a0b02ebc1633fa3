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
