//! The engines' options, one parser over the registry for every command
//! that runs an engine (the editor, `analyse`, `quiz`, `match`, `library
//! analyse`, `library disagreements`): `--engine KEY|both`, its values the
//! registry's keys, and each engine's own options as its `Spec` declares
//! them (`--gnubg PATH`, `--sage-python PATH`, `--sage-data DIR`), turned
//! into what commands pass on: the engines chosen (`Choice`) and what the
//! user named for each (`Setup`). No engine is named here: a new one's
//! options appear with its registry row.

use bgedit_engine::registry::ALL;
use bgedit_engine::{Choice, EngineKind, Setup};
use clap::builder::PossibleValue;
use clap::{Arg, ArgMatches, Command};
use std::path::PathBuf;

/// `--engine`'s value for every engine at once.
const BOTH: &str = "both";

/// `--engine` and the engines' own options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineArgs {
    /// The engines chosen (the reference alone by default).
    pub choice: Choice,
    /// What the user named for each engine.
    pub setup: Setup,
}

/// The engines' own options alone, for a command that chooses its
/// engines otherwise (`library disagreements --engines A,B`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnginePrograms {
    pub setup: Setup,
}

/// A command that takes one engine was given `--engine both`.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{command} takes one engine: {}", one_of())]
pub struct NotOne {
    pub command: &'static str,
}

/// `--engine gnubg or --engine sage`: each engine's key, as given.
fn one_of() -> String {
    let each: Vec<String> = ALL
        .iter()
        .map(|k| format!("--engine {}", k.key()))
        .collect();
    each.join(" or ")
}

impl EngineArgs {
    /// The one engine chosen, for a command that takes one (`command` is
    /// how its refusal names it).
    pub fn one(&self, command: &'static str) -> Result<EngineKind, NotOne> {
        self.choice.alone().ok_or(NotOne { command })
    }
}

/// `--engine`'s help: each engine by its key and name, then both, and how
/// depths are counted (in the reference's count for every engine).
fn engine_help() -> String {
    let reference = EngineKind::reference();
    let each: Vec<String> = ALL
        .iter()
        .map(|k| match k.is_reference() {
            true => format!("{} (the default and the reference)", k.key()),
            false => format!(
                "{} ({}, {})",
                k.key(),
                k.spec().full_name,
                k.spec().install.how
            ),
        })
        .collect();
    let counts: Vec<String> = ALL
        .iter()
        .filter(|k| k.depth_label(0) != reference.depth_label(0))
        .map(|k| {
            format!(
                "{}'s {} is {}'s {}",
                reference.name(),
                reference.depth_label(0),
                k.name(),
                k.depth_label(0)
            )
        })
        .collect();
    let mut help = format!(
        "The engine: {}, or {BOTH} side by side with their disagreements (a command that takes one engine refuses {BOTH}). Depths count as {} counts them for every engine",
        each.join(", "),
        reference.name()
    );
    if !counts.is_empty() {
        help += &format!(" ({})", counts.join("; "));
    }
    help
}

/// Each engine's program option and data option, as its spec declares
/// them.
fn with_programs(mut cmd: Command) -> Command {
    for kind in ALL {
        let options = &kind.spec().options;
        let p = &options.program;
        cmd = cmd.arg(
            Arg::new(p.long)
                .long(p.long)
                .value_name(p.value_name)
                .help(p.help)
                .value_parser(clap::value_parser!(PathBuf)),
        );
        if let Some(d) = &options.data {
            cmd = cmd.arg(
                Arg::new(d.long)
                    .long(d.long)
                    .value_name(d.value_name)
                    .help(d.help)
                    .value_parser(clap::value_parser!(PathBuf)),
            );
        }
    }
    cmd
}

/// What the user named for each engine, read back.
fn setup_of(m: &ArgMatches) -> Setup {
    let mut setup = Setup::default();
    for kind in ALL {
        let options = &kind.spec().options;
        let path = |id: &str| m.get_one::<PathBuf>(id).cloned();
        setup.set_program(kind, path(options.program.long));
        setup.set_data(kind, options.data.as_ref().and_then(|d| path(d.long)));
    }
    setup
}

impl clap::Args for EngineArgs {
    fn augment_args(cmd: Command) -> Command {
        let mut values: Vec<PossibleValue> = ALL
            .iter()
            .map(|k| PossibleValue::new(k.key()).help(k.spec().full_name))
            .collect();
        values.push(PossibleValue::new(BOTH).help("every engine, side by side"));
        let cmd = cmd.arg(
            Arg::new("engine")
                .long("engine")
                .value_name("ENGINE")
                .help(engine_help())
                .value_parser(clap::builder::PossibleValuesParser::new(values))
                .default_value(EngineKind::reference().key()),
        );
        with_programs(cmd)
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for EngineArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let choice = match m.get_one::<String>("engine").map(String::as_str) {
            Some(BOTH) => Choice::all(),
            Some(key) => {
                Choice::only(EngineKind::by_key(key).unwrap_or_else(EngineKind::reference))
            }
            None => Choice::default(),
        };
        Ok(EngineArgs {
            choice,
            setup: setup_of(m),
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for EnginePrograms {
    fn augment_args(cmd: Command) -> Command {
        with_programs(cmd)
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for EnginePrograms {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(EnginePrograms { setup: setup_of(m) })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Probe {
        #[command(flatten)]
        engines: EngineArgs,
    }

    fn parse(args: &[&str]) -> Result<EngineArgs, clap::Error> {
        Probe::try_parse_from(std::iter::once("probe").chain(args.iter().copied()))
            .map(|p| p.engines)
    }

    /// Every engine's key and `both` are values; the reference is the
    /// default; each engine's options land in the setup by kind.
    #[test]
    fn the_engines_options_come_from_the_registry() {
        assert_eq!(parse(&[]).unwrap().choice, Choice::default());
        for kind in ALL {
            let args = parse(&["--engine", kind.key()]).unwrap();
            assert_eq!(args.choice, Choice::only(kind));
            assert_eq!(args.one("x"), Ok(kind));
            let flag = format!("--{}", kind.spec().options.program.long);
            let given = parse(&[&flag, "/some/program"]).unwrap();
            assert_eq!(
                given.setup.program_given(kind),
                Some(std::path::Path::new("/some/program"))
            );
            for other in ALL.into_iter().filter(|&k| k != kind) {
                assert_eq!(given.setup.program_given(other), None);
            }
        }
        let both = parse(&["--engine", "both"]).unwrap();
        assert_eq!(both.choice, Choice::all());
        let refused = both.one("analyse --file").unwrap_err().to_string();
        assert!(
            refused.starts_with("analyse --file takes one engine: --engine gnubg or --engine sage"),
            "{refused}"
        );
        assert!(parse(&["--engine", "deep"]).is_err());
    }

    /// The flags and variables scripts and the README use.
    #[test]
    fn the_flags_are_the_ones_users_know() {
        let help = Probe::try_parse_from(["probe", "--help"])
            .unwrap_err()
            .to_string();
        for flag in [
            "--engine <ENGINE>",
            "--gnubg <PATH>",
            "--sage-python <PATH>",
            "--sage-data <DIR>",
            "BGEDIT_GNUBG",
            "BGEDIT_SAGE_PYTHON",
        ] {
            assert!(help.contains(flag), "{flag} missing from:\n{help}");
        }
    }
}
