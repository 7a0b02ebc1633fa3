//! `library rm`: entries removed, each named by its number or an ID of its
//! position, answered a line each.

use super::Failure;
use super::lines::each_input;
use super::resolve::{Unresolved, resolve};
use bgedit_library::store::Library;
use std::io::Write;

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct RmArgs {
    #[arg(required = true)]
    entries: Vec<String>,
}

pub(super) fn run(lib: &mut Library, args: RmArgs, out: &mut impl Write) -> Result<u8, Failure> {
    let failed = each_input(
        &args.entries,
        |name| {
            // The line's message; the library's failure names its file.
            let id = resolve(lib, name).map_err(|e| match e {
                Unresolved::Library(e) => lib.describe(&e),
                e => e.to_string(),
            })?;
            let gone = lib.delete(id);
            let gone = gone.map_err(|e| lib.describe(&e))?;
            Ok(Some(
                format!(
                    "removed entry {id} {}",
                    bgedit_core::quote::printable(&gone.title)
                )
                .trim_end()
                .to_owned(),
            ))
        },
        out,
    )?;
    Ok(u8::from(failed > 0))
}
