//! The numbers panel in the editor: keys, reducer and snapshot. The panel's
//! numbers themselves are checked against gnubg in `gnubg_numbers.rs`.

use bgedit_core::codec::met_xml;
use bgedit_core::codec::parse_any;
use bgedit_core::domain::Position;
use bgedit_core::domain::met::MetError;
use bgedit_tui::action::{Action, BoardAction};
use bgedit_tui::effect::Effect;
use bgedit_tui::keymap::resolve_key;
use bgedit_tui::model::{Mode, Model, Tone};
use bgedit_tui::numbers::state::{Evaluation, MetHandle, NumbersAction};
use bgedit_tui::panels::Panel;
use bgedit_tui::prompt::state::PromptKind;
use bgedit_tui::reducer::update;
use bgedit_tui::snapshot::Snapshot;

use crate::common::keys::key;

fn model_at(id: &str) -> Model {
    let position = parse_any(id, &Position::default()).unwrap().position;
    Model::new(position, bgedit_tui::model::Status::info(""))
}

fn woolsey() -> MetHandle {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/met/woolsey.xml"
    );
    MetHandle::new(met_xml::load_file(std::path::Path::new(path)).unwrap())
}

#[test]
fn hash_and_t_are_the_numbers_keys() {
    assert_eq!(
        resolve_key(&key('#'), &Mode::Normal),
        Some(Action::TogglePanel(Panel::Numbers))
    );
    assert_eq!(
        resolve_key(&key('T'), &Mode::Normal),
        Some(Action::OpenPrompt(PromptKind::MetFile))
    );
}

#[test]
fn toggling_changes_only_the_panel() {
    let m = model_at("4HPwATDgc/ABMA:cAngAAAAGAAA");
    let (next, effects) = update(m.clone(), Action::TogglePanel(Panel::Numbers));
    assert!(next.panels.is_on(Panel::Numbers) && effects.is_empty());
    assert_eq!(next.position, m.position);
    let (back, _) = update(next, Action::TogglePanel(Panel::Numbers));
    assert!(!back.panels.is_on(Panel::Numbers));
}

#[test]
fn a_met_path_is_read_at_the_edge_and_the_result_comes_back_as_an_action() {
    let m = model_at("4HPwATDgc/ABMA:cAngAAAAGAAA");
    let (m, _) = update(m, Action::OpenPrompt(PromptKind::MetFile));
    let (m, _) = update(
        m,
        Action::Prompt(bgedit_tui::action::PromptAction::Paste(
            "/some/met.xml".to_owned(),
        )),
    );
    let (m, effects) = update(m, Action::Prompt(bgedit_tui::action::PromptAction::Submit));
    assert_eq!(effects, vec![Effect::LoadMet("/some/met.xml".to_owned())]);
    assert_eq!(m.mode, Mode::Normal);

    let (bad, _) = update(
        m.clone(),
        Action::Numbers(NumbersAction::MetLoaded(Err(MetError::Unreadable {
            path: "/some/met.xml".to_owned(),
            error: "no such file".to_owned(),
        }))),
    );
    assert_eq!(bad.status.tone, Tone::Error);
    assert!(bad.status.text.contains("no such file"));
    assert_eq!(bad.numbers.met, MetHandle::built_in());

    let (good, _) = update(m, Action::Numbers(NumbersAction::MetLoaded(Ok(woolsey()))));
    assert_eq!(good.numbers.met.0.name, "Kit Woolsey");
    let snap = Snapshot::of(&good);
    assert_eq!(snap.numbers[0], "MET Kit Woolsey");
    // 0-3 to 7, X on roll: X is 4-away, O 7-away; Woolsey gives X 70%.
    assert!(
        now(&snap.numbers).starts_with("now    70.0"),
        "{:?}",
        snap.numbers
    );

    let (reset, effects) = update(good, Action::Numbers(NumbersAction::LoadMet(String::new())));
    assert!(effects.is_empty());
    assert_eq!(reset.numbers.met, MetHandle::built_in());
}

#[test]
fn the_panel_follows_every_edit() {
    let m = model_at("4HPwATDgc/ABMA:cAngAAAAGAAA");
    let before = Snapshot::of(&m).numbers;
    // Kazaross-XG2 at 4-away 7-away: X 69.92%.
    assert!(now(&before).starts_with("now    69.9"), "{before:?}");
    let (m, _) = update(m, Action::Board(BoardAction::SetScore([0, 5])));
    let after = Snapshot::of(&m).numbers;
    assert_ne!(before, after);
    // 2-away 7-away: gnubg's Kazaross-XG2 (show matchequitytable) 84.2250.
    assert!(now(&after).starts_with("now    84.2"), "{after:?}");
}

#[test]
fn an_evaluation_brings_the_market_window() {
    let mut m = model_at("4HPwATDgc/ABMA:cAngAAAAGAAA");
    assert!(
        Snapshot::of(&m)
            .numbers
            .iter()
            .any(|l| l == "Market window: needs an evaluation")
    );
    // gnubg 1.07's 0-ply evaluation of this position; its `show
    // marketwindow` prints for root (X): "Dead cube:  47.05% -  64.38%",
    // "Live cube: 47.05% -  75.00%".
    m.numbers.last_evaluation = Some(Evaluation([
        0.521_513_8,
        0.153_921_23,
        0.007_563_344,
        0.129_847_27,
        0.007_545_731,
    ]));
    let lines = Snapshot::of(&m).numbers;
    assert!(
        lines
            .iter()
            .any(|l| l == "X window dead 47.05%-64.38% live 47.05%-75.00%"),
        "{lines:?}"
    );
    // An edit makes the evaluation stale: the window goes until a new one.
    let (m, _) = update(m, Action::Board(BoardAction::SetScore([1, 3])));
    assert_eq!(m.numbers.last_evaluation, None);
}

/// At 80×24, `#` shows the panel in the IDs' rows (the panel scheme of
/// `layout.rs`): the MWC now is on screen.
#[test]
fn at_80x24_the_panel_takes_the_ids_rows() {
    use bgedit_tui::ui::theme::Theme;
    use bgedit_tui::view;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let (m, _) = update(
        model_at("4HPwATDgc/ABMA:cAngAAAAGAAA"),
        Action::TogglePanel(Panel::Numbers),
    );
    let snapshot = Snapshot::of(&m);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|f| view::draw(f, &snapshot, &Theme::plain()))
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    let rows: Vec<String> = (0..24)
        .map(|y| (0..80).map(|x| buffer[(x, y)].symbol()).collect())
        .collect();
    let screen = rows.join("\n");
    assert!(screen.contains("Numbers at the score (#)"), "{screen}");
    assert!(!screen.contains("Position ID"), "the IDs give way");
    // The take points come first; the panel says it has more rows.
    assert!(screen.contains("X 24.7%/20.8%  O 30.3%/22.4%"), "{screen}");
    assert!(screen.contains("rows 1–5 of 18, PgUp/PgDn"), "{screen}");
    // PgDn brings the MET's rows: X 4-away, O 7-away: X 69.92% (NEMG
    // −0.05), O 30.08% (+0.05); scrolling on stops at the last page.
    let mut m = m;
    for _ in 0..5 {
        m = update(m, Action::Numbers(NumbersAction::Scroll(6))).0;
    }
    let snapshot = Snapshot::of(&m);
    terminal
        .draw(|f| view::draw(f, &snapshot, &Theme::plain()))
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    let screen: String = (0..24)
        .map(|y| (0..80).map(|x| buffer[(x, y)].symbol()).collect::<String>() + "\n")
        .collect();
    assert!(screen.contains("rows 14–18 of 18"), "{screen}");
    let m = update(m, Action::Numbers(NumbersAction::Scroll(-6))).0;
    let m = update(m, Action::Numbers(NumbersAction::Scroll(-6))).0;
    let snapshot = Snapshot::of(&m);
    terminal
        .draw(|f| view::draw(f, &snapshot, &Theme::plain()))
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    let screen: String = (0..24)
        .map(|y| (0..80).map(|x| buffer[(x, y)].symbol()).collect::<String>() + "\n")
        .collect();
    assert!(
        screen.contains("now    69.9 -0.05   30.1 +0.05"),
        "{screen}"
    );
}

/// The MWC row of the numbers' lines.
fn now(lines: &[String]) -> &str {
    lines
        .iter()
        .find(|l| l.starts_with("now "))
        .map_or("", |l| l.as_str())
}
