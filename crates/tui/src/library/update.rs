//! The library panel's part of the reducer: pure, like the rest. Database
//! work leaves as `Effect::Library` requests and comes back as `LibAction`s.

use super::state::{
    Ask, LibAction, LibMode, LibState, NoteEditor, PAGE, Purpose, QuizClock, Request, Review,
    order_words,
};
use crate::effect::Effect;
use crate::model::{Mode, Model, Status};
use crate::prompt::state::Line;
use crate::transition::{commit, done};
use bgedit_core::domain::skill::Skill;
use bgedit_engine::match_analysis::{self, JudgeError, Judged, QuizAnswer};
use bgedit_library::filter;
use bgedit_library::review::{QuizResult, Rating};
use bgedit_library::store::{LibraryFailure, Order};
use bgedit_library::{Added, Entry, EntryEdit, NewEntry, Source, Summary};

fn ask(mut model: Model, kind: Ask, text: String) -> (Model, Vec<Effect>) {
    model.library.input = Line::at_end(&text);
    model.mode = Mode::Library(LibMode::Ask(kind));
    done(model)
}

fn error(mut model: Model, message: impl Into<String>) -> (Model, Vec<Effect>) {
    model.status = Status::error(message);
    done(model)
}

/// Where the panel returns to after a question or an answer: adding the
/// editor's position (`+`) was asked from the board, so back to the board.
fn back(model: &mut Model) {
    model.mode = if matches!(
        model.mode,
        Mode::Library(LibMode::Ask(Ask::AddTitle | Ask::AddTags))
    ) {
        Mode::Normal
    } else if model.library.review.is_some() {
        Mode::Library(LibMode::Review)
    } else if model.library.open {
        Mode::Library(LibMode::List)
    } else {
        Mode::Normal
    };
}

/// The keys go back to where the library was opened from: the match panel
/// (while its match is open), else the board; the words for it.
fn leave(model: &mut Model) -> &'static str {
    let review = std::mem::take(&mut model.library.from_review) && model.review.open.is_some();
    model.mode = if review { Mode::Review } else { Mode::Normal };
    if review { "the match" } else { "the board" }
}

/// Asks for the page holding the selection (or the first one).
fn fetch(state: &mut LibState, offset: u64) -> Effect {
    state.serial += 1;
    state.loading = true;
    Effect::Library(Request::Page {
        serial: state.serial,
        query: state.query.clone(),
        order: state.order,
        offset,
        limit: PAGE,
    })
}

/// Refreshes the page around the selection.
fn refresh(state: &mut LibState) -> Effect {
    let offset = state.selected.saturating_sub(PAGE / 2);
    fetch(state, offset)
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

fn selected_id(model: &Model) -> Option<i64> {
    model.library.selected_row().map(|r| r.id)
}

fn move_selection(mut model: Model, delta: i64) -> (Model, Vec<Effect>) {
    let s = &mut model.library;
    if s.total == 0 {
        return done(model);
    }
    let last = s.total - 1;
    s.selected = if delta < 0 {
        s.selected.saturating_sub(delta.unsigned_abs())
    } else {
        s.selected.saturating_add(delta as u64).min(last)
    };
    let loaded = s.offset..s.offset + s.rows.len() as u64;
    if loaded.contains(&s.selected) {
        return done(model);
    }
    let effect = refresh(s);
    (model, vec![effect])
}

/// The panel's part of the reducer, by what the action is about: the list
/// and its keys, the input line, the note editor, the quiz's keys, the
/// quiz's answers from gnubg and the worker, and the worker's other
/// answers. Every action is named here, so a new one has to be placed.
pub(crate) fn update(model: Model, action: LibAction) -> (Model, Vec<Effect>) {
    use LibAction as A;
    match action {
        A::Open
        | A::Leave
        | A::Close
        | A::Move(_)
        | A::PageUp
        | A::PageDown
        | A::Load
        | A::StartFilter
        | A::CycleOrder
        | A::AskPlayer
        | A::EditNote
        | A::EditTags
        | A::EditCollections
        | A::AskDelete
        | A::UndoDelete
        | A::SaveBack
        | A::StartReview
        | A::Quiz(_) => list(model, action),
        A::Char(_) | A::Paste(_) | A::Backspace | A::Clear | A::Cancel | A::Submit => {
            line(model, action)
        }
        A::NoteKey(_) | A::NotePaste(_) | A::NoteDone => note(model, action),
        A::Reveal
        | A::Mark(_)
        | A::Next
        | A::PlayOnBoard
        | A::AskMove
        | A::Complete
        | A::Answer(_)
        | A::ToggleStats => quiz(model, action),
        A::Stats(_)
        | A::AnswerTime(_)
        | A::Clock(..)
        | A::Graded { .. }
        | A::StoredAnalysis { .. }
        | A::QuizAnalysisKept(_)
        | A::DueList(_)
        | A::Reviewed(_) => quiz_answers(model, action),
        A::StartAdd
        | A::LookedUp { .. }
        | A::Added(_)
        | A::AddedMany { .. }
        | A::Paged { .. }
        | A::Got { .. }
        | A::AnalysisKept(_)
        | A::Updated(_)
        | A::Deleted(_)
        | A::Restored(_) => stored(model, action),
        // The reducer hands these to the statistics view.
        A::PlayerStats(_) => done(model),
    }
}

/// The list and its keys: opening, leaving, moving, loading, editing.
fn list(mut model: Model, action: LibAction) -> (Model, Vec<Effect>) {
    match action {
        // Back from playing the quiz's question on the board.
        LibAction::Open if model.library.quiz_board.is_some() && model.library.review.is_some() => {
            model.library.quiz_board = None;
            model.mode = Mode::Library(LibMode::Review);
            model.status = Status::info("Back to the quiz");
            done(model)
        }
        LibAction::Open => {
            model.library.from_review = model.mode == Mode::Review;
            model.library.open = true;
            model.library.review = None;
            model.mode = Mode::Library(LibMode::List);
            model.status = Status::info(
                "Library: j/k move, Enter loads, / filters, Esc back to the board, L closes",
            );
            let effect = refresh(&mut model.library);
            (model, vec![effect])
        }
        // Esc steps back one level: the statistics to the list, the list to
        // where the library was opened from.
        LibAction::Leave if model.library.stats.is_some() => {
            model.library.stats = None;
            model.status = Status::info("Back to the list");
            done(model)
        }
        LibAction::Leave => {
            let to = leave(&mut model);
            model.status = Status::info(format!("Back to {to} · L returns to the library"));
            done(model)
        }
        LibAction::Close => {
            model.library.open = false;
            model.library.review = None;
            model.library.rows.clear();
            let to = leave(&mut model);
            model.status = Status::info(format!("Library closed · back to {to}"));
            done(model)
        }
        LibAction::Move(delta) => move_selection(model, delta),
        LibAction::PageUp => move_selection(model, -10),
        LibAction::PageDown => move_selection(model, 10),
        LibAction::Load => match selected_id(&model) {
            Some(id) => {
                model.status = Status::info(format!("Loading entry {id}…"));
                (
                    model,
                    vec![Effect::Library(Request::Get {
                        id,
                        purpose: Purpose::Load,
                    })],
                )
            }
            None => error(model, "no entry is highlighted"),
        },
        LibAction::StartFilter => {
            model.mode = Mode::Library(LibMode::Filter);
            done(model)
        }
        LibAction::EditNote | LibAction::EditTags | LibAction::EditCollections => {
            let Some(id) = selected_id(&model) else {
                return error(model, "no entry is highlighted");
            };
            let purpose = match action {
                LibAction::EditNote => Purpose::Note,
                LibAction::EditTags => Purpose::Tags,
                _ => Purpose::Collections,
            };
            model.library.editing = Some(id);
            (model, vec![Effect::Library(Request::Get { id, purpose })])
        }
        LibAction::AskDelete => match selected_id(&model) {
            Some(id) => {
                model.library.editing = Some(id);
                ask(model, Ask::ConfirmDelete, String::new())
            }
            None => error(model, "no entry is highlighted"),
        },
        LibAction::UndoDelete => match model.library.deleted.take() {
            Some(entry) => (model, vec![Effect::Library(Request::Restore(entry))]),
            None => error(model, "no deleted entry to bring back"),
        },
        LibAction::SaveBack => match model.library.loaded {
            Some(id) => {
                let edit = EntryEdit {
                    position: Some(model.position.clone()),
                    ..EntryEdit::default()
                };
                (
                    model,
                    vec![Effect::Library(Request::Update {
                        id,
                        edit,
                        what: "position",
                    })],
                )
            }
            None => error(
                model,
                "the editor's position was not loaded from the library; + adds it as a new entry",
            ),
        },
        // The highlighted decision's player offered.
        LibAction::AskPlayer => {
            let name = model
                .library
                .selected_row()
                .and_then(|r| r.player.clone())
                .unwrap_or_default();
            ask(model, Ask::Player, name)
        }
        // From the top of the new order, fetched again.
        LibAction::CycleOrder => {
            let s = &mut model.library;
            s.order = match s.order {
                Order::Newest => Order::Error,
                Order::Error => Order::Newest,
            };
            s.selected = 0;
            let effect = fetch(s, 0);
            model.status = Status::info(format!("Library: {}", order_words(model.library.order)));
            (model, vec![effect])
        }
        // The list's filter, if any, is offered: a quiz of what is shown.
        LibAction::StartReview => {
            let filter = model.library.filter.text.clone();
            ask(model, Ask::ReviewCollection, filter)
        }
        LibAction::Quiz(name) => (
            model,
            vec![Effect::Library(Request::Due {
                collection: name,
                now: None,
            })],
        ),
        // `update` routes no other action here.
        _ => done(model),
    }
}

/// The input line of the filter and the questions: `prompt::Line`'s
/// editing, and what Enter and Esc do here.
fn line(mut model: Model, action: LibAction) -> (Model, Vec<Effect>) {
    match action {
        LibAction::Char(c) if model.mode == Mode::Library(LibMode::Ask(Ask::ConfirmDelete)) => {
            // One key answers: y deletes, any other keeps.
            model.library.input = Line::at_end(&c.to_string());
            submit(model)
        }
        LibAction::Char(c) => {
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
        LibAction::Paste(text) => {
            if let Some(line) = model.library.line_mut(&model.mode) {
                line.insert(&text);
            }
            after_typing(model)
        }
        LibAction::Backspace => {
            if let Some(line) = model.library.line_mut(&model.mode) {
                line.backspace();
            }
            after_typing(model)
        }
        LibAction::Clear => {
            if let Some(line) = model.library.line_mut(&model.mode) {
                line.clear();
            }
            after_typing(model)
        }
        LibAction::Cancel => {
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
        LibAction::Submit => submit(model),
        // `update` routes no other action here.
        _ => done(model),
    }
}

/// The note editor (ratatui-textarea's).
fn note(mut model: Model, action: LibAction) -> (Model, Vec<Effect>) {
    match action {
        LibAction::NoteKey(input) => {
            if let Some(n) = &mut model.library.note {
                n.0.input(input);
            }
            done(model)
        }
        LibAction::NotePaste(text) => {
            if let Some(n) = &mut model.library.note {
                n.0.insert_str(text);
            }
            done(model)
        }
        LibAction::NoteDone => {
            let (Some(note), Some(id)) = (model.library.note.take(), model.library.editing) else {
                back(&mut model);
                return done(model);
            };
            back(&mut model);
            let edit = EntryEdit {
                note: Some(note.text()),
                ..EntryEdit::default()
            };
            (
                model,
                vec![Effect::Library(Request::Update {
                    id,
                    edit,
                    what: "note",
                })],
            )
        }
        // `update` routes no other action here.
        _ => done(model),
    }
}

/// The quiz's keys: reveal, rate, answer (by key, typed or on the board).
fn quiz(mut model: Model, action: LibAction) -> (Model, Vec<Effect>) {
    match action {
        LibAction::Reveal => {
            let Some(id) = model
                .library
                .review
                .as_ref()
                .and_then(|r| r.queue.get(r.index))
                .map(|s| s.id)
            else {
                return done(model);
            };
            let reveal = Effect::Library(Request::Get {
                id,
                purpose: Purpose::Reveal,
            });
            (model, vec![reveal, Effect::Now(QuizClock::Revealed)])
        }
        LibAction::Mark(known) => {
            let rating = if known { Rating::Good } else { Rating::Again };
            rate(model, rating)
        }
        LibAction::Next => {
            let grade = model.library.review.as_ref().and_then(|r| r.grade.as_ref());
            match grade {
                // Rated by the grade: correct is Good, doubtful Hard, bad or
                // very bad Again.
                Some(Ok(j)) => {
                    let instant = model
                        .library
                        .review
                        .as_ref()
                        .and_then(|r| r.answer_ms)
                        .is_some_and(|ms| ms <= INSTANT_MS);
                    let rating = match Skill::of(j.judgement.error) {
                        // gnubg's best, at once: known well.
                        Skill::Good if instant && j.played == j.best => Rating::Easy,
                        Skill::Good => Rating::Good,
                        Skill::Doubtful => Rating::Hard,
                        Skill::Bad | Skill::VeryBad => Rating::Again,
                    };
                    rate(model, rating)
                }
                // No grade (gnubg failed, or no answer): the player says.
                _ => update(model, LibAction::Reveal),
            }
        }
        LibAction::PlayOnBoard => {
            let Some(question) = model
                .library
                .review
                .as_ref()
                .filter(|r| r.answer.is_none())
                .and_then(|r| r.queue.get(r.index))
                .map(|s| s.position.clone())
            else {
                return done(model);
            };
            if question.state.dice.is_none() || question.state.double_offered {
                return error(
                    model,
                    "no dice: answer d (double) or r (no double), t take, p pass",
                );
            }
            model.library.quiz_board = Some(question.clone());
            model.mode = Mode::Normal;
            let (mut model, effects) = commit(model, question, "The quiz's question on the board");
            model.status = Status::info(
                "Play your move on the board (Space picks up and drops, M types it) · L: back to the quiz",
            );
            (model, effects)
        }
        LibAction::AskMove => {
            let dice = model
                .library
                .review
                .as_ref()
                .and_then(|r| r.queue.get(r.index))
                .is_some_and(|s| s.position.state.dice.is_some());
            if !dice {
                return error(
                    model,
                    "no dice: answer d (double) or r (no double), t take, p pass",
                );
            }
            model.library.completion = None;
            ask(model, Ask::QuizMove, String::new())
        }
        LibAction::Complete => {
            let position = model
                .library
                .review
                .as_ref()
                .and_then(|r| r.queue.get(r.index))
                .map(|s| s.position.clone());
            let (Some(position), Mode::Library(LibMode::Ask(Ask::QuizMove))) =
                (position, &model.mode)
            else {
                return done(model);
            };
            let last = model.library.completion.clone();
            match crate::play::completion(&position, &model.library.input.text, last.as_ref()) {
                Err(why) => error(model, why),
                Ok(c) => {
                    model.library.input = Line::at_end(&c.text);
                    model.library.completion = Some(c.cycle);
                    model.status = Status::info(c.status);
                    done(model)
                }
            }
        }
        LibAction::Answer(given) => answer(model, given),
        LibAction::ToggleStats => {
            if model.library.stats.take().is_some() {
                return done(model);
            }
            model.status = Status::info("Quiz statistics · S hides them");
            (model, vec![Effect::Library(Request::QuizStats)])
        }
        // `update` routes no other action here.
        _ => done(model),
    }
}

/// What comes back to the quiz: grades, kept analyses, the due list,
/// statistics, the answer's time.
fn quiz_answers(mut model: Model, action: LibAction) -> (Model, Vec<Effect>) {
    match action {
        LibAction::Stats(result) => match result {
            Ok(stats) => {
                model.library.stats = Some(stats);
                done(model)
            }
            Err(e) => error(model, format!("library: {e}")),
        },
        // The runtime's clock: when the question was shown, and when the
        // answer revealed the entry (the first reveal of a question only).
        LibAction::Clock(QuizClock::Shown, now) => {
            if let Some(r) = &mut model.library.review {
                r.shown_at = Some(now);
            }
            done(model)
        }
        LibAction::Clock(QuizClock::Revealed, now) => {
            match model
                .library
                .review
                .as_mut()
                .and_then(|r| r.shown_at.take())
            {
                Some(shown) => update(model, LibAction::AnswerTime(now.saturating_sub(shown))),
                None => done(model),
            }
        }
        LibAction::AnswerTime(ms) => {
            if let Some(r) = &mut model.library.review
                && r.answer.is_some()
            {
                r.answer_ms = Some(ms);
            }
            done(model)
        }
        LibAction::Graded { serial, result } => graded(model, serial, result),
        LibAction::StoredAnalysis { id, result } => {
            if let Some(r) = &mut model.library.review
                && r.queue.get(r.index).is_some_and(|s| s.id == id)
                && let Ok(stored) = result
            {
                r.stored = stored;
            }
            done(model)
        }
        LibAction::QuizAnalysisKept(result) => match result {
            Ok(()) => done(model),
            Err(e) => error(model, format!("gnubg's analysis was not kept: {e}")),
        },
        LibAction::DueList(result) => due_list(model, result),
        LibAction::Reviewed(result) => match result {
            Ok(_) => done(model),
            Err(e) => error(model, format!("the review was not recorded: {e}")),
        },
        // `update` routes no other action here.
        _ => done(model),
    }
}

/// Adding the editor's position, and the worker's answers to the list's
/// requests.
fn stored(mut model: Model, action: LibAction) -> (Model, Vec<Effect>) {
    match action {
        LibAction::StartAdd => {
            // The library is asked first whether it holds the position, so
            // the questions can say so before a title is typed for nothing.
            model.library.pending_title.clear();
            model.library.existing = None;
            model.status = Status::info("Looking for this position in the library…");
            let position = Box::new(model.position.clone());
            (model, vec![Effect::Library(Request::Lookup(position))])
        }
        LibAction::LookedUp { position, result } => {
            // An answer for a position since edited, or after other keys
            // took the editor elsewhere, asks nothing.
            if *position != model.position || model.mode != Mode::Normal {
                return done(model);
            }
            match result {
                Err(e) => error(model, format!("library: {e}")),
                Ok(None) => ask(model, Ask::AddTitle, String::new()),
                Ok(Some((id, title))) => {
                    let titled = !title.is_empty();
                    model.library.existing = Some((id, title));
                    // A titled entry keeps its title: only tags are asked.
                    let kind = if titled { Ask::AddTags } else { Ask::AddTitle };
                    ask(model, kind, String::new())
                }
            }
        }
        LibAction::Added(result) => match result {
            Ok(Added::New(id)) => {
                model.library.loaded = Some(id);
                model.status = Status::success(format!("Added to the library as entry {id}"));
                reopen_page(model)
            }
            Ok(Added::Existing(id)) => {
                model.library.loaded = Some(id);
                model.status = Status::info(format!(
                    "This position is already in the library as entry {id}; its tags were merged"
                ));
                reopen_page(model)
            }
            Err(e) => error(model, format!("could not add to the library: {e}")),
        },
        LibAction::AddedMany { collection, result } => match result {
            Ok((new, there)) => {
                let entries = |n: usize| match n {
                    1 => "1 entry".to_owned(),
                    n => format!("{n} entries"),
                };
                model.status = Status::success(format!(
                    "Added {} to the collection {collection}, {} already there",
                    entries(new),
                    there
                ));
                reopen_page(model)
            }
            Err(e) => error(model, format!("could not add to the library: {e}")),
        },
        LibAction::Paged { serial, result } => {
            if serial != model.library.serial {
                return done(model);
            }
            model.library.loading = false;
            match result {
                Ok((counted, offset, rows)) => {
                    let s = &mut model.library;
                    let total = counted.total;
                    s.total = total;
                    s.total_exact = counted.exact;
                    s.offset = offset;
                    s.rows = rows;
                    s.selected = s.selected.min(total.saturating_sub(1));
                    s.problem = None;
                    done(model)
                }
                Err(e) => {
                    model.library.problem = Some(e.clone());
                    model.library.rows.clear();
                    model.library.total = 0;
                    error(model, format!("library: {e}"))
                }
            }
        }
        LibAction::Got { purpose, result } => got(model, purpose, result),
        LibAction::AnalysisKept(result) => match result {
            Ok(Some(id)) => {
                model.status = Status::success(format!("Rollout saved with library entry {id}"));
                done(model)
            }
            Ok(None) => done(model),
            Err(e) => error(model, format!("rollout not saved in the library: {e}")),
        },
        LibAction::Updated(result) => match result {
            Ok(message) => {
                model.status = Status::success(message);
                reopen_page(model)
            }
            Err(e) => error(model, format!("not saved: {e}")),
        },
        LibAction::Deleted(result) => match result {
            Ok(entry) => {
                model.status =
                    Status::success(format!("Entry {} deleted · u brings it back", entry.id));
                model.library.deleted = Some(entry);
                reopen_page(model)
            }
            Err(e) => error(model, format!("not deleted: {e}")),
        },
        LibAction::Restored(result) => match result {
            Ok(id) => {
                model.status = Status::success(format!("Entry {id} is back"));
                reopen_page(model)
            }
            Err(e) => error(model, format!("could not bring it back: {e}")),
        },
        // `update` routes no other action here.
        _ => done(model),
    }
}

/// The answer to the current question: graded at once from an analysis
/// kept by a former quiz, else by the engine, in the background.
fn answer(mut model: Model, answer: QuizAnswer) -> (Model, Vec<Effect>) {
    let Some(r) = &mut model.library.review else {
        return done(model);
    };
    let Some(current) = r.queue.get(r.index) else {
        return done(model);
    };
    // Having doubled, the player says what the opponent should do.
    if r.answer == Some(QuizAnswer::Double)
        && r.response.is_none()
        && matches!(answer, QuizAnswer::Take | QuizAnswer::Pass)
    {
        let verdict = match &r.grade {
            Some(Ok(j)) => response_verdict(&j.analysis, &answer),
            _ => None,
        };
        r.response = Some(answer);
        return match verdict {
            Some((right, text)) => {
                model.status = if right {
                    Status::success(text)
                } else {
                    Status::info(text)
                };
                done(model)
            }
            None => done(model),
        };
    }
    if r.answer.is_some() {
        return error(model, "answered already: Enter for the next question");
    }
    let (id, position) = (current.id, current.position.clone());
    // A mistake of a match is graded by the engine and at the depth of
    // the verdict its error is by (the deepest the library holds), so
    // the grade and the listed error agree; anything else by the
    // analysis panel's lead engine at the quiz's depth. Only an analysis
    // kept from the grading engine is used.
    let (by, by_plies) = verdict_grader(current).unzip();
    r.grader = by.unwrap_or_else(|| model.analysis.engines.lead());
    let grader = r.grader;
    r.answer = Some(answer.clone());
    r.grade = None;
    r.serial += 1;
    let serial = r.serial;
    model.mode = Mode::Library(LibMode::Review);
    let reveal = Effect::Library(Request::Get {
        id,
        purpose: Purpose::Reveal,
    });
    // Graded before, at the quiz's depth or deeper: from the kept
    // analysis, at once.
    let plies = model.library.quiz_plies.max(by_plies.unwrap_or(0));
    let kept = r
        .stored
        .as_deref()
        .and_then(|json| kept_analysis(json, grader))
        .filter(|a| a.plies().is_some_and(|p| p >= plies));
    if let Some(analysis) = kept {
        let result = match_analysis::grade_with(&position, &answer, analysis);
        let (model, mut effects) = update(
            model,
            LibAction::Graded {
                serial,
                result: result.map(Box::new),
            },
        );
        effects.extend([reveal, Effect::Now(QuizClock::Revealed)]);
        return (model, effects);
    }
    model.status = Status::info(format!("{} grades your answer…", grader.name()));
    (
        model,
        vec![
            Effect::GradeQuiz {
                serial,
                position: Box::new(position),
                answer,
                plies,
                engine: grader,
            },
            reveal,
            Effect::Now(QuizClock::Revealed),
        ],
    )
}

/// The engine and depth of the verdict a match mistake's error is by,
/// when bgedit can ask it (an engine of its own, at a search depth).
fn verdict_grader(s: &Summary) -> Option<(bgedit_engine::EngineKind, u8)> {
    let by = s.error_by.as_ref()?;
    let kind = bgedit_engine::EngineKind::by_key(&by.engine)?;
    Some((kind, u8::try_from(by.plies).ok()?))
}

/// The engine's grade of the answer with `serial`, and its analysis kept
/// with the entry when none as deep was.
fn graded(
    mut model: Model,
    serial: u64,
    result: Result<Box<Judged>, JudgeError>,
) -> (Model, Vec<Effect>) {
    let Some(r) = &mut model.library.review else {
        return done(model);
    };
    if r.serial != serial || r.answer.is_none() {
        return done(model);
    }
    model.status = match &result {
        Ok(j) => {
            let word = Skill::of(j.judgement.error).word();
            let text = format!("{word}: Enter for the next question");
            if Skill::of(j.judgement.error) == Skill::Good {
                Status::success(text)
            } else {
                Status::info(text)
            }
        }
        Err(e) => Status::error(format!(
            "gnubg could not grade it ({e}): y known · n not yet"
        )),
    };
    // gnubg's analysis is kept with the entry: the next quiz of it
    // is graded at once.
    // Kept when none was, or when this one is deeper.
    let kept_plies = r
        .stored
        .as_deref()
        .and_then(|json| kept_analysis(json, r.grader))
        .and_then(|a| a.plies());
    let keep = match (&result, r.queue.get(r.index)) {
        (Ok(j), Some(cur)) if kept_plies.is_none_or(|k| j.analysis.plies() > Some(k)) => {
            keep_json(&j.analysis, r.grader)
                .map(|json| Request::KeepQuizAnalysis { id: cur.id, json })
        }
        _ => None,
    };
    r.grade = Some(result);
    (model, keep.map(Effect::Library).into_iter().collect())
}

/// An entry fetched for `purpose`.
fn got(
    mut model: Model,
    purpose: Purpose,
    result: Result<Box<Entry>, LibraryFailure>,
) -> (Model, Vec<Effect>) {
    let entry = match result {
        Ok(e) => e,
        Err(e) => return error(model, format!("library: {e}")),
    };
    match purpose {
        Purpose::Load => {
            // The keys go back to the board; the list stays beside it.
            model.library.loaded = Some(entry.id);
            model.mode = Mode::Normal;
            let title = if entry.title.is_empty() {
                String::new()
            } else {
                format!(" ({})", entry.title)
            };
            let message = format!("Entry {}{title} loaded · u undoes", entry.id);
            commit(model, entry.position, &message)
        }
        Purpose::Note => {
            model.library.note = Some(NoteEditor::new(&entry.note));
            model.mode = Mode::Library(LibMode::Note);
            model.status = Status::info(format!(
                "Editing the note of entry {} · Esc saves",
                entry.id
            ));
            done(model)
        }
        Purpose::Tags => ask(model, Ask::Tags, entry.tags.join(" ")),
        Purpose::Collections => ask(model, Ask::Collections, entry.collections.join(" ")),
        Purpose::Reveal => {
            let Some(r) = &mut model.library.review else {
                return done(model);
            };
            r.revealed = Some(entry);
            // Revealed with an answer: its grade says the rest.
            if r.answer.is_none() {
                model.status = Status::info("y known · n not yet");
            }
            done(model)
        }
    }
}

/// The entries due in a collection: the quiz starts on the first.
fn due_list(
    mut model: Model,
    result: Result<(String, Vec<Summary>), LibraryFailure>,
) -> (Model, Vec<Effect>) {
    match result {
        Ok((collection, queue)) if queue.is_empty() => {
            back(&mut model);
            error(
                model,
                format!("nothing in the collection {collection} is due for review"),
            )
        }
        Ok((collection, queue)) => {
            model.status = Status::info(format!(
                "Quiz of {collection}: {} due · answer, and {} grades it",
                queue.len(),
                model.analysis.engines.lead().name()
            ));
            model.library.review = Some(Review {
                collection,
                queue,
                index: 0,
                revealed: None,
                known: 0,
                unknown: 0,
                answer: None,
                grade: None,
                serial: 0,
                stored: None,
                answer_ms: None,
                shown_at: None,
                response: None,
                grader: bgedit_engine::EngineKind::reference(),
            });
            model.mode = Mode::Library(LibMode::Review);
            let first = model
                .library
                .review
                .as_ref()
                .and_then(|r| r.queue.first())
                .map(|s| s.id);
            let shown = first.map(|id| {
                [
                    Effect::Library(Request::QuizAnalysis(id)),
                    Effect::Now(QuizClock::Shown),
                ]
            });
            (model, shown.into_iter().flatten().collect())
        }
        Err(e) => error(model, format!("library: {e}")),
    }
}

/// The library's reaction to a change of position: when the position is
/// the quiz's question (on the board, see [`LibAction::PlayOnBoard`]) after
/// one of its legal moves, the keys go back to the quiz and the move is the
/// answer, for the reducer to apply.
pub fn answered_on_board(model: &mut Model) -> Option<LibAction> {
    let answer = played_on_board(model)?;
    model.library.quiz_board = None;
    model.mode = Mode::Library(LibMode::Review);
    Some(LibAction::Answer(QuizAnswer::Move(answer)))
}

/// The move played on the board from the quiz's question, if one was.
fn played_on_board(model: &Model) -> Option<String> {
    let question = model.library.quiz_board.as_ref()?;
    let r = model.library.review.as_ref()?;
    if r.answer.is_some() || model.position.board == question.board {
        return None;
    }
    bgedit_core::domain::moves::position_moves(question)
        .ok()?
        .iter()
        .find(|m| bgedit_core::domain::moves::apply(question, m).board == model.position.board)
        .map(|m| m.notation())
}

/// Whether `response` (take or pass) is what the opponent should do after
/// a double, by gnubg's cube analysis, and the words for it.
pub(crate) fn response_verdict(
    analysis: &bgedit_engine::Analysis,
    response: &QuizAnswer,
) -> Option<(bool, String)> {
    let bgedit_engine::Analysis::Cube {
        double_take,
        double_pass,
        ..
    } = analysis
    else {
        return None;
    };
    // The doubler's equities: the opponent takes where taking leaves the
    // doubler less.
    let take = double_take <= double_pass;
    let said = matches!(response, QuizAnswer::Take);
    let proper = if take { "take" } else { "pass" };
    let cost = (double_take - double_pass).abs();
    Some(if said == take {
        (true, format!("and the response: {proper}, correct"))
    } else {
        (
            false,
            format!(
                "and the response: gnubg says {proper} (your {} gives away {cost:.3})",
                if said { "take" } else { "pass" }
            ),
        )
    })
}

/// An answer this quick (from the question shown) that is gnubg's best is
/// rated Easy rather than Good.
pub const INSTANT_MS: u64 = 8_000;

/// Records the current question's rating and goes to the next one.
fn rate(mut model: Model, rating: Rating) -> (Model, Vec<Effect>) {
    let Some(r) = &mut model.library.review else {
        return done(model);
    };
    let Some(id) = r.queue.get(r.index).map(|s| s.id) else {
        return done(model);
    };
    if matches!(rating, Rating::Good | Rating::Easy) {
        r.known += 1;
    } else {
        r.unknown += 1;
    }
    let result = QuizResult {
        collection: r.collection.clone(),
        grade: match &r.grade {
            Some(Ok(j)) => Skill::of(j.judgement.error).word().to_owned(),
            _ => "ungraded".to_owned(),
        },
        error: match &r.grade {
            Some(Ok(j)) => Some(j.judgement.error),
            _ => None,
        },
    };
    r.index += 1;
    r.revealed = None;
    r.answer = None;
    r.grade = None;
    let finished = r.index >= r.queue.len();
    let summary = format!(
        "Quiz of {}: {} known, {} not yet",
        r.collection, r.known, r.unknown
    );
    r.stored = None;
    r.answer_ms = None;
    r.response = None;
    let next = r.queue.get(r.index).map(|s| s.id);
    if finished {
        model.library.review = None;
        back(&mut model);
        model.status = Status::success(format!("{summary}; nothing more is due"));
    } else {
        model.status = Status::info(format!("{summary} · {} to go", r.queue.len() - r.index));
    }
    let mut effects = vec![Effect::Library(Request::Review { id, rating, result })];
    if let Some(id) = next {
        effects.extend([
            Effect::Library(Request::QuizAnalysis(id)),
            Effect::Now(QuizClock::Shown),
        ]);
    }
    (model, effects)
}

/// After a change, the open list shows it.
fn reopen_page(model: Model) -> (Model, Vec<Effect>) {
    let mut model = model;
    if model.library.open {
        let effect = refresh(&mut model.library);
        return (model, vec![effect]);
    }
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
        Ask::AddTags => {
            let source = if model.pasted.as_ref() == Some(&model.position) {
                Source::Pasted
            } else {
                Source::Typed
            };
            let mut entry = NewEntry::new(model.position.clone(), source);
            entry.title = std::mem::take(&mut model.library.pending_title);
            // The analysis on show (a rollout, when there is one) goes with it.
            entry.analysis =
                crate::analysis::copy_text(&model).map(|text| bgedit_library::Analysis {
                    text,
                    depth: crate::analysis::depth_words(&model.analysis),
                });
            entry.tags = words(&text);
            model.library.existing = None;
            back(&mut model);
            model.status = Status::info("Adding to the library…");
            (model, vec![Effect::Library(Request::Add(Box::new(entry)))])
        }
        Ask::Tags | Ask::Collections => {
            let Some(id) = model.library.editing else {
                back(&mut model);
                return done(model);
            };
            back(&mut model);
            let (edit, what) = if kind == Ask::Tags {
                (
                    EntryEdit {
                        tags: Some(words(&text)),
                        ..EntryEdit::default()
                    },
                    "tags",
                )
            } else {
                (
                    EntryEdit {
                        collections: Some(words(&text)),
                        ..EntryEdit::default()
                    },
                    "collections",
                )
            };
            (
                model,
                vec![Effect::Library(Request::Update { id, edit, what })],
            )
        }
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
            let name = text.trim().to_owned();
            if name.is_empty() {
                back(&mut model);
                return error(model, "name a collection to review");
            }
            back(&mut model);
            (
                model,
                vec![Effect::Library(Request::Due {
                    collection: name,
                    now: None,
                })],
            )
        }
        Ask::QuizMove => {
            if text.trim().is_empty() {
                back(&mut model);
                return done(model);
            }
            let answer = QuizAnswer::Move(text.trim().to_owned());
            let question = model
                .library
                .review
                .as_ref()
                .and_then(|r| r.queue.get(r.index))
                .map(|s| &s.position);
            // A typo or an illegal move is not an answer: the line stays
            // open with it and the reason, as every input line does.
            if let Some(Err(why)) = question.map(|p| match_analysis::check_answer(p, &answer)) {
                model.library.input = Line::at_end(&text);
                return error(model, why.to_string());
            }
            back(&mut model);
            update(model, LibAction::Answer(answer))
        }
    }
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

/// The analysis kept with an entry by a former quiz, if `engine` gave it:
/// the JSON is the analysis with `"engine"` beside it (none: the reference
/// engine's, kept before a second engine was added).
fn kept_analysis(json: &str, engine: bgedit_engine::EngineKind) -> Option<bgedit_engine::Analysis> {
    let v: serde_json::Value = serde_json::from_str(json).ok()?;
    let by = v
        .get("engine")
        .and_then(|e| e.as_str())
        .unwrap_or(bgedit_engine::EngineKind::reference().key());
    if by != engine.key() {
        return None;
    }
    serde_json::from_value(v).ok()
}

/// The JSON an analysis is kept as, naming the engine that gave it.
fn keep_json(a: &bgedit_engine::Analysis, engine: bgedit_engine::EngineKind) -> Option<String> {
    let mut v = serde_json::to_value(a).ok()?;
    v.as_object_mut()?
        .insert("engine".to_owned(), serde_json::json!(engine.key()));
    Some(v.to_string())
}

#[cfg(test)]
mod tests {
    use super::{keep_json, kept_analysis};
    use bgedit_engine::{Analysis, EngineKind};

    #[test]
    fn a_kept_analysis_is_used_only_by_the_engine_that_gave_it() {
        let a = Analysis::Eval {
            plies: 1,
            probs: [0.6, 0.2, 0.01, 0.1, 0.01],
            cubeless: 0.3,
        };
        let reference = EngineKind::reference();
        let other = *bgedit_engine::registry::ALL
            .iter()
            .find(|k| !k.is_reference())
            .unwrap();
        let kept = keep_json(&a, other).unwrap();
        assert_eq!(kept_analysis(&kept, other), Some(a.clone()));
        assert_eq!(kept_analysis(&kept, reference), None);
        // Kept before a second engine, without "engine": the reference's.
        let old = serde_json::to_string(&a).unwrap();
        assert_eq!(kept_analysis(&old, reference), Some(a));
        assert_eq!(kept_analysis(&old, other), None);
    }

    #[test]
    fn the_answer_is_timed_by_the_runtimes_clock_read_through_effects() {
        use super::super::state::{LibAction, QuizClock};
        use super::update;
        use crate::effect::Effect;
        use crate::model::Model;
        use bgedit_engine::match_analysis::QuizAnswer;
        let mut position = bgedit_core::domain::Position::default();
        position.state.dice = Some([3, 1]);
        let entry = bgedit_library::Summary {
            id: 7,
            title: String::new(),
            tags: String::new(),
            derived: bgedit_library::derive::derive(&position),
            position,
            score: [0, 0],
            error: None,
            error_by: None,
            player: None,
            note_line: String::new(),
            collections: String::new(),
        };
        let due = LibAction::DueList(Ok(("drill".to_owned(), vec![entry])));
        let (m, effects) = update(Model::default(), due);
        assert!(
            effects.contains(&Effect::Now(QuizClock::Shown)),
            "{effects:?}"
        );
        let (m, _) = update(m, LibAction::Clock(QuizClock::Shown, 1_000));
        let answer = LibAction::Answer(QuizAnswer::Move("8/5 6/5".to_owned()));
        let (m, effects) = update(m, answer);
        assert!(
            effects.contains(&Effect::Now(QuizClock::Revealed)),
            "{effects:?}"
        );
        let (m, _) = update(m, LibAction::Clock(QuizClock::Revealed, 2_200));
        assert_eq!(m.library.review.as_ref().unwrap().answer_ms, Some(1_200));
        // Only the first reveal after the question is shown times it.
        let (m, _) = update(m, LibAction::Clock(QuizClock::Revealed, 9_000));
        assert_eq!(m.library.review.as_ref().unwrap().answer_ms, Some(1_200));
    }
}
