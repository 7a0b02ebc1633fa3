//! The score matrix's cells answered by gnubg: one cube decision a cell
//! (the cells themselves are `domain::score_matrix`'s). Shared by `bgedit
//! analyse --score-matrix` and the editor's matrix panel.

use super::request::no_cube_action;
use super::{Analysis, Engine, Request, Waiter, time_limit};
use bgedit_core::domain::score_matrix::Cell;

/// What gnubg said for one cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Cube {
        action: String,
        no_double: f64,
        double_take: f64,
        double_pass: f64,
    },
    /// The roller cannot double here (Crawford, a dead cube): why.
    NoCube(String),
    Failed(String),
}

/// The short form players write in a score matrix.
pub fn short_action(action: &str) -> &'static str {
    let a = action.to_ascii_lowercase();
    if a.starts_with("too good") {
        "TG"
    } else if a.starts_with("no double") || a.starts_with("no redouble") {
        if a.contains("beaver") { "ND/B" } else { "ND" }
    } else if a.contains("beaver") {
        "D/B"
    } else if a.contains("pass") {
        "D/P"
    } else if a.contains("take") {
        "D/T"
    } else {
        "?"
    }
}

pub fn verdict(engine: &mut dyn Engine, plies: u8, id: u64, cell: &Cell) -> Verdict {
    if let Some(why) = no_cube_action(&cell.position) {
        return Verdict::NoCube(why);
    }
    let req = Request {
        id,
        position: cell.position.clone(),
        plies,
        moves: 0,
    };
    match engine.analyse(&req, time_limit(plies, Waiter::Batch)) {
        Ok(Analysis::Cube {
            action,
            no_double,
            double_take,
            double_pass,
            ..
        }) => Verdict::Cube {
            action,
            no_double,
            double_take,
            double_pass,
        },
        Ok(Analysis::Over { reason }) => Verdict::Failed(reason),
        Ok(_) => Verdict::NoCube(format!("{} gives no cube decision", engine.kind().name())),
        Err(e) => Verdict::Failed(e.to_string()),
    }
}

// Every number comes from a checked answer (finite), so equality is total.
impl Eq for Verdict {}
