//! Playing moves in the editor, action by action through the real reducer:
//! the move line, Tab completion, pick up and drop, dragging, rolling and
//! passing.

use crate::common::keys::run;
use bgedit_core::codec::{IdFormat, to_string_as};
use bgedit_core::domain::{Place, Player, Position};
use bgedit_tui::action::{Action, BoardAction};
use bgedit_tui::effect::Effect;
use bgedit_tui::model::{Mode, Model, Tone};
use bgedit_tui::play::state::PlayAction;
use bgedit_tui::prompt::state::PromptKind;
use bgedit_tui::reducer::update;
use bgedit_tui::snapshot::Snapshot;

fn play(a: PlayAction) -> Action {
    Action::Play(a)
}

fn typed(m: Model, text: &str) -> Model {
    run(
        m,
        text.chars()
            .map(|x| Action::Prompt(bgedit_tui::action::PromptAction::Char(x))),
    )
}

/// The starting position with X to play `dice`.
fn with_dice(dice: [u8; 2]) -> Model {
    let mut m = Model::default();
    m.position.state.dice = Some(dice);
    m
}

fn id(m: &Model) -> String {
    to_string_as(&m.position, IdFormat::GnubgId)
}

#[test]
fn the_move_line_shows_the_dice_and_count_and_plays_undoably() {
    let m = run(with_dice([3, 1]), [play(PlayAction::OpenPrompt)]);
    assert!(matches!(&m.mode, Mode::Prompt(p) if p.kind == PromptKind::Move));
    let snap = Snapshot::of(&m);
    let question = snap.prompt.unwrap().question;
    assert_eq!(question, "Move for X 3-1 (16 legal moves; Tab completes)");

    let before = id(&m);
    let m = typed(m, "8-5 6-5");
    let m = run(
        m,
        [Action::Prompt(bgedit_tui::action::PromptAction::Submit)],
    );
    assert_eq!(m.mode, Mode::Normal);
    assert_eq!(m.status.tone, Tone::Success, "{}", m.status.text);
    assert!(m.status.text.contains("X played 8/5 6/5"));
    // gnubg 1.07 after `move 8/5 6/5` from the opening 3-1.
    assert_eq!(id(&m), "sGfwATDgc/ABMA:MAEAAAAAAAAA");
    let m = run(m, [Action::Undo]);
    assert_eq!(id(&m), before);
}

#[test]
fn a_refused_move_names_the_rule_and_keeps_the_line_open() {
    let m = run(with_dice([6, 1]), [play(PlayAction::OpenPrompt)]);
    let m = run(
        typed(m, "13/7"),
        [Action::Prompt(bgedit_tui::action::PromptAction::Submit)],
    );
    assert_eq!(m.status.tone, Tone::Error);
    assert_eq!(
        m.status.text,
        "must use both dice: a move using both can be played"
    );
    assert!(matches!(&m.mode, Mode::Prompt(p) if p.line.text == "13/7"));
    assert_eq!(
        m.position,
        Position {
            state: m.position.state.clone(),
            ..Position::default()
        }
    );
}

#[test]
fn the_move_line_will_not_open_without_dice() {
    let m = run(Model::default(), [play(PlayAction::OpenPrompt)]);
    assert_eq!(m.mode, Mode::Normal);
    assert_eq!(m.status.tone, Tone::Error);
    assert!(
        m.status.text.contains("no dice rolled"),
        "{}",
        m.status.text
    );
}

#[test]
fn tab_cycles_through_the_legal_moves_starting_with_the_text() {
    let m = run(with_dice([6, 1]), [play(PlayAction::OpenPrompt)]);
    let m = typed(m, "13-");
    let text = |m: &Model| match &m.mode {
        Mode::Prompt(p) => p.line.text.clone(),
        _ => panic!("prompt closed"),
    };
    let mut seen = Vec::new();
    let mut m = m;
    for _ in 0..8 {
        m = run(m, [play(PlayAction::Complete)]);
        seen.push(text(&m));
    }
    assert!(seen.iter().all(|t| t.starts_with("13/")), "{seen:?}");
    // 6-1 from the opening: 13/7 13/12, 13/7 8/7, 13/7 6/5, 13/7 24/23, 13/6 ... cycle back.
    let distinct: std::collections::BTreeSet<_> = seen.iter().collect();
    assert!(distinct.len() >= 3 && distinct.len() < 8, "{seen:?}");
    assert_eq!(seen[0], seen[distinct.len()]);
    assert!(m.status.text.contains("matching moves"));
    let m = run(
        m,
        [Action::Prompt(bgedit_tui::action::PromptAction::Submit)],
    );
    assert_eq!(m.status.tone, Tone::Success, "{}", m.status.text);
}

#[test]
fn space_picks_up_and_drops_hitting_a_blot_and_esc_puts_back() {
    // X's 13 point to X's 5 with no dice: a free move.
    let m = Model {
        cursor: Place::Point(13),
        ..Model::default()
    };
    let m = run(m, [play(PlayAction::PickOrDrop)]);
    assert!(m.play.carrying.is_some());
    assert!(m.status.text.contains("Holding X's checker from point 13"));
    let m = run(
        m,
        [
            Action::Board(BoardAction::GoTo(Place::Point(5))),
            play(PlayAction::PickOrDrop),
        ],
    );
    assert!(m.play.carrying.is_none());
    assert_eq!(m.position.board.count(Player::X, Place::Point(13)), 4);
    assert_eq!(m.position.board.count(Player::X, Place::Point(5)), 1);

    // O's back checker (X's 1 point) onto X's blot on 5: a hit.
    let mut m = m;
    m.cursor = Place::Point(1);
    let m = run(
        m,
        [
            play(PlayAction::PickOrDrop),
            Action::Board(BoardAction::GoTo(Place::Point(5))),
            play(PlayAction::PickOrDrop),
        ],
    );
    assert_eq!(m.position.board.count(Player::O, Place::Point(5)), 1);
    assert_eq!(m.position.board.count(Player::X, Place::Bar(Player::X)), 1);
    let m = run(m, [Action::Undo]);
    assert_eq!(m.position.board.count(Player::X, Place::Point(5)), 1);

    // Esc puts a held checker back: nothing changes.
    let mut m = m;
    m.cursor = Place::Point(6);
    let before = m.position.clone();
    let m = run(
        m,
        [
            play(PlayAction::PickOrDrop),
            Action::Board(BoardAction::GoTo(Place::Point(2))),
            play(PlayAction::PutBack),
        ],
    );
    assert!(m.play.carrying.is_none());
    assert_eq!(m.position, before);

    // A drop on a point the opponent holds is refused.
    let mut m = m;
    m.cursor = Place::Point(6);
    let m = run(
        m,
        [
            play(PlayAction::PickOrDrop),
            Action::Board(BoardAction::GoTo(Place::Point(12))),
            play(PlayAction::PickOrDrop),
        ],
    );
    assert_eq!(m.status.tone, Tone::Error);
    assert!(
        m.status.text.contains("holds your 12 point"),
        "{}",
        m.status.text
    );
    assert_eq!(m.position, before);
}

#[test]
fn dropped_steps_are_judged_against_the_dice() {
    let mut m = with_dice([3, 1]);
    m.cursor = Place::Point(8);
    let m = run(
        m,
        [
            play(PlayAction::PickOrDrop),
            Action::Board(BoardAction::GoTo(Place::Point(5))),
            play(PlayAction::PickOrDrop),
        ],
    );
    assert!(m.status.text.contains("part of"), "{}", m.status.text);
    let mut m = m;
    m.cursor = Place::Point(6);
    let m = run(
        m,
        [
            play(PlayAction::PickOrDrop),
            Action::Board(BoardAction::GoTo(Place::Point(5))),
            play(PlayAction::PickOrDrop),
        ],
    );
    assert!(
        m.status.text.contains("the legal move 8/5 6/5 for 3-1"),
        "{}",
        m.status.text
    );

    let mut m = with_dice([3, 1]);
    m.cursor = Place::Point(13);
    let m = run(
        m,
        [
            play(PlayAction::PickOrDrop),
            Action::Board(BoardAction::GoTo(Place::Point(7))),
            play(PlayAction::PickOrDrop),
        ],
    );
    assert!(
        m.status.text.contains("not a legal move for 3-1"),
        "{}",
        m.status.text
    );
}

#[test]
fn the_mouse_drags_a_checker_as_one_edit() {
    let m = Model::default();
    let before = m.position.clone();
    let m = run(
        m,
        [
            Action::Board(BoardAction::Click(Place::Point(13))),
            play(PlayAction::DragTo(Place::Point(12))),
            play(PlayAction::DragTo(Place::Point(10))),
            play(PlayAction::Release(Place::Point(10))),
        ],
    );
    assert_eq!(m.position.board.count(Player::X, Place::Point(13)), 4);
    assert_eq!(m.position.board.count(Player::X, Place::Point(10)), 1);
    let m = run(m, [Action::Undo]);
    assert_eq!(m.position, before);
    // A click without a drag still adds a checker (here from X's tray,
    // after a checker is borne off), and a drag after it takes it back.
    let m = run(m, [Action::Board(BoardAction::EmptyBoard)]);
    let m = run(
        m,
        [
            Action::Board(BoardAction::Click(Place::Point(10))),
            play(PlayAction::Release(Place::Point(10))),
        ],
    );
    assert_eq!(m.position.board.count(Player::X, Place::Point(10)), 1);
    let undo_len = m.history.undo.len();
    let m = run(
        m,
        [
            Action::Board(BoardAction::Click(Place::Point(10))),
            play(PlayAction::DragTo(Place::Point(4))),
            play(PlayAction::Release(Place::Point(4))),
        ],
    );
    assert_eq!(m.position.board.count(Player::X, Place::Point(10)), 0);
    assert_eq!(m.position.board.count(Player::X, Place::Point(4)), 1);
    assert_eq!(m.history.undo.len(), undo_len + 1);
}

#[test]
fn r_asks_for_dice_and_p_passes_the_turn() {
    let (m, effects) = update(Model::default(), play(PlayAction::Roll));
    assert_eq!(effects, vec![Effect::RollDice]);
    let m = run(m, [bgedit_tui::play::update::rolled([2, 5])]);
    assert_eq!(m.position.state.dice, Some([5, 2]));
    let m = run(m, [play(PlayAction::Pass)]);
    assert_eq!(m.position.state.on_roll, Player::O);
    assert_eq!(m.position.state.dice, None);
    assert!(m.status.text.contains("X passes; O on roll"));
}
