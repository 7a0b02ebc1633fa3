//! `library show`: one entry whole (its IDs, tags, collections, source,
//! decision, board, note and analysis).

use super::Failure;
use super::list::error_text;
use super::resolve::resolve;
use bgedit_core::codec::text_board;
use bgedit_library::store::{Entry, Library};
use std::io::Write;

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    entry: String,
}

/// The entry as `library show` prints it, before escaping.
fn describe(entry: &Entry) -> String {
    let mut s = format!("Entry {}", entry.id);
    if !entry.title.is_empty() {
        s.push_str(&format!(": {}", entry.title));
    }
    s.push('\n');
    s.push_str(&format!("GNUBG ID: {}\n{}\n", entry.gnubg_id, entry.xgid));
    s.push_str(&format!("Tags: {}\n", entry.tags.join(" ")));
    s.push_str(&format!("Collections: {}\n", entry.collections.join(" ")));
    s.push_str(&format!("Source: {}\n", entry.source.to_text()));
    if let Some(d) = &entry.decision {
        s.push_str(&format!(
            "Decision: {} ({}) played {}{}\n",
            d.player,
            d.kind.name(),
            d.played,
            d.error()
                .map_or_else(String::new, |e| format!(", error {}", error_text(Some(e))))
        ));
    }
    s.push('\n');
    s.push_str(&text_board::render(&entry.position));
    if !entry.note.is_empty() {
        s.push_str(&format!("\nNote:\n{}\n", entry.note));
    }
    if let Some(a) = &entry.analysis {
        s.push_str(&format!("\nAnalysis ({}):\n{}\n", a.depth, a.text));
    }
    s
}

/// Prints the entry named.
pub(super) fn run(lib: &Library, args: ShowArgs, out: &mut impl Write) -> Result<u8, Failure> {
    let id = resolve(lib, &args.entry)?;
    let entry = lib.get(id)?;
    // Notes and analyses come from files and pastes: never raw to a terminal.
    write!(out, "{}", bgedit_core::quote::printable(&describe(&entry)))?;
    Ok(0)
}
