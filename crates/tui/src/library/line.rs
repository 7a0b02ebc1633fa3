//! The input line of the filter and the questions: `prompt::Line`'s
//! editing, the filter re-run as it is typed, and what Enter and Esc do
//! with each question's answer.

use super::state::{Ask, LibMode, LibState, LineAction, Request};
use super::steps::{ask, back, error, fetch};
use crate::effect::Effect;
use crate::model::{Mode, Model, Status};
use crate::prompt::state::Line;
use crate::transition::done;
use bgedit_engine::match_analysis::{self, QuizAnswer};
use bgedit_library::filter;
use bgedit_library::{EntryEdit, NewEntry, Source};

pub(super) fn update(mut model: Model, action: LineAction) -> (Model, Vec<Effect>) {
    match action {
        LineAction::Char(c) if model.mode == Mode::Library(LibMode::Ask(Ask::ConfirmDelete)) => {
            // One key answers: y deletes, any other keeps.
            model.library.input = Line::at_end(&c.to_string());
            submit(model)
        }
        LineAction::Char(c) => {
            // A full line or a control character leaves the line, and the
            // filter's query, as they are.
            let Some(line) = model.library.line_mut(&model.mode) else {
                return done(model);
            };
            if c.is_control() || line.is_full() {
                return done(model);
            }
            line.insert(&c.to_string());
            after_typing(model)
        }
        LineAction::Paste(text) => {
            if let Some(line) = model.library.line_mut(&model.mode) {
                line.insert(&text);
            }
            after_typing(model)
        }
        LineAction::Backspace => {
            if let Some(line) = model.library.line_mut(&model.mode) {
                line.backspace();
            }
            after_typing(model)
        }
        LineAction::Clear => {
            if let Some(line) = model.library.line_mut(&model.mode) {
                line.clear();
            }
            after_typing(model)
        }
        LineAction::Cancel => cancel(model),
        LineAction::Submit => submit(model),
    }
}

/// Esc: the filter cleared (the whole list again), or the question put
/// away.
fn cancel(mut model: Model) -> (Model, Vec<Effect>) {
    if model.mode == Mode::Library(LibMode::Filter) {
        model.library.filter.clear();
        model.library.filter_error = None;
        model.library.query = filter::Query::default();
        model.library.selected = 0;
        model.mode = Mode::Library(LibMode::List);
        let effect = fetch(&mut model.library, 0);
        return (model, vec![effect]);
    }
    model.library.input.clear();
    back(&mut model);
    model.status = Status::info("Cancelled");
    done(model)
}

/// Typing in the filter re-runs the query; a query that does not parse
/// keeps the last results and says why.
fn after_typing(mut model: Model) -> (Model, Vec<Effect>) {
    if model.mode != Mode::Library(LibMode::Filter) {
        return done(model);
    }
    match filter::parse(&model.library.filter.text) {
        Ok(query) => {
            model.library.filter_error = None;
            model.library.query = query;
            model.library.selected = 0;
            let effect = fetch(&mut model.library, 0);
            (model, vec![effect])
        }
        Err(e) => {
            model.library.filter_error = Some(e.to_string());
            done(model)
        }
    }
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

/// Enter: the filter kept, or the question's answer applied.
fn submit(mut model: Model) -> (Model, Vec<Effect>) {
    let kind = match &model.mode {
        Mode::Library(LibMode::Ask(kind)) => *kind,
        Mode::Library(LibMode::Filter) => {
            model.mode = Mode::Library(LibMode::List);
            return done(model);
        }
        _ => return done(model),
    };
    let text = std::mem::take(&mut model.library.input).text;
    match kind {
        Ask::AddTitle => {
            model.library.pending_title = text.trim().to_owned();
            ask(model, Ask::AddTags, String::new())
        }
        Ask::AddTags => add(model, &text),
        Ask::Tags | Ask::Collections => edit_words(model, kind, &text),
        Ask::ConfirmDelete => {
            back(&mut model);
            match (text.trim(), model.library.editing) {
                ("y" | "Y" | "yes", Some(id)) => {
                    (model, vec![Effect::Library(Request::Delete(id))])
                }
                _ => {
                    model.status = Status::info("Kept");
                    done(model)
                }
            }
        }
        Ask::Player => {
            let name = text.trim().to_owned();
            back(&mut model);
            if name.is_empty() {
                return error(model, "name a player (as the match files spell it)");
            }
            model.status = Status::info(format!(
                "Statistics of {} across the library's matches…",
                bgedit_core::quote::printable(&name)
            ));
            (model, vec![Effect::Library(Request::PlayerStats(name))])
        }
        Ask::ReviewCollection => {
            let collection = text.trim().to_owned();
            back(&mut model);
            if collection.is_empty() {
                return error(model, "name a collection to review");
            }
            let due = Request::Due {
                collection,
                now: None,
            };
            (model, vec![Effect::Library(due)])
        }
        Ask::QuizMove => quiz_move(model, text),
    }
}

/// The tags or the collections of the entry being edited, answered.
fn edit_words(mut model: Model, kind: Ask, text: &str) -> (Model, Vec<Effect>) {
    let Some(id) = model.library.editing else {
        back(&mut model);
        return done(model);
    };
    back(&mut model);
    let (edit, what) = if kind == Ask::Tags {
        let tags = Some(words(text));
        (
            EntryEdit {
                tags,
                ..EntryEdit::default()
            },
            "tags",
        )
    } else {
        let collections = Some(words(text));
        let edit = EntryEdit {
            collections,
            ..EntryEdit::default()
        };
        (edit, "collections")
    };
    (
        model,
        vec![Effect::Library(Request::Update { id, edit, what })],
    )
}

/// The tags answered: the editor's position added with the title asked
/// before, and the analysis on show (a rollout, when there is one).
fn add(mut model: Model, tags: &str) -> (Model, Vec<Effect>) {
    let source = if model.pasted.as_ref() == Some(&model.position) {
        Source::Pasted
    } else {
        Source::Typed
    };
    let mut entry = NewEntry::new(model.position.clone(), source);
    entry.title = std::mem::take(&mut model.library.pending_title);
    entry.analysis = crate::analysis::copy_text(&model).map(|text| bgedit_library::Analysis {
        text,
        depth: crate::analysis::depth_words(&model.analysis),
    });
    entry.tags = words(tags);
    model.library.existing = None;
    back(&mut model);
    model.status = Status::info("Adding to the library…");
    (model, vec![Effect::Library(Request::Add(Box::new(entry)))])
}

/// The quiz's move, typed: a typo or an illegal move is not an answer,
/// so the line stays open with it and the reason, as every input line
/// does.
fn quiz_move(mut model: Model, text: String) -> (Model, Vec<Effect>) {
    if text.trim().is_empty() {
        back(&mut model);
        return done(model);
    }
    let answer = QuizAnswer::Move(text.trim().to_owned());
    let question = model.library.review.as_ref().and_then(|r| r.question());
    if let Some(Err(why)) = question.map(|p| match_analysis::check_answer(p, &answer)) {
        model.library.input = Line::at_end(&text);
        return error(model, why.to_string());
    }
    back(&mut model);
    super::quiz::answer(model, answer)
}

impl LibState {
    /// The line the keys type into in `mode`: the filter or the question.
    fn line_mut(&mut self, mode: &Mode) -> Option<&mut Line> {
        match mode {
            Mode::Library(LibMode::Filter) => Some(&mut self.filter),
            Mode::Library(LibMode::Ask(_)) => Some(&mut self.input),
            _ => None,
        }
    }
}
