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
    /// Open the editor on this position (any accepted ID format; gnubg's two
    /// IDs may be given as two words, `POSITIONID MATCHID`), or on a match
    /// file (.mat, .sgf, gnubg's match text) to review in the match panel.
    #[arg(allow_hyphen_values = true, num_args = 0..=2, value_name = "ID")]
    pub id: Vec<String>,

    /// Start from the starting position instead of the last one saved.
    #[arg(long)]
    pub new: bool,

    /// The gnubg to run for analysis (else BGEDIT_GNUBG, PATH, /usr/games).
    #[arg(long, value_name = "PATH")]
    pub gnubg: Option<std::path::PathBuf>,
    /// The Python that has Open Sage (bgsage), the second engine (`z`);
    /// else BGEDIT_SAGE_PYTHON, then python3.
    #[arg(long, value_name = "PATH")]
    pub sage_python: Option<std::path::PathBuf>,
    /// Open Sage's weights and bear-off data (a copy of bgsage's `_assets`:
    /// models/, data/) for the Sage built into bgedit, instead of asking
    /// Sage's Python where they are.
    #[arg(long, value_name = "DIR", global = true)]
    pub sage_data: Option<std::path::PathBuf>,
    /// A gnubg match equity table file (XML) for the numbers panel instead
    /// of the built-in Kazaross-XG2.
    #[arg(long, value_name = "FILE")]
    pub met: Option<std::path::PathBuf>,
    /// The study library file the editor uses (default: see `bgedit library`).
    #[arg(long, value_name = "FILE")]
    pub library: Option<std::path::PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Internal: holds copied text on the X11/Wayland clipboard after the
    /// editor quits (see `editor::clipboard_holder`).
    #[command(name = "__hold-clipboard", hide = true)]
    HoldClipboard,
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
        /// Read this file as one text (SGF, XG text, ...); `-` for all of
        /// standard input. Repeatable; the IDs, if any, are read first.
        #[arg(long, value_name = "PATH")]
        file: Vec<String>,
        /// With --file: the game of a whole-match SGF to read (1 = first;
        /// default the last).
        #[arg(long, value_name = "N")]
        game: Option<usize>,
        /// With --file: replay only the first M moves (plays and cube
        /// actions) of that game (default all).
        #[arg(long = "move", value_name = "M")]
        moves: Option<usize>,
        /// IDs in any accepted format; standard input when none.
        #[arg(allow_hyphen_values = true)]
        ids: Vec<String>,
    },
    /// List every legal move for each position's dice, in gnubg's notation.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line.
    /// Text: one line per input, the moves separated by ` | `. JSON: one
    /// object per line with the GNUBG ID after each move. A position with
    /// no dice, no game in play or no legal move gives no moves and the
    /// reason (on standard error for text, as `"reason"` in JSON).
    Moves {
        /// How to write the moves.
        #[arg(long, value_enum, default_value = "text")]
        format: crate::cli::moves::MovesFormat,
        /// IDs in any accepted format; standard input when none.
        #[arg(allow_hyphen_values = true)]
        ids: Vec<String>,
    },
    /// Numbers at each position's score: match winning chances, gammon
    /// values and race counts (Kleinman, Thorp, Keith, Isight, 8-9-12), as
    /// gnubg computes them.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line;
    /// one output line per input line.
    Stats {
        /// A gnubg match equity table file (XML) instead of the built-in
        /// Kazaross-XG2.
        #[arg(long, value_name = "FILE")]
        met: Option<std::path::PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: crate::cli::stats::StatsFormat,
        /// An evaluation for every position, from the player on roll's
        /// side: W,WG,WBG,LG,LBG (e.g. 0.52,0.15,0.01,0.13,0.01). Adds the
        /// gammon rates and the market window (or money cube points).
        #[arg(long, value_name = "W,WG,WBG,LG,LBG", value_parser = crate::cli::stats::parse_eval)]
        eval: Option<crate::domain::equity::Probabilities>,
        /// IDs in any accepted format; standard input when none.
        #[arg(allow_hyphen_values = true)]
        ids: Vec<String>,
    },
    /// Play a move (`"13/7 8/7"`) in each position and print the GNUBG ID
    /// after it; an illegal move is refused with the rule it breaks.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line.
    Play {
        /// The move, as gnubg writes it or players type it (`13-7 8-7`, `b/20`).
        #[arg(value_name = "MOVE", allow_hyphen_values = true)]
        play: String,
        /// IDs in any accepted format; standard input when none.
        #[arg(allow_hyphen_values = true)]
        ids: Vec<String>,
    },
    /// gnubg's analysis of each ID: ranked moves with dice, the cube
    /// decision without, take or pass with a double on offer.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line.
    /// Answers come in input order; errors go to standard error as `line N:`.
    Analyse {
        #[command(flatten)]
        analyse: AnalyseArgs,
        /// IDs in any accepted format; standard input when none.
        #[arg(allow_hyphen_values = true)]
        ids: Vec<String>,
    },
    /// Draw the position as a picture (SVG or PNG) a player would post.
    Image(ImageArgs),
    /// The study library: keep, find, import and export positions.
    Library(super::library::LibraryArgs),
    /// Every decision of every game of match files (gnubg SGF, Jellyfish
    /// .mat, gnubg's match text, XG), one line each: game, move, player,
    /// dice, what was played, the GNUBG ID and XGID before it.
    ///
    /// Problems go to standard error as `FILE: game N, move M: ...`; the
    /// rest of the file is still listed and the exit status is 1.
    Match(super::matches::MatchArgs),
    /// Grade an answer to each position's question with gnubg: the move
    /// (with dice), double or no double (without), take or pass (a double
    /// offered). Prints the equity lost in gnubg's units (money equity, or
    /// normalised in match play), the grade (correct, doubtful, bad, very
    /// bad, by gnubg 1.07's thresholds), gnubg's best and the answer's place
    /// in its list.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line.
    Quiz(super::quiz::QuizArgs),
}

#[derive(clap::Args, Debug, Clone)]
pub struct AnalyseArgs {
    /// Evaluation depth: 0 (instant) to 3 (seconds a position). Default 0;
    /// with --rollout, 2: the candidates rolled out are the ones gnubg's own
    /// `hint` lists first at its default depth.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=3))]
    pub plies: Option<u8>,
    /// Moves listed for each position with dice (0 for all).
    #[arg(long, default_value_t = 5)]
    pub moves: usize,
    /// gnubg processes working at once (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// Output: gnubg-like text, or one JSON object per input.
    #[arg(long, value_enum, default_value = "text")]
    pub format: AnalyseFormat,
    /// The gnubg to run (else BGEDIT_GNUBG, PATH, /usr/games).
    #[arg(long, value_name = "PATH")]
    pub gnubg: Option<std::path::PathBuf>,
    /// The cube decision of each position at every score of a match (each
    /// player 2 to L away, the Crawford and post-Crawford 1-away scores,
    /// and double match point), as a grid by action.
    #[arg(long)]
    pub score_matrix: bool,
    /// The match length of the score matrix (default: the position's, or 7
    /// for a money position).
    #[arg(long, value_name = "L", requires = "score_matrix",
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub length: Option<u16>,
    /// Add the redouble: a 2-cube the player on roll owns.
    #[arg(long, requires = "score_matrix")]
    pub owner: bool,
    /// Analyse every decision of a match file (any format bgedit reads) as
    /// gnubg's `analyse match` does: each checker play and cube decision
    /// with its equity lost and mark, in match order, then each player's
    /// statistics (error totals and rates, ratings).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["score_matrix", "rollout"])]
    pub file: Option<std::path::PathBuf>,
    /// Roll out with gnubg's own rollout: the leading moves (--moves of
    /// them, as ranked at --plies), or the cube decision without dice.
    #[arg(long, conflicts_with = "score_matrix")]
    pub rollout: bool,
    /// Rollout trials (games per candidate).
    #[arg(long, default_value_t = 1296, requires = "rollout",
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub trials: u32,
    /// Rollout seed: the same seed and settings give gnubg's numbers.
    #[arg(long, default_value_t = 1, requires = "rollout")]
    pub seed: u32,
    /// Cut each trial off after this many plies and evaluate (0: play out).
    #[arg(long, value_name = "PLIES", default_value_t = 0, requires = "rollout",
          value_parser = clap::value_parser!(u8).range(0..=100))]
    pub truncate: u8,
    /// The depth the rollout players move and double at.
    #[arg(long, value_name = "P", default_value_t = 0, requires = "rollout",
          value_parser = clap::value_parser!(u8).range(0..=3))]
    pub rollout_plies: u8,
    /// A cubeless rollout (gnubg's default is cubeful).
    #[arg(long, requires = "rollout")]
    pub cubeless: bool,
    /// Without variance reduction.
    #[arg(long, requires = "rollout")]
    pub no_vr: bool,
    /// Pseudo-random rather than quasi-random dice.
    #[arg(long, requires = "rollout")]
    pub random_dice: bool,
    /// The engine: gnubg (the default and the reference), Open Sage (the
    /// second opinion, `pip install bgsage`), or both side by side with
    /// their disagreements. --plies counts as gnubg does for both (0 is the
    /// network alone, which Sage calls 1-ply).
    #[arg(
        long,
        value_enum,
        default_value = "gnubg",
        conflicts_with = "score_matrix"
    )]
    pub engine: EngineArg,
    /// The Python that has bgsage (else BGEDIT_SAGE_PYTHON, then python3).
    #[arg(long, value_name = "PATH")]
    pub sage_python: Option<std::path::PathBuf>,
    /// Threads for each rollout, gnubg's or Sage's (0: every core).
    #[arg(long, default_value_t = 0, requires = "rollout")]
    pub threads: u8,
}

/// gnubg's own `hint` ranks at 2-ply unless told otherwise: a rollout of
/// "the top three moves" rolls out the three it lists first.
pub const ROLLOUT_CANDIDATE_PLIES: u8 = 2;

impl AnalyseArgs {
    /// The depth asked for, or the default: 0 (instant), or for a rollout
    /// the depth gnubg's `hint` ranks its candidates at.
    pub fn depth(&self) -> u8 {
        self.plies.unwrap_or(if self.rollout {
            ROLLOUT_CANDIDATE_PLIES
        } else {
            0
        })
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineArg {
    Gnubg,
    Sage,
    Both,
}

impl From<EngineArg> for crate::engine::Choice {
    fn from(e: EngineArg) -> Self {
        match e {
            EngineArg::Gnubg => crate::engine::Choice::only(crate::engine::EngineKind::Gnubg),
            EngineArg::Sage => crate::engine::Choice::only(crate::engine::EngineKind::Sage),
            EngineArg::Both => crate::engine::Choice::all(),
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalyseFormat {
    Text,
    Json,
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

impl From<OutputFormat> for IdFormat {
    fn from(f: OutputFormat) -> IdFormat {
        match f {
            OutputFormat::Gnubg => IdFormat::GnubgId,
            OutputFormat::Xgid => IdFormat::Xgid,
            OutputFormat::Posid => IdFormat::PositionId,
            OutputFormat::Matchid => IdFormat::MatchId,
            OutputFormat::Json => IdFormat::Json,
            OutputFormat::Sgf => IdFormat::Sgf,
            OutputFormat::Fibs => IdFormat::Fibs,
            OutputFormat::Snowie => IdFormat::Snowie,
            OutputFormat::Xgtext => IdFormat::XgText,
            OutputFormat::Header => IdFormat::Header,
        }
    }
}

#[derive(clap::Args, Debug, Clone)]
pub struct ImageArgs {
    /// svg or png; by default from the -o file's extension, else svg.
    #[arg(long, value_enum)]
    pub format: Option<ImageFormat>,
    /// The picture's size in pixels, WIDTHxHEIGHT (default 800x600).
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,
    #[arg(long, value_enum, default_value = "light")]
    pub theme: ImageTheme,
    /// Write the GNUBG ID and XGID under the board.
    #[arg(long)]
    pub ids: bool,
    /// Where to write; standard output when absent or `-`.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
    #[command(flatten)]
    pub names: NameArgs,
    /// The position, in any accepted format (an SGF or XG text file's whole
    /// text too); standard input when absent.
    #[arg(allow_hyphen_values = true)]
    pub id: Option<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    Svg,
    Png,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageTheme {
    Light,
    Dark,
}
