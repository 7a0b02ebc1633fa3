//! What to say when the first word on the command line is neither a
//! command nor an ID (`bgedit shwo`, `bgedit conver --to xgid`): say so and
//! suggest the command meant, before clap reads the rest and gives advice
//! about the wrong thing (`-- --to`).

use bgedit_core::codec;
use bgedit_core::domain::Position;
use bgedit_core::quote::Clipped;

/// Edit distance (insertions, deletions, substitutions, and swaps of two
/// neighbours, the commonest typo) between two short words.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The command `word` was probably meant to be, if any.
pub(crate) fn nearest<'a>(word: &str, commands: &[&'a str]) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    commands
        .iter()
        .map(|&c| {
            let d = if c.starts_with(&word) && word.len() >= 2 {
                1
            } else {
                distance(&word, c)
            };
            (d, c)
        })
        .filter(|&(d, c)| d <= 2.min(c.len() / 2))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Checks the words before any option: `None` when they are a command, an
/// ID or IDs (or nothing), else the message to print. `commands` are the
/// subcommands' names.
pub fn check_first_words(args: &[String], commands: &[&str]) -> Option<String> {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map(String::as_str)
        .take_while(|a| !a.starts_with('-'))
        .collect();
    let first = *words.first()?;
    // Internal commands (`__hold-clipboard`) are clap's to read; they are
    // never suggested.
    if commands.contains(&first) || first == "help" || first.starts_with("__") {
        return None;
    }
    let base = Position::default();
    if codec::parse_any(first, &base).is_ok() {
        return None;
    }
    // A word of letters is meant as a command; anything else is an attempt
    // at an ID, whose own error the editor's start reports.
    let command_like = first.len() <= 24
        && first
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_');
    let meant = command_like.then(|| nearest(first, commands)).flatten();
    // `bgedit shwo ID`: the ID in the words does not make a typo an ID.
    if meant.is_none() && codec::parse_any(&words.join(" "), &base).is_ok() {
        return None;
    }
    if !command_like {
        return None;
    }
    let list = commands.join(", ");
    Some(match meant {
        Some(meant) => format!(
            "bgedit: '{}' is neither a command nor an ID; did you mean `bgedit {meant}`? (commands: {list})",
            Clipped(first)
        ),
        None => format!(
            "bgedit: '{}' is neither a command nor an ID (commands: {list}; IDs: GNUBG ID, Position ID, Match ID, XGID, JSON). See bgedit --help",
            Clipped(first)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMANDS: [&str; 2] = ["show", "convert"];

    fn args(words: &[&str]) -> Vec<String> {
        std::iter::once("bgedit")
            .chain(words.iter().copied())
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn typos_get_the_command_meant() {
        assert_eq!(nearest("shwo", &COMMANDS), Some("show"));
        assert_eq!(nearest("conver", &COMMANDS), Some("convert"));
        assert_eq!(nearest("convrt", &COMMANDS), Some("convert"));
        assert_eq!(nearest("SHOW", &COMMANDS), Some("show"));
        assert_eq!(nearest("banana", &COMMANDS), None);
        let m = check_first_words(&args(&["conver", "--to", "xgid"]), &COMMANDS).unwrap();
        assert!(m.contains("did you mean `bgedit convert`"), "{m}");
        // An ID after the typo is not read as "an ID in a sentence".
        let m = check_first_words(&args(&["shwo", "4HPwATDgc/ABMA"]), &COMMANDS).unwrap();
        assert!(m.contains("did you mean `bgedit show`"), "{m}");
    }

    #[test]
    fn internal_commands_pass_and_are_never_offered() {
        assert_eq!(
            check_first_words(&args(&["__hold-clipboard"]), &COMMANDS),
            None
        );
    }

    #[test]
    fn commands_and_ids_pass() {
        for words in [
            &["show"][..],
            &["4NvBA0DGzooBBg", "QYkqASAAIAAA"],
            &["4NvBA0DGzooBBg:QYkqASAAIAAA"],
            &["--new"],
            &[],
            // A damaged ID: its own error is reported later.
            &["4HPwATDgc/ABM"],
        ] {
            assert_eq!(
                check_first_words(&args(words), &COMMANDS),
                None,
                "{words:?}"
            );
        }
    }
}
