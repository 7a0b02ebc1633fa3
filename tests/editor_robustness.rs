//! The reducer's side of the editor's robustness: what a too-small screen,
//! a signal, switching to money, the message log and the undo budget do to
//! the model. No terminal involved (tests/editor_edge.rs drives the binary).

use bgedit::codec::{IdFormat, to_string_as};
use bgedit::editor::action::Action;
use bgedit::editor::effect::Effect;
use bgedit::editor::model::{Mode, Model};
use bgedit::editor::reducer::update;

fn run(model: Model, actions: impl IntoIterator<Item = Action>) -> Model {
    actions.into_iter().fold(model, |m, a| update(m, a).0)
}

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
    let (after, effects) = update(small.clone(), Action::EmptyBoard);
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
            Action::EmptyBoard,
        ],
    );
    assert!(!big.too_small);
    assert_eq!(gnubg_id(&big), "AAAAAAAAAAAAAA:cAkAAAAAAAAA");
}

#[test]
fn a_signal_saves_and_quits() {
    let m = run(Model::default(), [Action::EmptyBoard]);
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
        [Action::SetMatchLength(7), Action::SetScore([2, 4])],
    );
    let money = run(m.clone(), [Action::SetMatchLength(0)]);
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
            Action::SetMatchLength(7),
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
