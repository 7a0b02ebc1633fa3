//! Verdicts that ask no engine: a match file's own analysis judged as
//! gnubg's match analysis judges a decision (the same functions, through
//! [`grade_with`]), so the statistics view and the library read a file's
//! analysis as they read gnubg's; and a verdict the library kept, given
//! back its decision so the match panel shows it at once.

use super::{Judged, QuizAnswer, grade_with};
use crate::{Analysis, MoveLine};
use bgedit_core::codec::match_file::FileDecision;
use bgedit_core::codec::position_id;
use bgedit_core::domain::Position;
use bgedit_core::domain::match_record::{FileAnalysis, RankedMove};
use bgedit_core::domain::match_stats::Judgement;

/// The depth of a file's verdict in gnubg's plies, as an engine's answer
/// holds it (a depth in other words, XG's rollers, counts as 0).
fn plies_of(depth: &str) -> u8 {
    depth
        .split_whitespace()
        .find_map(|w| w.strip_suffix("-ply"))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// A candidate of the file as an engine's move line: the position after
/// it, with the opponent on roll, is how a played move is found; a
/// candidate that is no legal move of the position is left out.
fn move_line(position: &Position, m: &RankedMove) -> Option<MoveLine> {
    let typed = bgedit_core::domain::notation::parse(&m.notation).ok()?;
    let legal = bgedit_core::domain::moves::check_move(position, &typed).ok()?;
    let next = bgedit_core::domain::moves::apply(position, &legal);
    Some(MoveLine {
        notation: m.notation.clone(),
        equity: m.equity,
        mwc: None,
        probs: m.probs.unwrap_or_default(),
        after: position_id::encode(&next.board, position.state.on_roll.opponent()),
        plies: Some(plies_of(&m.depth)),
        std_error: None,
        mwc_std_error: None,
    })
}

/// A file's cube analysis (the doubler's side) as an engine's answer to
/// the double (`take`: false) or to the take (`take`: true, the taker's
/// side).
fn cube_answer(a: &FileAnalysis, take: bool) -> Option<Analysis> {
    let FileAnalysis::Cube {
        no_double,
        double_take,
        double_pass,
        probs,
        depth,
    } = a
    else {
        return None;
    };
    // A match-play cube analysis still in winning chances has no equity
    // to judge by (see `stored_error`).
    if depth.contains("match winning chances") {
        return None;
    }
    let plies = plies_of(depth);
    let probs = probs.unwrap_or_default();
    Some(if take {
        let (t, p) = (-double_take, -double_pass);
        Analysis::Take {
            plies,
            take: t,
            pass: p,
            take_mwc: None,
            pass_mwc: None,
            proper: if t >= p { "take" } else { "pass" }.to_owned(),
            probs,
            cubeless: 0.0,
            rollout: None,
        }
    } else {
        Analysis::Cube {
            plies,
            action: String::new(),
            no_double: *no_double,
            double_take: *double_take,
            double_pass: *double_pass,
            optimal: None,
            no_double_mwc: None,
            double_take_mwc: None,
            double_pass_mwc: None,
            probs,
            cubeless: 0.0,
            rollout: None,
        }
    })
}

/// The judgement `answer` gets in `position` from `analysis`, as decision
/// `d`'s: its game, move and player.
fn judged(
    d: &FileDecision,
    position: &Position,
    answer: QuizAnswer,
    analysis: Analysis,
) -> Option<Judged> {
    let mut j = grade_with(position, &answer, analysis).ok()?;
    j.game = d.game;
    j.number = d.number;
    j.player = d.player;
    j.judgement.player = d.player;
    j.name = d.position.names.of(d.player).to_owned();
    Some(j)
}

/// Decision `d` judged by the file's own analysis, as gnubg would judge
/// it with that analysis: the cube before the roll (when the file analysed
/// it and the roller could double) and the roll, a double, a take or a
/// pass. None where the file holds no analysis of it.
pub fn from_file(d: &FileDecision) -> Vec<Judged> {
    let mut out = Vec::new();
    if d.dice.is_some() {
        if let Some(cube) = d.cube_analysis.as_ref().and_then(|a| cube_answer(a, false)) {
            let mut before = d.position.clone();
            before.state.dice = None;
            out.extend(judged(d, &before, QuizAnswer::NoDouble, cube));
        }
        if let Some(FileAnalysis::Moves { moves }) = &d.analysis {
            let lines: Vec<MoveLine> = moves
                .iter()
                .filter_map(|m| move_line(&d.position, m))
                .collect();
            if !lines.is_empty() {
                let analysis = Analysis::Moves {
                    plies: lines.first().and_then(|l| l.plies).unwrap_or(0),
                    moves: lines,
                    rollout: None,
                };
                out.extend(judged(
                    d,
                    &d.position,
                    QuizAnswer::Move(d.played.clone()),
                    analysis,
                ));
            }
        }
        return out;
    }
    let Some(a) = d.analysis.as_ref() else {
        return out;
    };
    let (answer, take) = match d.played.as_str() {
        "double" => (QuizAnswer::Double, false),
        "take" => (QuizAnswer::Take, true),
        "drop" => (QuizAnswer::Pass, true),
        _ => return out,
    };
    if let Some(analysis) = cube_answer(a, take) {
        out.extend(judged(d, &d.position, answer, analysis));
    }
    out
}

/// A verdict the library kept, on decision `d`: its judgement, the
/// engine's best choice and what was played, and the engine's answer when
/// it was kept (else an empty one: the panel shows the judgement, and the
/// analysis panel asks the engine for the position when wanted).
pub fn restored(
    d: &FileDecision,
    judgement: Judgement,
    best: &str,
    played: &str,
    analysis: Option<Analysis>,
) -> Judged {
    let mut position = d.position.clone();
    // The cube before a roll is judged without its dice.
    if judgement.kind == bgedit_core::domain::match_stats::DecisionKind::Cube && d.dice.is_some() {
        position.state.dice = None;
    }
    let mut j = Judged::unjudged(d, judgement.kind, position, played.to_owned());
    j.best = best.to_owned();
    j.judgement = judgement;
    if let Some(a) = analysis {
        j.analysis = a;
    }
    j
}
