//! Counts in words: `1 match`, `2 matches`, never `1 matches`.

/// `n` and its noun, singular for 1, plural otherwise.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `n` and a noun that takes an `s` in the plural (`game`, `decision`).
pub fn count_s(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular() {
        assert_eq!(count(1, "match", "matches"), "1 match");
        assert_eq!(count(0, "match", "matches"), "0 matches");
        assert_eq!(count_s(1, "game"), "1 game");
        assert_eq!(count_s(12, "game"), "12 games");
    }
}
