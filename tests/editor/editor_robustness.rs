//! The reducer's side of the editor's robustness: what a too-small screen,
//! a signal, switching to money, the message log and the undo budget do to
//! the model. No terminal involved (tests/editor_edge.rs drives the binary).

use crate::common::keys::run;
use bgedit_core::codec::{IdFormat, to_string_as};
use bgedit_tui::action::{Action, BoardAction, CopyAction};
use bgedit_tui::effect::Effect;
use bgedit_tui::model::{Mode, Model};
use bgedit_tui::reducer::update;

fn gnubg_id(m: &Model) -> String {
    to_string_as(&m.position, IdFormat::GnubgId)
}

#[test]
fn edits_are_ignored_while_the_screen_is_too_small() {
    let small = run(
        Model::default(),
        [Action::Resized {
            width: 70,
            height: 20,
        }],
    );
    assert!(small.too_small);
    let (after, effects) = update(small.clone(), Action::Board(BoardAction::EmptyBoard));
    assert_eq!(gnubg_id(&after), gnubg_id(&small));
    assert!(effects.is_empty(), "{effects:?}");
    // Help and quit still work; enlarging brings the edits back.
    assert_eq!(run(small.clone(), [Action::ToggleHelp]).mode, Mode::Help);
    assert_eq!(update(small.clone(), Action::Quit).1, vec![Effect::Quit]);
    let big = run(
        small,
        [
            Action::Resized {
                width: 80,
                height: 24,
            },
            Action::Board(BoardAction::EmptyBoard),
        ],
    );
    assert!(!big.too_small);
    assert_eq!(gnubg_id(&big), "AAAAAAAAAAAAAA:cAkAAAAAAAAA");
}

#[test]
fn a_signal_saves_and_quits() {
    let m = run(Model::default(), [Action::Board(BoardAction::EmptyBoard)]);
    let (after, effects) = update(m.clone(), Action::Terminated(15));
    assert_eq!(
        effects,
        vec![Effect::Save(m.position.clone()), Effect::Quit]
    );
    assert!(after.quitting);
    assert!(
        after.status.text.contains("SIGTERM"),
        "{}",
        after.status.text
    );
}

#[test]
fn switching_to_money_clears_the_score_in_one_undoable_step() {
    let m = run(
        Model::default(),
        [
            Action::Board(BoardAction::SetMatchLength(7)),
            Action::Board(BoardAction::SetScore([2, 4])),
        ],
    );
    let money = run(m.clone(), [Action::Board(BoardAction::SetMatchLength(0))]);
    assert_eq!(money.position.state.score, [0, 0]);
    assert_eq!(money.position.state.match_length, 0);
    assert!(
        money.status.text.contains("score cleared"),
        "{}",
        money.status.text
    );
    // The XGID of a money game then carries no score.
    let xgid = to_string_as(&money.position, IdFormat::Xgid);
    assert!(xgid.contains(":0:0:"), "{xgid}");
    let undone = run(money, [Action::Undo]);
    assert_eq!(undone.position, m.position);
}

#[test]
fn every_message_is_kept_in_the_log_and_h_shows_it() {
    let m = run(
        Model::default(),
        [
            Action::Board(BoardAction::SetMatchLength(7)),
            Action::Import("not an id".into()),
            Action::ToggleMessages,
        ],
    );
    assert_eq!(m.mode, Mode::Messages);
    let texts: Vec<&str> = m.log.newest_first().map(|s| s.text.as_str()).collect();
    assert!(texts[0].starts_with("not an ID"), "{texts:?}");
    assert_eq!(texts[1], "7-point match");
    assert_eq!(run(m, [Action::ToggleMessages]).mode, Mode::Normal);
}

mod screens {
    use super::run;
    use bgedit_core::domain::Board;
    use bgedit_tui::action::Action;
    use bgedit_tui::model::{Model, Status};
    use bgedit_tui::snapshot::Snapshot;
    use bgedit_tui::ui::theme::Theme;
    use bgedit_tui::view;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn screen(model: &Model, width: u16, height: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        let snapshot = Snapshot::of(model);
        terminal
            .draw(|f| view::draw(f, &snapshot, &Theme::plain()))
            .unwrap();
        let buffer = terminal.backend().buffer();
        (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| buffer[(x, y)].symbol().to_string())
                    .collect::<String>()
                    .trim_end()
                    .to_owned()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Five warnings at once: Crawford without a player 1-away, the cube
    /// used in it, a double after the roll, and both sides borne off.
    fn many_warnings() -> Model {
        let mut m = Model::default();
        m.position.board = Board::empty();
        let s = &mut m.position.state;
        s.match_length = 7;
        s.score = [2, 3];
        s.crawford = true;
        s.cube_log2 = 1;
        s.double_offered = true;
        s.dice = Some([5, 2]);
        m
    }

    #[test]
    fn warnings_beyond_the_two_lines_are_counted_and_all_are_in_the_log() {
        let m = many_warnings();
        let count = m.position.validate().unwrap().len();
        assert!(count >= 4, "{count}");
        let text = screen(&m, 80, 24);
        // Two rows for warnings at 80x24: the first warning, then the
        // second with the count of the rest.
        assert!(text.contains(&format!("+{} more (H)", count - 2)), "{text}");
        assert!(
            text.contains(" warning: "),
            "a warning itself is shown: {text}"
        );
        let open = run(m, [Action::ToggleMessages]);
        let text = screen(&open, 100, 40);
        assert!(text.contains("Warnings now"), "{text}");
        assert!(text.contains("has borne off all 15 checkers"), "{text}");
        assert!(text.contains("after the dice were rolled"), "{text}");
    }

    #[test]
    fn a_long_status_is_cut_with_a_mark_and_whole_in_the_log() {
        let long = format!(
            "XGID copied to the clipboard · note: {}",
            "the end ".repeat(20)
        );
        let m = Model::new(Default::default(), Status::success(long.clone()));
        let text = screen(&m, 80, 24);
        let status = text.lines().nth(22).unwrap();
        assert!(status.ends_with("… (H)"), "{status}");
        assert_eq!(status.chars().count(), 80);
        let open = run(m, [Action::ToggleMessages]);
        let text = screen(&open, 120, 40);
        // The overlay wraps: every word of the message is there.
        assert_eq!(text.matches("the end").count(), 20, "{text}");
    }
}

#[test]
fn undo_history_memory_is_bounded_even_with_huge_names() {
    use bgedit_tui::model::{HISTORY_BYTES, HISTORY_LIMIT, Status, position_bytes};
    let mut p = bgedit_core::domain::Position::default();
    p.names.o = "n".repeat(50 << 20);
    let one = position_bytes(&p);
    let mut m = Model::new(p, Status::info("start"));
    for i in 0..30 {
        m = update(
            m,
            if i % 2 == 0 {
                Action::Board(BoardAction::CubeUp)
            } else {
                Action::Board(BoardAction::CubeDown)
            },
        )
        .0;
    }
    // Without a bound: 30 copies, 1.5 GB.
    assert!(
        m.history.bytes() <= HISTORY_BYTES + one,
        "{} bytes",
        m.history.bytes()
    );
    assert_eq!(m.history.undo.len(), 1, "the last step is always kept");
    let undone = run(m, [Action::Undo]);
    assert_eq!(undone.position.state.cube_log2, 1);

    // Small positions keep every one of the steps allowed.
    let mut m = Model::default();
    for i in 0..HISTORY_LIMIT + 10 {
        m = update(
            m,
            if i % 2 == 0 {
                Action::Board(BoardAction::CubeUp)
            } else {
                Action::Board(BoardAction::CubeDown)
            },
        )
        .0;
    }
    assert_eq!(m.history.undo.len(), HISTORY_LIMIT);
}

#[test]
fn a_match_xgid_copy_notes_the_jacoby_bit_only_when_a_match_id_brought_it() {
    use bgedit_tui::action::{CopyRoute, CopyTarget};
    let copied = Action::Copy(CopyAction::Copied(CopyTarget::Xgid, Ok(CopyRoute::System)));
    // A match set up by hand: the bit is bgedit's default, nothing to lose.
    let typed = run(
        Model::default(),
        [
            Action::Board(BoardAction::SetMatchLength(7)),
            copied.clone(),
        ],
    );
    assert_eq!(typed.status.text, "XGID copied to the clipboard");
    // A pasted gnubg ID with the bit set: the XGID drops it, so say so.
    let pasted = run(
        Model::default(),
        [
            Action::Import("4NvBA0DGzooBBg:QYkqASAAIAAA".into()),
            copied.clone(),
        ],
    );
    assert!(
        pasted.status.text.contains("Jacoby bit"),
        "{}",
        pasted.status.text
    );
    // An XGID pasted afterwards brings no bit of its own.
    let xgid = run(
        pasted,
        [
            Action::Import("XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10".into()),
            copied,
        ],
    );
    assert_eq!(xgid.status.text, "XGID copied to the clipboard");
}
