//! The engines' own readers and boards, for the fuzz targets (their own
//! workspace) and this workspace's tests, behind the `internals` feature:
//! what a process writes is input like any file, and the tests hold
//! bgedit's conversions against the engines' own. The editor and the CLI
//! never turn it on (`.ci/engine_wall.sh` checks it): they hold a replayed
//! match and an engine handle.

pub use crate::gnubg_match::{GameAnswer, Line as GamesLine, read_line as read_games_line};
pub use crate::match_analysis::judge::judge_recorded_game;
pub use crate::sage::native::{
    Probed as SageProbed, probe as probe_sage_data, sample_bearoff as sage_sample_bearoff,
};
pub use crate::sage::{from_sage, parse_line as parse_sage_line, to_sage};
pub use crate::scale::cubeless_equity;
