//! The analysis panel's state and what its actions do. Pure: the reducer
//! calls in here; requests leave as `Effect::Analyse` and answers come back
//! as `Action::Analysis(AnalysisAction::Answer)`, carrying the request's number so a late
//! answer for an old position is dropped.
//!
//! The feature's folder: this file (state, update, the panel's text),
//! `keys.rs` (its rows of the normal mode's bindings), `view.rs` (drawing
//! the panel, one list or two side by side), `score_matrix.rs` (the cube
//! decision at every score, shown in the same panel).

pub mod keys;
pub mod score_matrix;
pub mod state;
pub mod view;

use state::KEPT;
pub use state::{AnalysisAction, AnalysisState, RolloutRun, Shown};

use crate::codec::position_id;
use crate::domain::Position;
use crate::editor::effect::Effect;
use crate::editor::model::{Model, Status};
use crate::engine::request::MAX_PLIES;
use crate::engine::text::Units;
use crate::engine::{Analysis, Choice, EngineError, EngineKind, Request};

/// Moves asked for: all of them, so the list scrolls to the end.
pub const ALL_MOVES: usize = 0;

fn key_of(p: &Position) -> String {
    crate::codec::to_string_as(p, crate::codec::IdFormat::GnubgId)
}

fn request(model: &mut Model, plies: u8) -> Effect {
    let a = &mut model.analysis;
    a.latest += 1;
    a.running = Some(plies);
    Effect::Analyse(Request {
        id: a.latest,
        position: model.position.clone(),
        plies,
        moves: ALL_MOVES,
    })
}

/// After any change of position: a 0-ply request at once, a deeper one due
/// when the user pauses. The old answer goes (it was for another position).
pub fn position_changed(model: &mut Model) -> Effect {
    let a = &mut model.analysis;
    a.shown = None;
    a.selected = 0;
    a.preview = false;
    a.deep_due = true;
    a.cube_before_roll = None;
    a.cube_request = 0;
    a.second = None;
    a.second_problem = None;
    // A rollout running stops: the engine stops it for the request below.
    let key = key_of(&model.position);
    let a = &mut model.analysis;
    a.rollout = a
        .kept
        .iter()
        .rev()
        .find(|(k, _, _)| *k == key)
        .map(|(_, shown, engine)| RolloutRun {
            id: 0,
            running: false,
            shown: Some(shown.clone()),
            engine: *engine,
            ticks: None,
        });
    request(model, 0)
}

/// `z`: the panel's engine, gnubg → Sage → both → gnubg. Sage is asked
/// for the position on show at the depth shown.
pub fn cycle_engine(mut model: Model) -> (Model, Vec<Effect>) {
    let a = &mut model.analysis;
    a.engines = a.engines.next();
    a.selected = 0;
    a.preview = false;
    model.status = Status::info(match a.engines {
        Choice::Gnubg => "Analysis by gnubg (z: Sage)".to_owned(),
        Choice::Sage => {
            "Analysis by Open Sage; its depths in its own count (gnubg's 0-ply is Sage's 1-ply) (z: both)"
                .to_owned()
        }
        Choice::Both => "Analysis by gnubg and Open Sage side by side (z: gnubg)".to_owned(),
    });
    let mut effects = Vec::new();
    if a.engines.uses(EngineKind::Sage) && a.second.is_none() {
        let plies = a.shown.as_ref().map_or(0, |s| s.plies);
        a.second_latest = a.latest;
        effects.push(Effect::AnalyseSage(Request {
            id: a.latest,
            position: model.position.clone(),
            plies,
            moves: ALL_MOVES,
        }));
    }
    (model, effects)
}

/// The requests for Sage that go with `effects`' requests for gnubg, when
/// Sage is on (not the cube before the roll: that line is gnubg's).
pub fn second_opinion(model: &mut Model, effects: &[Effect]) -> Vec<Effect> {
    let a = &mut model.analysis;
    if !a.engines.uses(EngineKind::Sage) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for e in effects {
        if let Effect::Analyse(req) = e
            && req.id != a.cube_request
            && req.position == model.position
        {
            a.second_latest = req.id;
            out.push(Effect::AnalyseSage(req.clone()));
        }
    }
    out
}

/// Sage's answer; dropped unless it answers the last request sent to it.
pub fn sage_answered(
    mut model: Model,
    id: u64,
    result: Result<Analysis, EngineError>,
    version: Option<String>,
) -> (Model, Vec<Effect>) {
    let a = &mut model.analysis;
    if id != a.second_latest {
        return (model, Vec::new());
    }
    if version.is_some() {
        a.sage_version = version;
    }
    match result {
        Ok(analysis) => {
            let plies = analysis.plies().unwrap_or(0);
            a.second = Some(Shown { plies, analysis });
            a.second_problem = None;
        }
        Err(e) => a.second_problem = Some(said(&e)),
    }
    clamp_selection(a);
    (model, Vec::new())
}

/// Where gnubg and Sage disagree on the position on show, when both
/// answered it.
pub fn disagreement(a: &AnalysisState) -> Option<crate::engine::compare::Disagreement> {
    let (g, s) = (a.shown.as_ref()?, a.second.as_ref()?);
    crate::engine::compare::compare(&g.analysis, &s.analysis)
}

/// With both engines on: Sage's panel, drawn beside gnubg's.
pub fn second_panel_text(model: &Model) -> Option<PanelText> {
    let a = &model.analysis;
    if a.engines != Choice::Both || model.matrix.on {
        return None;
    }
    let sage = AnalysisState {
        engines: Choice::Sage,
        units: a.units,
        second: a.second.clone(),
        second_problem: a.second_problem.clone(),
        sage_version: a.sage_version.clone(),
        played_after: a.played_after.clone(),
        played_action: a.played_action.clone(),
        other_pick: disagreement(a).map(|d| d.gnubg),
        ..AnalysisState::default()
    };
    Some(panel_text_of(model, &sage))
}

/// `O`: roll out the listed candidates (the leading ones, as ranked on
/// show) or the cube decision, with gnubg's own rollout.
pub fn start_rollout(mut model: Model) -> (Model, Vec<Effect>) {
    if model.analysis.rolling() {
        model.status = Status::info("A rollout is running: Esc stops it");
        return (model, Vec::new());
    }
    if let Some(reason) = crate::engine::request::nothing_to_analyse(&model.position) {
        model.status = Status::error(format!("nothing to roll out: {reason}"));
        return (model, Vec::new());
    }
    let p = &model.position;
    if p.state.dice.is_none()
        && !p.state.double_offered
        && let Some(reason) = crate::engine::request::no_cube_action(p)
    {
        model.status = Status::error(format!(
            "nothing to roll out: no dice and no cube action ({reason}); set dice to roll out moves"
        ));
        return (model, Vec::new());
    }
    let a = &mut model.analysis;
    // The candidates as ranked on show; Sage rolls out when the panel
    // shows Sage alone (with its own cancellation).
    let engine = match a.engines {
        Choice::Sage => EngineKind::Sage,
        _ => EngineKind::Gnubg,
    };
    let plies = a.displayed().map_or(0, |s| s.plies);
    a.latest += 1;
    // Evaluations in flight are superseded: their answers are dropped.
    a.running = None;
    a.cube_request = 0;
    a.deep_due = false;
    a.rollout = Some(RolloutRun {
        id: a.latest,
        running: true,
        shown: None,
        engine,
        ticks: None,
    });
    let settings = a.rollout_settings.clone();
    let what = if p.state.dice.is_some() && !p.state.double_offered {
        format!("the {} leading moves", settings.candidates)
    } else {
        "the cube decision".to_owned()
    };
    model.status = Status::info(format!(
        "{} rolling out {what}: {} trials, seed {} (Esc stops)",
        engine.name(),
        settings.trials,
        settings.seed
    ));
    let req = Request {
        id: model.analysis.latest,
        position: model.position.clone(),
        plies,
        moves: ALL_MOVES,
    };
    let effect = match engine {
        EngineKind::Gnubg => Effect::Rollout(req, settings),
        EngineKind::Sage => Effect::RolloutSage(req, settings),
    };
    (model, vec![effect])
}

/// Esc while a rollout runs: stop it after the chunk running; the trials
/// done stay on show.
pub fn stop_rollout(mut model: Model) -> (Model, Vec<Effect>) {
    model.status = Status::info("Stopping the rollout…");
    (model, vec![Effect::StopRollout])
}

/// A rollout's trials so far, before its first numbers.
pub fn rollout_tick(mut model: Model, id: u64, r: crate::engine::Rollout) -> (Model, Vec<Effect>) {
    if let Some(run) = model
        .analysis
        .rollout
        .as_mut()
        .filter(|run| run.id == id && run.running)
    {
        run.ticks = Some(r);
    }
    (model, Vec::new())
}

/// A rollout's answer so far.
pub fn rollout_progress(mut model: Model, id: u64, analysis: Analysis) -> (Model, Vec<Effect>) {
    if let Some(run) = model
        .analysis
        .rollout
        .as_mut()
        .filter(|r| r.id == id && r.running)
    {
        let plies = analysis.plies().unwrap_or(0);
        run.shown = Some(Shown { plies, analysis });
        clamp_selection(&mut model.analysis);
    }
    (model, Vec::new())
}

/// A rollout ended: done, stopped, or failed.
pub fn rollout_answered(
    mut model: Model,
    id: u64,
    result: Result<Analysis, EngineError>,
) -> (Model, Vec<Effect>) {
    let key = key_of(&model.position);
    let Some(run) = model.analysis.rollout.as_mut().filter(|r| r.id == id) else {
        return (model, Vec::new());
    };
    run.running = false;
    let mut effects = Vec::new();
    match result {
        Ok(analysis) => {
            let plies = analysis.plies().unwrap_or(0);
            let shown = Shown { plies, analysis };
            let r = shown.analysis.rollout().cloned();
            run.shown = Some(shown.clone());
            model.status = match &r {
                Some(r) if r.stopped => Status::info(format!(
                    "Rollout stopped after {} of {} trials ({:.0} s)",
                    r.trials, r.of, r.elapsed
                )),
                Some(r) => Status::success(format!(
                    "Rollout done: {} trials in {:.0} s",
                    r.trials, r.elapsed
                )),
                None => Status::info("Nothing to roll out"),
            };
            if r.is_some() {
                let kept = &mut model.analysis.kept;
                let engine = run.engine;
                kept.retain(|(k, _, e)| *k != key || *e != engine);
                kept.push((key, shown, engine));
                if kept.len() > KEPT {
                    kept.remove(0);
                }
                if let Some(text) = copy_text(&model) {
                    effects.push(Effect::Library(
                        crate::editor::library::state::Request::KeepAnalysis {
                            position: Box::new(model.position.clone()),
                            analysis: Box::new(crate::library::Analysis {
                                text,
                                depth: depth_words(&model.analysis),
                            }),
                        },
                    ));
                }
            }
            clamp_selection(&mut model.analysis);
        }
        Err(e) => {
            model.status = Status::error(format!("rollout failed: {}", said(&e)));
            if run.shown.is_none() {
                model.analysis.rollout = None;
            }
        }
    }
    (model, effects)
}

/// The depth of what is on show, in the library's words.
pub fn depth_words(a: &AnalysisState) -> String {
    // The engine is named with its depth in its own count, so an entry
    // kept from Sage says so ("Sage 2-ply", "Sage rollout 1296 trials").
    let engine = a.displayed_engine();
    match a.displayed() {
        Some(s) => match s.analysis.rollout() {
            Some(r) => format!("{} rollout {} trials", engine.name(), r.trials),
            None => format!("{} {}", engine.name(), engine.depth_label(s.plies)),
        },
        None => String::new(),
    }
}

fn clamp_selection(a: &mut AnalysisState) {
    let count = move_count(a);
    a.selected = a.selected.min(count.saturating_sub(1));
    a.preview = a.preview && count > 0;
}

/// The position before the roll, when its cube decision is worth asking:
/// dice set, and the roller could double without them.
fn before_the_roll(p: &Position) -> Option<Position> {
    p.state.dice?;
    let mut before = p.clone();
    before.state.dice = None;
    let can_double = crate::engine::request::nothing_to_analyse(&before).is_none()
        && crate::engine::request::no_cube_action(&before).is_none();
    can_double.then_some(before)
}

/// Asks for the cube decision before the roll at `plies`. It does not
/// count as the analysis running: moves are what the panel waits for.
fn request_cube(model: &mut Model, plies: u8) -> Option<Effect> {
    let position = before_the_roll(&model.position)?;
    let a = &mut model.analysis;
    a.latest += 1;
    a.cube_request = a.latest;
    Some(Effect::Analyse(Request {
        id: a.latest,
        position,
        plies,
        moves: ALL_MOVES,
    }))
}

/// The user paused (or pressed `a`): the deeper analysis, if still due.
pub fn deepen(mut model: Model, asked: bool) -> (Model, Vec<Effect>) {
    let a = &model.analysis;
    let have = a.shown.as_ref().map(|s| s.plies).unwrap_or(0);
    let wanted = a.deep_plies;
    if !asked && (!a.deep_due || a.running.is_some() || a.rolling()) {
        return (model, Vec::new());
    }
    if asked && a.rolling() {
        model.status = Status::info("A rollout is running: Esc stops it");
        return (model, Vec::new());
    }
    if asked && a.running == Some(wanted) {
        model.status = Status::info(format!("{wanted}-ply analysis already running"));
        return (model, Vec::new());
    }
    model.analysis.deep_due = false;
    if !asked && have >= wanted {
        return (model, Vec::new());
    }
    if asked {
        model.status = Status::info(format!("{wanted}-ply analysis asked for"));
    }
    let e = request(&mut model, wanted);
    (model, vec![e])
}

/// An answer from the engine; dropped unless it answers the last request.
pub fn answered(
    mut model: Model,
    id: u64,
    result: Result<Analysis, EngineError>,
) -> (Model, Vec<Effect>) {
    if id != model.analysis.latest {
        return (model, Vec::new());
    }
    if id == model.analysis.cube_request {
        let a = &mut model.analysis;
        a.cube_request = 0;
        // A failed cube decision leaves the moves as they are, unmarked.
        if let Ok(analysis @ Analysis::Cube { .. }) = result {
            let plies = analysis.plies().unwrap_or(0);
            a.cube_before_roll = Some(Shown { plies, analysis });
        }
        return (model, Vec::new());
    }
    let plies = model.analysis.running.take().unwrap_or(0);
    let mut effects = Vec::new();
    match result {
        Ok(analysis) => {
            // The numbers panel's market window needs the position's own
            // chances, from the side of the player on roll: a cube decision
            // or an evaluation has them (a move list has them per move).
            model.numbers.last_evaluation = match &analysis {
                Analysis::Cube { probs, .. } | Analysis::Eval { probs, .. } => Some(
                    crate::editor::numbers::state::Evaluation(probs.map(|p| p as f32)),
                ),
                _ => None,
            };
            let a = &mut model.analysis;
            a.problem = None;
            let plies = analysis.plies().unwrap_or(plies);
            let keep_selection = a.shown.is_some();
            a.shown = Some(Shown { plies, analysis });
            if !keep_selection {
                a.selected = 0;
            }
            let count = move_count(a);
            a.selected = a.selected.min(count.saturating_sub(1));
            a.preview = a.preview && count > 0;
            let have_cube = a.cube_before_roll.as_ref().map(|c| c.plies);
            if have_cube.is_none_or(|p| p < plies) {
                effects.extend(request_cube(&mut model, plies));
            }
        }
        Err(e) => model.analysis.problem = Some(said(&e)),
    }
    (model, effects)
}

fn move_count(a: &AnalysisState) -> usize {
    match a.displayed() {
        Some(Shown {
            analysis: Analysis::Moves { moves, .. },
            ..
        }) => moves.len(),
        _ => 0,
    }
}

/// The panel's actions, each to its function: the reducer hands them all
/// here.
pub fn update(model: Model, action: AnalysisAction) -> (Model, Vec<Effect>) {
    use AnalysisAction as A;
    match action {
        A::Deepen => deepen(model, true),
        A::Paused => deepen(model, false),
        A::ChangeDepth(delta) => change_depth(model, delta),
        A::SelectMove(delta) => select(model, delta),
        A::PlaySelected => play_selected(model),
        A::LeavePreview => leave_preview(model),
        A::ToggleUnits => toggle_units(model),
        A::CycleEngine => cycle_engine(model),
        A::Rollout => start_rollout(model),
        A::ToggleMatrix => score_matrix::toggle(model),
        A::Answer(id, result) => answered(model, id, result),
        A::SageAnswer(id, result, version) => sage_answered(model, id, result, version),
        A::RolloutTick(id, r) => rollout_tick(model, id, *r),
        A::RolloutProgress(id, a) => rollout_progress(model, id, a),
        A::RolloutAnswer(id, result) => rollout_answered(model, id, result),
        A::MatrixCell(serial, i, v) => score_matrix::answered(model, serial, i, v),
    }
}

/// Enter: the move previewed played on the board (an edit, with undo).
fn play_selected(model: Model) -> (Model, Vec<Effect>) {
    let on_roll = model.position.state.on_roll;
    match selected_result(&model).zip(selected_move(&model)) {
        Some((next, name)) if model.analysis.preview => {
            let message = format!("{on_roll} played {name} (u undoes)");
            crate::editor::transition::commit(model, next, &message)
        }
        _ => crate::editor::transition::refuse(
            model,
            "no move selected: [ and ] pick one of the analysis's moves".to_owned(),
        ),
    }
}

/// Esc: the board back from the move previewed.
pub fn leave_preview(mut model: Model) -> (Model, Vec<Effect>) {
    if model.analysis.preview {
        model.analysis.preview = false;
        model.status = Status::info("Preview closed");
    }
    crate::editor::transition::done(model)
}

/// `[` `]` and the panel's arrows: select a listed move and preview it.
pub fn select(mut model: Model, delta: i32) -> (Model, Vec<Effect>) {
    let count = move_count(&model.analysis);
    if count == 0 {
        model.status = Status::error("no moves listed to select (set dice for a move analysis)");
        return (model, Vec::new());
    }
    let a = &mut model.analysis;
    let at = if a.preview {
        (a.selected as i64 + i64::from(delta)).clamp(0, count as i64 - 1) as usize
    } else {
        a.selected.min(count - 1)
    };
    a.selected = at;
    a.preview = true;
    model.status = Status::info(format!(
        "Previewing move {} of {count}: Enter plays it, Esc leaves the preview",
        at + 1
    ));
    (model, Vec::new())
}

/// The position after the selected move: the board gnubg gave, the
/// opponent on roll, no dice.
pub fn selected_result(model: &Model) -> Option<Position> {
    let a = &model.analysis;
    let Some(Shown {
        analysis: Analysis::Moves { moves, .. },
        ..
    }) = a.displayed()
    else {
        return None;
    };
    let line = moves.get(a.selected)?;
    let p = &model.position;
    let next = p.state.on_roll.opponent();
    let board = position_id::decode(&line.after, next).ok()?;
    let mut state = p.state.clone();
    state.on_roll = next;
    state.dice = None;
    state.turn = state.expected_turn();
    Some(Position {
        board,
        state,
        names: p.names.clone(),
    })
}

/// What the board shows: the preview while one is on, else the position.
pub fn board_position(model: &Model) -> Option<Position> {
    if model.analysis.preview {
        selected_result(model)
    } else {
        None
    }
}

/// The name of the selected move, for messages.
pub fn selected_move(model: &Model) -> Option<String> {
    match model.analysis.displayed() {
        Some(Shown {
            analysis: Analysis::Moves { moves, .. },
            ..
        }) => moves
            .get(model.analysis.selected)
            .map(|m| m.notation.clone()),
        _ => None,
    }
}

/// `<` `>`: the depth for deeper analyses.
pub fn change_depth(mut model: Model, delta: i8) -> (Model, Vec<Effect>) {
    let a = &mut model.analysis;
    let next = (a.deep_plies as i8 + delta).clamp(1, MAX_PLIES as i8) as u8;
    if next == a.deep_plies {
        model.status = Status::error(format!("the depth goes from 1 to {MAX_PLIES}-ply"));
        return (model, Vec::new());
    }
    a.deep_plies = next;
    a.deep_due = true;
    model.status = Status::success(format!("Deeper analysis at {next}-ply (a to run it now)"));
    (model, vec![Effect::SaveAnalysisPlies(next)])
}

/// `%`: match equities as MWC or as normalised equity.
pub fn toggle_units(mut model: Model) -> (Model, Vec<Effect>) {
    let a = &mut model.analysis;
    a.units = match a.units {
        Units::Equity => Units::Mwc,
        Units::Mwc => Units::Equity,
    };
    model.status = Status::info(if model.position.state.is_money() {
        "Money play is always shown in equity".to_owned()
    } else {
        match model.analysis.units {
            Units::Mwc => "Match play shown in match winning chances".to_owned(),
            Units::Equity => "Match play shown in normalised equity".to_owned(),
        }
    });
    (model, Vec::new())
}

/// The analysis as text for the clipboard, with the position's ID first.
pub fn copy_text(model: &Model) -> Option<String> {
    let shown = model.analysis.displayed()?;
    let id = crate::codec::to_string_as(&model.position, crate::codec::IdFormat::GnubgId);
    let mut text = format!("GNUBG ID: {id}\n");
    if let Some(reason) = crate::engine::request::no_cube_action(&model.position) {
        text += &format!("No cube action: {reason}\n");
    }
    for note in crate::engine::request::sent_notes(&model.position) {
        text += &format!("{note}\n");
    }
    let engine = model.analysis.displayed_engine();
    // The cube before the roll is gnubg's: with gnubg's list only.
    let cube = model.analysis.cube_before_roll.as_ref();
    if let (Some(line), EngineKind::Gnubg) = (
        cube.and_then(|c| cube_line(c, model.analysis.units)),
        engine,
    ) {
        text += &format!("{line}\n");
    }
    if engine == EngineKind::Sage {
        text += &format!("Open Sage ({}):\n", engine.depth_label(shown.plies));
    }
    text +=
        &crate::engine::text::render_for(&shown.analysis, model.analysis.units, usize::MAX, engine);
    Some(text)
}

/// The panel as text, made once per frame for the snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PanelText {
    /// What is shown and at what depth, and what is running.
    pub header: String,
    /// Lines between the header and the rows: what the rows do not say
    /// (the cube decision before the roll, a cube gnubg was sent instead).
    pub notes: Vec<String>,
    /// Column titles for the rows, if any.
    pub columns: Option<String>,
    pub rows: Vec<String>,
    /// Wider rows for the same content, drawn instead where they fit (the
    /// score matrix's thresholds).
    pub wide_rows: Vec<String>,
    /// The row of the selected move.
    pub selected: Option<usize>,
}

fn pct(x: f64) -> String {
    format!("{:4.1}", x * 100.0)
}

fn chances(p: &crate::engine::answer::Probs) -> String {
    format!(
        "{} {} {} · {} {} {}",
        pct(p[0]),
        pct(p[1]),
        pct(p[2]),
        pct(1.0 - p[0]),
        pct(p[3]),
        pct(p[4])
    )
}

const CHANCE_COLUMNS: &str = " Win  Gam   Bg · Lose  Gam   Bg";

/// A cube decision's cubeless equity and chances on one row, each number
/// after its name: a panel cut short shows both or neither, never a header
/// without its numbers (`Cubeless +0.511 · Win 69.1 Gam 33.7 Bg 0.5 · …`).
fn cubeless_row(label: &str, cubeless: f64, p: &crate::engine::answer::Probs) -> String {
    let n = |x: f64| format!("{:.1}", x * 100.0);
    format!(
        "{label} {cubeless:+.3} · Win {} Gam {} Bg {} · Lose {} Gam {} Bg {}",
        n(p[0]),
        n(p[1]),
        n(p[2]),
        n(1.0 - p[0]),
        n(p[3]),
        n(p[4])
    )
}

/// The cube decision before the roll on one line: the proper action and
/// the three equities, as XG shows it above a move list.
fn cube_line(cube: &Shown, units: Units) -> Option<String> {
    use crate::engine::text::value;
    let Analysis::Cube {
        action,
        no_double,
        double_take,
        double_pass,
        no_double_mwc,
        double_take_mwc,
        double_pass_mwc,
        ..
    } = &cube.analysis
    else {
        return None;
    };
    Some(format!(
        "Before the roll ({}-ply): {action} · ND {} · D/T {} · D/P {}",
        cube.plies,
        value(*no_double, *no_double_mwc, units),
        value(*double_take, *double_take_mwc, units),
        value(*double_pass, *double_pass_mwc, units),
    ))
}

/// The header of a rollout: trials done, time left, how to stop it.
fn rollout_header(
    r: &crate::engine::Rollout,
    running: bool,
    unit_word: &str,
    engine: EngineKind,
) -> String {
    let mut h = format!("{} rollout {}/{} trials", engine.name(), r.trials, r.of);
    if running {
        if let Some(left) = r.seconds_left() {
            h += &format!(" · {} left", clock(left));
        }
        h += " · Esc stops";
    } else if r.stopped {
        h += " · stopped";
    }
    h + &format!(" · {unit_word}")
}

/// An engine's error as the panel shows it: one line, every control
/// character escaped (a Python exception's text is the engine's, not ours,
/// and must not reach the terminal raw).
fn said(e: &EngineError) -> String {
    crate::quote::printable(&e.to_string()).replace(['\n', '\t'], " ")
}

/// Why the engine shown has no answer, if so.
fn problem(a: &AnalysisState, engine: EngineKind) -> Option<&String> {
    match engine {
        EngineKind::Gnubg => a.problem.as_ref(),
        EngineKind::Sage => a.second_problem.as_ref(),
    }
}

/// "1:05" or "42 s".
fn clock(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 60 {
        format!("{}:{:02}", s / 60, s % 60)
    } else {
        format!("{s} s")
    }
}

/// A rolled-out move list: each equity with its standard error and the
/// half-width of its 95% interval.
fn rollout_rows(text: &mut PanelText, moves: &[crate::engine::MoveLine], units: Units) {
    use crate::engine::answer::interval95;
    use crate::engine::text::{diff, value};
    text.columns = Some(format!(
        "{:>4} {:<22}{:>9}{:>10}{:>8}{:>8}  {CHANCE_COLUMNS}",
        "#", "Move", "Equity", "Diff", "SE", "±95%"
    ));
    let best = moves.first().map(|m| (m.equity, m.mwc));
    for (i, m) in moves.iter().enumerate() {
        let (be, bm) = best.expect("listed");
        let d = if i == 0 {
            String::new()
        } else {
            diff(m.equity, be, m.mwc.zip(bm), units)
        };
        let se = match (units, m.mwc_std_error) {
            (Units::Mwc, Some(s)) => Some((s * 100.0, 2)),
            _ => m.std_error.map(|s| (s, 3)),
        };
        let (se, ci) = se.map_or((String::new(), String::new()), |(s, digits)| {
            (
                format!("{s:.digits$}"),
                format!("{:.digits$}", interval95(s)),
            )
        });
        text.rows.push(format!(
            "{:>4} {:<22}{:>9}{:>10}{se:>8}{ci:>8}  {}",
            format!("{}.", i + 1),
            m.notation,
            value(m.equity, m.mwc, units),
            d,
            chances(&m.probs)
        ));
    }
}

/// What the analysis panel says (the score matrix while it is on).
/// The row the panel keeps in view: the move selected, or, when nothing is
/// previewed, a match decision's move played (the best is first, and named
/// in the match panel too).
fn in_view(a: &AnalysisState, moves: &[crate::engine::MoveLine]) -> usize {
    let played = moves
        .iter()
        .position(|m| a.played_after.as_deref() == Some(m.after.as_str()));
    match (a.preview, played) {
        (false, Some(p)) => p,
        _ => a.selected,
    }
}

pub fn panel_text(model: &Model) -> PanelText {
    if model.matrix.on {
        return score_matrix::panel_text(model);
    }
    let a = &model.analysis;
    if a.engines == Choice::Both {
        // gnubg's list marks Sage's pick, and says where they disagree.
        let d = disagreement(a);
        let marked = AnalysisState {
            other_pick: d.as_ref().map(|d| d.sage.clone()),
            ..a.clone()
        };
        let mut text = panel_text_of(model, &marked);
        if let Some(d) = d {
            text.notes.insert(0, format!("⚑ {}", d.describe()));
        }
        return text;
    }
    panel_text_of(model, a)
}

fn panel_text_of(model: &Model, a: &AnalysisState) -> PanelText {
    use crate::engine::text::{diff, value};
    let engine = a.displayed_engine();
    // Sage gives normalised equity only: with Sage on, both engines are
    // shown in it, one unit for the two lists.
    let sage_on = a.engines != Choice::Gnubg;
    let units = if model.position.state.is_money() || sage_on {
        Units::Equity
    } else {
        a.units
    };
    let unit_word = match (model.position.state.is_money(), units) {
        (true, _) => "money equity",
        // The note is Sage's: gnubg's list beside it is in Sage's unit.
        (false, _) if engine == EngineKind::Sage => "normalised equity (Sage gives no MWC)",
        (false, _) if sage_on => "normalised equity, as Sage's",
        (false, Units::Equity) => "normalised equity (% for MWC)",
        (false, Units::Mwc) => "match winning chances (% for equity)",
    };
    let rollout = a.displayed().and_then(|s| s.analysis.rollout());
    let mut header = match (rollout, a.displayed()) {
        (Some(r), _) => rollout_header(r, a.rolling(), unit_word, engine),
        (None, _) if a.rolling() => match a.rollout.as_ref() {
            Some(run @ RolloutRun { ticks: Some(t), .. }) => format!(
                "{} rollout {}/{} trials (no candidate finished yet) · Esc stops · {unit_word}",
                run.engine.name(),
                t.trials,
                t.of
            ),
            run => format!(
                "{} rollout: starting… · Esc stops · {unit_word}",
                run.map_or("gnubg", |r| r.engine.name())
            ),
        },
        (None, Some(s)) => format!(
            "{} {} · {unit_word}",
            engine.name(),
            crate::engine::text::depth_words(engine, &s.analysis, s.plies)
        ),
        (None, None) if problem(a, engine).is_none() => format!("{}: analysing…", engine.name()),
        (None, None) => engine.name().to_owned(),
    };
    if engine == EngineKind::Sage
        && let Some(v) = &a.sage_version
    {
        header += &format!(" · bgsage {v}");
    }
    match a.running {
        _ if rollout.is_some() || a.rolling() => {}
        Some(p) if a.shown.is_some() => header += &format!(" · {p}-ply running…"),
        _ if a.deep_due && a.shown.as_ref().is_some_and(|s| s.plies < a.deep_plies) => {
            header += &format!(" · {}-ply when you pause (a: now)", a.deep_plies)
        }
        _ => {}
    }
    let mut text = PanelText {
        header,
        ..PanelText::default()
    };
    // Why there is no answer goes with the notes, which the panel wraps.
    if let Some(problem) = problem(a, engine) {
        text.notes.push(problem.clone());
        if a.displayed().is_none() {
            return text;
        }
    }
    let Some(shown) = a.displayed() else {
        return text;
    };
    text.notes
        .extend(crate::engine::request::sent_notes(&model.position));
    // The cube before the roll is gnubg's: it goes with gnubg's list.
    if let (Analysis::Moves { .. }, Some(cube), EngineKind::Gnubg) =
        (&shown.analysis, &a.cube_before_roll, engine)
    {
        text.notes.extend(cube_line(cube, units));
    }
    if let Some(r) = rollout {
        text.notes.push(format!("Rollout: {}", r.describe()));
    }
    if let (Analysis::Cube { .. } | Analysis::Take { .. }, Some(p)) =
        (&shown.analysis, &a.played_action)
    {
        text.notes.push(format!("Played in the match: {p}"));
    }
    match &shown.analysis {
        Analysis::Moves { moves, plies, .. } if rollout.is_some() => {
            rollout_rows(&mut text, moves, units);
            if !moves.is_empty() {
                text.selected = Some(in_view(a, moves));
            }
        }
        Analysis::Moves { moves, plies, .. } => {
            if moves.is_empty() {
                text.rows
                    .push("No legal move: the roll cannot be played".to_owned());
            }
            // At 2-ply and up gnubg's move filter evaluates only the leading
            // candidates that deep; the rest keep their 0-ply equity and so
            // may rank below a move they beat. Each row says its depth then
            // (and the header what the rows are).
            let tail = crate::engine::answer::shallow_tail(*plies, moves);
            let ply_col = |m: Option<&crate::engine::MoveLine>| match (tail, m) {
                (None, _) => String::new(),
                (Some(_), None) => format!("{:>4}", "Ply"),
                (Some(_), Some(m)) => format!("{:>4}", m.depth(*plies)),
            };
            text.columns = Some(format!(
                "{:>4}{} {:<22}{:>9}{:>10}  {CHANCE_COLUMNS}",
                "#",
                ply_col(None),
                "Move",
                "Equity",
                "Diff"
            ));
            let best = moves.first().map(|m| (m.equity, m.mwc));
            for (i, m) in moves.iter().enumerate() {
                let (be, bm) = best.expect("listed");
                let d = if i == 0 {
                    String::new()
                } else {
                    diff(m.equity, be, m.mwc.zip(bm), units)
                };
                let played = a.played_after.as_deref() == Some(m.after.as_str());
                let other = match engine {
                    EngineKind::Gnubg => "Sage",
                    EngineKind::Sage => "gnubg",
                };
                let notation = if played {
                    format!("{} ◀ played", m.notation)
                } else if a.other_pick.as_deref() == Some(m.notation.as_str()) {
                    format!("{} ◀ {other}", m.notation)
                } else {
                    m.notation.clone()
                };
                text.rows.push(format!(
                    "{:>4}{} {:<22}{:>9}{:>10}  {}",
                    format!("{}.", i + 1),
                    ply_col(Some(m)),
                    notation,
                    value(m.equity, m.mwc, units),
                    d,
                    chances(&m.probs)
                ));
            }
            if !moves.is_empty() {
                text.selected = Some(in_view(a, moves));
            }
        }
        Analysis::Cube {
            action,
            no_double,
            double_take,
            double_pass,
            no_double_mwc,
            double_take_mwc,
            double_pass_mwc,
            probs,
            cubeless,
            ..
        } => {
            text.rows.push(format!("Proper cube action: {action}"));
            for (label, e, m) in [
                ("No double", no_double, no_double_mwc),
                ("Double, take", double_take, double_take_mwc),
                ("Double, pass", double_pass, double_pass_mwc),
            ] {
                text.rows
                    .push(format!("  {label:<14}{:>9}", value(*e, *m, units)));
            }
            if let Some((n, t)) = rollout.and_then(|r| r.no_double_se.zip(r.double_take_se)) {
                text.rows.push(format!(
                    "  SE (95%)  No double {n:.3} (±{:.3}) · Double, take {t:.3} (±{:.3})",
                    crate::engine::answer::interval95(n),
                    crate::engine::answer::interval95(t)
                ));
            }
            text.rows.push(cubeless_row("Cubeless", *cubeless, probs));
        }
        Analysis::Take {
            take,
            pass,
            take_mwc,
            pass_mwc,
            proper,
            probs,
            cubeless,
            ..
        } => {
            let taker = model.position.state.on_roll.opponent();
            text.rows
                .push(format!("{taker} should {proper} (for the player doubled)"));
            text.rows.push(format!(
                "  {:<14}{:>9}",
                "Take",
                value(*take, *take_mwc, units)
            ));
            text.rows.push(format!(
                "  {:<14}{:>9}",
                "Pass",
                value(*pass, *pass_mwc, units)
            ));
            if let Some(t) = rollout.and_then(|r| r.double_take_se) {
                text.rows.push(format!(
                    "  SE (95%)  Take {t:.3} (±{:.3})",
                    crate::engine::answer::interval95(t)
                ));
            }
            text.rows.push(cubeless_row(
                &format!("{taker}'s cubeless"),
                *cubeless,
                probs,
            ));
        }
        Analysis::Eval {
            probs, cubeless, ..
        } => {
            let why = crate::engine::request::no_cube_action(&model.position).unwrap_or_default();
            text.rows.push(format!("No cube action: {why}"));
            text.rows.push(cubeless_row("Cubeless", *cubeless, probs));
        }
        Analysis::Over { reason } => text.rows.push(format!("Nothing to analyse: {reason}")),
    }
    text
}
