//! A quiz answer graded as gnubg's match analysis would judge the same
//! play in a match: the decision the answer makes in the position, judged
//! by the functions that judge a match's decisions (`super`), so a quiz
//! grade and a match's mark never differ.

use super::JudgeError;
use super::ask::judge;
use super::error::Question;
use super::judge::{Judged, Task, after_move, judge_checker, judge_cube, judge_take};
use crate::{Analysis, Engine, Request, Waiter, time_limit};
use bgedit_core::codec::match_file::FileDecision;
use bgedit_core::domain::Position;
use bgedit_core::domain::match_stats::{CubePlay, DecisionKind};
use bgedit_core::domain::moves::check_move;
use bgedit_core::domain::notation;

/// An answer to a quiz question about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuizAnswer {
    /// A checker play, in any notation bgedit reads.
    Move(String),
    Double,
    NoDouble,
    Take,
    Pass,
    /// A take that turns the cube at once (money play with beavers on):
    /// graded as the take it is.
    Beaver,
}

impl QuizAnswer {
    /// `double`, `no double` (or `roll`), `take`, `pass` (or `drop`),
    /// `beaver`; anything else is a move.
    pub fn parse(text: &str) -> QuizAnswer {
        let words: Vec<String> = text
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        match words.join(" ").as_str() {
            "double" | "d" => QuizAnswer::Double,
            "no double" | "nodouble" | "no-double" | "roll" | "no redouble" => QuizAnswer::NoDouble,
            "take" | "t" => QuizAnswer::Take,
            "pass" | "drop" | "p" => QuizAnswer::Pass,
            "beaver" | "b" => QuizAnswer::Beaver,
            _ => QuizAnswer::Move(text.trim().to_owned()),
        }
    }
}

/// What grading `answer` in `position` asks: the task, the answer in
/// gnubg's words, and the decision to judge.
fn quiz_decision(
    position: &Position,
    answer: &QuizAnswer,
) -> Result<(Task, String, FileDecision), JudgeError> {
    let s = &position.state;
    let asked = if s.double_offered {
        Question::TakeOrPass
    } else if s.dice.is_some() {
        Question::Move
    } else {
        Question::Double
    };
    let (task, played) = match answer {
        QuizAnswer::Move(text) => {
            if s.dice.is_none() || s.double_offered {
                return Err(JudgeError::MoveNotAsked {
                    answer: text.clone(),
                    asked,
                });
            }
            let typed = notation::parse(text).map_err(|why| JudgeError::UnreadableMove {
                answer: text.clone(),
                why,
            })?;
            let legal = check_move(position, &typed).map_err(|why| JudgeError::IllegalMove {
                answer: text.clone(),
                why,
            })?;
            (Task::Checker { cube_first: false }, legal.notation())
        }
        QuizAnswer::Double | QuizAnswer::NoDouble if s.dice.is_some() || s.double_offered => {
            return Err(JudgeError::NotAsked(asked));
        }
        QuizAnswer::Double => (Task::Double, CubePlay::Double.word().to_owned()),
        // No double is the cube decision alone (a match judges it with the
        // roll that follows).
        QuizAnswer::NoDouble => (
            Task::Answer(CubePlay::NoDouble),
            CubePlay::NoDouble.word().to_owned(),
        ),
        QuizAnswer::Take | QuizAnswer::Pass | QuizAnswer::Beaver if !s.double_offered => {
            return Err(JudgeError::NotAsked(asked));
        }
        QuizAnswer::Beaver if !(s.is_money() && s.beavers) => {
            return Err(JudgeError::NoBeaverHere);
        }
        QuizAnswer::Take | QuizAnswer::Beaver => (
            Task::Answer(CubePlay::Take),
            CubePlay::Take.word().to_owned(),
        ),
        QuizAnswer::Pass => (
            Task::Answer(CubePlay::Drop),
            CubePlay::Drop.word().to_owned(),
        ),
    };
    let d = FileDecision {
        game: 1,
        number: 1,
        player: s.on_roll,
        dice: s.dice,
        played: played.clone(),
        position: position.clone(),
        analysis: None,
        cube_analysis: None,
        comment: None,
    };
    Ok((task, played, d))
}

/// Whether `answer` is one to the question `position` asks (a legal move
/// with dice, a cube answer without), before any engine is asked: the
/// reason when it is not, so a typo is refused rather than graded.
pub fn check_answer(position: &Position, answer: &QuizAnswer) -> Result<(), JudgeError> {
    quiz_decision(position, answer).map(|_| ())
}

/// `answer` to the question `position` asks, graded by gnubg at `plies`:
/// the judgement a match decision with that play would get (gnubg's
/// normalised error, its best choice, the answer's place in its list).
/// An answer that is not one to this question (a move with no dice, a take
/// with no double offered, an illegal move) is an error that says why.
pub fn grade(
    engine: &mut dyn Engine,
    position: &Position,
    answer: &QuizAnswer,
    plies: u8,
) -> Result<Judged, JudgeError> {
    let (task, _, d) = quiz_decision(position, answer)?;
    if let Task::Answer(CubePlay::NoDouble) = task {
        let limit = time_limit(plies, Waiter::Batch);
        let req = Request {
            id: 1,
            position: position.clone(),
            plies,
            moves: 0,
        };
        let analysis = engine.analyse(&req, limit)?;
        return grade_with(position, answer, analysis);
    }
    judge(engine, &d, None, task, plies, 1)?
        .pop()
        .ok_or(JudgeError::NothingJudged)
}

/// Whether `analysis` (kept from an earlier grading) can grade `answer` at
/// its own depth: a move must be in its list at the list's depth. gnubg's
/// move filter leaves the tail of a list at 0-ply; an answer there is
/// graded by asking the engine again, which has the answer at the full
/// depth ([`grade`]), never at 0-ply against a deeper best.
pub fn kept_grades_at_depth(position: &Position, answer: &QuizAnswer, analysis: &Analysis) -> bool {
    let (QuizAnswer::Move(_), Analysis::Moves { moves, plies, .. }) = (answer, analysis) else {
        return true;
    };
    let Ok((_, played, _)) = quiz_decision(position, answer) else {
        return true;
    };
    let Some(after) = after_move(position, &played) else {
        return true;
    };
    moves
        .iter()
        .find(|m| m.after == after)
        .is_some_and(|m| m.depth(*plies) >= *plies)
}

/// `answer` graded from an analysis gnubg gave before (kept with a library
/// entry): the same judgement as [`grade`], at once. The analysis must be
/// of the position's question (a move list with dice, a cube decision
/// without, a take decision with a double offered).
pub fn grade_with(
    position: &Position,
    answer: &QuizAnswer,
    analysis: Analysis,
) -> Result<Judged, JudgeError> {
    let (task, played, d) = quiz_decision(position, answer)?;
    let mut j = match task {
        Task::Checker { .. } => {
            let mut j = Judged::unjudged(&d, DecisionKind::Checker, position.clone(), played);
            let after = after_move(position, &j.played);
            judge_checker(&mut j, after.as_deref(), position, analysis)?;
            j
        }
        Task::Double => {
            let mut j = Judged::unjudged(&d, DecisionKind::Cube, position.clone(), played);
            judge_cube(&mut j, CubePlay::Double, analysis)?;
            j
        }
        Task::Answer(CubePlay::NoDouble) => {
            let mut j = Judged::unjudged(&d, DecisionKind::Cube, position.clone(), played);
            judge_cube(&mut j, CubePlay::NoDouble, analysis)?;
            j
        }
        Task::Answer(play) => {
            let mut j = Judged::unjudged(&d, DecisionKind::Take, position.clone(), played);
            judge_take(&mut j, play, analysis)?;
            j
        }
        Task::BeaverTake(_) => return Err(JudgeError::BeaverTakeAsked),
    };
    j.dice = position.state.dice;
    Ok(j)
}

#[cfg(test)]
mod quiz_tests {
    use super::*;
    use crate::MoveLine;
    use bgedit_core::codec::parse_any;
    use bgedit_core::codec::position_id;
    use bgedit_core::domain::moves::{apply, position_moves};

    fn position(id: &str) -> Position {
        parse_any(id, &Position::default()).unwrap().position
    }

    /// Every legal move of `p` with the equities given in order of the
    /// moves' notation, as gnubg's list would rank them.
    fn moves_with(p: &Position, equity: impl Fn(&str) -> f64) -> Analysis {
        let mut moves: Vec<MoveLine> = position_moves(p)
            .unwrap()
            .iter()
            .map(|m| MoveLine {
                notation: m.notation(),
                equity: equity(&m.notation()),
                mwc: None,
                probs: [0.5, 0.1, 0.0, 0.1, 0.0],
                after: position_id::encode(&apply(p, m).board, p.state.on_roll.opponent()),
                plies: Some(0),
                std_error: None,
                mwc_std_error: None,
            })
            .collect();
        moves.sort_by(|a, b| b.equity.total_cmp(&a.equity));
        Analysis::Moves {
            plies: 0,
            moves,
            rollout: None,
        }
    }

    #[test]
    fn a_move_spelt_another_way_is_the_same_answer_and_ties_cost_nothing() {
        let p = position("4HPwATDgc/ABMA:cAkFAAAAAAAE");
        // Two moves tie for best.
        let a = moves_with(&p, |m| match m {
            "24/23 13/11" | "13/11 6/5" => 0.1,
            "8/7 8/6" => -0.2,
            _ => 0.0,
        });
        let spelt = |text: &str| grade_with(&p, &QuizAnswer::Move(text.into()), a.clone());
        let j = spelt("13-11 24-23").unwrap();
        assert_eq!(j.played, "24/23 13/11");
        assert_eq!(j.judgement.error, 0.0);
        let tie = spelt("13/11 6/5").unwrap();
        assert_eq!(tie.judgement.error, 0.0, "a tie for best is no error");
        let bad = spelt("8/7 8/6").unwrap();
        assert!((bad.judgement.error - 0.3).abs() < 1e-12);
        assert_eq!(
            bgedit_core::domain::skill::Skill::of(bad.judgement.error).word(),
            "very bad"
        );
        let e = spelt("13/8").unwrap_err();
        assert!(e.to_string().contains("wrong dice"), "{e}");
        let e = grade_with(&p, &QuizAnswer::Take, a).unwrap_err();
        assert!(e.to_string().contains("the answer is a move"), "{e}");
    }

    #[test]
    fn a_kept_list_grades_only_answers_at_its_depth() {
        let p = position("4HPwATDgc/ABMA:cAkFAAAAAAAE");
        let mut a = moves_with(&p, |m| if m == "8/7 8/6" { -0.2 } else { 0.0 });
        if let Analysis::Moves { plies, moves, .. } = &mut a {
            // A 2-ply list whose tail gnubg's filter left at 0-ply.
            *plies = 2;
            for m in moves.iter_mut() {
                m.plies = Some(if m.notation == "8/7 8/6" { 0 } else { 2 });
            }
        }
        let answer = |text: &str| QuizAnswer::Move(text.into());
        assert!(kept_grades_at_depth(&p, &answer("24/23 13/11"), &a));
        assert!(!kept_grades_at_depth(&p, &answer("8/7 8/6"), &a));
        // Cube answers and unreadable ones are the grader's to judge.
        assert!(kept_grades_at_depth(&p, &QuizAnswer::Take, &a));
        assert!(kept_grades_at_depth(&p, &answer("13/8"), &a));
    }

    #[test]
    fn double_and_no_double_are_graded_against_the_optimal_action() {
        let p = position("dwcAANwdAAAAAA:cAkAAAAAAAAA");
        let cube = |nd: f64, dt: f64, dp: f64| Analysis::Cube {
            plies: 0,
            action: String::new(),
            no_double: nd,
            double_take: dt,
            double_pass: dp,
            optimal: None,
            no_double_mwc: None,
            double_take_mwc: None,
            double_pass_mwc: None,
            probs: [0.7, 0.0, 0.0, 0.0, 0.0],
            cubeless: 0.4,
            rollout: None,
        };
        let g = |a: QuizAnswer, c: Analysis| grade_with(&p, &a, c).unwrap();
        // Double, take: doubling is right, holding gives away DT - ND.
        let c = cube(0.623, 0.723, 1.0);
        let d = g(QuizAnswer::Double, c.clone());
        assert_eq!((d.best.as_str(), d.judgement.error), ("double", 0.0));
        assert!((g(QuizAnswer::NoDouble, c).judgement.error - 0.1).abs() < 1e-12);
        // No double, take: doubling gives away ND - DT.
        let c = cube(0.3, 0.1, 1.0);
        let n = g(QuizAnswer::NoDouble, c.clone());
        assert_eq!((n.best.as_str(), n.judgement.error), ("no double", 0.0));
        assert!((g(QuizAnswer::Double, c).judgement.error - 0.2).abs() < 1e-12);
        // Too good: the pass (1.0) is below holding on for the gammons.
        let c = cube(1.2, 1.5, 1.0);
        assert_eq!(g(QuizAnswer::NoDouble, c.clone()).best, "no double");
        assert!((g(QuizAnswer::Double, c).judgement.error - 0.2).abs() < 1e-12);
    }

    #[test]
    fn cube_answers_and_a_beaver_are_graded_from_the_cube_analysis() {
        // Money, beavers on, a double offered by X: O answers.
        let mut p = position("4HPwATDgc/ABMA:cAkAAAAAAAAA");
        p.state.double_offered = true;
        p.state.turn = p.state.expected_turn();
        let take = Analysis::Take {
            plies: 0,
            take: -0.4,
            pass: -1.0,
            take_mwc: None,
            pass_mwc: None,
            proper: "take".into(),
            probs: [0.5, 0.1, 0.0, 0.1, 0.0],
            cubeless: -0.2,
            rollout: None,
        };
        let g = |a: QuizAnswer| grade_with(&p, &a, take.clone()).unwrap();
        assert_eq!(g(QuizAnswer::Take).judgement.error, 0.0);
        // A beaver is graded as the take it is.
        let b = g(QuizAnswer::Beaver);
        assert_eq!((b.played.as_str(), b.judgement.error), ("take", 0.0));
        assert!((g(QuizAnswer::Pass).judgement.error - 0.6).abs() < 1e-12);
        // In a match there is no beaver.
        let mut m = p.clone();
        m.state.match_length = 7;
        let e = grade_with(&m, &QuizAnswer::Beaver, take).unwrap_err();
        assert!(e.to_string().contains("money play with beavers on"), "{e}");
    }
}
