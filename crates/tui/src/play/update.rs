//! Playing moves' part of the reducer: the move line (Enter plays, Tab
//! completes), picking a checker up and dropping it, the dice, passing.
//! Pure: the dice come back from the runtime as an action.

use super::state::{Carry, PlayAction, PlayState, Track};

use crate::action::{Action, BoardAction};
use crate::effect::Effect;
use crate::model::{Mode, Model, Status};
use crate::prompt::state::{Prompt, PromptKind};
use crate::transition::{commit, done, refuse};
use bgedit_core::domain::moves::{
    StepsVerdict, apply, check_move, classify_steps, free_move, pass_turn, position_moves,
};
use bgedit_core::domain::notation::{BAR_POINT, OFF_POINT, Step, TypedMove, TypedPath, parse};
use bgedit_core::domain::{GameState, Place, Player, Position};

/// Text for the status line while a checker is held, if one is.
pub(crate) fn holding_text(model: &Model) -> Option<String> {
    let c = model.play.carrying.as_ref()?;
    Some(format!(
        "Holding {}'s checker from {}: move, Space drops it, Esc puts it back",
        c.player,
        own_name(c.from, c.player)
    ))
}

fn own_name(place: Place, player: Player) -> String {
    match place {
        Place::Bar(_) => "the bar".to_owned(),
        Place::Off(_) => "off".to_owned(),
        Place::Point(_) => place
            .point_for(player)
            .map_or_else(String::new, |p| format!("point {p}")),
    }
}

/// A place as `player` counts it: 1–24, the bar 25, off 0; `None` for the
/// other player's bar or tray.
fn own_number(place: Place, player: Player) -> Option<u8> {
    match place {
        Place::Point(_) => place.point_for(player),
        Place::Bar(p) if p == player => Some(BAR_POINT),
        Place::Off(p) if p == player => Some(OFF_POINT),
        _ => None,
    }
}

pub(crate) fn update(mut model: Model, action: PlayAction) -> (Model, Vec<Effect>) {
    match action {
        PlayAction::OpenPrompt => match position_moves(&model.position) {
            Ok(_) => {
                model.play.completion = None;
                model.mode = Mode::Prompt(Prompt::new(PromptKind::Move));
                model.status = Status::info("Type a move (13/7 8/7, bar/20*, 6/off): Enter plays");
                done(model)
            }
            Err(reason) => refuse(
                model,
                format!("nothing to play: {reason} (r rolls, d sets the dice, P passes)"),
            ),
        },
        PlayAction::Submit(text) => {
            let typed = match parse(&text) {
                Ok(t) => t,
                Err(e) => return refuse(model, e.to_string()),
            };
            match check_move(&model.position, &typed) {
                Ok(legal) => {
                    let next = apply(&model.position, &legal);
                    let message = format!(
                        "{} played {}; {} on roll",
                        model.position.state.on_roll,
                        legal.notation(),
                        next.state.on_roll
                    );
                    model.play = PlayState::default();
                    commit(model, next, &message)
                }
                Err(e) => refuse(model, e.to_string()),
            }
        }
        PlayAction::Complete => complete(model),
        PlayAction::PickOrDrop => match model.play.carrying.clone() {
            None => {
                let at = model.cursor;
                pick_up(model, at)
            }
            Some(carry) => {
                let to = model.cursor;
                drop_at(model, carry, to)
            }
        },
        // Esc puts a held checker back; with none held it closes the
        // analysis preview (one key, one meaning: "leave what is pending").
        PlayAction::PutBack => {
            if model.play.carrying.take().is_some() {
                model.status = Status::info("Checker put back");
                done(model)
            } else {
                crate::analysis::leave_preview(model)
            }
        }
        PlayAction::DragTo(place) => {
            model.cursor = place;
            if model.play.carrying.is_some() {
                return done(model);
            }
            let Some((from, before, undo_len)) = model.play.press.clone() else {
                return done(model);
            };
            if from == place {
                return done(model);
            }
            // The press added a checker (a click); a drag means the checker
            // is being moved, so take that click back.
            if model.history.undo.len() == undo_len + 1 {
                model.history.forget_last();
            }
            model.position = before;
            pick_up(model, from)
        }
        PlayAction::Release(place) => {
            model.play.press = None;
            match model.play.carrying.clone() {
                Some(carry) => {
                    model.cursor = place;
                    drop_at(model, carry, place)
                }
                None => done(model),
            }
        }
        PlayAction::Roll => {
            let game = model.position.state.game_state;
            if game != GameState::Playing {
                let why = format!(
                    "the game is not in play ({}): G sets the game state",
                    game.words()
                );
                return refuse(model, why);
            }
            (model, vec![Effect::RollDice])
        }
        PlayAction::RollFailed(e) => refuse(model, format!("could not roll the dice: {e}")),
        PlayAction::Pass => {
            let next = pass_turn(&model.position);
            let message = format!(
                "{} passes; {} on roll",
                model.position.state.on_roll, next.state.on_roll
            );
            model.play = PlayState::default();
            commit(model, next, &message)
        }
    }
}

/// Records a left press (from `BoardAction::Click`) so a drag can follow.
pub(crate) fn note_press(model: &mut Model, place: Place, before: Position, undo_len: usize) {
    model.play.press = Some((place, before, undo_len));
}

fn pick_up(mut model: Model, place: Place) -> (Model, Vec<Effect>) {
    let Some((player, _)) = model.position.board.occupant(place) else {
        return refuse(model, format!("no checker to pick up on {place}"));
    };
    model.cursor = place;
    model.play.carrying = Some(Carry {
        player,
        from: place,
    });
    model.status = Status::info(holding_text(&model).unwrap_or_default());
    done(model)
}

fn drop_at(mut model: Model, carry: Carry, to: Place) -> (Model, Vec<Effect>) {
    if to == carry.from {
        model.play.carrying = None;
        model.status = Status::info("Checker put back");
        return done(model);
    }
    let (Some(from_n), Some(to_n)) = (
        own_number(carry.from, carry.player),
        own_number(to, carry.player),
    ) else {
        return refuse(
            model,
            format!("{}'s checker cannot go to {to}", carry.player),
        );
    };
    let typed = TypedMove {
        paths: vec![TypedPath {
            points: vec![from_n, to_n],
            count: 1,
        }],
    };
    let board = match free_move(&model.position.board, carry.player, &typed) {
        Ok(b) => b,
        Err(e) => return refuse(model, e.to_string()),
    };
    let before = model.position.clone();
    let next = Position {
        board,
        ..before.clone()
    };
    model.play.carrying = None;
    let step = Step {
        from: from_n,
        to: to_n,
    };
    let verdict = track_step(&mut model, &before, &next, carry.player, step);
    let mut message = format!(
        "{} {}/{}",
        carry.player,
        point_word(from_n),
        point_word(to_n)
    );
    if let Some(v) = verdict {
        message.push_str(&v);
    }
    commit(model, next, &message)
}

fn point_word(n: u8) -> String {
    match n {
        BAR_POINT => "bar".to_owned(),
        OFF_POINT => "off".to_owned(),
        p => p.to_string(),
    }
}

/// With dice set and the player on roll moving, adds the step to the ones
/// made so far and says whether they form a legal move.
fn track_step(
    model: &mut Model,
    before: &Position,
    next: &Position,
    player: Player,
    step: Step,
) -> Option<String> {
    let s = &before.state;
    if s.dice.is_none() || player != s.on_roll || s.game_state != GameState::Playing {
        model.play.track = None;
        return None;
    }
    let mut track = match model.play.track.take() {
        Some(t) if t.last == *before => t,
        _ => Track {
            start: before.clone(),
            steps: Vec::new(),
            last: before.clone(),
        },
    };
    track.steps.push(step);
    track.last = next.clone();
    let verdict = classify_steps(&track.start, &track.steps);
    model.play.track = Some(track);
    let [a, b] = s.dice?;
    Some(match verdict? {
        StepsVerdict::Legal(m) => format!(
            ": the legal move {} for {a}-{b} (P passes the turn)",
            m.notation()
        ),
        StepsVerdict::Partial(n) => {
            format!(
                ": part of {n} legal move{} for {a}-{b}",
                if n == 1 { "" } else { "s" }
            )
        }
        StepsVerdict::NotLegal => format!(": not a legal move for {a}-{b}"),
    })
}

/// The move text in a form to compare with gnubg's notation.
fn normalised(text: &str) -> String {
    let mut out = String::new();
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&word.to_lowercase().replace('-', "/"));
    }
    if text.ends_with(' ') && !out.is_empty() {
        out.push(' ');
    }
    out
}

fn complete(mut model: Model) -> (Model, Vec<Effect>) {
    let Mode::Prompt(prompt) = &model.mode else {
        return done(model);
    };
    if prompt.kind != PromptKind::Move {
        return done(model);
    }
    let typed = prompt.line.text.clone();
    match completion(&model.position, &typed, model.play.completion.as_ref()) {
        Err(why) => refuse(model, why),
        Ok(c) => {
            if let Mode::Prompt(p) = &mut model.mode {
                p.line.text = c.text;
            }
            model.play.completion = Some(c.cycle);
            model.status = Status::info(c.status);
            done(model)
        }
    }
}

/// A Tab on a move line: the legal move offered, where Tab stands in the
/// cycle through those that match, and what to say.
pub(crate) struct Completion {
    pub text: String,
    pub cycle: (String, usize),
    pub status: String,
}

/// The next legal move of `position` that starts as `typed` does (in
/// gnubg's notation, sorted), after `last` (the cycle so far): the move
/// line of the board and the quiz's share it.
pub(crate) fn completion(
    position: &Position,
    typed: &str,
    last: Option<&(String, usize)>,
) -> Result<Completion, String> {
    let Ok(moves) = position_moves(position) else {
        return Err("no legal moves to complete".to_owned());
    };
    let mut notations: Vec<String> = moves.iter().map(|m| m.notation()).collect();
    notations.sort();
    let (stem, index) = match last {
        Some((stem, i)) if cycle_matches(&notations, stem, *i, typed) => (stem.clone(), i + 1),
        _ => (normalised(typed), 0),
    };
    let matching: Vec<&String> = notations.iter().filter(|n| n.starts_with(&stem)).collect();
    if matching.is_empty() {
        return Err(format!("no legal move starts with {typed:?}"));
    }
    let k = index % matching.len();
    Ok(Completion {
        text: matching[k].clone(),
        cycle: (stem, k),
        status: format!(
            "{} of {} matching moves (Tab for the next)",
            k + 1,
            matching.len()
        ),
    })
}

/// Whether the text shown is the completion last offered for `stem`, so Tab
/// goes on to the next rather than starting again.
fn cycle_matches(notations: &[String], stem: &str, index: usize, text: &str) -> bool {
    notations
        .iter()
        .filter(|n| n.starts_with(stem))
        .nth(index)
        .is_some_and(|n| n == text)
}

/// The action for the runtime's random dice.
pub fn rolled(dice: [u8; 2]) -> Action {
    Action::Board(BoardAction::SetDice(Some(
        bgedit_core::domain::match_state::larger_first(dice[0], dice[1]),
    )))
}
