//! Any sequence of editor actions keeps the position legal, and the IDs the
//! screen shows always read back to the position being edited.

use bgedit_core::codec::{IdFormat, parse_any, to_string_as};
use bgedit_core::domain::{Place, Player, Position};
use bgedit_tui::action::{Action, BoardAction, Direction};
use bgedit_tui::model::Model;
use bgedit_tui::prompt::state::{Motion, PromptKind};
use bgedit_tui::reducer::update;
use bgedit_tui::snapshot::Snapshot;
use proptest::prelude::*;

fn player() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::O), Just(Player::X)]
}

fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        (1u8..=24).prop_map(Place::Point),
        player().prop_map(Place::Bar),
        player().prop_map(Place::Off),
    ]
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        prop_oneof![
            Just(Direction::Left),
            Just(Direction::Right),
            Just(Direction::Up),
            Just(Direction::Down)
        ]
        .prop_map(|v| Action::Board(BoardAction::Move(v))),
        place().prop_map(|v| Action::Board(BoardAction::GoTo(v))),
        player().prop_map(|v| Action::Board(BoardAction::AddChecker(v))),
        player().prop_map(|v| Action::Board(BoardAction::AddChecker(v))),
        Just(Action::Board(BoardAction::RemoveChecker)),
        Just(Action::Board(BoardAction::ClearPlace)),
        (prop::option::of(player()), 0u8..=15)
            .prop_map(|(p, n)| Action::Board(BoardAction::SetCount(p, n))),
        Just(Action::Board(BoardAction::StartingPosition)),
        Just(Action::Board(BoardAction::EmptyBoard)),
        Just(Action::Board(BoardAction::SwapPlayers)),
        Just(Action::Board(BoardAction::SwitchOnRoll)),
        Just(Action::Board(BoardAction::CubeUp)),
        Just(Action::Board(BoardAction::CubeDown)),
        Just(Action::Board(BoardAction::NextCubeOwner)),
        Just(Action::Board(BoardAction::ToggleDoubleOffered)),
        prop::option::of((1u8..=6, 1u8..=6).prop_map(|(a, b)| [a.max(b), a.min(b)]))
            .prop_map(|v| Action::Board(BoardAction::SetDice(v))),
        prop_oneof![Just(0u16), 1u16..=25, Just(65)]
            .prop_map(|v| Action::Board(BoardAction::SetMatchLength(v))),
        (0u16..30, 0u16..30).prop_map(|(a, b)| Action::Board(BoardAction::SetScore([a, b]))),
        (player(), 0u16..30).prop_map(|(p, n)| Action::Board(BoardAction::SetPlayerScore(p, n))),
        Just(Action::Board(BoardAction::ToggleCrawford)),
        Just(Action::Board(BoardAction::ToggleJacoby)),
        Just(Action::Board(BoardAction::ToggleBeavers)),
        (player(), "[a-zA-Z ]{0,12}").prop_map(|(p, n)| Action::Board(BoardAction::SetName(p, n))),
        Just(Action::Board(BoardAction::NextResignation)),
        Just(Action::Board(BoardAction::NextGameState)),
        Just(Action::Undo),
        Just(Action::Redo),
        "[A-Za-z0-9+/:=\\-]{0,40}".prop_map(Action::Import),
        Just(Action::Import(
            "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:63:0:0:3:0:10".into()
        )),
        Just(Action::Import("4NvBA0DGzooBBg:QYkqASAAIAAA".into())),
        Just(Action::OpenPrompt(PromptKind::Count)),
        any::<char>().prop_map(|x| Action::Prompt(bgedit_tui::action::PromptAction::Char(x))),
        Just(Action::Prompt(bgedit_tui::action::PromptAction::Submit)),
        Just(Action::Prompt(bgedit_tui::action::PromptAction::Cancel)),
        Just(Action::OpenPrompt(PromptKind::Score)),
        Just(Action::OpenPrompt(PromptKind::Dice)),
        Just(Action::OpenPrompt(PromptKind::MatchLength)),
        "(-?[0-9]{1,2}(-away| away|a)?[ ,-]?){1,2}|[xo] -?[0-9]"
            .prop_map(|x| Action::Prompt(bgedit_tui::action::PromptAction::Paste(x))),
        prop_oneof![
            Just(Motion::Left),
            Just(Motion::Right),
            Just(Motion::Home),
            Just(Motion::End)
        ]
        .prop_map(|x| Action::Prompt(bgedit_tui::action::PromptAction::Move(x))),
        Just(Action::Prompt(bgedit_tui::action::PromptAction::Backspace)),
        Just(Action::Prompt(bgedit_tui::action::PromptAction::Delete)),
        Just(Action::Prompt(bgedit_tui::action::PromptAction::DeleteWord)),
        any::<bool>().prop_map(|v| Action::Board(BoardAction::SetCrawford(v))),
        place().prop_map(|v| Action::Board(BoardAction::AddAt(v))),
        place().prop_map(|v| Action::Board(BoardAction::Click(v))),
        place().prop_map(|v| Action::Board(BoardAction::RightClick(v))),
        (place(), prop_oneof![Just(1i8), Just(-1i8)])
            .prop_map(|(p, d)| Action::Board(BoardAction::Scroll(p, d))),
        Just(Action::ToggleHelp),
    ]
}

fn check(model: &Model) -> Result<(), TestCaseError> {
    let p = &model.position;
    prop_assert!(p.validate().is_ok(), "invalid: {:?}", p.validate());
    // Every remembered edit has its description, for "Undid: ...".
    let h = &model.history;
    prop_assert_eq!(h.undo.len(), h.undo_what.len());
    prop_assert_eq!(h.redo.len(), h.redo_what.len());
    let shown = Snapshot::of(model);
    let base = Position::default();
    // The GNUBG ID shown reads back to the position (bar the XGID-only
    // fields and the names, which it does not carry).
    let gnubg = &shown.ids.iter().find(|(l, _)| *l == "GNUBG ID").unwrap().1;
    let back = parse_any(gnubg, &base).unwrap().position;
    prop_assert_eq!(&back.board, &p.board);
    let mut expected = p.state.clone();
    expected.beavers = back.state.beavers;
    expected.max_cube_log2 = back.state.max_cube_log2;
    prop_assert_eq!(&back.state, &expected);
    // The XGID shown reads back to the same board and the fields it holds.
    let xgid = &shown.ids.iter().find(|(l, _)| *l == "XGID").unwrap().1;
    let back = parse_any(xgid, &base).unwrap().position;
    prop_assert_eq!(&back.board, &p.board);
    prop_assert_eq!(back.state.cube_log2, p.state.cube_log2);
    prop_assert_eq!(back.state.cube_owner, p.state.cube_owner);
    prop_assert_eq!(back.state.on_roll, p.state.on_roll);
    prop_assert_eq!(back.state.score, p.state.score);
    prop_assert_eq!(back.state.match_length, p.state.match_length);
    // The Position ID and Match ID shown are the GNUBG ID's halves.
    let pos = &shown.ids[0].1;
    let mat = &shown.ids[1].1;
    prop_assert_eq!(format!("{pos}:{mat}"), to_string_as(p, IdFormat::GnubgId));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_action_sequence_keeps_a_legal_position_and_true_ids(actions in prop::collection::vec(action(), 1..60)) {
        let mut model = Model::default();
        for action in actions {
            model = update(model, action).0;
            check(&model)?;
        }
    }

    /// Undoing everything after any sequence brings back the start.
    #[test]
    fn undo_all_returns_to_the_start(actions in prop::collection::vec(action(), 1..40)) {
        let mut model = Model::default();
        for action in actions {
            if action != Action::Undo && action != Action::Redo {
                model = update(model, action).0;
            }
        }
        while !model.history.undo.is_empty() {
            model = update(model, Action::Undo).0;
        }
        prop_assert_eq!(model.position, Position::default());
    }
}
