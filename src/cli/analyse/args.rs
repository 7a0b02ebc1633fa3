//! `bgedit analyse`'s arguments.

use crate::cli::engine_args::EngineArgs;
use crate::cli::output::OutputFormat;

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
    /// Engine processes working at once (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// Output: gnubg-like text, or one JSON object per input.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
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
    /// The cube and the score as views: for a position with dice, the best
    /// move at money, DMP (1-away/1-away), gammon-save (on roll 1-away,
    /// opponent 2-away, Crawford), gammon-go (2-away/1-away, Crawford) and
    /// the match's own score, under each cube state (centred, owned by
    /// either player), `*` where it differs from the board's own; for a
    /// cube decision, the doubling window (ND, D/T, D/P) at every score of
    /// the match. The editor's live views (`~`), by the engine chosen.
    #[arg(long, conflicts_with_all = ["score_matrix", "rollout", "file"])]
    pub sensitivity: bool,
    /// Analyse every decision of a match file (any format bgedit reads) as
    /// gnubg's `analyse match` does: each checker play and cube decision
    /// with its equity lost and mark, in match order, then each player's
    /// statistics (error totals and rates, ratings).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["score_matrix", "rollout"])]
    pub file: Option<std::path::PathBuf>,
    /// With --file: write the report (text or JSON, as --format) to this
    /// file instead of standard output, whole or not at all, never over
    /// the match file.
    #[arg(long, value_name = "REPORT", requires = "file")]
    pub output: Option<std::path::PathBuf>,
    /// Roll out with gnubg's own rollout: the leading moves (--moves of
    /// them, as ranked at --plies), or the cube decision without dice.
    #[arg(long, conflicts_with = "score_matrix")]
    pub rollout: bool,
    /// Rollout trials (games per candidate).
    #[arg(long, default_value_t = 1296, requires = "rollout",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(bgedit_engine::request::MAX_TRIALS)))]
    pub trials: u32,
    /// Rollout seed: the same seed and settings give gnubg's numbers.
    #[arg(long, default_value_t = 1, requires = "rollout")]
    pub seed: u32,
    /// Cut each trial off after this many plies and evaluate (0: play out).
    #[arg(long, value_name = "PLIES", default_value_t = 0, requires = "rollout",
          value_parser = clap::value_parser!(u8).range(0..=100))]
    pub truncate: u8,
    /// The depth of the evaluation at the truncation point [default: the
    /// engine's own: gnubg 2-ply, Sage the players' depth].
    #[arg(long, value_name = "P", requires = "rollout",
          value_parser = clap::value_parser!(u8).range(0..=3))]
    pub truncate_plies: Option<u8>,
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
    /// The engines that answer, and each engine's program and data.
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Threads for each rollout, whichever engine's (0: the engine's own
    /// choice: gnubg one, as its threaded rollouts are not reproducible;
    /// Sage one a core, reproducible on any). Several positions roll out at
    /// once with --jobs, each engine on its own threads.
    #[arg(long, default_value_t = 0, requires = "rollout")]
    pub threads: u8,
}

/// gnubg's own `hint` ranks at 2-ply unless told otherwise: a rollout of
/// "the top three moves" rolls out the three it lists first.
pub const ROLLOUT_CANDIDATE_PLIES: u8 = 2;

impl AnalyseArgs {
    /// The depth asked for, or the default: 0 (instant), or for a rollout
    /// the depth gnubg's `hint` ranks its candidates at.
    pub(crate) fn depth(&self) -> u8 {
        self.plies.unwrap_or(if self.rollout {
            ROLLOUT_CANDIDATE_PLIES
        } else {
            0
        })
    }
}
