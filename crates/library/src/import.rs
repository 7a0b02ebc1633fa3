//! Splitting a file into position texts, by format, for `bgedit library
//! import`: IDs one per line; XG text exports, one block per `XGID=` line
//! with the note and analysis that follow it; gnubg SGF files, one text per
//! game. Each text is read by `codec::parse_any`, so a format the codecs
//! learn to read is imported with no change here.

use super::store::Analysis;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// One ID per line (any format `parse_any` reads).
    Ids,
    /// eXtreme Gammon's text export: `XGID=` blocks with a diagram, maybe an
    /// analysis, maybe comments.
    XgText,
    /// A gnubg SGF file: one or more `(;…)` games.
    Sgf,
}

/// One position's text in a file, with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub line: usize,
    pub text: String,
    pub note: String,
    pub analysis: Option<Analysis>,
}

pub fn detect(text: &str) -> FileFormat {
    let start = text.trim_start_matches('\u{feff}').trim_start();
    if bgedit_core::codec::sgf::looks_like(start) {
        return FileFormat::Sgf;
    }
    let mut has_xgid = false;
    let mut has_prose = false;
    for line in text.lines() {
        let t = line.trim();
        if t.contains("XGID=") {
            has_xgid = true;
        } else if !t.is_empty() && t.contains(' ') {
            has_prose = true;
        }
        if has_xgid && has_prose {
            return FileFormat::XgText;
        }
    }
    FileFormat::Ids
}

/// The position texts of `text`, read as `format`.
pub fn pieces(text: &str, format: FileFormat) -> Box<dyn Iterator<Item = Piece> + '_> {
    match format {
        FileFormat::Ids => Box::new(text.lines().enumerate().filter_map(|(i, l)| {
            let t = l.trim();
            (!t.is_empty()).then(|| Piece {
                line: i + 1,
                text: t.to_owned(),
                note: String::new(),
                analysis: None,
            })
        })),
        FileFormat::XgText => Box::new(xg_blocks(text).into_iter()),
        FileFormat::Sgf => Box::new(sgf_games(text).into_iter()),
    }
}

/// Lines of XG's board diagram and fixed header, which the XGID already holds.
fn is_diagram_or_header(line: &str) -> bool {
    let t = line.trim_start();
    let first = t.chars().next();
    matches!(first, Some('+' | '|'))
        || t.starts_with("v|")
        || t.starts_with("^|")
        || [
            "X:",
            "O:",
            "Score is",
            "Pip count",
            "Cube:",
            "Match to",
            "Money session",
        ]
        .iter()
        .any(|p| t.starts_with(p))
        || t.contains(" to play ")
        || t.ends_with(" to play")
        || t.contains(" on roll")
        || t.contains(" owns ")
        || t.contains(" cube action")
        || t.starts_with("eXtreme Gammon Version")
}

/// Where XG's analysis begins: a numbered candidate (`1. XG Roller+ 13/8`),
/// or the cube analysis heading.
fn analysis_start(line: &str) -> bool {
    let t = line.trim_start();
    let numbered = t
        .split_once(". ")
        .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    numbered
        || t.starts_with("Analyzed in")
        || t.starts_with("Player Winning Chances")
        || t.starts_with("Cubeful Equities")
}

/// The depth XG names: `XG Roller++`, `3-ply`, ... from `Analyzed in …` or
/// the first candidate.
fn depth_of(analysis: &str) -> String {
    for line in analysis.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("Analyzed in") {
            return rest.trim().to_owned();
        }
        if let Some((n, rest)) = t.split_once(". ")
            && n.chars().all(|c| c.is_ascii_digit())
        {
            // `XG Roller++ 13/4 6/4  eq:+0.123`: the level's words stop at
            // the move (a word with `/`), whatever the spacing.
            return rest
                .split_whitespace()
                .take_while(|w| !w.contains('/') && !w.starts_with("eq:"))
                .collect::<Vec<_>>()
                .join(" ");
        }
    }
    String::new()
}

/// The last line of XG's analysis proper: a candidate's `Opponent: 48.47%
/// (G:…)` line, `Best Cube action: …`, or the `Percentage of wrong …` lines
/// after it. A note that merely starts with "Opponent:" has no percentage.
fn ends_analysis(line: &str) -> bool {
    let t = line.trim_start();
    let lower = t.to_ascii_lowercase();
    let percentage = |rest: &str| {
        let rest = rest.trim_start();
        let digits = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
        digits.len() < rest.len() && digits.starts_with('%')
    };
    t.strip_prefix("Opponent:").is_some_and(percentage)
        || lower.starts_with("best cube action:")
        || lower.starts_with("percentage of wrong")
}

/// Where the comment starts in the lines from the analysis to the end of a
/// block: after the last line of analysis proper and the indented lines
/// that follow it at once (a rollout's confidence and settings), at the
/// first line written after a blank one. `lines.len()` when there is none.
fn comment_start(lines: &[&str]) -> usize {
    let Some(last) = lines.iter().rposition(|l| ends_analysis(l)) else {
        return lines.len();
    };
    let mut i = last + 1;
    while i < lines.len() && !lines[i].trim().is_empty() && lines[i].starts_with([' ', '\t']) {
        i += 1;
    }
    while i < lines.len() && lines[i].trim().is_empty() {
        i += 1;
    }
    i
}

fn xg_blocks(text: &str) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    let mut note: Vec<&str> = Vec::new();
    let mut analysis: Vec<&str> = Vec::new();
    let finish = |out: &mut Vec<Piece>, note: &mut Vec<&str>, analysis: &mut Vec<&str>| {
        if let Some(last) = out.last_mut() {
            // XG writes the position's comment after its analysis, before
            // the version line: it is the note, where search finds it.
            let comment = analysis.split_off(comment_start(analysis));
            let lines: Vec<&str> = note.iter().chain(&comment).map(|l| l.trim()).collect();
            last.note = lines.join("\n").trim().to_owned();
            let a = analysis.join("\n").trim_end().to_owned();
            if !a.trim().is_empty() {
                last.analysis = Some(Analysis {
                    depth: depth_of(&a),
                    text: a,
                });
            }
        }
        note.clear();
        analysis.clear();
    };
    for (i, line) in text.lines().enumerate() {
        if let Some(at) = line.find("XGID=") {
            finish(&mut out, &mut note, &mut analysis);
            out.push(Piece {
                line: i + 1,
                text: line[at..].trim().to_owned(),
                note: String::new(),
                analysis: None,
            });
            continue;
        }
        let Some(last) = out.last_mut() else {
            continue;
        };
        // The names line, and the line that says who is on roll (which
        // seats the names: XG calls the roller X), go with the XGID.
        let t = line.trim();
        let held = last.text.matches('\n').count();
        if analysis.is_empty()
            && ((held == 0 && t.starts_with("X:") && t.contains(" O:"))
                || (held == 1 && (t.starts_with("X ") || t.starts_with("O "))))
        {
            last.text.push('\n');
            last.text.push_str(t);
            continue;
        }
        if !analysis.is_empty() || analysis_start(line) {
            if !line.trim_start().starts_with("eXtreme Gammon Version") {
                analysis.push(line);
            }
        } else if !line.trim().is_empty() && !is_diagram_or_header(line) {
            note.push(line.trim());
        }
    }
    finish(&mut out, &mut note, &mut analysis);
    out
}

/// Splits an SGF collection into its games: each top-level `( … )`, with
/// brackets inside property values (`C[...]`) skipped.
fn sgf_games(text: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let (mut depth, mut in_value, mut escaped) = (0usize, false, false);
    let mut start = None;
    let mut line = 1;
    let mut start_line = 1;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            line += 1;
        }
        if in_value {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, ']') => in_value = false,
                _ => {}
            }
            continue;
        }
        match c {
            '[' => in_value = true,
            '(' => {
                if depth == 0 {
                    start = Some(i);
                    start_line = line;
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0
                    && let Some(s) = start.take()
                {
                    out.push(Piece {
                        line: start_line,
                        text: text[s..=i].to_owned(),
                        note: String::new(),
                        analysis: None,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_depth_label_is_the_level_without_the_move() {
        assert_eq!(
            depth_of("    1. XG Roller++ 13/4 6/4 eq:+0.123"),
            "XG Roller++"
        );
        assert_eq!(
            depth_of("    1. XG Roller+  13/11 13/8     eq:+0.011"),
            "XG Roller+"
        );
        assert_eq!(
            depth_of("    1. 3-ply       bar/22 13/8   eq:-0.2"),
            "3-ply"
        );
        assert_eq!(depth_of("Analyzed in XG Roller++\nCubeful"), "XG Roller++");
    }

    use super::*;

    const XG: &str = "\
XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10

X:Player 2   O:Player 1
Score is X:0 O:0. Unlimited Game
 +13-14-15-16-17-18------19-20-21-22-23-24-+
 | X           O    |   | O              X |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+
Pip count  X: 167  O: 167 X-O: 0-0
Cube: 1
X to play 52

    1. XG Roller+  13/11 13/8                    eq:+0.011
      Player:   51.53% (G:14.53% B:0.60%)
    2. XG Roller+  24/22 13/8                    eq:-0.003

eXtreme Gammon Version: 2.19

XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10
The classic 31: make the 5 point.
";

    #[test]
    fn xg_text_splits_on_xgid_lines_with_note_and_analysis() {
        assert_eq!(detect(XG), FileFormat::XgText);
        let p: Vec<Piece> = pieces(XG, FileFormat::XgText).collect();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].line, 1);
        assert!(p[0].text.starts_with("XGID=-b----E-C"));
        assert_eq!(p[0].note, "");
        let a = p[0].analysis.as_ref().unwrap();
        assert_eq!(a.depth, "XG Roller+");
        assert!(a.text.contains("13/11 13/8"));
        assert!(!a.text.contains("Version"));
        assert_eq!(p[1].line, 18);
        assert_eq!(p[1].note, "The classic 31: make the 5 point.");
        assert!(p[1].analysis.is_none());
    }

    /// XG writes a position's comment after the analysis, before its
    /// version line (the layout of XG 2.19's "copy position as text").
    #[test]
    fn xg_comment_after_the_analysis_is_the_note() {
        let text = "\
XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10

X:Player 2   O:Player 1
Score is X:0 O:0. Unlimited Game
Pip count  X: 167  O: 167 X-O: 0-0
Cube: 1
X to play 52

    1. XG Roller+  13/11 13/8                    eq:+0.011
      Player:   51.53% (G:14.53% B:0.60%)
      Opponent: 48.47% (G:12.11% B:0.49%)

    2. XG Roller+  24/22 13/8                    eq:-0.003
      Player:   51.20% (G:14.01% B:0.55%)
      Opponent: 48.80% (G:12.20% B:0.50%)
      Confidence: \u{b1}0.002

Split or build? Opponent: 3 pips better
in the race after 24/22.

eXtreme Gammon Version: 2.19

XGID=-a----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10
X on roll, cube action

Analyzed in XG Roller++
Player Winning Chances:   52.68% (G:14.35% B:0.69%)
Opponent Winning Chances: 47.32% (G:12.42% B:0.55%)

Cubeless Equities: No Double=+0.123, Double=+0.246

Cubeful Equities:
       No double:     +0.123
       Double/Take:   +0.100 (-0.023)
       Double/Pass:   +1.000 (+0.877)

Best Cube action: No double / Take
    Percentage of wrong pass needed to make the double decision right: 12.3%

Too good? No.

eXtreme Gammon Version: 2.19
";
        let p: Vec<Piece> = pieces(text, FileFormat::XgText).collect();
        assert_eq!(p.len(), 2);
        assert_eq!(
            p[0].note,
            "Split or build? Opponent: 3 pips better\nin the race after 24/22."
        );
        let a = p[0].analysis.as_ref().unwrap();
        assert!(a.text.ends_with("Confidence: \u{b1}0.002"), "{}", a.text);
        assert!(!a.text.contains("Split"));
        assert_eq!(p[1].note, "Too good? No.");
        let a = p[1].analysis.as_ref().unwrap();
        assert!(a.text.contains("Best Cube action"));
        assert!(!a.text.contains("Too good"));
        // Without a comment the analysis is whole and the note empty.
        let p: Vec<Piece> = pieces(XG, FileFormat::XgText).collect();
        assert_eq!(p[0].note, "");
    }

    #[test]
    fn ids_are_one_per_line_and_blank_lines_skipped() {
        let text =
            "4HPwATDgc/ABMA:cAkAAAAAAAAA\n\nXGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10\n";
        assert_eq!(detect(text), FileFormat::Ids);
        let p: Vec<Piece> = pieces(text, FileFormat::Ids).collect();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].line, 3);
    }

    #[test]
    fn sgf_splits_by_game_and_skips_brackets_in_values() {
        let text = "(;FF[4]GM[6]C[a ) inside \\] value];B[52mhmh])\n(;FF[4]GM[6];W[31])";
        assert_eq!(detect(text), FileFormat::Sgf);
        let p: Vec<Piece> = pieces(text, FileFormat::Sgf).collect();
        assert_eq!(p.len(), 2);
        assert!(p[0].text.ends_with("B[52mhmh])"));
        assert_eq!(p[1].line, 2);
    }
}
