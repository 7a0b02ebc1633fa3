//! A match file into the library: each decision of each game becomes an
//! entry (source `FILE game N move M`, the decider in its title, the
//! file's analysis as the entry's analysis), keeping only decisions that
//! gave away at least `--errors E` by the file's analysis when asked.

use super::filter::DecisionKind;
use super::store::{Analysis, Decision, NewEntry, Source};
use crate::codec::match_file::FileDecision;
use crate::domain::match_record::{Action, ActionKind, FileAnalysis};
use std::fmt::Write;

/// The error of a decision by the file's own analysis (see
/// [`crate::domain::match_record::stored_error`]).
pub fn decision_error(d: &FileDecision) -> Option<f64> {
    let kind = match &d.analysis {
        Some(FileAnalysis::Moves { .. }) => ActionKind::Move {
            dice: d.dice.unwrap_or([1, 1]),
            steps: Vec::new(),
        },
        _ => match d.played.as_str() {
            "double" => ActionKind::Double,
            "take" => ActionKind::Take,
            "drop" => ActionKind::Drop,
            _ => return None,
        },
    };
    let mut action = Action::new(d.player, kind);
    action.analysis = d.analysis.clone();
    crate::domain::match_record::stored_error(&action, &d.played)
}

/// The entry for one decision.
pub fn entry(file: &str, d: &FileDecision) -> NewEntry {
    let mut e = NewEntry::new(
        d.position.clone(),
        Source::Imported(format!("{file} game {} move {}", d.game, d.number)),
    );
    let name = d.position.names.of(d.player);
    e.title = format!("game {} move {}: {name} ({})", d.game, d.number, d.player);
    if !d.played.is_empty() {
        e.note = format!("played: {}", d.played);
    }
    // The annotator's comment is the player's own note on the position.
    if let Some(c) = d
        .comment
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        if !e.note.is_empty() {
            e.note.push('\n');
        }
        e.note.push_str(c);
    }
    e.analysis = d.analysis.as_ref().map(analysis_text);
    e.decision = decision_kind(d)
        .map(|kind| Decision::new(name.to_owned(), kind, d.played.clone(), decision_error(d)));
    e
}

/// A checker play, a cube decision (the double) or a take decision (take,
/// drop or beaver); resignations and set-ups are none of these.
fn decision_kind(d: &FileDecision) -> Option<DecisionKind> {
    if d.dice.is_some() {
        return Some(DecisionKind::Checker);
    }
    match d.played.as_str() {
        "double" => Some(DecisionKind::Cube),
        "take" | "drop" | "beaver" => Some(DecisionKind::Take),
        _ => None,
    }
}

/// A file's analysis as the library keeps it: text and depth.
pub fn analysis_text(a: &FileAnalysis) -> Analysis {
    let mut text = String::new();
    match a {
        FileAnalysis::Moves { moves } => {
            let best = moves.first().map_or(0.0, |m| m.equity);
            for (i, m) in moves.iter().enumerate() {
                let _ = write!(text, "{:>2}. {:<28} {:+.3}", i + 1, m.notation, m.equity);
                if i > 0 {
                    let _ = write!(text, " ({:+.3})", m.equity - best);
                }
                text.push('\n');
            }
        }
        FileAnalysis::Cube {
            no_double,
            double_take,
            double_pass,
            ..
        } => {
            let _ = writeln!(text, "No double     {no_double:+.3}");
            let _ = writeln!(text, "Double, take  {double_take:+.3}");
            let _ = writeln!(text, "Double, pass  {double_pass:+.3}");
        }
    }
    Analysis {
        text,
        depth: a.depth().to_owned(),
    }
}
