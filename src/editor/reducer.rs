//! The one place the editor's state changes: `update(model, action)` returns
//! the next model and the effects for the runtime to perform. Pure: no
//! terminal, clipboard, file or clock in here.

use super::action::{Action, CopyRoute, CopyTarget};
use super::cursor;
use super::edits;
use super::effect::Effect;
use super::model::{Mode, Model, Status};
use super::on_off;
use super::prompt::{self, MAX_PROMPT_LEN, Prompt, PromptKind};
use crate::codec::{self, IdFormat, xgid};
use crate::domain::match_state::MAX_CUBE_LOG2;
use crate::domain::{Board, CubeOwner, GameState, MatchState, Player, Position, Resignation};
use crate::text_board;

/// Applies `action` to `model`.
pub fn update(mut model: Model, action: Action) -> (Model, Vec<Effect>) {
    let on_roll = model.position.state.on_roll;
    match action {
        Action::Move(direction) => {
            model.cursor = cursor::step(model.cursor, direction);
            done(model)
        }
        Action::GoTo(place) => {
            model.cursor = place;
            model.mode = Mode::Normal;
            model.status = Status::info(format!("At {}", edits::describe(place, on_roll)));
            done(model)
        }

        Action::AddChecker(player) => {
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
        Action::RemoveChecker => {
            let place = model.cursor;
            let result = edits::remove(&model.position.board, place, on_roll);
            board_edit(
                model,
                result,
                format!("Checker removed from {}", edits::describe(place, on_roll)),
            )
        }
        Action::ClearPlace => {
            let place = model.cursor;
            let result = edits::clear(&model.position.board, place, on_roll);
            board_edit(
                model,
                result,
                format!("{} cleared", edits::describe(place, on_roll)),
            )
        }
        Action::SetCount(player, count) => {
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

        Action::StartingPosition => {
            board_edit(model, Ok(Board::starting()), "Starting position".to_owned())
        }
        Action::EmptyBoard => board_edit(
            model,
            Ok(Board::empty()),
            "Empty board: every checker borne off".to_owned(),
        ),
        Action::SwapPlayers => {
            let next = model.position.mirrored();
            model.cursor = cursor::mirrored(model.cursor);
            commit(
                model,
                next,
                "Players swapped: board mirrored, match fields and names exchanged",
            )
        }
        Action::SwitchOnRoll => edit_state(model, |p| {
            let s = &mut p.state;
            s.on_roll = s.on_roll.opponent();
            s.turn = s.expected_turn();
            Ok(format!("{} on roll", s.on_roll))
        }),

        Action::CubeUp => edit_state(model, |p| {
            let s = &mut p.state;
            if s.cube_log2 >= MAX_CUBE_LOG2 {
                return Err("the cube goes no higher than 32768".to_owned());
            }
            s.cube_log2 += 1;
            Ok(format!("Cube at {}", s.cube_value()))
        }),
        Action::CubeDown => edit_state(model, |p| {
            let s = &mut p.state;
            if s.cube_log2 == 0 {
                return Err("the cube is already at 1".to_owned());
            }
            s.cube_log2 -= 1;
            Ok(format!("Cube at {}", s.cube_value()))
        }),
        Action::NextCubeOwner => edit_state(model, |p| {
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
        }),
        Action::ToggleDoubleOffered => edit_state(model, |p| {
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
        }),
        Action::SetDice(dice) => edit_state(model, |p| {
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
        }),
        Action::SetMatchLength(length) => edit_state(model, |p| {
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
                Ok("Money game".to_owned())
            } else {
                Ok(format!("{length}-point match"))
            }
        }),
        Action::SetPlayerScore(player, score) => {
            let mut both = model.position.state.score;
            both[player.index()] = score;
            update(model, Action::SetScore(both))
        }
        Action::SetScore(score) => edit_state(model, |p| {
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
        }),
        Action::ToggleCrawford => edit_state(model, |p| {
            let s = &mut p.state;
            if s.is_money() {
                return Err(
                    "Crawford applies to match play only; set a match length first (m)".to_owned(),
                );
            }
            s.crawford = !s.crawford;
            Ok(format!("Crawford game {}", on_off(s.crawford)))
        }),
        Action::ToggleJacoby => toggle_money_rule(
            model,
            "the Jacoby rule",
            |s| &mut s.jacoby,
            |on| format!("Jacoby rule {}", on_off(on)),
        ),
        Action::ToggleBeavers => toggle_money_rule(
            model,
            "the beaver rule",
            |s| &mut s.beavers,
            |on| format!("Beavers {}", if on { "allowed" } else { "not allowed" }),
        ),
        Action::SetName(player, name) => {
            let name = name.trim().to_owned();
            let mut next = model.position.clone();
            next.names.set(player, name.clone());
            model.mode = Mode::Normal;
            commit(model, next, &format!("{player} is now {name}"))
        }
        Action::NextResignation => edit_state(model, |p| {
            let s = &mut p.state;
            let next = Resignation::ALL[(usize::from(s.resignation.code()) + 1) % 4];
            s.resignation = next;
            s.turn = s.expected_turn();
            Ok(match next {
                Resignation::None => "No resignation on offer".to_owned(),
                r => format!("{} offers to resign a {}", s.on_roll, r.words()),
            })
        }),
        Action::NextGameState => edit_state(model, |p| {
            let s = &mut p.state;
            s.game_state = GameState::ALL[(usize::from(s.game_state.code()) + 1) % 5];
            Ok(format!("Game state: {}", s.game_state.words()))
        }),

        Action::Undo => travel(model, true),
        Action::Redo => travel(model, false),

        Action::Copy(target) => {
            let p = &model.position;
            let text = match target {
                CopyTarget::GnubgId => codec::to_string_as(p, IdFormat::GnubgId),
                CopyTarget::Xgid => codec::to_string_as(p, IdFormat::Xgid),
                CopyTarget::BoardText => text_board::render(p),
            };
            model.status = Status::info(format!("Copying the {}…", target.name()));
            (model, vec![Effect::Copy { target, text }])
        }
        Action::Copied(target, result) => {
            // Say what the copied ID cannot hold, as `convert` does.
            let state = &model.position.state;
            let losses = match target {
                CopyTarget::Xgid => xgid::dropped_by_xgid(state),
                CopyTarget::GnubgId => xgid::dropped_by_gnubg_id(state),
                CopyTarget::BoardText => Vec::new(),
            };
            let note = losses
                .first()
                .map(|n| format!(" · note: {n}"))
                .unwrap_or_default();
            let what = capitalised(target.name());
            model.status = match result {
                Ok(CopyRoute::System) => {
                    Status::success(format!("{what} copied to the clipboard{note}"))
                }
                Ok(CopyRoute::Osc52) => Status::success(format!(
                    "{what} sent to the terminal's clipboard (OSC 52; no system clipboard here). \
                     If it does not arrive, your terminal does not allow OSC 52{note}"
                )),
                Err(e) => Status::error(format!("could not copy the {}: {e}", target.name())),
            };
            done(model)
        }
        Action::Paste => {
            model.status = Status::info("Reading the clipboard…");
            (model, vec![Effect::ReadClipboard])
        }
        Action::Pasted(Ok(text)) => update(model, Action::Import(text)),
        Action::Pasted(Err(e)) => refuse(
            model,
            format!("could not read the clipboard: {e}; paste into the ID line instead (i)"),
        ),
        Action::Import(text) => match codec::parse_any(&text, &model.position) {
            Ok(imported) => {
                model.mode = Mode::Normal;
                let message = format!("{} read", imported.format.name());
                commit(model, imported.position, &message)
            }
            Err(e) => refuse(model, e.to_string()),
        },

        Action::OpenPrompt(kind) => {
            let text = match kind {
                PromptKind::Name(p) => model.position.names.of(p).to_owned(),
                _ => String::new(),
            };
            model.mode = Mode::Prompt(Prompt { kind, text });
            done(model)
        }
        Action::PromptChar(c) => {
            if let Mode::Prompt(p) = &mut model.mode
                && p.text.len() < MAX_PROMPT_LEN
                && !c.is_control()
            {
                p.text.push(c);
            }
            done(model)
        }
        Action::PromptPaste(text) => {
            if let Mode::Prompt(p) = &mut model.mode {
                // A pasted header block spans lines; the input line keeps one.
                let flat: String = text
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                let room = MAX_PROMPT_LEN.saturating_sub(p.text.len());
                p.text.extend(flat.chars().take(room));
            }
            done(model)
        }
        Action::PromptBackspace => {
            if let Mode::Prompt(p) = &mut model.mode {
                p.text.pop();
            }
            done(model)
        }
        Action::PromptClear => {
            if let Mode::Prompt(p) = &mut model.mode {
                p.text.clear();
            }
            done(model)
        }
        Action::PromptCancel => {
            model.mode = Mode::Normal;
            model.status = Status::info("Cancelled");
            done(model)
        }
        Action::PromptSubmit => {
            let Mode::Prompt(prompt) = model.mode.clone() else {
                return done(model);
            };
            match prompt::parse(prompt.kind, &prompt.text, on_roll) {
                Ok(action) => {
                    let (mut next, effects) = update(model, action);
                    // A refused edit keeps the line open to fix; a name for O
                    // goes on to X's.
                    if next.status.tone != super::model::Tone::Error {
                        next.mode = match prompt.kind {
                            PromptKind::Name(Player::O) => Mode::Prompt(Prompt {
                                kind: PromptKind::Name(Player::X),
                                text: next.position.names.x.clone(),
                            }),
                            _ => Mode::Normal,
                        };
                    }
                    (next, effects)
                }
                Err(message) => refuse(model, message),
            }
        }

        Action::ToggleHelp => {
            model.mode = if model.mode == Mode::Help {
                Mode::Normal
            } else {
                Mode::Help
            };
            done(model)
        }

        Action::Click(place) => {
            model.cursor = place;
            let player = edits::colour_at(&model.position.board, place).unwrap_or(model.brush);
            update(model, Action::AddChecker(player))
        }
        Action::RightClick(place) => {
            model.cursor = place;
            update(model, Action::RemoveChecker)
        }
        // Scrolling up adds as a click does; down removes as a right-click.
        Action::Scroll(place, delta) if delta > 0 => update(model, Action::Click(place)),
        Action::Scroll(place, _) => update(model, Action::RightClick(place)),

        Action::SaveFailed(e) => refuse(
            model,
            format!("could not save the position ({e}); it will not be reopened next time"),
        ),

        Action::Library(a) => super::library::update::update(model, a),

        Action::Quit => {
            model.quitting = true;
            (model, vec![Effect::Quit])
        }
    }
}

/// Undo (`back`) or redo: swap in a remembered position.
fn travel(mut model: Model, back: bool) -> (Model, Vec<Effect>) {
    let current = model.position.clone();
    let moved = if back {
        model.history.back(current)
    } else {
        model.history.forward(current)
    };
    let Some(position) = moved else {
        return refuse(
            model,
            format!("nothing to {}", if back { "undo" } else { "redo" }),
        );
    };
    model.position = position;
    model.status = Status::info(if back {
        format!("Undone ({} more to undo)", model.history.undo.len())
    } else {
        format!("Redone ({} more to redo)", model.history.redo.len())
    });
    let save = Effect::Save(model.position.clone());
    (model, vec![save])
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

fn done(model: Model) -> (Model, Vec<Effect>) {
    (model, Vec::new())
}

fn refuse(mut model: Model, message: String) -> (Model, Vec<Effect>) {
    model.status = Status::error(message);
    (model, Vec::new())
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Makes `next` the position, if it is legal, remembering the old one.
pub(super) fn commit(mut model: Model, next: Position, message: &str) -> (Model, Vec<Effect>) {
    if let Err(e) = next.validate() {
        return refuse(model, e.to_string());
    }
    model.status = Status::success(message);
    if next == model.position {
        return done(model);
    }
    let previous = std::mem::replace(&mut model.position, next);
    model.history.record(previous);
    let save = Effect::Save(model.position.clone());
    (model, vec![save])
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
