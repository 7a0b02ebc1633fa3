//! `library add`: positions typed or piped in, each answered with its entry
//! (new, or the one already holding the position).

use super::Failure;
use super::lines::each_input_batched;
use bgedit_core::codec;
use bgedit_core::domain::Position;
use bgedit_library::store::{self, Added, Library, NewEntry, Source};
use std::io::Write;

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct AddArgs {
    #[arg(long)]
    title: Option<String>,
    /// A tag (repeatable).
    #[arg(long = "tag")]
    tags: Vec<String>,
    /// A collection to put the positions in (repeatable).
    #[arg(long = "collection")]
    collections: Vec<String>,
    #[arg(allow_hyphen_values = true)]
    ids: Vec<String>,
}

fn added_text(added: Added, lib: &Library) -> String {
    match added {
        Added::New(id) => format!("added entry {id}"),
        Added::Existing(id) => {
            let title = lib.get(id).map(|e| e.title).unwrap_or_default();
            if title.is_empty() {
                format!("already in the library as entry {id}")
            } else {
                format!("already in the library as entry {id} ({title})")
            }
        }
    }
}

/// Adds each ID (standard input when none) with the title, tags and
/// collections given.
pub(super) fn run(lib: &mut Library, args: AddArgs, out: &mut impl Write) -> Result<u8, Failure> {
    let AddArgs {
        title,
        tags,
        collections,
        ids,
    } = args;
    let base = Position::default();
    let failed = each_input_batched(
        &ids,
        |text| {
            let imported = codec::parse_any(text, &base).map_err(|e| e.to_string())?;
            let mut entry = NewEntry::new(imported.position, Source::Typed);
            entry.title = title.clone().unwrap_or_default();
            entry.tags = tags.clone();
            entry.collections = collections.clone();
            store::check_entry(&entry).map_err(|e| e.to_string())?;
            Ok(entry)
        },
        |entries| {
            // One transaction for the batch, as `import` writes; should it
            // fail, each entry alone, so the failure is the right line's.
            match lib.add_all(&entries) {
                Ok(added) => added
                    .into_iter()
                    .map(|a| Ok(Some(added_text(a, lib))))
                    .collect(),
                Err(_) => entries
                    .iter()
                    .map(|entry| {
                        let added = lib.add(entry);
                        let added = added.map_err(|e| lib.describe(&e))?;
                        Ok(Some(added_text(added, lib)))
                    })
                    .collect(),
            }
        },
        out,
    )?;
    Ok(u8::from(failed > 0))
}
