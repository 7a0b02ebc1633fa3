//! The one place the editor's state changes: `update(model, action)` returns
//! the next model and the effects for the runtime to perform. Pure: no
//! terminal, clipboard, file or clock in here.

use super::action::PromptAction;
use super::action::{Action, CopyAction};
use super::analysis;
use super::copy_menu;
use super::effect::Effect;
use super::model::{Mode, Model, Status, Tone};
use super::on_off;
use super::panels;
use super::prompt::{
    self,
    state::{Prompt, PromptKind},
};
pub(crate) use super::transition::{commit, done, refuse};
use crate::action::AnalysisAction;
use bgedit_core::codec::{self, IdFormat};
use bgedit_core::domain::Player;

/// Applies `action` to `model`, and logs the status message it leaves.
/// The features that react to a change of position do after it (any
/// change of position asks gnubg about the new one: 0-ply at once, deeper
/// when the user pauses).
pub fn update(model: Model, action: Action) -> (Model, Vec<Effect>) {
    // Behind the "enlarge" screen nothing shows what a key would do.
    if model.too_small && !acts_behind_the_enlarge_screen(&action) {
        return done(model);
    }
    let before = model.position.clone();
    let serial = model.review.serial;
    let by_review = matches!(action, Action::Review(_));
    let (mut next, mut effects) = apply(model, action);
    let opened_match = next.review.serial != serial;
    if next.position != before {
        for react in ON_POSITION_CHANGED {
            let change = Change {
                by_review,
                opened_match,
                effects: &effects,
            };
            let more = react(&mut next, &change);
            effects.extend(more);
        }
    }
    for react in AFTER_EVERY_ACTION {
        let change = Change {
            by_review,
            opened_match,
            effects: &effects,
        };
        let more = react(&mut next, &change);
        effects.extend(more);
    }
    next.log.push(&next.status);
    (next, effects)
}

/// What an action did, as the features reacting to it see it.
pub(crate) struct Change<'a> {
    /// The action was the match panel's own (walking its decisions).
    pub by_review: bool,
    /// A match was opened, from a file or a paste (its first position shown).
    pub opened_match: bool,
    /// The effects asked for so far, by the action and earlier reactions.
    pub effects: &'a [Effect],
}

/// A feature's reaction: it may change the model and ask for effects.
type Reaction = fn(&mut Model, &Change) -> Vec<Effect>;

/// The features that react when an action changed the position, in this
/// order (a quiz answered on the board is graded before gnubg is asked).
const ON_POSITION_CHANGED: &[Reaction] = &[
    // Any change of the board but the match panel's own leaves the match.
    |m, c| {
        if !c.by_review && !c.opened_match {
            super::match_review::update::left(m);
        }
        Vec::new()
    },
    // The quiz's question played on the board: the move is the answer.
    |m, _| match super::library::quiz::answered_on_board(m) {
        Some(answer) => apply_in_place(m, Action::Library(answer)),
        None => Vec::new(),
    },
    // gnubg is asked about the new position, unless the action asked.
    |m, c| {
        let asked = c.effects.iter().any(|e| matches!(e, Effect::Analyse(..)));
        if asked {
            Vec::new()
        } else {
            vec![analysis::position_changed(m)]
        }
    },
    |m, _| analysis::score_matrix::refresh(m).into_iter().collect(),
    // The live views ask about the new position, answered before the next
    // frame.
    |m, _| super::sensitivity::update::position_changed(m),
];

/// The features that react after every action, position changed or not.
const AFTER_EVERY_ACTION: &[Reaction] = &[
    // Every other engine on is asked whatever the lead is asked for the
    // panel.
    |m, c| analysis::second_opinion(m, c.effects),
];

/// `update` for a reaction that holds the model by reference.
fn apply_in_place(model: &mut Model, action: Action) -> Vec<Effect> {
    let (next, effects) = update(std::mem::take(model), action);
    *model = next;
    effects
}

/// Actions that still work when the terminal is too small: leaving, the
/// overlays, and what the outside world reports.
fn acts_behind_the_enlarge_screen(action: &Action) -> bool {
    matches!(
        action,
        Action::Quit
            | Action::ToggleHelp
            | Action::HelpPage(_)
            | Action::ToggleMessages
            | Action::Resized { .. }
            | Action::Terminated(_)
            | Action::Copy(CopyAction::Copied(..))
            | Action::Pasted(_)
            | Action::SaveFailed(_)
            | Action::SaveNotice(_)
            | Action::JobFailed(_)
            | Action::Analysis(AnalysisAction::Answer(..))
            | Action::Analysis(AnalysisAction::RolloutTick(..))
            | Action::Analysis(AnalysisAction::RolloutProgress(..))
            | Action::Analysis(AnalysisAction::RolloutAnswer(..))
            | Action::Analysis(AnalysisAction::MatrixCell(..))
            | Action::Analysis(AnalysisAction::Paused)
            | Action::Sensitivity(
                super::sensitivity::state::SensitivityAction::EngineReady(_)
                    | super::sensitivity::state::SensitivityAction::Computed { .. }
            )
            | Action::Review(
                super::match_review::state::ReviewAction::Judged(..)
                    | super::match_review::state::ReviewAction::AnalysisEnded(_)
                    | super::match_review::state::ReviewAction::Opened(_)
            )
    )
}

fn apply(mut model: Model, action: Action) -> (Model, Vec<Effect>) {
    match action {
        // Esc stops a rollout before it does anything else.
        Action::Play(super::play::state::PlayAction::PutBack) if model.analysis.rolling() => {
            analysis::stop_rollout(model)
        }
        Action::Board(a) => super::board::update::update(model, a),

        Action::Undo => travel(model, true),
        Action::Redo => travel(model, false),

        Action::Copy(a) => copy_menu::update::update(model, a),
        Action::Paste => {
            model.status = Status::info("Reading the clipboard…");
            (model, vec![Effect::ReadClipboard])
        }
        Action::Pasted(Ok(text)) => update(model, Action::Import(text)),
        Action::Pasted(Err(e)) => refuse(
            model,
            format!("could not read the clipboard: {e}; paste into the ID line instead (i)"),
        ),
        Action::Import(text) => import(model, text),

        Action::OpenPrompt(kind) => {
            model.mode = Mode::Prompt(Prompt::with_value(
                kind,
                &prompt::update::current_value(kind, &model.position),
            ));
            done(model)
        }
        // The line's own edits are the prompt's; what they lead to (a
        // submitted line, a yes/no answer, a completion) comes back here.
        Action::Prompt(PromptAction::Submit) => submit(model),
        Action::Prompt(a) => match prompt::update::update(model, a) {
            (model, None) => done(model),
            (model, Some(next)) => update(model, next),
        },

        Action::ToggleHelp => {
            model.mode = if model.mode == Mode::Help {
                std::mem::replace(&mut model.before_help, Mode::Normal)
            } else {
                model.before_help = std::mem::replace(&mut model.mode, Mode::Help);
                Mode::Help
            };
            model.help_page = 0;
            done(model)
        }
        // The view clamps the page to the pages the screen has.
        Action::HelpPage(delta) => {
            model.help_page = model.help_page.saturating_add_signed(i16::from(delta));
            done(model)
        }

        Action::SaveNotice(text) => {
            model.status = Status::error(text);
            done(model)
        }
        Action::Resized { width, height } => {
            model.too_small = panels::too_small(width, height);
            done(model)
        }
        Action::Terminated(signal) => {
            model.quitting = true;
            model.status = Status::info(format!(
                "{} received: saved and left",
                bgedit_core::signals::name(signal)
            ));
            let save = Effect::Save(model.position.clone());
            (model, vec![save, Effect::Quit])
        }
        Action::ToggleMessages => {
            model.mode = if model.mode == Mode::Messages {
                Mode::Normal
            } else {
                Mode::Messages
            };
            done(model)
        }
        Action::Analysis(a) => analysis::update(model, a),
        Action::TogglePanel(panel) => {
            model.panels.toggle(panel);
            model.status = Status::info(format!(
                "{panel:?} panel {} (large screens always show it)",
                on_off(model.panels.is_on(panel))
            ));
            done(model)
        }
        Action::Numbers(a) => super::numbers::update::update(model, a),
        Action::Sensitivity(a) => super::sensitivity::update::update(model, a),

        Action::JobFailed(f) => refuse(
            model,
            format!("{}: stopped on an internal error ({})", f.what, f.why),
        ),
        Action::SaveFailed(e) => refuse(
            model,
            format!("could not save the position ({e}); it will not be reopened next time"),
        ),

        Action::Play(action) => super::play::update::update(model, action),
        // `M` of the library panel opens the match list.
        Action::Library(super::library::state::LibAction::List(
            super::library::state::ListAction::Matches,
        )) => super::match_list::update::update(
            model,
            super::match_list::state::MatchListAction::Open,
        ),
        Action::Library(a) => super::library::update::update(model, a),
        // `s` of the match panel opens the statistics view.
        Action::Review(super::match_review::state::ReviewAction::Statistics) => {
            super::statistics::update::update(
                model,
                super::statistics::state::StatisticsAction::Open,
            )
        }
        Action::Statistics(a) => super::statistics::update::update(model, a),
        Action::MatchList(a) => super::match_list::update::update(model, a),
        Action::Review(a) => super::match_review::update::update(model, a),

        Action::Quit => {
            model.quitting = true;
            (model, vec![Effect::Quit])
        }
    }
}

/// Whether an import brought a Match ID's Jacoby bit into a match.
pub(crate) fn jacoby_from_match_id(imported: &codec::Imported) -> bool {
    let s = &imported.position.state;
    matches!(imported.format, IdFormat::GnubgId | IdFormat::MatchId) && !s.is_money() && s.jacoby
}

/// Undo (`back`) or redo: swap in a remembered position.
fn travel(mut model: Model, back: bool) -> (Model, Vec<Effect>) {
    let current = model.position.clone();
    let moved = if back {
        model.history.back(current)
    } else {
        model.history.forward(current)
    };
    let Some((position, what)) = moved else {
        return refuse(
            model,
            format!("nothing to {}", if back { "undo" } else { "redo" }),
        );
    };
    model.position = position;
    model.numbers.last_evaluation = None;
    model.status = Status::info(if back {
        format!("Undid: {what} ({} more to undo)", model.history.undo.len())
    } else {
        format!("Redid: {what} ({} more to redo)", model.history.redo.len())
    });
    let save = Effect::Save(model.position.clone());
    (model, vec![save])
}

/// Edits the input line's text, if it is open.
/// Enter on the input line: the text read into an action and applied; a
/// refusal keeps the line open to fix, and O's name asks X's next.
fn submit(mut model: Model) -> (Model, Vec<Effect>) {
    let Mode::Prompt(prompt) = model.mode.clone() else {
        return done(model);
    };
    match prompt::update::parse(prompt.kind, &prompt.line.text, &model.position.state) {
        Ok(action) => {
            // The action may open another question (the Crawford
            // offer); otherwise the line closes.
            model.mode = Mode::Normal;
            let (mut next, effects) = update(model, action);
            if next.status.tone == Tone::Error {
                // Any refusal, of the text or of the rules, keeps
                // the line open to fix, with the message.
                let mut prompt = prompt;
                prompt.line.selected = false;
                next.mode = Mode::Prompt(prompt);
            } else if prompt.kind == PromptKind::Name(Player::O) {
                next.mode = Mode::Prompt(Prompt::with_value(
                    PromptKind::Name(Player::X),
                    &next.position.names.x,
                ));
            }
            (next, effects)
        }
        Err(message) => refuse(model, message),
    }
}

/// Text pasted or typed into the ID line: a whole match opens in the match
/// panel, as its file would; anything else is read as one position.
fn import(mut model: Model, text: String) -> (Model, Vec<Effect>) {
    if let Some(loaded) = super::match_review::open::pasted(&text) {
        let opened = super::match_review::state::ReviewAction::Opened(Ok(Box::new(loaded)));
        return update(model, Action::Review(opened));
    }
    match codec::parse_any(&text, &model.position) {
        Ok(imported) => {
            model.mode = Mode::Normal;
            model.jacoby_from_match_id = jacoby_from_match_id(&imported);
            let message = match &imported.note {
                Some(note) => format!("{} read · {note}", imported.format.name()),
                None => format!("{} read", imported.format.name()),
            };
            let read = imported.position.clone();
            let (mut model, effects) = commit(model, imported.position, &message);
            if model.position == read {
                model.pasted = Some(read);
            }
            (model, effects)
        }
        Err(e) => refuse(model, e.to_string()),
    }
}
