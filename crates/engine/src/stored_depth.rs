//! A depth as the library keeps it, in its players' words. The library
//! keeps every engine's depth in gnubg's count of plies, and a file's own
//! analysis as the file names it: XG's Roller levels as 1000 to 1002, a
//! rollout as 2000, a depth the file does not say as -1. Players know
//! these as `XG Roller++` or `XG rollout`, never `XG 1002-ply`.

use crate::registry::stored_depth_words;

/// `gnubg 2-ply`, `XG 3-ply`, `XG Roller++`, `XG rollout`, `XG`.
pub fn words(engine: &str, plies: i64) -> String {
    match plies {
        1000 => format!("{engine} Roller"),
        1001 => format!("{engine} Roller+"),
        1002 => format!("{engine} Roller++"),
        p if p >= 2000 => format!("{engine} rollout"),
        p if p < 0 => engine.to_owned(),
        p => stored_depth_words(engine, p),
    }
}

/// A match's analyses (engine, plies, from the file) in players' words:
/// bgedit's each, and the file's by its deepest for each analyser it names
/// (a file's verdicts come at many depths; listed deepest first):
/// `gnubg 2-ply`, `XG Roller++ (file)`. The match list of the CLI and of
/// the editor join them each their way.
pub fn match_analyses(analyses: &[(String, i64, bool)]) -> Vec<String> {
    let mut out: Vec<String> = analyses
        .iter()
        .filter(|a| !a.2)
        .map(|(e, p, _)| words(e, *p))
        .collect();
    let mut seen: Vec<&str> = Vec::new();
    for (e, p, _) in analyses.iter().filter(|a| a.2) {
        if !seen.contains(&e.as_str()) {
            seen.push(e);
            out.push(format!("{} (file)", words(e, *p)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_depths_read_in_players_words() {
        assert_eq!(words("gnubg", 2), "gnubg 2-ply");
        assert_eq!(words("XG", 3), "XG 3-ply");
        assert_eq!(words("XG", 1002), "XG Roller++");
        assert_eq!(words("XG", 1001), "XG Roller+");
        assert_eq!(words("XG", 1000), "XG Roller");
        assert_eq!(words("XG", 2000), "XG rollout");
        assert_eq!(words("XG", -1), "XG");
    }
}
