//! The quiz: its keys (reveal, rate, answer by key, typed or on the
//! board), the runtime's clock that times an answer, and the engine's
//! grade of it, kept with the entry so the next quiz of it is graded at
//! once.

use super::state::{Ask, LibMode, Purpose, QuizAction, QuizClock, Request};
use super::steps::{ask, back, error};
use crate::effect::Effect;
use crate::model::{Mode, Model, Status};
use crate::prompt::state::Line;
use crate::transition::{commit, done};
use bgedit_core::domain::Position;
use bgedit_core::domain::skill::Skill;
use bgedit_engine::match_analysis::{self, JudgeError, Judged, QuizAnswer};
use bgedit_library::Summary;
use bgedit_library::review::{QuizResult, Rating};

pub(super) fn update(mut model: Model, action: QuizAction) -> (Model, Vec<Effect>) {
    match action {
        QuizAction::Start(collection) => {
            let due = Request::Due {
                collection,
                now: None,
            };
            (model, vec![Effect::Library(due)])
        }
        QuizAction::Reveal => reveal(model),
        QuizAction::Mark(known) => {
            let rating = if known { Rating::Good } else { Rating::Again };
            rate(model, rating)
        }
        QuizAction::Next => next(model),
        QuizAction::PlayOnBoard => play_on_board(model),
        QuizAction::AskMove => {
            let dice = current(&model).is_some_and(|p| p.state.dice.is_some());
            if !dice {
                return error(model, NO_DICE);
            }
            model.library.completion = None;
            ask(model, Ask::QuizMove, String::new())
        }
        QuizAction::Complete => complete(model),
        QuizAction::Answer(given) => answer(model, given),
        QuizAction::ToggleStats => {
            if model.library.stats.take().is_some() {
                return done(model);
            }
            model.status = Status::info("Quiz statistics · S hides them");
            (model, vec![Effect::Library(Request::QuizStats)])
        }
        // The runtime's clock: when the question was shown, and when the
        // answer revealed the entry (the first reveal of a question only).
        QuizAction::Clock(QuizClock::Shown, now) => {
            if let Some(r) = &mut model.library.review {
                r.shown_at = Some(now);
            }
            done(model)
        }
        QuizAction::Clock(QuizClock::Revealed, now) => {
            let shown = model
                .library
                .review
                .as_mut()
                .and_then(|r| r.shown_at.take());
            match shown {
                Some(shown) => answer_time(model, now.saturating_sub(shown)),
                None => done(model),
            }
        }
        QuizAction::AnswerTime(ms) => answer_time(model, ms),
        QuizAction::Graded { serial, result } => graded(model, serial, result),
    }
}

const NO_DICE: &str = "no dice: answer d (double) or r (no double), t take, p pass";

/// The current question's position, if a quiz has one left.
fn current(model: &Model) -> Option<&Position> {
    model.library.review.as_ref().and_then(|r| r.question())
}

/// The entry revealed (without an answer, or with one: `Space`, `Enter`
/// ungraded), the clock read for the answer's time.
fn reveal(model: Model) -> (Model, Vec<Effect>) {
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

fn answer_time(mut model: Model, ms: u64) -> (Model, Vec<Effect>) {
    if let Some(r) = &mut model.library.review
        && r.answer.is_some()
    {
        r.answer_ms = Some(ms);
    }
    done(model)
}

/// Enter: the next question, the current one rated by its grade; without
/// a grade (the engine failed, or no answer) the entry is revealed and the
/// player says.
fn next(model: Model) -> (Model, Vec<Effect>) {
    let review = model.library.review.as_ref();
    let Some(Ok(j)) = review.and_then(|r| r.grade.as_ref()) else {
        return reveal(model);
    };
    let instant = review
        .and_then(|r| r.answer_ms)
        .is_some_and(|ms| ms <= INSTANT_MS);
    // Correct is Good (Easy when it is the engine's best, at once),
    // doubtful Hard, bad or very bad Again.
    let rating = match Skill::of(j.judgement.error) {
        Skill::Good if instant && j.played == j.best => Rating::Easy,
        Skill::Good => Rating::Good,
        Skill::Doubtful => Rating::Hard,
        Skill::Bad | Skill::VeryBad => Rating::Again,
    };
    rate(model, rating)
}

/// `e`: the question put on the board, to play the answer there.
fn play_on_board(mut model: Model) -> (Model, Vec<Effect>) {
    let Some(question) = model
        .library
        .review
        .as_ref()
        .filter(|r| r.answer.is_none())
        .and_then(|r| r.question())
        .cloned()
    else {
        return done(model);
    };
    if question.state.dice.is_none() || question.state.double_offered {
        return error(model, NO_DICE);
    }
    model.library.quiz_board = Some(question.clone());
    model.mode = Mode::Normal;
    let (mut model, effects) = commit(model, question, "The quiz's question on the board");
    model.status = Status::info(
        "Play your move on the board (Space picks up and drops, M types it) · L: back to the quiz",
    );
    (model, effects)
}

/// Tab on the quiz's move line: the next legal move that matches.
fn complete(mut model: Model) -> (Model, Vec<Effect>) {
    let position = current(&model).cloned();
    let (Some(position), Mode::Library(LibMode::Ask(Ask::QuizMove))) = (position, &model.mode)
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

/// The library's reaction to a change of position: when the position is
/// the quiz's question (on the board, see [`QuizAction::PlayOnBoard`])
/// after one of its legal moves, the keys go back to the quiz and the move
/// is the answer, for the reducer to apply.
pub(crate) fn answered_on_board(model: &mut Model) -> Option<super::state::LibAction> {
    let answer = played_on_board(model)?;
    model.library.quiz_board = None;
    model.mode = Mode::Library(LibMode::Review);
    Some(QuizAction::Answer(QuizAnswer::Move(answer)).into())
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
const INSTANT_MS: u64 = 8_000;

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
        effects.extend(shown(id));
    }
    (model, effects)
}

/// What showing entry `id`'s question asks: the analysis a former quiz
/// kept with it, and the clock.
pub(super) fn shown(id: i64) -> [Effect; 2] {
    [
        Effect::Library(Request::QuizAnalysis(id)),
        Effect::Now(QuizClock::Shown),
    ]
}

/// Having doubled, the player says what the opponent should do: the
/// verdict is the grade's cube analysis.
fn respond(mut model: Model, response: QuizAnswer) -> (Model, Vec<Effect>) {
    let Some(r) = &mut model.library.review else {
        return done(model);
    };
    let verdict = match &r.grade {
        Some(Ok(j)) => response_verdict(&j.analysis, &response),
        _ => None,
    };
    r.response = Some(response);
    if let Some((right, text)) = verdict {
        model.status = if right {
            Status::success(text)
        } else {
            Status::info(text)
        };
    }
    done(model)
}

/// The answer to the current question: graded at once from an analysis
/// kept by a former quiz, else by the engine, in the background.
pub(super) fn answer(mut model: Model, answer: QuizAnswer) -> (Model, Vec<Effect>) {
    let Some(r) = &mut model.library.review else {
        return done(model);
    };
    let Some(current) = r.queue.get(r.index) else {
        return done(model);
    };
    if r.awaiting_response() && matches!(answer, QuizAnswer::Take | QuizAnswer::Pass) {
        return respond(model, answer);
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
        .filter(|a| a.plies().is_some_and(|p| p >= plies))
        .filter(|a| match_analysis::kept_grades_at_depth(&position, &answer, a));
    if let Some(analysis) = kept {
        let result = match_analysis::grade_with(&position, &answer, analysis);
        let (model, mut effects) = graded(model, serial, result.map(Box::new));
        effects.extend([reveal, Effect::Now(QuizClock::Revealed)]);
        return (model, effects);
    }
    model.status = Status::info(format!("{} grades your answer…", grader.name()));
    let grade = Effect::GradeQuiz {
        serial,
        position: Box::new(position),
        answer,
        plies,
        engine: grader,
    };
    (model, vec![grade, reveal, Effect::Now(QuizClock::Revealed)])
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
    // The engine's analysis is kept with the entry, when none was or this
    // one is deeper: the next quiz of it is graded at once.
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
        use super::super::state::{LibAction, QuizAction, QuizClock, WorkerAnswer};
        use super::super::update::update;
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
        let due = WorkerAnswer::DueList(Ok(("drill".to_owned(), vec![entry])));
        let (m, effects) = update(Model::default(), LibAction::Worker(due));
        assert!(
            effects.contains(&Effect::Now(QuizClock::Shown)),
            "{effects:?}"
        );
        let clock = |tick, ms| LibAction::Quiz(QuizAction::Clock(tick, ms));
        let (m, _) = update(m, clock(QuizClock::Shown, 1_000));
        let answer = QuizAction::Answer(QuizAnswer::Move("8/5 6/5".to_owned()));
        let (m, effects) = update(m, LibAction::Quiz(answer));
        assert!(
            effects.contains(&Effect::Now(QuizClock::Revealed)),
            "{effects:?}"
        );
        let (m, _) = update(m, clock(QuizClock::Revealed, 2_200));
        assert_eq!(m.library.review.as_ref().unwrap().answer_ms, Some(1_200));
        // Only the first reveal after the question is shown times it.
        let (m, _) = update(m, clock(QuizClock::Revealed, 9_000));
        assert_eq!(m.library.review.as_ref().unwrap().answer_ms, Some(1_200));
    }
}
