//! The backgammon domain: who plays, where the checkers are, and the state of
//! the match around them; legal moves and gnubg's move notation; the one
//! match model and its replay; the numbers at a score (equities, match
//! equity tables, race counts, cube decisions) and gnubg's statistics of an
//! analysed match. Nothing here knows about terminals, clipboards,
//! processes, databases or file formats; codecs and views are built on top
//! of it.

pub mod board;
pub mod cmath;
pub mod cost_kinds;
pub mod cube_decision;
pub mod cube_thresholds;
pub mod equity;
pub mod game_plan;
pub mod match_record;
pub mod match_state;
pub mod match_stats;
pub mod met;
pub mod moves;
pub mod notation;
pub mod numbers;
pub(crate) mod player;
pub(crate) mod position;
pub mod position_class;
pub mod race;
pub mod replay;
pub mod score_class;
pub mod score_matrix;
pub mod sensitivity;
pub mod skill;
pub mod validation;

pub use board::{Board, BoardError, CHECKERS_PER_SIDE, Place};
pub use match_state::{CubeOwner, Dice, GameState, MatchState, Resignation};
pub use player::Player;
pub use position::{NameError, Names, Position, PositionError, check_name};
pub use validation::{MatchError, Warning};
