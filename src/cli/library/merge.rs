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
        for m in source.matches()? {
            if !merge_match(lib, &source, &m, &shown, &mut merged)? {
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

/// Brings match `m` of `source` and bgedit's verdicts on it into `lib`;
/// `false` when its file could not be read again.
fn merge_match(
    lib: &mut Library,
    source: &Library,
    m: &store::StoredMatch,
    shown: &str,
    merged: &mut Merged,
) -> Result<bool, Failure> {
    // The same match from another file (by identity) has its decisions'
    // plays in the same order, not always at the same places: resignations
    // are written in some formats only. Verdicts then go by play.
    let mut across = false;
    let id = match lib.match_by_hash(&m.hash)? {
        Some(id) => {
            merged.known_matches += 1;
            id
        }
        None => {
            let (path, bytes) = source.match_content(m.id)?;
            let file = match match_file::read_bytes(&bytes) {
                Ok(f) => f,
                Err(e) => {
                    bgedit_core::say!("{shown}: match {}: {e}; not merged", m.id);
                    return Ok(false);
                }
            };
            let (decisions, _) = match_file::decisions(&file);
            let new = match_import::new_match(&path, &bytes, &file, &decisions, |_| true);
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
    let mut verdicts = source.own_verdicts(m.id)?;
    if across {
        verdicts = match_import::by_play(
            &source.decision_kinds(m.id)?,
            &lib.decision_kinds(id)?,
            verdicts,
        );
    }
    merged.verdicts += lib.put_verdicts(id, &verdicts, false)?;
    for (engine, plies, luck) in source.lucks(m.id)? {
        lib.put_luck(id, &engine, plies, luck)?;
    }
    for (engine, plies, game, luck) in source.game_lucks(m.id)? {
        lib.put_game_luck(id, &engine, plies, game, luck)?;
    }
    Ok(true)
}
