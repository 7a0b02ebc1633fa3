//! The command line, as clap reads it.

use crate::codec::IdFormat;
use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "bgedit",
    version,
    about = "A keyboard-driven editor for backgammon positions, with gnubg and XG IDs",
    long_about = "A keyboard-driven editor for backgammon positions.\n\n\
        With no command, opens the editor: on ID if given (GNUBG ID, Position ID, \
        Match ID, XGID or gnubg's header lines), else on the last position edited.\n\
        `show` and `convert` work on IDs in batch, from arguments or standard input.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// Open the editor on this position (any accepted ID format).
    #[arg(allow_hyphen_values = true)]
    pub id: Option<String>,

    /// Start from the starting position instead of the last one saved.
    #[arg(long)]
    pub new: bool,

    /// The study library file the editor uses (default: see `bgedit library`).
    #[arg(long, value_name = "FILE")]
    pub library: Option<std::path::PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print gnubg's board text (`show board`) for each ID.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line.
    /// Each board is its 15 lines followed by an empty line.
    Show {
        #[command(flatten)]
        names: NameArgs,
        #[command(flatten)]
        common: CommonArgs,
        /// IDs in any accepted format; standard input when none.
        #[arg(allow_hyphen_values = true)]
        ids: Vec<String>,
    },
    /// Convert each ID to another format, one output line per input line.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line. A
    /// line that cannot be read gives an empty output line (so outputs stay
    /// aligned with inputs) and a message on standard error.
    Convert {
        /// The format to write.
        #[arg(long, value_enum)]
        to: OutputFormat,
        #[command(flatten)]
        names: NameArgs,
        #[command(flatten)]
        common: CommonArgs,
        /// IDs in any accepted format; standard input when none.
        #[arg(allow_hyphen_values = true)]
        ids: Vec<String>,
    },
    /// The study library: keep, find, import and export positions.
    Library(super::library::LibraryArgs),
}

#[derive(clap::Args, Debug, Clone)]
pub struct NameArgs {
    /// Name of player O (gnubg's player 0, drawn on top).
    #[arg(long, value_name = "NAME", default_value = "White")]
    pub name_o: String,
    /// Name of player X (gnubg's player 1, drawn at the bottom).
    #[arg(long, value_name = "NAME", default_value = "Black")]
    pub name_x: String,
}

#[derive(clap::Args, Debug, Clone)]
pub struct CommonArgs {
    /// Do not print warnings and notes about lost fields on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
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
}

impl From<OutputFormat> for IdFormat {
    fn from(f: OutputFormat) -> IdFormat {
        match f {
            OutputFormat::Gnubg => IdFormat::GnubgId,
            OutputFormat::Xgid => IdFormat::Xgid,
            OutputFormat::Posid => IdFormat::PositionId,
            OutputFormat::Matchid => IdFormat::MatchId,
            OutputFormat::Json => IdFormat::Json,
        }
    }
}
