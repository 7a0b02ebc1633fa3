//! `library like`: the library's positions nearest the one given, by the
//! distance docs/library.md defines, found on the library's index.

use super::Failure;
use super::resolve::Unresolved;
use crate::cli::output::OutputFormat;
use bgedit_core::codec;
use bgedit_core::domain::Position;
use bgedit_library::store::{Library, MAX_LIKE};
use std::io::Write;

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct LikeArgs {
    /// The position: an entry's number, or any ID bgedit reads (Position
    /// ID:Match ID, GNUBG ID, XGID).
    position: String,
    /// How many positions, nearest first.
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u16).range(1..=MAX_LIKE as i64))]
    limit: u16,
    /// Only positions asking the same kind of decision (a checker play when
    /// the dice are rolled, else a cube action).
    #[arg(long)]
    same_kind: bool,
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
}

/// The position named: an entry's, or the ID's.
fn position_of(lib: &Library, name: &str) -> Result<Position, Failure> {
    let name = name.trim().trim_start_matches('#');
    if let Ok(id) = name.parse::<i64>() {
        return Ok(lib.get(id)?.position);
    }
    codec::parse_any(name, &Position::default())
        .map(|imported| imported.position)
        .map_err(|why| {
            Failure::Unresolved(Unresolved::NotAName {
                name: name.to_owned(),
                why,
            })
        })
}

/// Prints the nearest positions, nearest first.
pub(super) fn run(lib: &Library, args: LikeArgs, out: &mut impl Write) -> Result<u8, Failure> {
    let position = position_of(lib, &args.position)?;
    let likes = lib.like(&position, usize::from(args.limit), args.same_kind)?;
    for like in &likes.positions {
        match args.format {
            OutputFormat::Text => writeln!(
                out,
                "{:>5}  #{:<7} {}  {}",
                like.distance,
                like.id,
                like.gnubg_id,
                like.kind.name()
            )?,
            OutputFormat::Json => writeln!(
                out,
                "{}",
                serde_json::json!({
                    "id": like.id,
                    "gnubg_id": like.gnubg_id,
                    "distance": like.distance,
                    "kind": like.kind.name(),
                })
            )?,
        }
    }
    Ok(0)
}
