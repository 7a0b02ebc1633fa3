//! The editor's reducer, action by action: what each does to the model and
//! which effects it asks for. No terminal involved.

use crate::common::keys::run;
use bgedit_core::codec::{IdFormat, to_string_as};
use bgedit_core::domain::{CubeOwner, GameState, Place, Player, Position, Resignation};
use bgedit_tui::action::{Action, BoardAction, CopyAction, CopyRoute, CopyTarget, Direction};
use bgedit_tui::copy_menu::state::ClipboardError;
use bgedit_tui::effect::Effect;
use bgedit_tui::model::{HISTORY_LIMIT, Mode, Model, Tone};
use bgedit_tui::prompt::state::PromptKind;
use bgedit_tui::reducer::update;
use bgedit_tui::save_error::SaveError;

fn at(place: Place) -> Model {
    Model {
        cursor: place,
        ..Model::default()
    }
}

fn gnubg_id(m: &Model) -> String {
    to_string_as(&m.position, IdFormat::GnubgId)
}

fn is_error(m: &Model) -> bool {
    m.status.tone == Tone::Error
}

#[test]
fn move_and_go_to_move_only_the_cursor() {
    let m = at(Place::Point(6));
    let (m2, effects) = update(m.clone(), Action::Board(BoardAction::Move(Direction::Left)));
    assert_eq!(m2.cursor, Place::Bar(Player::X));
    assert!(effects.is_empty());
    assert_eq!(m2.position, m.position);
    let (m3, _) = update(m2, Action::Board(BoardAction::GoTo(Place::Off(Player::O))));
    assert_eq!(m3.cursor, Place::Off(Player::O));
}

#[test]
fn add_checker_takes_from_the_tray_saves_and_can_be_undone() {
    let m = run(
        Model::default(),
        [
            Action::Board(BoardAction::EmptyBoard),
            Action::Board(BoardAction::GoTo(Place::Point(6))),
        ],
    );
    let (m, effects) = update(m, Action::Board(BoardAction::AddChecker(Player::X)));
    assert_eq!(m.position.board.count(Player::X, Place::Point(6)), 1);
    assert_eq!(m.position.board.borne_off(Player::X), 14);
    // Saved, and the new position goes to gnubg at 0-ply.
    assert_eq!(effects[0], Effect::Save(m.position.clone()));
    assert!(
        matches!(&effects[1], Effect::Analyse(_, r) if r.plies == 0 && r.position == m.position)
    );
    assert_eq!(m.brush, Player::X);
    let m = run(m, [Action::Undo]);
    assert_eq!(m.position.board.count(Player::X, Place::Point(6)), 0);
}

#[test]
fn a_sixteenth_checker_or_a_second_colour_is_refused_and_changes_nothing() {
    let m = at(Place::Point(6));
    let (after, effects) = update(m.clone(), Action::Board(BoardAction::AddChecker(Player::X)));
    assert!(is_error(&after));
    assert!(effects.is_empty());
    assert_eq!(after.position, m.position);
    let (after, _) = update(m.clone(), Action::Board(BoardAction::AddChecker(Player::O)));
    assert_eq!(
        after.status.text,
        "point 6 holds X's checkers: remove them first"
    );
    assert_eq!(after.position, m.position);
}

#[test]
fn remove_and_clear_send_checkers_to_the_tray() {
    let m = run(
        at(Place::Point(13)),
        [Action::Board(BoardAction::RemoveChecker)],
    );
    assert_eq!(m.position.board.count(Player::X, Place::Point(13)), 4);
    assert_eq!(m.position.board.borne_off(Player::X), 1);
    let m = run(m, [Action::Board(BoardAction::ClearPlace)]);
    assert_eq!(m.position.board.count(Player::X, Place::Point(13)), 0);
    assert_eq!(m.position.board.borne_off(Player::X), 5);
    let m = run(
        at(Place::Point(2)),
        [Action::Board(BoardAction::RemoveChecker)],
    );
    assert!(is_error(&m));
}

#[test]
fn set_count_sets_the_count_in_the_colour_there() {
    let m = run(
        Model::default(),
        [
            Action::Board(BoardAction::EmptyBoard),
            Action::Board(BoardAction::GoTo(Place::Point(20))),
            Action::Board(BoardAction::SetCount(Some(Player::O), 15)),
        ],
    );
    assert_eq!(m.position.board.count(Player::O, Place::Point(20)), 15);
    let m = run(m, [Action::Board(BoardAction::SetCount(None, 3))]);
    assert_eq!(m.position.board.count(Player::O, Place::Point(20)), 3);
    let m = run(
        m,
        [Action::Board(BoardAction::SetCount(Some(Player::X), 2))],
    );
    assert!(is_error(&m), "the point holds O's checkers");
}

#[test]
fn whole_board_commands() {
    let m = run(Model::default(), [Action::Board(BoardAction::EmptyBoard)]);
    assert_eq!(m.position.board.borne_off(Player::O), 15);
    let m = run(m, [Action::Board(BoardAction::StartingPosition)]);
    assert_eq!(gnubg_id(&m), "4HPwATDgc/ABMA:cAkAAAAAAAAA");
    let m = run(m, [Action::Board(BoardAction::SwitchOnRoll)]);
    assert_eq!(m.position.state.on_roll, Player::O);
    assert_eq!(m.position.state.turn, Player::O);
}

#[test]
fn swap_players_mirrors_everything_and_the_cursor_follows() {
    let base = Model::default();
    let imported = run(
        base,
        [
            Action::Import("4NvBA0DGzooBBg:QYkqASAAIAAA".into()),
            Action::Board(BoardAction::GoTo(Place::Point(6))),
        ],
    );
    let m = run(imported.clone(), [Action::Board(BoardAction::SwapPlayers)]);
    assert_eq!(m.position, imported.position.mirrored());
    assert_eq!(m.position.state.cube_owner, CubeOwner::Owned(Player::X));
    assert_eq!(m.position.state.score, [4, 2]);
    assert_eq!(m.cursor, Place::Point(19));
    // The same game from the other seat: the Position ID is unchanged.
    assert_eq!(
        to_string_as(&m.position, IdFormat::PositionId),
        "4NvBA0DGzooBBg"
    );
}

#[test]
fn cube_value_owner_and_offer() {
    let m = run(
        Model::default(),
        [
            Action::Board(BoardAction::CubeUp),
            Action::Board(BoardAction::CubeUp),
        ],
    );
    assert_eq!(m.position.state.cube_value(), 4);
    let m = run(m, [Action::Board(BoardAction::CubeDown)]);
    assert_eq!(m.position.state.cube_value(), 2);
    let m = run(m, [Action::Board(BoardAction::NextCubeOwner)]);
    assert_eq!(m.position.state.cube_owner, CubeOwner::Owned(Player::O));
    // O owns the cube and X is on roll: X cannot double.
    let refused = run(m.clone(), [Action::Board(BoardAction::ToggleDoubleOffered)]);
    assert!(is_error(&refused));
    let m = run(m, [Action::Board(BoardAction::NextCubeOwner)]);
    assert_eq!(m.position.state.cube_owner, CubeOwner::Owned(Player::X));
    let m = run(
        m,
        [
            Action::Board(BoardAction::SetDice(Some([3, 1]))),
            Action::Board(BoardAction::ToggleDoubleOffered),
        ],
    );
    assert!(m.position.state.double_offered);
    assert_eq!(m.position.state.turn, Player::O, "O must answer the double");
    assert_eq!(
        m.position.state.dice, None,
        "a double comes before the roll"
    );
    let m = run(
        m,
        [
            Action::Board(BoardAction::NextCubeOwner),
            Action::Board(BoardAction::ToggleDoubleOffered),
        ],
    );
    assert!(!m.position.state.double_offered);
    assert_eq!(m.position.state.turn, Player::X);
    let mut top = Model::default();
    top.position.state.cube_log2 = 15;
    assert!(is_error(&run(top, [Action::Board(BoardAction::CubeUp)])));
    assert!(is_error(&run(
        Model::default(),
        [Action::Board(BoardAction::CubeDown)]
    )));
}

#[test]
fn dice() {
    let m = run(
        Model::default(),
        [Action::Board(BoardAction::SetDice(Some([5, 2])))],
    );
    assert_eq!(m.position.state.dice, Some([5, 2]));
    assert_eq!(gnubg_id(&m), "4HPwATDgc/ABMA:cIkKAAAAAAAA");
    let m = run(m, [Action::Board(BoardAction::SetDice(None))]);
    assert_eq!(m.position.state.dice, None);
}

#[test]
fn match_length_score_and_crawford() {
    let m = run(
        Model::default(),
        [
            Action::Board(BoardAction::SetMatchLength(7)),
            Action::Board(BoardAction::SetScore([6, 3])),
            Action::Board(BoardAction::ToggleCrawford),
        ],
    );
    let s = &m.position.state;
    assert_eq!((s.match_length, s.score, s.crawford), (7, [6, 3], true));
    let one = run(
        m.clone(),
        [Action::Board(BoardAction::SetPlayerScore(Player::X, 5))],
    );
    assert_eq!(one.position.state.score, [6, 5]);
    // A score at the length, or a length at a score, is refused.
    assert!(is_error(&run(
        m.clone(),
        [Action::Board(BoardAction::SetScore([7, 0]))]
    )));
    assert!(is_error(&run(
        m.clone(),
        [Action::Board(BoardAction::SetMatchLength(5))]
    )));
    // Money: Crawford goes, and cannot come back.
    let money = run(m, [Action::Board(BoardAction::SetMatchLength(0))]);
    assert!(!money.position.state.crawford);
    assert!(is_error(&run(
        money,
        [Action::Board(BoardAction::ToggleCrawford)]
    )));
}

#[test]
fn jacoby_and_beavers_apply_to_money_only() {
    let m = run(
        Model::default(),
        [
            Action::Board(BoardAction::ToggleJacoby),
            Action::Board(BoardAction::ToggleBeavers),
        ],
    );
    assert!(!m.position.state.jacoby);
    assert!(!m.position.state.beavers);
    assert_eq!(gnubg_id(&m), "4HPwATDgc/ABMA:cAkAAAAAAAAE");
    let matchplay = run(m, [Action::Board(BoardAction::SetMatchLength(5))]);
    for action in [
        Action::Board(BoardAction::ToggleJacoby),
        Action::Board(BoardAction::ToggleBeavers),
    ] {
        let after = run(matchplay.clone(), [action]);
        assert!(is_error(&after));
        assert_eq!(after.position, matchplay.position);
    }
}

#[test]
fn names_resignation_and_game_state() {
    let m = run(
        Model::default(),
        [Action::Board(BoardAction::SetName(
            Player::O,
            " Kit ".into(),
        ))],
    );
    assert_eq!(m.position.names.o, "Kit");
    let m = run(
        m,
        [
            Action::Board(BoardAction::NextResignation),
            Action::Board(BoardAction::NextResignation),
        ],
    );
    assert_eq!(m.position.state.resignation, Resignation::Gammon);
    assert_eq!(m.position.state.turn, Player::O);
    let m = run(
        m,
        [
            Action::Board(BoardAction::NextResignation),
            Action::Board(BoardAction::NextResignation),
        ],
    );
    assert_eq!(m.position.state.resignation, Resignation::None);
    assert_eq!(m.position.state.turn, Player::X);
    let m = run(m, [Action::Board(BoardAction::NextGameState)]);
    assert_eq!(m.position.state.game_state, GameState::Over);
}

#[test]
fn undo_and_redo_walk_the_history() {
    let m = run(
        Model::default(),
        [
            Action::Board(BoardAction::CubeUp),
            Action::Board(BoardAction::CubeUp),
            Action::Undo,
        ],
    );
    assert_eq!(m.position.state.cube_value(), 2);
    let m = run(m, [Action::Redo]);
    assert_eq!(m.position.state.cube_value(), 4);
    assert!(is_error(&run(m.clone(), [Action::Redo])));
    let m = run(m, [Action::Undo, Action::Undo]);
    assert_eq!(m.position, Position::default());
    assert!(is_error(&run(m.clone(), [Action::Undo])));
    // A new edit forgets what was undone.
    let m = run(m, [Action::Redo, Action::Board(BoardAction::SwitchOnRoll)]);
    assert!(m.history.redo.is_empty());
}

#[test]
fn undo_remembers_at_least_a_hundred_steps() {
    let mut m = Model::default();
    for _ in 0..150 {
        m = run(m, [Action::Board(BoardAction::SwitchOnRoll)]);
    }
    assert_eq!(m.history.undo.len(), 150);
    for _ in 0..150 {
        m = run(m, [Action::Undo]);
        assert!(!is_error(&m));
    }
    assert_eq!(m.position, Position::default());
    const { assert!(HISTORY_LIMIT >= 100) };
}

#[test]
fn copy_asks_for_the_clipboard_and_reports_honestly() {
    let (m, effects) = update(
        Model::default(),
        Action::Copy(CopyAction::Text(CopyTarget::Xgid)),
    );
    assert_eq!(
        effects,
        vec![Effect::Copy {
            target: CopyTarget::Xgid,
            text: "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10".into()
        }]
    );
    let (_, effects) = update(
        m.clone(),
        Action::Copy(CopyAction::Text(CopyTarget::BoardText)),
    );
    assert!(matches!(&effects[0], Effect::Copy { text, .. } if text.lines().count() == 15));
    let sys = run(
        m.clone(),
        [Action::Copy(CopyAction::Copied(
            CopyTarget::GnubgId,
            Ok(CopyRoute::System),
        ))],
    );
    assert_eq!(sys.status.text, "GNUBG ID copied to the clipboard");
    let osc = run(
        m.clone(),
        [Action::Copy(CopyAction::Copied(
            CopyTarget::GnubgId,
            Ok(CopyRoute::Osc52 { under_tmux: false }),
        ))],
    );
    assert!(osc.status.text.contains("OSC 52"));
    assert!(!osc.status.text.contains("tmux"), "{}", osc.status.text);
    // Under tmux, whose default drops OSC 52, the message says what lets
    // it through.
    let tmux = run(
        m.clone(),
        [Action::Copy(CopyAction::Copied(
            CopyTarget::GnubgId,
            Ok(CopyRoute::Osc52 { under_tmux: true }),
        ))],
    );
    assert!(
        tmux.status.text.contains("set -g set-clipboard on"),
        "{}",
        tmux.status.text
    );
    let failed = run(
        m,
        [Action::Copy(CopyAction::Copied(
            CopyTarget::GnubgId,
            Err(ClipboardError::Read {
                reason: "no way".into(),
            }),
        ))],
    );
    assert!(is_error(&failed));
    // What the copied ID cannot hold is said.
    let resigned = run(
        Model::default(),
        [
            Action::Board(BoardAction::NextResignation),
            Action::Copy(CopyAction::Copied(CopyTarget::Xgid, Ok(CopyRoute::System))),
        ],
    );
    assert!(
        resigned
            .status
            .text
            .contains("note: the resignation on offer (single game) is not kept"),
        "{}",
        resigned.status.text
    );
}

#[test]
fn paste_reads_the_clipboard_then_imports() {
    let (m, effects) = update(Model::default(), Action::Paste);
    assert_eq!(effects, vec![Effect::ReadClipboard]);
    let m = run(
        m,
        [Action::Pasted(Ok(
            "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:0:0:3:0:10".into(),
        ))],
    );
    assert_eq!(m.position.state.cube_owner, CubeOwner::Owned(Player::X));
    let failed = run(
        m.clone(),
        [Action::Pasted(Err(ClipboardError::Read {
            reason: "no display".into(),
        }))],
    );
    assert!(is_error(&failed));
    assert_eq!(failed.position, m.position);
}

/// The model knows whether the position came from a paste: every way in
/// (clipboard, a bracketed or burst paste, the ID line) is an `Import`;
/// an edit by keys makes it typed; undo back to the pasted one makes it
/// pasted again; a bad paste changes nothing.
#[test]
fn the_model_knows_a_pasted_position_until_it_is_edited() {
    let is_pasted = |m: &Model| m.pasted.as_ref() == Some(&m.position);
    let m = Model::default();
    assert!(!is_pasted(&m));
    let m = run(
        m,
        [Action::Pasted(Ok("4NvBA0DGzooBBg:QYkqASAAIAAA".into()))],
    );
    assert!(is_pasted(&m));
    let m = run(m, [Action::Board(BoardAction::SetMatchLength(5))]);
    assert!(!is_pasted(&m));
    let m = run(m, [Action::Undo]);
    assert!(is_pasted(&m));
    let m = run(m, [Action::Import("not an id".into())]);
    assert!(is_error(&m));
    assert!(is_pasted(&m));
    // The ID line: typed into the prompt, submitted.
    let mut m = run(
        m,
        [
            Action::Board(BoardAction::StartingPosition),
            Action::OpenPrompt(PromptKind::Import),
        ],
    );
    assert!(!is_pasted(&m));
    m = run(m, [Action::Prompt(bgedit_tui::action::PromptAction::Clear)]);
    m = run(
        m,
        "XGID=-CCBBBB------------bbbbcc-:2:0:1:00:0:0:0:0:10"
            .chars()
            .map(|x| Action::Prompt(bgedit_tui::action::PromptAction::Char(x))),
    );
    let m = run(
        m,
        [Action::Prompt(bgedit_tui::action::PromptAction::Submit)],
    );
    assert_eq!(m.mode, Mode::Normal);
    assert!(is_pasted(&m));
    let m = run(m, [Action::Board(BoardAction::CubeUp)]);
    assert!(!is_pasted(&m));
}

#[test]
fn a_bad_id_shows_the_core_message_and_changes_nothing() {
    let m = Model::default();
    let (after, effects) = update(m.clone(), Action::Import("4HPwATDgc/ABM".into()));
    assert_eq!(
        after.status.text,
        "Position ID: 13 characters; a Position ID has 14"
    );
    assert!(is_error(&after));
    assert!(effects.is_empty());
    assert_eq!(after.position, m.position);
}

#[test]
fn import_keeps_the_names_and_reads_lone_ids_against_the_current_position() {
    let m = run(
        Model::default(),
        [
            Action::Board(BoardAction::SetName(Player::X, "Kit".into())),
            Action::Board(BoardAction::SetMatchLength(9)),
        ],
    );
    let m = run(m, [Action::Import("4NvBA0DGzooBBg".into())]);
    assert_eq!(m.position.names.x, "Kit");
    assert_eq!(
        m.position.state.match_length, 9,
        "a Position ID alone keeps the match"
    );
    let m = run(m, [Action::Import("cAkAAAAAAAAA".into())]);
    assert_eq!(m.position.state.match_length, 0);
    assert_eq!(
        to_string_as(&m.position, IdFormat::PositionId),
        "4NvBA0DGzooBBg"
    );
}

#[test]
fn the_input_line_collects_text_and_applies_it() {
    let m = run(
        Model::default(),
        [
            Action::OpenPrompt(PromptKind::Dice),
            Action::Prompt(bgedit_tui::action::PromptAction::Char('2')),
            Action::Prompt(bgedit_tui::action::PromptAction::Char('5')),
            Action::Prompt(bgedit_tui::action::PromptAction::Submit),
        ],
    );
    assert_eq!(m.mode, Mode::Normal);
    assert_eq!(m.position.state.dice, Some([5, 2]));
    // A bad entry keeps the line open with an error.
    let m = run(
        m,
        [
            Action::OpenPrompt(PromptKind::MatchLength),
            Action::Prompt(bgedit_tui::action::PromptAction::Char('z')),
            Action::Prompt(bgedit_tui::action::PromptAction::Submit),
        ],
    );
    assert!(matches!(m.mode, Mode::Prompt(_)));
    assert!(is_error(&m));
    let m = run(
        m,
        [
            Action::Prompt(bgedit_tui::action::PromptAction::Backspace),
            Action::Prompt(bgedit_tui::action::PromptAction::Char('7')),
            Action::Prompt(bgedit_tui::action::PromptAction::Submit),
        ],
    );
    assert_eq!(m.position.state.match_length, 7);
    let m = run(
        m,
        [
            Action::OpenPrompt(PromptKind::Import),
            Action::Prompt(bgedit_tui::action::PromptAction::Paste(
                "Position ID: 4NvBA0DGzooBBg\nMatch ID   : QYkqASAAIAAA".into(),
            )),
            Action::Prompt(bgedit_tui::action::PromptAction::Submit),
        ],
    );
    assert_eq!(gnubg_id(&m), "4NvBA0DGzooBBg:QYkqASAAIAAA");
    let m = run(
        m,
        [
            Action::OpenPrompt(PromptKind::Score),
            Action::Prompt(bgedit_tui::action::PromptAction::Char('1')),
            Action::Prompt(bgedit_tui::action::PromptAction::Clear),
            Action::Prompt(bgedit_tui::action::PromptAction::Cancel),
        ],
    );
    assert_eq!(m.mode, Mode::Normal);
}

#[test]
fn names_are_asked_for_o_then_x() {
    let m = run(
        Model::default(),
        [
            Action::OpenPrompt(PromptKind::Name(Player::O)),
            Action::Prompt(bgedit_tui::action::PromptAction::Clear),
        ],
    );
    let m = run(
        m,
        "Ann"
            .chars()
            .map(|x| Action::Prompt(bgedit_tui::action::PromptAction::Char(x))),
    );
    let m = run(
        m,
        [Action::Prompt(bgedit_tui::action::PromptAction::Submit)],
    );
    assert!(
        matches!(&m.mode, Mode::Prompt(p) if p.kind == PromptKind::Name(Player::X) && p.line.text == "Black")
    );
    let m = run(
        m,
        [
            Action::Prompt(bgedit_tui::action::PromptAction::Clear),
            Action::Prompt(bgedit_tui::action::PromptAction::Char('B')),
            Action::Prompt(bgedit_tui::action::PromptAction::Submit),
        ],
    );
    assert_eq!(
        (m.position.names.o.as_str(), m.position.names.x.as_str()),
        ("Ann", "B")
    );
    assert_eq!(m.mode, Mode::Normal);
}

#[test]
fn help_toggles() {
    let m = run(Model::default(), [Action::ToggleHelp]);
    assert_eq!(m.mode, Mode::Help);
    assert_eq!(run(m, [Action::ToggleHelp]).mode, Mode::Normal);
}

#[test]
fn mouse_click_adds_right_click_removes_scroll_changes_the_count() {
    let m = run(
        Model::default(),
        [Action::Board(BoardAction::RightClick(Place::Point(13)))],
    );
    assert_eq!(m.cursor, Place::Point(13));
    assert_eq!(m.position.board.count(Player::X, Place::Point(13)), 4);
    let m = run(m, [Action::Board(BoardAction::Click(Place::Point(13)))]);
    assert_eq!(m.position.board.count(Player::X, Place::Point(13)), 5);
    let m = run(
        m,
        [
            Action::Board(BoardAction::Scroll(Place::Point(13), -1)),
            Action::Board(BoardAction::Scroll(Place::Point(13), -1)),
        ],
    );
    assert_eq!(m.position.board.count(Player::X, Place::Point(13)), 3);
    let m = run(m, [Action::Board(BoardAction::Scroll(Place::Point(13), 1))]);
    assert_eq!(m.position.board.count(Player::X, Place::Point(13)), 4);
}

#[test]
fn save_failures_are_reported() {
    let full = SaveError::Write {
        path: "/state/position.json".into(),
        reason: "disk full".into(),
    };
    let m = run(Model::default(), [Action::SaveFailed(full)]);
    assert!(is_error(&m));
    assert!(m.status.text.contains("disk full"));
}

/// Background work that panicked is shown, what it was doing and why, and
/// nothing else changes: the position stays, nothing is asked.
#[test]
fn a_job_that_stopped_on_an_internal_error_is_reported() {
    let failed = bgedit_tui::action::JobFailed {
        what: "reading the MET file".to_owned(),
        why: "bgedit-met: oops".to_owned(),
    };
    let before = Model::default();
    let (m, effects) = update(before.clone(), Action::JobFailed(failed));
    assert!(is_error(&m));
    assert_eq!(
        m.status.text,
        "reading the MET file: stopped on an internal error (bgedit-met: oops)"
    );
    assert_eq!(m.position, before.position);
    assert!(effects.is_empty(), "{effects:?}");
}

#[test]
fn quit_asks_the_runtime_to_leave() {
    let (m, effects) = update(Model::default(), Action::Quit);
    assert!(m.quitting);
    assert_eq!(effects, vec![Effect::Quit]);
}

fn prompt_of(m: &Model) -> &bgedit_tui::prompt::state::Prompt {
    match &m.mode {
        Mode::Prompt(p) => p,
        other => panic!("no input line open: {other:?}"),
    }
}

fn submit(m: Model, kind: PromptKind, text: &str) -> Model {
    run(
        m,
        [
            Action::OpenPrompt(kind),
            Action::Prompt(bgedit_tui::action::PromptAction::Clear),
            Action::Prompt(bgedit_tui::action::PromptAction::Paste(text.into())),
            Action::Prompt(bgedit_tui::action::PromptAction::Submit),
        ],
    )
}

#[test]
fn a_rule_refusal_keeps_the_input_line_open_with_the_message() {
    // X's 6 point holds X's checkers: "o3" there is refused by the rules,
    // not by the text.
    let m = submit(at(Place::Point(6)), PromptKind::Count, "o3");
    assert!(is_error(&m));
    assert!(
        m.status.text.contains("holds X's checkers"),
        "{}",
        m.status.text
    );
    let p = prompt_of(&m);
    assert_eq!((p.kind, p.line.text.as_str()), (PromptKind::Count, "o3"));
    // So does a score at or above the match length, and a bad name.
    let m = submit(Model::default(), PromptKind::MatchLength, "5");
    let m = submit(m, PromptKind::Score, "5-1");
    assert!(is_error(&m));
    assert_eq!(prompt_of(&m).line.text, "5-1");
    // Fixed in place, it applies and closes.
    let m = run(
        m,
        [
            Action::Prompt(bgedit_tui::action::PromptAction::Move(
                bgedit_tui::prompt::state::Motion::Home,
            )),
            Action::Prompt(bgedit_tui::action::PromptAction::Delete),
            Action::Prompt(bgedit_tui::action::PromptAction::Char('3')),
            Action::Prompt(bgedit_tui::action::PromptAction::Submit),
        ],
    );
    assert_eq!(m.mode, Mode::Normal);
    assert_eq!(m.position.state.score, [3, 1]);
}

#[test]
fn dice_match_and_score_prompts_start_with_the_current_value() {
    let m = run(
        Model::default(),
        [Action::Import("4NvBA0DGzooBBg:QYkqASAAIAAA".into())],
    );
    for (kind, value) in [
        (PromptKind::Dice, "52"),
        (PromptKind::MatchLength, "9"),
        (PromptKind::Score, "2-4"),
    ] {
        let m = run(m.clone(), [Action::OpenPrompt(kind)]);
        let p = prompt_of(&m);
        assert_eq!(p.line.text, value, "{kind:?}");
        assert!(p.line.selected);
        // Enter keeps it; typing replaces it.
        let kept = run(
            m.clone(),
            [Action::Prompt(bgedit_tui::action::PromptAction::Submit)],
        );
        assert_eq!(kept.position, m.position, "{kind:?}");
        assert_eq!(kept.mode, Mode::Normal);
    }
    let m = run(
        m,
        [
            Action::OpenPrompt(PromptKind::Dice),
            Action::Prompt(bgedit_tui::action::PromptAction::Char('6')),
            Action::Prompt(bgedit_tui::action::PromptAction::Char('3')),
            Action::Prompt(bgedit_tui::action::PromptAction::Submit),
        ],
    );
    assert_eq!(m.position.state.dice, Some([6, 3]));
    let m = run(Model::default(), [Action::OpenPrompt(PromptKind::Dice)]);
    assert_eq!(prompt_of(&m).line.text, "", "not rolled: empty");
}

#[test]
fn undo_and_redo_say_what_they_took_back() {
    let m = run(
        Model::default(),
        [
            Action::Board(BoardAction::EmptyBoard),
            Action::Board(BoardAction::GoTo(Place::Point(6))),
            Action::Board(BoardAction::AddChecker(Player::X)),
        ],
    );
    let m = run(m, [Action::Undo]);
    assert_eq!(
        m.status.text,
        "Undid: X checker added on point 6 (1 more to undo)"
    );
    let m = run(m, [Action::Undo]);
    assert!(
        m.status.text.starts_with("Undid: Empty board"),
        "{}",
        m.status.text
    );
    let m = run(m, [Action::Redo]);
    assert!(
        m.status.text.starts_with("Redid: Empty board"),
        "{}",
        m.status.text
    );
    let m = submit(m, PromptKind::Dice, "31");
    let m = run(m, [Action::Undo]);
    assert_eq!(m.status.text, "Undid: X rolled 31 (1 more to undo)");
}

#[test]
fn zero_on_a_tray_brings_its_checkers_back_as_one_to_nine_set_them() {
    let m = run(
        at(Place::Off(Player::X)),
        [Action::Board(BoardAction::SetCount(None, 3))],
    );
    assert_eq!(m.position.board.borne_off(Player::X), 3);
    let (m, effects) = update(m, Action::Board(BoardAction::ClearPlace));
    assert!(!is_error(&m), "{}", m.status.text);
    assert_eq!(m.position.board.borne_off(Player::X), 0);
    let saves = effects.iter().filter(|e| matches!(e, Effect::Save(_)));
    assert_eq!(saves.count(), 1);
    let m = run(
        m,
        [
            Action::Board(BoardAction::SetCount(None, 2)),
            Action::Board(BoardAction::SetCount(None, 0)),
        ],
    );
    assert_eq!(m.position.board.borne_off(Player::X), 0);
}

#[test]
fn a_click_selects_and_a_second_click_adds() {
    let m = run(Model::default(), [Action::Board(BoardAction::EmptyBoard)]);
    let (m, effects) = update(m, Action::Board(BoardAction::Click(Place::Point(4))));
    assert_eq!(m.cursor, Place::Point(4));
    assert!(effects.is_empty(), "selecting edits nothing");
    assert_eq!(m.position.board.occupant(Place::Point(4)), None);
    assert!(m.status.text.contains("click again"), "{}", m.status.text);
    let m = run(m, [Action::Board(BoardAction::Click(Place::Point(4)))]);
    assert_eq!(
        m.position.board.occupant(Place::Point(4)),
        Some((Player::X, 1))
    );
    // A modifier-click (AddAt) adds at once, elsewhere too, with the brush.
    let m = run(
        m,
        [
            Action::Board(BoardAction::AddChecker(Player::O)),
            Action::Board(BoardAction::AddAt(Place::Point(9))),
        ],
    );
    assert_eq!(m.cursor, Place::Point(9));
    assert_eq!(
        m.position.board.occupant(Place::Point(9)),
        Some((Player::O, 1))
    );
    // Right-click still removes at once.
    let m = run(m, [Action::Board(BoardAction::RightClick(Place::Point(4)))]);
    assert_eq!(m.position.board.occupant(Place::Point(4)), None);
}

#[test]
fn away_scores_set_the_score_and_one_away_offers_crawford() {
    let m = submit(Model::default(), PromptKind::MatchLength, "7");
    let m = submit(m, PromptKind::Score, "3-away 5-away");
    assert_eq!(m.position.state.score, [4, 2]);
    assert_eq!(m.mode, Mode::Normal, "nobody 1-away: no question");
    let m = submit(m, PromptKind::Score, "x -1");
    assert_eq!(m.position.state.score, [4, 6]);
    assert_eq!(prompt_of(&m).kind, PromptKind::CrawfordOffer(Player::X));
    // y answers at once, and is undone on its own.
    let yes = run(
        m.clone(),
        [Action::Prompt(bgedit_tui::action::PromptAction::Char('y'))],
    );
    assert!(yes.position.state.crawford);
    assert_eq!(yes.mode, Mode::Normal);
    let undone = run(yes, [Action::Undo]);
    assert!(!undone.position.state.crawford);
    assert_eq!(undone.position.state.score, [4, 6]);
    assert!(
        undone.status.text.starts_with("Undid: Crawford game on"),
        "{}",
        undone.status.text
    );
    // n or Esc leaves it off.
    for answer in [
        Action::Prompt(bgedit_tui::action::PromptAction::Char('n')),
        Action::Prompt(bgedit_tui::action::PromptAction::Cancel),
    ] {
        let no = run(m.clone(), [answer]);
        assert!(!no.position.state.crawford);
        assert_eq!(no.mode, Mode::Normal);
        assert_eq!(no.history, m.history);
    }
    // Another key is refused and the question stays.
    let other = run(
        m.clone(),
        [Action::Prompt(bgedit_tui::action::PromptAction::Char('c'))],
    );
    assert!(is_error(&other));
    assert_eq!(prompt_of(&other).kind, PromptKind::CrawfordOffer(Player::X));
    // Only the first time: already 1-away, no question.
    let again = submit(
        run(
            m,
            [Action::Prompt(bgedit_tui::action::PromptAction::Char('n'))],
        ),
        PromptKind::Score,
        "o 3-away",
    );
    assert_eq!(again.position.state.score, [4, 6]);
    assert_eq!(again.mode, Mode::Normal);
}

#[test]
fn the_cube_below_two_is_centred_and_the_start_has_no_dice_or_owned_cube() {
    // A 2-cube owned by X, turned down: a 1-cube is never owned.
    let m = run(
        Model::default(),
        [
            Action::Board(BoardAction::CubeUp),
            Action::Board(BoardAction::NextCubeOwner),
            Action::Board(BoardAction::NextCubeOwner),
        ],
    );
    assert_eq!(m.position.state.cube_owner, CubeOwner::Owned(Player::X));
    let m = run(m, [Action::Board(BoardAction::CubeDown)]);
    assert_eq!(m.position.state.cube_value(), 1);
    assert_eq!(m.position.state.cube_owner, CubeOwner::Centred);
    assert!(m.position.validate().unwrap().is_empty(), "no warning left");
    // `S` on a position with dice and an owned 4-cube: the start has neither.
    let m = run(
        m,
        [
            Action::Board(BoardAction::CubeUp),
            Action::Board(BoardAction::CubeUp),
            Action::Board(BoardAction::NextCubeOwner),
            Action::Board(BoardAction::SetDice(Some([6, 3]))),
            Action::Board(BoardAction::StartingPosition),
        ],
    );
    let s = &m.position.state;
    assert_eq!(
        (s.dice, s.cube_value(), s.cube_owner),
        (None, 1, CubeOwner::Centred)
    );
    assert_eq!(gnubg_id(&m), "4HPwATDgc/ABMA:cAkAAAAAAAAA");
}

/// A whole match pasted with carriage returns for line ends (xterm, VTE
/// and tmux's `paste-buffer -p` send them) or CR LF opens in the match
/// panel as its file does: a `.mat` and gnubg's match text.
#[test]
fn a_match_pasted_with_cr_or_crlf_line_ends_opens_in_the_match_panel() {
    let dir = format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    for file in [
        "analysis/m5_noisy.mat",
        "mat/selfplay_5pt_seed7.mat",
        "match_core/match7.txt",
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        for ends in ["\r", "\r\n"] {
            let pasted = text.replace("\r\n", "\n").replace('\n', ends);
            let m = run(Model::default(), [Action::Import(pasted)]);
            assert!(
                m.review.open.is_some(),
                "{file} with {ends:?}: {}",
                m.status.text
            );
            assert_eq!(m.mode, Mode::Review, "{file} with {ends:?}");
        }
    }
}
