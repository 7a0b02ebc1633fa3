//! `bgedit convert`: each ID in another format, one output line per input
//! line; with `--file`, a whole file (SGF, XG text, ...) read as one text.

use super::batch::{self, Job};
use super::files;
use super::shared_args::{CommonArgs, NameArgs};
use bgedit_core::codec::IdFormat;
use bgedit_core::codec::sgf::Selection;
use clap::Args;
use clap::ValueEnum;
use std::io::{self, Write};
use std::process::ExitCode;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertTo {
    /// POSITIONID:MATCHID
    Gnubg,
    /// XGID=…
    Xgid,
    /// The 14-character Position ID alone.
    Posid,
    /// The 12-character Match ID alone.
    Matchid,
    /// Every field of the model, one JSON object per line.
    Json,
    /// gnubg's SGF, as `save position` writes it (several lines).
    Sgf,
    /// A FIBS `board:` line, as gnubg's raw board.
    Fibs,
    /// Snowie's text, as gnubg's `export position snowietxt`.
    Snowie,
    /// eXtreme Gammon's text export for forums (several lines).
    Xgtext,
    /// gnubg's two `Position ID:` / `Match ID   :` lines.
    Header,
}

impl From<ConvertTo> for IdFormat {
    fn from(f: ConvertTo) -> IdFormat {
        match f {
            ConvertTo::Gnubg => IdFormat::GnubgId,
            ConvertTo::Xgid => IdFormat::Xgid,
            ConvertTo::Posid => IdFormat::PositionId,
            ConvertTo::Matchid => IdFormat::MatchId,
            ConvertTo::Json => IdFormat::Json,
            ConvertTo::Sgf => IdFormat::Sgf,
            ConvertTo::Fibs => IdFormat::Fibs,
            ConvertTo::Snowie => IdFormat::Snowie,
            ConvertTo::Xgtext => IdFormat::XgText,
            ConvertTo::Header => IdFormat::Header,
        }
    }
}

// No doc comment: the command's help is its variant's in `args.rs`.
#[derive(Args, Debug, Clone)]
pub struct ConvertArgs {
    /// The format to write.
    #[arg(long, value_enum)]
    pub to: ConvertTo,
    #[command(flatten)]
    pub names: NameArgs,
    #[command(flatten)]
    pub common: CommonArgs,
    /// Read this file as one text (SGF, XG text, ...); `-` for all of
    /// standard input. Repeatable; the IDs, if any, are read first.
    #[arg(long, value_name = "PATH")]
    pub file: Vec<String>,
    /// With --file: the game of a whole-match SGF to read (1 = first;
    /// default the last).
    #[arg(long, value_name = "N")]
    pub game: Option<usize>,
    /// With --file: replay only the first M moves (plays and cube
    /// actions) of that game (default all).
    #[arg(long = "move", value_name = "M")]
    pub moves: Option<usize>,
    /// IDs in any accepted format; standard input when none.
    #[arg(allow_hyphen_values = true)]
    pub ids: Vec<String>,
}

/// Converts the IDs (standard input when none), or the files.
pub fn run(args: ConvertArgs) -> ExitCode {
    if args.file.is_empty() && args.game.is_none() && args.moves.is_none() {
        return batch::run_job(
            Job::Convert(args.to.into()),
            args.names,
            args.common.quiet,
            &args.ids,
        );
    }
    convert_files(args)
}

/// `convert --file`: the IDs given as arguments first, then each file as
/// one text.
fn convert_files(args: ConvertArgs) -> ExitCode {
    if args.file.is_empty() {
        bgedit_core::say!(
            "bgedit: --game and --move choose a position in a file: give it with --file"
        );
        return ExitCode::from(2);
    }
    let to: IdFormat = args.to.into();
    let quiet = args.common.quiet;
    let mut ok = true;
    if !args.ids.is_empty() {
        ok = batch::run_job(Job::Convert(to), args.names.clone(), quiet, &args.ids)
            == ExitCode::SUCCESS;
    }
    let names = args.names.into_names();
    let selection = Selection {
        game: args.game,
        moves: args.moves,
    };
    let mut out = io::stdout().lock();
    for path in &args.file {
        let shown = if path == "-" { "standard input" } else { path };
        let shown = bgedit_core::quote::printable(shown);
        let result = files::read_bytes(path)
            .and_then(|bytes| files::convert_bytes(&bytes, to, &names, selection));
        match result {
            Ok(c) => {
                if !quiet {
                    for note in c.notes {
                        bgedit_core::say!("file {shown}: {note}");
                    }
                }
                // A name or comment of the file's may hold control
                // characters: escaped like everything else printed.
                if let Err(e) = writeln!(out, "{}", bgedit_core::quote::printable(&c.output)) {
                    return super::output::write_failed(&e);
                }
            }
            Err(e) => {
                bgedit_core::say!("file {shown}: {e}");
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
