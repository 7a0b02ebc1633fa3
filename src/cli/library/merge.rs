//! `library merge LIB...`: other libraries' matches and bgedit's verdicts
//! on them brought into this one exactly, so that libraries analysed apart
//! (`library analyse --shard K/N` on several machines) become one: a match
//! is one match by its content hash, its decisions made again from its
//! file's bytes (the same bytes give the same decisions), and each verdict
//! kept once by its decision, engine and depth.

use super::Failure;
use bgedit_core::codec::match_file;
use bgedit_library::match_import;
use bgedit_library::store::{self, Library, MatchAdded};
use std::io::Write;
use std::path::PathBuf;

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    #[arg(required = true)]
    libraries: Vec<PathBuf>,
}

/// Merges each library given into `lib`.
pub(super) fn run(lib: &mut Library, args: MergeArgs, out: &mut impl Write) -> Result<u8, Failure> {
    merge(lib, &args.libraries, out)
}

/// What a merge did, for its lines.
#[derive(Default)]
struct Merged {
    new_matches: u64,
    known_matches: u64,
    verdicts: u64,
}

/// Merges each library of `sources` into `lib`; the exit status: 0, or 1
/// when a source (or a match in it) could not be read (the rest is merged).
fn merge(lib: &mut Library, sources: &[PathBuf], out: &mut impl Write) -> Result<u8, Failure> {
    let mut code = 0;
    for path in sources {
        let shown = bgedit_core::quote::printable(&path.display().to_string()).into_owned();
        let source = match Library::open_to_read(path) {
            Ok(s) => s,
            Err(e) => {
                bgedit_core::say!("{}; not merged", store::describe(path, &e));
                code = 1;
                continue;
            }
        };
        let mut merged = Merged::default();
        let ids = match source.match_ids() {
            Ok(ids) => ids,
            Err(e) => {
                bgedit_core::say!("{}; not merged", source.describe(&e));
                code = 1;
                continue;
            }
        };
        for id in ids {
            // A row of the source that cannot be read (a text that is not
            // UTF-8, a number out of range: SQLite's checks pass them)
            // leaves its match out, said; the rest is merged.
            let read = match read_match(lib, &source, id) {
                Ok(r) => r,
                Err(Unread::Source(e)) => {
                    bgedit_core::say!("{shown}: match {id}: {}; not merged", source.describe(&e));
                    code = 1;
                    continue;
                }
                Err(Unread::Target(e)) => return Err(e.into()),
            };
            if !merge_match(lib, read, &shown, &mut merged)? {
                code = 1;
            }
        }
        writeln!(
            out,
            "{shown}: {}, {} already there, {} added",
            bgedit_core::words::count(merged.new_matches as usize, "new match", "new matches"),
            merged.known_matches,
            bgedit_core::words::count_s(merged.verdicts as usize, "verdict")
        )?;
    }
    Ok(code)
}

/// A match of a source, read whole before anything of it is written.
struct SourceMatch {
    id: i64,
    there: There,
    verdicts: Vec<(usize, store::Verdict)>,
    kinds: Vec<String>,
    lucks: Vec<(String, i64, [f64; 2])>,
    game_lucks: Vec<(String, i64, usize, [f64; 2])>,
}

/// Whether the target has a match already, by its file's hash.
enum There {
    /// Its id in the target.
    Known(i64),
    /// Not there: its file, as imported (path, bytes).
    New(String, Vec<u8>),
}

/// Why a match was not read: the source's row (the match is left out), or
/// the target (the merge stops).
enum Unread {
    Source(store::LibraryError),
    Target(store::LibraryError),
}

/// Match `id` of `source`, all a merge takes of it.
fn read_match(lib: &Library, source: &Library, id: i64) -> Result<SourceMatch, Unread> {
    let m = source.stored_match(id).map_err(Unread::Source)?;
    let from = |e| Unread::Source(e);
    let there = match lib.match_by_hash(&m.hash).map_err(Unread::Target)? {
        Some(known) => There::Known(known),
        None => {
            let (path, bytes) = source.match_content(id).map_err(from)?;
            There::New(path, bytes)
        }
    };
    Ok(SourceMatch {
        id,
        there,
        verdicts: source.own_verdicts(id).map_err(from)?,
        kinds: source.decision_kinds(id).map_err(from)?,
        lucks: source.lucks(id).map_err(from)?,
        game_lucks: source.game_lucks(id).map_err(from)?,
    })
}

/// Brings match `m` of a source and bgedit's verdicts on it into `lib`;
/// `false` when its file could not be read again.
fn merge_match(
    lib: &mut Library,
    m: SourceMatch,
    shown: &str,
    merged: &mut Merged,
) -> Result<bool, Failure> {
    // The same match from another file (by identity) has its decisions'
    // plays in the same order, not always at the same places: resignations
    // are written in some formats only. Verdicts then go by play.
    let mut across = false;
    let id = match &m.there {
        There::Known(id) => {
            merged.known_matches += 1;
            *id
        }
        There::New(path, bytes) => {
            let file = match match_file::read_bytes(bytes) {
                Ok(f) => f,
                Err(e) => {
                    bgedit_core::say!("{shown}: match {}: {e}; not merged", m.id);
                    return Ok(false);
                }
            };
            let (decisions, _) = match_file::decisions(&file);
            let new = match_import::new_match(path, bytes, &file, &decisions, |_| true);
            match lib.add_match(&new)? {
                MatchAdded::New { id, .. } => {
                    merged.new_matches += 1;
                    id
                }
                MatchAdded::Existing(id) => id,
                MatchAdded::SameMatch(id, _) => {
                    merged.known_matches += 1;
                    across = true;
                    id
                }
            }
        }
    };
    let verdicts = if across {
        match_import::by_play(&m.kinds, &lib.decision_kinds(id)?, m.verdicts)
    } else {
        m.verdicts
    };
    merged.verdicts += lib.put_verdicts(id, &verdicts, false)?;
    for (engine, plies, luck) in m.lucks {
        lib.put_luck(id, &engine, plies, luck)?;
    }
    for (engine, plies, game, luck) in m.game_lucks {
        lib.put_game_luck(id, &engine, plies, game, luck)?;
    }
    Ok(true)
}
