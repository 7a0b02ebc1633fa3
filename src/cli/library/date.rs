//! `library date MATCH YYYY-MM-DD`: sets a match's date by hand (a match
//! whose file carries none, in its content or its name), marked as set.

use super::Failure;
use bgedit_library::dates;
use bgedit_library::store::Library;
use std::io::Write;

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct DateArgs {
    /// The match's number (`library matches` lists them).
    #[arg(value_name = "MATCH")]
    id: i64,
    /// The date, as YYYY-MM-DD.
    #[arg(value_name = "YYYY-MM-DD", value_parser = dates::parse_given)]
    date: String,
}

/// Sets the date; exit 1 when there is no such match.
pub(super) fn run(lib: &mut Library, args: DateArgs, out: &mut impl Write) -> Result<u8, Failure> {
    if !lib.set_date(args.id, &args.date)? {
        bgedit_core::say!(
            "bgedit: no match {} in the library (`bgedit library matches` lists them)",
            args.id
        );
        return Ok(1);
    }
    writeln!(out, "match {}: dated {} (set)", args.id, args.date)?;
    Ok(0)
}
