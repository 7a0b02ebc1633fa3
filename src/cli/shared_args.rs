//! Arguments several commands share (flattened into each with clap's
//! `#[command(flatten)]`): below the commands, so each command's file holds
//! its own arguments and `args.rs` only gathers them.

#[derive(clap::Args, Debug, Clone)]
pub struct NameArgs {
    /// Name of player O (gnubg's player 0, drawn on top).
    #[arg(long, value_name = "NAME", default_value = "White")]
    pub name_o: String,
    /// Name of player X (gnubg's player 1, drawn at the bottom).
    #[arg(long, value_name = "NAME", default_value = "Black")]
    pub name_x: String,
}

impl NameArgs {
    /// The two names, as a position holds them.
    pub(crate) fn into_names(self) -> bgedit_core::domain::Names {
        bgedit_core::domain::Names {
            o: self.name_o,
            x: self.name_x,
        }
    }
}

#[derive(clap::Args, Debug, Clone)]
pub struct CommonArgs {
    /// Do not print warnings and notes about lost fields on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

/// An option written after the IDs (`analyse ID --plies 2`). The IDs
/// take values that start with `-` (an XGID's board without `XGID=` may
/// begin `--C-`), so once they start clap reads everything after as IDs;
/// this names the word instead of calling it "not an ID". An option is
/// `--` and a lower-case name (`--plies=2` too); an ID always holds `:`
/// or is 12 or 14 base64 characters, never such a name.
pub(crate) fn misplaced_option(ids: &[String]) -> Option<&str> {
    ids.iter().map(String::as_str).find(|w| {
        let name = w
            .strip_prefix("--")
            .map(|n| n.split('=').next().unwrap_or(n));
        name.is_some_and(|n| {
            n.len() > 1
                && n.starts_with(|c: char| c.is_ascii_lowercase())
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        })
    })
}

#[cfg(test)]
mod tests {
    use super::misplaced_option;

    #[test]
    fn an_option_after_the_ids_is_named_and_an_id_is_not() {
        let ids = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let id = "4HPwATDgc/ABMA:cAkAAAAAAAAA";
        assert_eq!(
            misplaced_option(&ids(&[id, "--engine", "both"])),
            Some("--engine")
        );
        assert_eq!(
            misplaced_option(&ids(&[id, "--plies=2"])),
            Some("--plies=2")
        );
        // An XGID's board without its `XGID=` can begin with `--`.
        let xgid = "--C-DbC-a-B-bB---a-bbb-baA:1:-1:1:43:4:5:0:7:10";
        assert_eq!(misplaced_option(&ids(&[xgid, id])), None);
        assert_eq!(
            misplaced_option(&ids(&[
                "--",
                "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10"
            ])),
            None
        );
    }
}
