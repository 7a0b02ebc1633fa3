//! `V`: the score matrix in the analysis panel's place — the cube decision
//! of the position on the board at every score of a match (each player 2 to
//! L away, Crawford and post-Crawford 1-away), asked of the reference
//! engine in the background a cell at a time (`Effect::ScoreMatrix`,
//! answers as `Action::Analysis(AnalysisAction::MatrixCell)`), the grid
//! filling in as they come. Pure.

use super::state::MatrixState;
use super::state::PanelText;
use crate::effect::Effect;
use crate::model::{Model, Status};
use bgedit_core::codec::{self, IdFormat};
use bgedit_core::domain::Position;
use bgedit_core::domain::score_matrix::{CubeCase, cells, is_score, label, labels};
use bgedit_engine::matrix::{Verdict, short_action};

/// What the matrix depends on: the board and who is on roll.
fn key_of(p: &Position) -> String {
    let mut q = p.clone();
    q.state.dice = None;
    q.state.score = [0, 0];
    q.state.crawford = false;
    q.state.double_offered = false;
    codec::to_string_as(&q, IdFormat::PositionId) + q.state.on_roll.to_string().as_str()
}

/// The matrix's length: the match's, or 7 for money play.
fn length_of(p: &Position) -> u16 {
    if p.state.is_money() {
        7
    } else {
        p.state.match_length.clamp(2, 25)
    }
}

fn ask(model: &mut Model) -> Effect {
    let m = &mut model.matrix;
    m.serial += 1;
    m.key = key_of(&model.position);
    m.length = length_of(&model.position);
    m.cells = cells(&model.position, m.length, &[CubeCase::Centred]);
    m.verdicts = vec![None; m.cells.len()];
    Effect::ScoreMatrix {
        serial: m.serial,
        cells: m.cells.clone(),
    }
}

/// `V`: the matrix on (asked for when the position is new to it) or off.
pub(crate) fn toggle(mut model: Model) -> (Model, Vec<Effect>) {
    if model.matrix.on {
        model.matrix.on = false;
        model.status = Status::info("Score matrix off: the analysis is back");
        return (model, Vec::new());
    }
    if let Some(reason) = bgedit_engine::request::nothing_to_analyse(&model.position) {
        model.status = Status::error(format!("no score matrix: {reason}"));
        return (model, Vec::new());
    }
    model.matrix.on = true;
    model.status = Status::info("Score matrix: the cube decision at every score (V closes)");
    let effects = refresh(&mut model).into_iter().collect();
    (model, effects)
}

/// After a change of position: a new matrix when the board or the player
/// on roll changed while it is on (the score, the dice and the cube do not
/// change it).
pub fn refresh(model: &mut Model) -> Option<Effect> {
    let fresh = model.matrix.key == key_of(&model.position)
        && model.matrix.length == length_of(&model.position);
    (model.matrix.on && !fresh).then(|| ask(model))
}

/// One cell answered.
pub(crate) fn answered(
    mut model: Model,
    serial: u64,
    index: usize,
    v: Verdict,
) -> (Model, Vec<Effect>) {
    let m = &mut model.matrix;
    if serial == m.serial
        && let Some(slot) = m.verdicts.get_mut(index)
    {
        *slot = Some(v);
    }
    (model, Vec::new())
}

/// One cell as the grid shows it: the action, and on wide screens the
/// gain from doubling and the take margin (the double and take thresholds
/// crossed when they change sign).
fn cell_text(v: Option<&Verdict>, wide: bool) -> String {
    match v {
        None => "…".to_owned(),
        Some(Verdict::Cube {
            action,
            no_double,
            double_take,
            double_pass,
        }) if wide => format!(
            "{} {:+.2} {:+.2}",
            short_action(action),
            double_take.min(*double_pass) - no_double,
            double_pass - double_take
        ),
        Some(Verdict::Cube { action, .. }) => short_action(action).to_owned(),
        Some(Verdict::NoCube(_)) => "-".to_owned(),
        Some(Verdict::Failed(_)) => "!".to_owned(),
    }
}

/// Width of a grid column, narrow and wide.
pub(crate) const NARROW: usize = 7;
pub(crate) const WIDE: usize = 17;

fn grid(m: &MatrixState, roller: bgedit_core::domain::Player, wide: bool) -> Vec<String> {
    let other = roller.opponent();
    let w = if wide { WIDE } else { NARROW };
    let mut rows = Vec::new();
    let mut head = format!("{:>8}", format!("{roller}\\{other}"));
    for (a, c) in labels(m.length) {
        head += &format!("{:>w$}", label(a, c));
    }
    rows.push(head);
    for mine in labels(m.length) {
        let mut row = format!("{:>8}", label(mine.0, mine.1));
        for theirs in labels(m.length) {
            let crawford = mine.1.or(theirs.1).unwrap_or(false);
            let found = m.cells.iter().position(|c| {
                c.away[roller.index()] == mine.0
                    && c.away[other.index()] == theirs.0
                    && c.crawford == crawford
            });
            // A Crawford label against a 1-away one: no such score.
            let text = match found {
                Some(i) if is_score(mine, theirs) => cell_text(m.verdicts[i].as_ref(), wide),
                _ => String::new(),
            };
            row += &format!("{text:>w$}");
        }
        rows.push(row);
    }
    rows
}

/// The panel: a header with the progress, the legend, the grid (and the
/// wide grid for screens with room).
pub fn panel_text(model: &Model) -> PanelText {
    let m = &model.matrix;
    let done = m.verdicts.iter().filter(|v| v.is_some()).count();
    let total = m.verdicts.len();
    let roller = model.position.state.on_roll;
    // The progress before the rest, so that an 80-column panel shows it.
    let progress = if done < total {
        format!(" · {done}/{total} cells…")
    } else {
        String::new()
    };
    let engine = bgedit_engine::EngineKind::reference();
    let header = format!(
        "score matrix · {}-point match{progress} · {roller} on roll, centred cube · {} {}",
        m.length,
        engine.name(),
        engine.depth_label(0)
    );
    PanelText {
        header,
        notes: vec![
            "ND no double · D/T double, take · D/P double, pass · TG too good · /B beaver · - no cube · V closes"
                .to_owned(),
        ],
        columns: None,
        rows: grid(m, roller, false),
        wide_rows: {
            let mut w = grid(m, roller, true);
            if let Some(first) = w.first_mut() {
                first.push_str("   (gain from doubling, take margin)");
            }
            w
        },
        selected: None,
    }
}
