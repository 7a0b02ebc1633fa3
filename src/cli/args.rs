//! The command line, as clap reads it.

use crate::cli::analyse::args::AnalyseArgs;
use crate::cli::engine_args::EngineArgs;
use crate::cli::image::ImageArgs;
use clap::{Parser, Subcommand};

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
    /// file (.sgf, .mat, gnubg's match text, XG's .xg) to review in the
    /// match panel.
    #[arg(allow_hyphen_values = true, num_args = 0..=2, value_name = "ID")]
    pub id: Vec<String>,

    /// Start from the starting position instead of the last one saved.
    #[arg(long)]
    pub new: bool,

    /// The engines the analysis panel starts with (`z` cycles them) and
    /// each engine's program and data.
    #[command(flatten)]
    pub engines: EngineArgs,
    /// A gnubg match equity table file (XML) for the numbers panel instead
    /// of the built-in Kazaross-XG2.
    #[arg(long, value_name = "FILE")]
    pub met: Option<std::path::PathBuf>,
    /// The study library file the editor uses (default: see `bgedit library`).
    #[arg(long, value_name = "FILE")]
    pub library: Option<std::path::PathBuf>,
    /// Keep the board from one side: its points counted for O or for X
    /// whoever is on roll (as XG and gnubg's own board do), instead of for
    /// the player on roll as gnubg prints it (`f` in the match panel
    /// switches).
    #[arg(long, value_enum, value_name = "O|X")]
    pub view: Option<ViewSide>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// `--view`: the side the board is seen from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ViewSide {
    #[value(name = "O", alias = "o")]
    O,
    #[value(name = "X", alias = "x")]
    X,
}

impl From<ViewSide> for bgedit_core::domain::Player {
    fn from(v: ViewSide) -> Self {
        match v {
            ViewSide::O => bgedit_core::domain::Player::O,
            ViewSide::X => bgedit_core::domain::Player::X,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Internal: holds copied text on the X11/Wayland clipboard after the
    /// editor quits (see `editor::io::clipboard_holder`).
    #[command(name = "__hold-clipboard", hide = true)]
    HoldClipboard,
    /// Print gnubg's board text (`show board`) for each ID.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line.
    /// Each board is its 15 lines followed by an empty line.
    Show(super::show::ShowArgs),
    /// Convert each ID to another format, one output line per input line.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line. A
    /// line that cannot be read gives an empty output line (so outputs stay
    /// aligned with inputs) and a message on standard error.
    Convert(super::convert::ConvertArgs),
    /// List every legal move for each position's dice, in gnubg's notation.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line.
    /// Text: one line per input, the moves separated by ` | `. JSON: one
    /// object per line with the GNUBG ID after each move. A position with
    /// no dice, no game in play or no legal move gives no moves and the
    /// reason (on standard error for text, as `"reason"` in JSON).
    Moves(super::moves::MovesArgs),
    /// Numbers at each position's score: match winning chances, gammon
    /// values and race counts (Kleinman, Thorp, Keith, Isight, 8-9-12), as
    /// gnubg computes them.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line;
    /// one output line per input line.
    Stats(super::stats::StatsArgs),
    /// Play a move (`"13/7 8/7"`) in each position and print the GNUBG ID
    /// after it; an illegal move is refused with the rule it breaks.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line.
    Play(super::play::PlayArgs),
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
    ///
    /// With --save-sgf OUT: the match written as gnubg's SGF with its
    /// analysis (the file's, or bgedit's with --analyse), for gnubg's
    /// `load match`.
    Match(super::matches::MatchArgs),
    /// Grade an answer to each position's question with gnubg: the move
    /// (with dice), double or no double (without), take or pass (a double
    /// offered). Prints the equity lost in gnubg's units (money equity, or
    /// normalised in match play), the grade (correct, doubtful, bad, very
    /// bad, by gnubg 1.07's thresholds), gnubg's best and the answer's place
    /// in its list.
    ///
    /// With no ID arguments, reads IDs from standard input, one per line.
    /// The engine that grades is --engine's (one engine; --plies counts as
    /// gnubg's); in the editor's quiz, the analysis panel's engine too.
    Quiz(super::quiz::QuizArgs),
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The editor starts its clipboard holder by this name.
    #[test]
    fn the_hidden_command_is_the_one_the_editor_starts() {
        let hold = bgedit_tui::io::clipboard_holder::HOLD_COMMAND;
        let cli = Cli::try_parse_from(["bgedit", hold]).unwrap();
        assert!(matches!(cli.command, Some(Command::HoldClipboard)));
    }
}
