//! The one place the editor's state changes: `update(model, action)` returns
//! the next model and the effects for the runtime to perform. Pure: no
//! terminal, clipboard, file or clock in here.

use super::action::PromptAction;
use super::action::{Action, CopyAction, Direction};
use super::analysis;
use super::copy_menu;
use super::cursor;
use super::edits;
use super::effect::Effect;
use super::model::{Mode, Model, Status, Tone};
use super::on_off;
use super::panels::{self, Panel};
use super::prompt::{self, Prompt, PromptKind};
use super::scores;
use super::signals;
pub use super::transition::{commit, done, refuse};
use crate::codec::{self, IdFormat};
use crate::domain::match_state::MAX_CUBE_LOG2;
use crate::domain::{Board, CubeOwner, GameState, MatchState, Player, Position, Resignation};
use crate::editor::action::AnalysisAction;

/// Applies `action` to `model`, and logs the status message it leaves. Any
/// change of position asks gnubg about the new one (0-ply at once; deeper
/// when the user pauses).
pub fn update(model: Model, action: Action) -> (Model, Vec<Effect>) {
    // Behind the "enlarge" screen nothing shows what a key would do.
    if model.too_small && !acts_behind_the_enlarge_screen(&action) {
        return done(model);
    }
    let before = model.position.clone();
    let serial = model.review.serial;
    let walking = matches!(action, Action::Review(_));
    let (mut next, mut effects) = apply(model, action);
    // Any change of the board but the match panel's own leaves the match
    // (opening one, from a file or a paste, shows its first position).
    let opened = next.review.serial != serial;
    if next.position != before && !walking && !opened {
        super::match_review::update::left(&mut next);
    }
    // The quiz's question played on the board: the move is the answer.
    if next.position != before
        && let Some(answer) = super::library::update::played_on_board(&next)
    {
        next.library.quiz_board = None;
        next.mode = Mode::Library(super::library::LibMode::Review);
        let answer = super::library::LibAction::Answer(
            crate::engine::match_analysis::QuizAnswer::Move(answer),
        );
        let (answered, more) = update(next, Action::Library(answer));
        next = answered;
        effects.extend(more);
    }
    if next.position != before && !effects.iter().any(|e| matches!(e, Effect::Analyse(_))) {
        effects.push(analysis::position_changed(&mut next));
    }
    if next.position != before {
        effects.extend(super::score_matrix::refresh(&mut next));
    }
    // Sage, when on, is asked whatever gnubg is asked for the panel.
    effects.extend(analysis::second_opinion(&mut next, &effects));
    next.log.push(&next.status);
    (next, effects)
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
            | Action::Analysis(AnalysisAction::Answer(..))
            | Action::Analysis(AnalysisAction::SageAnswer(..))
            | Action::Analysis(AnalysisAction::RolloutTick(..))
            | Action::Analysis(AnalysisAction::RolloutProgress(..))
            | Action::Analysis(AnalysisAction::RolloutAnswer(..))
            | Action::Analysis(AnalysisAction::MatrixCell(..))
            | Action::Analysis(AnalysisAction::Paused)
            | Action::Review(
                super::match_review::ReviewAction::Judged(..)
                    | super::match_review::ReviewAction::AnalysisEnded(_)
                    | super::match_review::ReviewAction::Opened(_)
            )
    )
}

fn apply(mut model: Model, action: Action) -> (Model, Vec<Effect>) {
    let on_roll = model.position.state.on_roll;
    match action {
        // Esc stops a rollout before it does anything else.
        Action::Play(super::play::PlayAction::PutBack) if model.analysis.rolling() => {
            analysis::stop_rollout(model)
        }
        // While a move is previewed the list has the focus: ↑↓ walk it.
        Action::Move(d @ (Direction::Up | Direction::Down)) if model.analysis.preview => {
            analysis::select(model, if d == Direction::Up { -1 } else { 1 })
        }
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
            // A game's start: no dice, a centred 1-cube, nothing on offer;
            // the match around it (score, length, rules, names) stays.
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
            // A 1-cube is never owned: it is centred again on the way down.
            if s.cube_log2 == 0 && s.cube_owner != CubeOwner::Centred {
                s.cube_owner = CubeOwner::Centred;
                return Ok("Cube at 1, centred (a 1-cube is never owned)".to_owned());
            }
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
        }),
        Action::SetPlayerScore(player, score) => {
            let mut both = model.position.state.score;
            both[player.index()] = score;
            update(model, Action::SetScore(both))
        }
        Action::SetScore(score) => {
            let before = model.position.state.clone();
            let (mut next, effects) = set_score(model, score);
            if next.status.tone != Tone::Error
                && let Some(player) = scores::newly_one_away(&before, &next.position.state)
            {
                next.mode = Mode::Prompt(Prompt::new(PromptKind::CrawfordOffer(player)));
            }
            (next, effects)
        }
        Action::SetCrawford(on) => edit_state(model, |p| {
            let s = &mut p.state;
            if s.is_money() {
                return Err(
                    "Crawford applies to match play only; set a match length first (m)".to_owned(),
                );
            }
            s.crawford = on;
            Ok(format!("Crawford game {}", on_off(s.crawford)))
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

        Action::Copy(a) => copy_menu::update(model, a),
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
                &prompt::current_value(kind, &model.position),
            ));
            done(model)
        }
        // The line's own edits are the prompt's; what they lead to (a
        // submitted line, a yes/no answer, a completion) comes back here.
        Action::Prompt(PromptAction::Submit) => submit(model),
        Action::Prompt(a) => match prompt::update(model, a) {
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

        // A click selects; a click on the place already selected adds, as
        // in other editors.
        Action::Click(place) if place != model.cursor => {
            model.cursor = place;
            model.status = Status::info(format!(
                "Selected {}: click again (or Ctrl/Alt-click) to add, right-click to remove",
                edits::describe(place, on_roll)
            ));
            // A drag may follow: it picks up the checker here.
            let (before, undo_len) = (model.position.clone(), model.history.undo.len());
            super::play::note_press(&mut model, place, before, undo_len);
            done(model)
        }
        Action::Click(place) | Action::AddAt(place) => {
            model.cursor = place;
            let player = edits::colour_at(&model.position.board, place).unwrap_or(model.brush);
            let (before, undo_len) = (model.position.clone(), model.history.undo.len());
            let (mut next, effects) = update(model, Action::AddChecker(player));
            // A drag may follow: it takes this click back and moves a checker.
            super::play::note_press(&mut next, place, before, undo_len);
            (next, effects)
        }
        Action::RightClick(place) => {
            model.cursor = place;
            update(model, Action::RemoveChecker)
        }
        // Scrolling up adds as a click does; down removes as a right-click.
        Action::Scroll(place, delta) if delta > 0 => update(model, Action::AddAt(place)),
        Action::Scroll(place, _) => update(model, Action::RightClick(place)),

        Action::SaveNotice(text) => {
            model.status = Status::error(text);
            done(model)
        }
        Action::Resized { width, height } => {
            model.too_small = width < panels::MIN_WIDTH || height < panels::MIN_HEIGHT;
            done(model)
        }
        Action::Terminated(signal) => {
            model.quitting = true;
            model.status = Status::info(format!(
                "{} received: saved and left",
                signals::name(signal)
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
        Action::ScrollNumbers(rows) => {
            // Up to its least panel's last page; the view keeps the last
            // page full on taller ones.
            let lines = super::numbers_text::lines(&crate::domain::numbers::compute(
                &model.position,
                &model.met.0,
                model.last_evaluation.as_ref().map(|e| &e.0),
            ));
            let most = lines
                .len()
                .saturating_sub(usize::from(Panel::Numbers.min_rows()));
            model.numbers_scroll = model
                .numbers_scroll
                .saturating_add_signed(rows)
                .min(u16::try_from(most).unwrap_or(u16::MAX));
            done(model)
        }
        Action::LoadMet(path) if path.trim().is_empty() => {
            model.met = super::numbers_state::MetHandle::built_in();
            model.status = Status::success(format!("MET: {} (built in)", model.met.0.name));
            done(model)
        }
        Action::LoadMet(path) => {
            model.status = Status::info(format!("Reading the MET file {path}…"));
            (model, vec![Effect::LoadMet(path)])
        }
        Action::MetLoaded(Ok(met)) => {
            model.status = Status::success(format!("MET: {} ({})", met.0.name, met.0.source));
            if !model.panels.is_on(Panel::Numbers) {
                model.panels.toggle(Panel::Numbers);
            }
            model.met = met;
            done(model)
        }
        Action::MetLoaded(Err(e)) => refuse(model, format!("MET not loaded: {e}")),

        Action::SaveFailed(e) => refuse(
            model,
            format!("could not save the position ({e}); it will not be reopened next time"),
        ),

        Action::Play(action) => super::play::update(model, action),
        Action::Library(a) => super::library::update::update(model, a),
        Action::Review(a) => super::match_review::update::update(model, a),

        Action::Quit => {
            model.quitting = true;
            (model, vec![Effect::Quit])
        }
    }
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

/// Whether an import brought a Match ID's Jacoby bit into a match.
pub fn jacoby_from_match_id(imported: &codec::Imported) -> bool {
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
    model.last_evaluation = None;
    model.status = Status::info(if back {
        format!("Undid: {what} ({} more to undo)", model.history.undo.len())
    } else {
        format!("Redid: {what} ({} more to redo)", model.history.redo.len())
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

/// Edits the input line's text, if it is open.
/// Enter on the input line: the text read into an action and applied; a
/// refusal keeps the line open to fix, and O's name asks X's next.
fn submit(mut model: Model) -> (Model, Vec<Effect>) {
    let Mode::Prompt(prompt) = model.mode.clone() else {
        return done(model);
    };
    match prompt::parse(prompt.kind, &prompt.text, &model.position.state) {
        Ok(action) => {
            // The action may open another question (the Crawford
            // offer); otherwise the line closes.
            model.mode = Mode::Normal;
            let (mut next, effects) = update(model, action);
            if next.status.tone == Tone::Error {
                // Any refusal, of the text or of the rules, keeps
                // the line open to fix, with the message.
                next.mode = Mode::Prompt(Prompt {
                    selected: false,
                    ..prompt
                });
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

/// Text pasted or typed into the ID line: a whole match opens in the match
/// panel, as its file would; anything else is read as one position.
fn import(mut model: Model, text: String) -> (Model, Vec<Effect>) {
    if let Some(loaded) = super::match_review::pasted(&text) {
        let opened = super::match_review::ReviewAction::Opened(Ok(Box::new(loaded)));
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
