//! The board's transitions: each `BoardAction` applied to the model (the
//! position's board and match fields, the cursor), committed with undo or
//! refused with a reason.

use super::state::{BoardAction, Direction};
use super::{cursor, edits};
use crate::analysis;
use crate::effect::Effect;
use crate::model::{Mode, Model, Status, Tone};
use crate::on_off;
use crate::prompt::state::{Prompt, PromptKind};
use crate::scores;
use crate::transition::{commit, done, refuse};
use bgedit_core::domain::match_state::MAX_CUBE_LOG2;
use bgedit_core::domain::{Board, CubeOwner, GameState, MatchState, Player, Position, Resignation};

/// Applies a board action: the cursor and the checkers here, the match
/// fields' edits each a function below, the mouse in [`mouse`].
pub(crate) fn update(mut model: Model, action: BoardAction) -> (Model, Vec<Effect>) {
    let on_roll = model.position.state.on_roll;
    match action {
        // While a move is previewed the list has the focus: ↑↓ walk it.
        BoardAction::Move(d @ (Direction::Up | Direction::Down)) if model.analysis.preview => {
            analysis::select(model, if d == Direction::Up { -1 } else { 1 })
        }
        BoardAction::Move(direction) => {
            model.cursor = cursor::step(model.cursor, direction);
            done(model)
        }
        BoardAction::GoTo(place) => {
            model.cursor = place;
            model.mode = Mode::Normal;
            model.status = Status::info(format!("At {}", edits::describe(place, on_roll)));
            done(model)
        }

        BoardAction::AddChecker(player) => {
            model.brush = player;
            let place = model.cursor;
            let result = edits::add(&model.position.board, place, player, on_roll);
            board_edit(
                model,
                result,
                format!(
                    "{player} checker added on {}",
                    edits::describe(place, on_roll)
                ),
            )
        }
        BoardAction::RemoveChecker => {
            let place = model.cursor;
            let result = edits::remove(&model.position.board, place, on_roll);
            board_edit(
                model,
                result,
                format!("Checker removed from {}", edits::describe(place, on_roll)),
            )
        }
        BoardAction::ClearPlace => {
            let place = model.cursor;
            let result = edits::clear(&model.position.board, place, on_roll);
            board_edit(
                model,
                result,
                format!("{} cleared", edits::describe(place, on_roll)),
            )
        }
        BoardAction::SetCount(player, count) => {
            if let Some(p) = player {
                model.brush = p;
            }
            let place = model.cursor;
            let result = edits::set_count(
                &model.position.board,
                place,
                player,
                count,
                model.brush,
                on_roll,
            );
            model.mode = Mode::Normal;
            board_edit(
                model,
                result,
                format!("{count} on {}", edits::describe(place, on_roll)),
            )
        }

        BoardAction::StartingPosition => starting_position(model),
        BoardAction::EmptyBoard => board_edit(
            model,
            Ok(Board::empty()),
            "Empty board: every checker borne off".to_owned(),
        ),
        BoardAction::SwapPlayers => {
            let next = model.position.mirrored();
            model.cursor = cursor::mirrored(model.cursor);
            commit(
                model,
                next,
                "Players swapped: board mirrored, match fields and names exchanged",
            )
        }
        BoardAction::SwitchOnRoll => edit_state(model, switch_on_roll),

        BoardAction::CubeUp => edit_state(model, cube_up),
        BoardAction::CubeDown => edit_state(model, cube_down),
        BoardAction::NextCubeOwner => edit_state(model, next_cube_owner),
        BoardAction::ToggleDoubleOffered => edit_state(model, toggle_double_offered),
        BoardAction::SetDice(dice) => edit_state(model, |p| set_dice(p, dice)),
        BoardAction::SetMatchLength(length) => edit_state(model, |p| set_match_length(p, length)),
        BoardAction::SetPlayerScore(player, score) => {
            let mut both = model.position.state.score;
            both[player.index()] = score;
            update(model, BoardAction::SetScore(both))
        }
        BoardAction::SetScore(score) => {
            let before = model.position.state.clone();
            let (mut next, effects) = set_score(model, score);
            if next.status.tone != Tone::Error
                && let Some(player) = scores::newly_one_away(&before, &next.position.state)
            {
                next.mode = Mode::Prompt(Prompt::new(PromptKind::CrawfordOffer(player)));
            }
            (next, effects)
        }
        BoardAction::SetCrawford(on) => edit_state(model, |p| set_crawford(p, on)),
        BoardAction::ToggleCrawford => edit_state(model, toggle_crawford),
        BoardAction::ToggleJacoby => toggle_money_rule(
            model,
            "the Jacoby rule",
            |s| &mut s.jacoby,
            |on| format!("Jacoby rule {}", on_off(on)),
        ),
        BoardAction::ToggleBeavers => toggle_money_rule(
            model,
            "the beaver rule",
            |s| &mut s.beavers,
            |on| format!("Beavers {}", if on { "allowed" } else { "not allowed" }),
        ),
        BoardAction::SetName(player, name) => {
            let name = name.trim().to_owned();
            let mut next = model.position.clone();
            next.names.set(player, name.clone());
            model.mode = Mode::Normal;
            commit(model, next, &format!("{player} is now {name}"))
        }
        BoardAction::NextResignation => edit_state(model, next_resignation),
        BoardAction::NextGameState => edit_state(model, next_game_state),

        BoardAction::Click(_)
        | BoardAction::AddAt(_)
        | BoardAction::RightClick(_)
        | BoardAction::Scroll(..) => mouse(model, action),
    }
}

/// The mouse: a click or a scroll is the edit it stands for, applied in
/// turn; a press notes where a drag may start.
fn mouse(mut model: Model, action: BoardAction) -> (Model, Vec<Effect>) {
    let on_roll = model.position.state.on_roll;
    match action {
        // A click selects; a click on the place already selected adds, as
        // in other editors.
        BoardAction::Click(place) if place != model.cursor => {
            model.cursor = place;
            model.status = Status::info(format!(
                "Selected {}: click again (or Ctrl/Alt-click) to add, right-click to remove",
                edits::describe(place, on_roll)
            ));
            // A drag may follow: it picks up the checker here.
            let (before, undo_len) = (model.position.clone(), model.history.undo.len());
            crate::play::note_press(&mut model, place, before, undo_len);
            done(model)
        }
        BoardAction::Click(place) | BoardAction::AddAt(place) => {
            model.cursor = place;
            let player = edits::colour_at(&model.position.board, place).unwrap_or(model.brush);
            let (before, undo_len) = (model.position.clone(), model.history.undo.len());
            let (mut next, effects) = update(model, BoardAction::AddChecker(player));
            // A drag may follow: it takes this click back and moves a checker.
            crate::play::note_press(&mut next, place, before, undo_len);
            (next, effects)
        }
        BoardAction::RightClick(place) => {
            model.cursor = place;
            update(model, BoardAction::RemoveChecker)
        }
        // Scrolling up adds as a click does; down removes as a right-click.
        BoardAction::Scroll(place, delta) if delta > 0 => update(model, BoardAction::AddAt(place)),
        BoardAction::Scroll(place, _) => update(model, BoardAction::RightClick(place)),
        // The other actions are not the mouse's: `update` routes them.
        other => update(model, other),
    }
}

/// A game's start: no dice, a centred 1-cube, nothing on offer; the
/// match around it (score, length, rules, names) stays.
fn starting_position(model: Model) -> (Model, Vec<Effect>) {
    let mut next = model.position.clone();
    next.board = Board::starting();
    let s = &mut next.state;
    s.dice = None;
    s.cube_log2 = 0;
    s.cube_owner = CubeOwner::Centred;
    s.double_offered = false;
    s.resignation = Resignation::None;
    s.game_state = GameState::Playing;
    s.turn = s.on_roll;
    commit(
        model,
        next,
        "Starting position: dice cleared, cube centred at 1",
    )
}

/// Switches the player on roll (and whose turn it is with it).
fn switch_on_roll(p: &mut Position) -> Result<String, String> {
    let s = &mut p.state;
    s.on_roll = s.on_roll.opponent();
    s.turn = s.expected_turn();
    Ok(format!("{} on roll", s.on_roll))
}

/// Doubles the cube, up to 32768.
fn cube_up(p: &mut Position) -> Result<String, String> {
    let s = &mut p.state;
    if s.cube_log2 >= MAX_CUBE_LOG2 {
        return Err("the cube goes no higher than 32768".to_owned());
    }
    s.cube_log2 += 1;
    Ok(format!("Cube at {}", s.cube_value()))
}

/// Halves the cube; a 1-cube is centred.
fn cube_down(p: &mut Position) -> Result<String, String> {
    let s = &mut p.state;
    if s.cube_log2 == 0 {
        return Err("the cube is already at 1".to_owned());
    }
    s.cube_log2 -= 1;
    // A 1-cube is never owned: it is centred again on the way down.
    if s.cube_log2 == 0 && s.cube_owner != CubeOwner::Centred {
        s.cube_owner = CubeOwner::Centred;
        return Ok("Cube at 1, centred (a 1-cube is never owned)".to_owned());
    }
    Ok(format!("Cube at {}", s.cube_value()))
}

/// Centred, O, X, centred again.
fn next_cube_owner(p: &mut Position) -> Result<String, String> {
    let s = &mut p.state;
    s.cube_owner = match s.cube_owner {
        CubeOwner::Centred => CubeOwner::Owned(Player::O),
        CubeOwner::Owned(Player::O) => CubeOwner::Owned(Player::X),
        CubeOwner::Owned(Player::X) => CubeOwner::Centred,
    };
    Ok(match s.cube_owner {
        CubeOwner::Centred => "Cube centred".to_owned(),
        CubeOwner::Owned(p) => format!("Cube owned by {p}"),
    })
}

/// A double on offer, or none; a double comes before the roll.
fn toggle_double_offered(p: &mut Position) -> Result<String, String> {
    let s = &mut p.state;
    if !s.double_offered && s.cube_owner == CubeOwner::Owned(s.on_roll.opponent()) {
        return Err(format!(
            "{} owns the cube, so {} cannot double",
            s.on_roll.opponent(),
            s.on_roll
        ));
    }
    s.double_offered = !s.double_offered;
    let mut note = String::new();
    if s.double_offered && s.dice.take().is_some() {
        // A double comes before the roll.
        note = " (dice cleared: a double comes before the roll)".to_owned();
    }
    s.turn = s.expected_turn();
    Ok(if s.double_offered {
        format!(
            "{} offers the cube at {}{note}",
            s.on_roll,
            s.cube_value() * 2
        )
    } else {
        "No double on offer".to_owned()
    })
}

/// The dice rolled, or none; a roll withdraws a double on offer.
fn set_dice(p: &mut Position, dice: Option<[u8; 2]>) -> Result<String, String> {
    let s = &mut p.state;
    s.dice = dice;
    let mut note = String::new();
    if dice.is_some() && s.double_offered {
        s.double_offered = false;
        s.turn = s.expected_turn();
        note = " (double withdrawn: the roll comes after)".to_owned();
    }
    Ok(match dice {
        Some([a, b]) => format!("{} rolled {a}{b}{note}", s.on_roll),
        None => "Dice cleared: not rolled".to_owned(),
    })
}

/// A match length above both scores, or 0 for money (which has no score).
fn set_match_length(p: &mut Position, length: u16) -> Result<String, String> {
    let s = &mut p.state;
    if length > 0
        && let Some(player) = Player::BOTH
            .into_iter()
            .find(|&pl| s.score_of(pl) >= length)
    {
        return Err(format!(
            "{player}'s score {} is not below {length}: lower the score first",
            s.score_of(player)
        ));
    }
    s.match_length = length;
    if length == 0 {
        s.crawford = false;
        // Money has no score; kept, it would ride along in the XGID.
        let had_score = s.score != [0, 0];
        s.score = [0, 0];
        Ok(if had_score {
            "Money game (match score cleared; u undoes)".to_owned()
        } else {
            "Money game".to_owned()
        })
    } else {
        Ok(format!("{length}-point match"))
    }
}

/// The Crawford game on or off, in a match.
fn set_crawford(p: &mut Position, on: bool) -> Result<String, String> {
    let s = &mut p.state;
    if s.is_money() {
        return Err("Crawford applies to match play only; set a match length first (m)".to_owned());
    }
    s.crawford = on;
    Ok(format!("Crawford game {}", on_off(s.crawford)))
}

/// The Crawford game flipped, in a match.
fn toggle_crawford(p: &mut Position) -> Result<String, String> {
    let s = &mut p.state;
    if s.is_money() {
        return Err("Crawford applies to match play only; set a match length first (m)".to_owned());
    }
    s.crawford = !s.crawford;
    Ok(format!("Crawford game {}", on_off(s.crawford)))
}

/// The next resignation on offer (none, single, gammon, backgammon).
fn next_resignation(p: &mut Position) -> Result<String, String> {
    let s = &mut p.state;
    let next = Resignation::ALL[(usize::from(s.resignation.code()) + 1) % 4];
    s.resignation = next;
    s.turn = s.expected_turn();
    Ok(match next {
        Resignation::None => "No resignation on offer".to_owned(),
        r => format!("{} offers to resign a {}", s.on_roll, r.words()),
    })
}

/// The next of gnubg's game states.
fn next_game_state(p: &mut Position) -> Result<String, String> {
    let s = &mut p.state;
    s.game_state = GameState::ALL[(usize::from(s.game_state.code()) + 1) % 5];
    Ok(format!("Game state: {}", s.game_state.words()))
}

/// Sets both scores, if below the match length.
fn set_score(model: Model, score: [u16; 2]) -> (Model, Vec<Effect>) {
    edit_state(model, |p| {
        let s = &mut p.state;
        if !s.is_money()
            && let Some(i) = (0..2).find(|&i| score[i] >= s.match_length)
        {
            return Err(format!(
                "{}'s score {} is not below the match length {}",
                Player::from_index(i),
                score[i],
                s.match_length
            ));
        }
        s.score = score;
        Ok(format!("Score O {} – X {}", score[0], score[1]))
    })
}

/// Flips a rule that only money games have (Jacoby, beavers); in a match it
/// does not apply and cannot be switched.
fn toggle_money_rule(
    model: Model,
    rule: &str,
    field: fn(&mut MatchState) -> &mut bool,
    say: fn(bool) -> String,
) -> (Model, Vec<Effect>) {
    edit_state(model, |p| {
        if !p.state.is_money() {
            return Err(format!("{rule} applies to money games only"));
        }
        let flag = field(&mut p.state);
        *flag = !*flag;
        Ok(say(*flag))
    })
}

fn board_edit(
    model: Model,
    result: Result<Board, String>,
    message: String,
) -> (Model, Vec<Effect>) {
    match result {
        Ok(board) => {
            let next = Position {
                board,
                ..model.position.clone()
            };
            commit(model, next, &message)
        }
        Err(e) => refuse(model, e),
    }
}

fn edit_state(
    model: Model,
    f: impl FnOnce(&mut Position) -> Result<String, String>,
) -> (Model, Vec<Effect>) {
    let mut next = model.position.clone();
    match f(&mut next) {
        Ok(message) => commit(model, next, &message),
        Err(e) => refuse(model, e),
    }
}
