//! What the analysis panel's actions do: requests leave as
//! `Effect::Analyse` naming the engine asked, and answers come back as
//! `Action::Analysis(AnalysisAction::Answer)`, carrying the engine and the
//! request's number so a late answer for an old position is dropped.

use super::score_matrix;
use super::state::{AnalysisAction, AnalysisState, KEPT, RolloutRun, Shown};
use super::view::copy_text;
use crate::effect::Effect;
use crate::model::{Model, Status};
use bgedit_core::codec::position_id;
use bgedit_core::domain::Position;
use bgedit_engine::request::MAX_PLIES;
use bgedit_engine::text::Units;
use bgedit_engine::{Analysis, EngineError, EngineKind, Request};

/// Moves asked for: all of them, so the list scrolls to the end.
pub(crate) const ALL_MOVES: usize = 0;

fn key_of(p: &Position) -> String {
    bgedit_core::codec::to_string_as(p, bgedit_core::codec::IdFormat::GnubgId)
}

fn request(model: &mut Model, plies: u8) -> Effect {
    let a = &mut model.analysis;
    a.latest += 1;
    a.running = Some(plies);
    Effect::Analyse(
        EngineKind::reference(),
        Request {
            id: a.latest,
            position: model.position.clone(),
            plies,
            moves: ALL_MOVES,
        },
    )
}

/// After any change of position: a 0-ply request at once, a deeper one due
/// when the user pauses. The old answer goes (it was for another position).
pub(crate) fn position_changed(model: &mut Model) -> Effect {
    let a = &mut model.analysis;
    a.shown = None;
    a.selected = 0;
    a.preview = false;
    a.deep_due = true;
    a.cube_before_roll = None;
    a.cube_request = 0;
    for opinion in a.opinions.values_mut() {
        opinion.shown = None;
        opinion.problem = None;
    }
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

/// `z`: the panel's engines, each alone in turn, then all of them. Each
/// engine on that has no answer yet is asked for the position on show at
/// the depth shown.
pub(crate) fn cycle_engine(mut model: Model) -> (Model, Vec<Effect>) {
    let a = &mut model.analysis;
    a.engines = a.engines.next();
    a.selected = 0;
    a.preview = false;
    model.status = Status::info(choice_words(a.engines));
    let mut effects = Vec::new();
    let plies = a.shown.as_ref().map_or(0, |s| s.plies);
    for engine in a.engines.kinds().filter(|k| !k.is_reference()) {
        let opinion = a.opinions.entry(engine).or_default();
        if opinion.shown.is_none() {
            opinion.latest = a.latest;
            effects.push(Effect::Analyse(
                engine,
                Request {
                    id: a.latest,
                    position: model.position.clone(),
                    plies,
                    moves: ALL_MOVES,
                },
            ));
        }
    }
    (model, effects)
}

/// What `z` says of the engines it turned to ("Analysis by <full name>;
/// <depth note> (z: both)"), in the engines' own words.
fn choice_words(choice: bgedit_engine::Choice) -> String {
    let next = choice.next().label();
    match choice.alone() {
        Some(engine) => {
            let spec = engine.spec();
            match spec.depth_note {
                Some(note) => format!("Analysis by {}; {note} (z: {next})", spec.full_name),
                None => format!("Analysis by {} (z: {next})", spec.full_name),
            }
        }
        None => {
            let names: Vec<&str> = choice.kinds().map(|k| k.spec().full_name).collect();
            format!(
                "Analysis by {} side by side (z: {next})",
                names.join(" and ")
            )
        }
    }
}

/// The requests for the other engines on that go with `effects`' requests
/// for the reference engine (not the cube before the roll: that line is
/// the reference's).
pub(crate) fn second_opinion(model: &mut Model, effects: &[Effect]) -> Vec<Effect> {
    let a = &mut model.analysis;
    let mut out = Vec::new();
    for engine in a.engines.kinds().filter(|k| !k.is_reference()) {
        for e in effects {
            if let Effect::Analyse(asked, req) = e
                && asked.is_reference()
                && req.id != a.cube_request
                && req.position == model.position
            {
                a.opinions.entry(engine).or_default().latest = req.id;
                out.push(Effect::Analyse(engine, req.clone()));
            }
        }
    }
    out
}

/// Another engine's answer; dropped unless it answers the last request
/// sent to it.
pub(crate) fn opinion_answered(
    mut model: Model,
    engine: EngineKind,
    id: u64,
    result: Result<Analysis, EngineError>,
    version: Option<String>,
) -> (Model, Vec<Effect>) {
    let a = &mut model.analysis;
    let opinion = a.opinions.entry(engine).or_default();
    if id != opinion.latest {
        return (model, Vec::new());
    }
    if version.is_some() {
        opinion.version = version;
    }
    match result {
        Ok(analysis) => {
            let plies = analysis.plies().unwrap_or(0);
            opinion.shown = Some(Shown { plies, analysis });
            opinion.problem = None;
        }
        Err(e) => opinion.problem = Some(said(&e)),
    }
    clamp_selection(a);
    (model, Vec::new())
}

/// `O`: roll out the listed candidates (the leading ones, as ranked on
/// show) or the cube decision, with the engine's own rollout.
pub(crate) fn start_rollout(mut model: Model) -> (Model, Vec<Effect>) {
    if model.analysis.rolling() {
        model.status = Status::info("A rollout is running: Esc stops it");
        return (model, Vec::new());
    }
    if let Some(reason) = bgedit_engine::request::nothing_to_analyse(&model.position) {
        model.status = Status::error(format!("nothing to roll out: {reason}"));
        return (model, Vec::new());
    }
    let p = &model.position;
    if p.state.dice.is_none()
        && !p.state.double_offered
        && let Some(reason) = bgedit_engine::request::no_cube_action(p)
    {
        model.status = Status::error(format!(
            "nothing to roll out: no dice and no cube action ({reason}); set dice to roll out moves"
        ));
        return (model, Vec::new());
    }
    let a = &mut model.analysis;
    // The candidates as ranked on show, rolled out by the engine the panel
    // shows alone (the reference when all are on).
    let engine = a.engines.lead();
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
    (model, vec![Effect::Rollout(engine, req, settings)])
}

/// Esc while a rollout runs: stop it after the chunk running; the trials
/// done stay on show.
pub(crate) fn stop_rollout(mut model: Model) -> (Model, Vec<Effect>) {
    model.status = Status::info("Stopping the rollout…");
    (model, vec![Effect::StopRollout])
}

/// A rollout's trials so far, before its first numbers.
pub(crate) fn rollout_tick(
    mut model: Model,
    id: u64,
    r: bgedit_engine::Rollout,
) -> (Model, Vec<Effect>) {
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
pub(crate) fn rollout_progress(
    mut model: Model,
    id: u64,
    analysis: Analysis,
) -> (Model, Vec<Effect>) {
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
pub(crate) fn rollout_answered(
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
                        crate::library::state::Request::KeepAnalysis {
                            position: Box::new(model.position.clone()),
                            analysis: Box::new(bgedit_library::Analysis {
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
    // kept from an engine other than the reference says so ("<name> 2-ply",
    // "<name> rollout 1296 trials").
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
    let can_double = bgedit_engine::request::nothing_to_analyse(&before).is_none()
        && bgedit_engine::request::no_cube_action(&before).is_none();
    can_double.then_some(before)
}

/// Asks for the cube decision before the roll at `plies`. It does not
/// count as the analysis running: moves are what the panel waits for.
fn request_cube(model: &mut Model, plies: u8) -> Option<Effect> {
    let position = before_the_roll(&model.position)?;
    let a = &mut model.analysis;
    a.latest += 1;
    a.cube_request = a.latest;
    Some(Effect::Analyse(
        EngineKind::reference(),
        Request {
            id: a.latest,
            position,
            plies,
            moves: ALL_MOVES,
        },
    ))
}

/// The user paused (or pressed `a`): the deeper analysis, if still due.
pub(crate) fn deepen(mut model: Model, asked: bool) -> (Model, Vec<Effect>) {
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
pub(crate) fn answered(
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
                Analysis::Cube { probs, .. } | Analysis::Eval { probs, .. } => {
                    Some(crate::numbers::state::Evaluation(probs.map(|p| p as f32)))
                }
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
pub(crate) fn update(model: Model, action: AnalysisAction) -> (Model, Vec<Effect>) {
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
        A::Answer(engine, id, result, _) if engine.is_reference() => answered(model, id, result),
        A::Answer(engine, id, result, version) => {
            opinion_answered(model, engine, id, result, version)
        }
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
            crate::transition::commit(model, next, &message)
        }
        _ => crate::transition::refuse(
            model,
            "no move selected: [ and ] pick one of the analysis's moves".to_owned(),
        ),
    }
}

/// Esc: the board back from the move previewed.
pub(crate) fn leave_preview(mut model: Model) -> (Model, Vec<Effect>) {
    if model.analysis.preview {
        model.analysis.preview = false;
        model.status = Status::info("Preview closed");
    }
    crate::transition::done(model)
}

/// `[` `]` and the panel's arrows: select a listed move and preview it.
pub(crate) fn select(mut model: Model, delta: i32) -> (Model, Vec<Effect>) {
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

/// The position after the selected move: the board the engine gave, the
/// opponent on roll, no dice.
pub(crate) fn selected_result(model: &Model) -> Option<Position> {
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
pub(crate) fn board_position(model: &Model) -> Option<Position> {
    if model.analysis.preview {
        selected_result(model)
    } else {
        None
    }
}

/// The name of the selected move, for messages.
pub(crate) fn selected_move(model: &Model) -> Option<String> {
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
pub(crate) fn change_depth(mut model: Model, delta: i8) -> (Model, Vec<Effect>) {
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
pub(crate) fn toggle_units(mut model: Model) -> (Model, Vec<Effect>) {
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

/// An engine's error as the panel shows it: one line, every control
/// character escaped (a Python exception's text is the engine's, not ours,
/// and must not reach the terminal raw).
fn said(e: &EngineError) -> String {
    bgedit_core::quote::printable(&e.to_string()).replace(['\n', '\t'], " ")
}
