//! `library alias NAME --as PERSON`: groups a player's names as one person
//! (FIBS's `nori` and `bgnori`, a team's name), so `stats --player`, the
//! match list and the editor find them together; `--remove` ungroups a
//! name; with no NAME, lists the aliases. A rating suffix (`nori,1723`) is
//! no part of a name, and case and accents are ignored.

use super::Failure;
use bgedit_core::quote::Shown;
use bgedit_library::names;
use bgedit_library::store::Library;
use std::io::Write;

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct AliasArgs {
    /// The name as a match writes it (none: list the aliases).
    name: Option<String>,
    /// The person it is.
    #[arg(long = "as", value_name = "PERSON", conflicts_with = "remove")]
    person: Option<String>,
    /// Ungroup the name.
    #[arg(long)]
    remove: bool,
}

pub(super) fn run(lib: &mut Library, args: AliasArgs, out: &mut impl Write) -> Result<u8, Failure> {
    let Some(name) = args.name else {
        for (name, person) in lib.aliases()? {
            writeln!(out, "{} = {}", Shown(&name), Shown(&person))?;
        }
        return Ok(0);
    };
    let folded = names::fold(&name);
    if folded.is_empty() {
        bgedit_core::say!("bgedit: '{}' is no name", Shown(&name));
        return Ok(1);
    }
    if args.remove {
        if !lib.remove_alias(&folded)? {
            bgedit_core::say!("bgedit: '{}' has no alias", Shown(&name));
            return Ok(1);
        }
        writeln!(out, "{}: no alias", Shown(&folded))?;
        return Ok(0);
    }
    let Some(person) = args.person.filter(|p| !p.trim().is_empty()) else {
        bgedit_core::say!(
            "bgedit: say who '{}' is: `bgedit library alias NAME --as PERSON` (or --remove)",
            Shown(&name)
        );
        return Ok(1);
    };
    let known = lib.player_names()?.iter().any(|n| names::fold(n) == folded);
    lib.set_alias(&folded, person.trim())?;
    writeln!(out, "{} = {}", Shown(&folded), Shown(person.trim()))?;
    if !known {
        bgedit_core::say!(
            "bgedit: no match has a player named '{}' yet: the alias waits for one",
            Shown(&name)
        );
    }
    Ok(0)
}
