//! Whole screens rendered on ratatui's TestBackend, kept as insta snapshots:
//! the text, and a map of styles (so colour and NO_COLOR are both checked).

use bgedit_core::domain::{Place, Player};
use bgedit_tui::action::{Action, BoardAction};
use bgedit_tui::model::Model;
use bgedit_tui::prompt::state::PromptKind;
use bgedit_tui::reducer::update;
use bgedit_tui::snapshot::Snapshot;
use bgedit_tui::ui::theme::Theme;
use bgedit_tui::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier, Style};

use crate::common::keys::run;

fn model(actions: impl IntoIterator<Item = Action>) -> Model {
    run(Model::default(), actions)
}

fn example() -> Model {
    model([
        Action::Import("4NvBA0DGzooBBg:QYkqASAAIAAA".into()),
        Action::Board(BoardAction::SetName(Player::O, "alice".into())),
        Action::Board(BoardAction::SetName(Player::X, "bob".into())),
        Action::Board(BoardAction::GoTo(Place::Point(6))),
    ])
}

fn render(model: &Model, width: u16, height: u16, theme: &Theme) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let snapshot = Snapshot::of(model);
    terminal.draw(|f| view::draw(f, &snapshot, theme)).unwrap();
    terminal
}

fn text(terminal: &Terminal<TestBackend>) -> String {
    let buffer = terminal.backend().buffer();
    let area = buffer.area;
    (0..area.height)
        .map(|y| {
            let line: String = (0..area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect();
            line.trim_end().to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A style as a cell holds it: colours (Reset meaning none) and modifiers.
fn essence(s: Style) -> (Option<Color>, Option<Color>, Modifier) {
    let colour = |c: Option<Color>| c.filter(|c| *c != Color::Reset);
    (colour(s.fg), colour(s.bg), s.add_modifier)
}

/// One character a cell: which style of the theme it has; a lower-case
/// letter (or `#` on plain text) where the cursor reverses it.
fn styles(terminal: &Terminal<TestBackend>, theme: &Theme) -> String {
    let buffer = terminal.backend().buffer();
    let area = buffer.area;
    // Plain text first: under NO_COLOR several roles share the plain style.
    let named = [
        (Style::default(), '.'),
        (theme.title, 't'),
        (theme.x, 'X'),
        (theme.o, 'O'),
        (theme.label, 'l'),
        (theme.dim, 'd'),
        (theme.warning, 'w'),
        (theme.error, 'e'),
        (theme.success, 's'),
        (theme.key, 'k'),
    ];
    let code = |s: Style| -> char {
        let e = essence(s);
        if let Some((_, c)) = named.iter().find(|(st, _)| essence(*st) == e) {
            return *c;
        }
        let (fg, bg, m) = e;
        let unreversed = (fg, bg, m - Modifier::REVERSED);
        match named.iter().find(|(st, _)| essence(*st) == unreversed) {
            Some((_, '.')) => '#',
            Some((_, c)) => c.to_ascii_lowercase(),
            None => '?',
        }
    };
    (0..area.height)
        .map(|y| {
            let line: String = (0..area.width)
                .map(|x| code(buffer[(x, y)].style()))
                .collect();
            line.trim_end_matches('.').to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn editor_at_80x24() {
    let t = render(&example(), 80, 24, &Theme::colour());
    insta::assert_snapshot!("80x24_text", text(&t));
    insta::assert_snapshot!("80x24_colour_styles", styles(&t, &Theme::colour()));
}

#[test]
fn editor_at_80x24_without_colour() {
    let t = render(&example(), 80, 24, &Theme::plain());
    insta::assert_snapshot!("80x24_no_colour_styles", styles(&t, &Theme::plain()));
}

#[test]
fn editor_at_200x60() {
    let t = render(&example(), 200, 60, &Theme::colour());
    insta::assert_snapshot!("200x60_text", text(&t));
    insta::assert_snapshot!("200x60_colour_styles", styles(&t, &Theme::colour()));
    let t = render(&example(), 200, 60, &Theme::plain());
    insta::assert_snapshot!("200x60_no_colour_styles", styles(&t, &Theme::plain()));
}

#[test]
fn help_overlay() {
    let t = render(&model([Action::ToggleHelp]), 80, 24, &Theme::colour());
    insta::assert_snapshot!("help_80x24", text(&t));
}

/// At 80×24 the keys take pages: every binding is on one of them, its
/// words whole (a long one wrapped, not cut), and turning past the last
/// page stays on it.
#[test]
fn help_pages_show_every_key_at_80x24() {
    let page = |n: i8| {
        let mut actions = vec![Action::ToggleHelp];
        actions.extend((0..n).map(|_| Action::HelpPage(1)));
        text(&render(&model(actions), 80, 24, &Theme::colour()))
    };
    let first = page(0);
    let pages = first
        .split("Keys 1/")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse::<i8>().ok())
        .expect("a page count");
    let all: Vec<String> = (0..pages).map(page).collect();
    assert_eq!(page(pages + 2), all[all.len() - 1], "past the last page");
    // The words of every row, each column's lines read down in turn, so
    // that a wrapped row's words join up.
    let column = |p: &String, from: usize, to: usize| {
        p.lines()
            .map(|l| l.chars().skip(from).take(to - from).collect::<String>())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let words: String = all
        .iter()
        .flat_map(|p| [column(p, 1, 40), column(p, 41, 79)])
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for b in bgedit_tui::keymap::normal_bindings() {
        assert!(
            all.iter().any(|p| p.contains(b.label)),
            "{} on no page",
            b.label
        );
        assert!(words.contains(b.help), "{:?} cut: {words}", b.help);
    }
    insta::assert_snapshot!("help_80x24_page_2", all[1].clone());
}

#[test]
fn input_line_and_refused_edit() {
    let m = model([
        Action::Board(BoardAction::GoTo(Place::Point(6))),
        Action::Board(BoardAction::AddChecker(Player::O)),
        Action::OpenPrompt(PromptKind::Import),
        Action::Prompt(bgedit_tui::action::PromptAction::Paste(
            "XGID=-b----E-C---eE".into(),
        )),
    ]);
    let t = render(&m, 80, 24, &Theme::colour());
    insta::assert_snapshot!("prompt_80x24", text(&t));
}

#[test]
fn warnings_are_shown() {
    let m = model([
        Action::Board(BoardAction::SetMatchLength(7)),
        Action::Board(BoardAction::ToggleCrawford),
        Action::Board(BoardAction::SetMatchLength(70)),
    ]);
    let t = render(&m, 80, 24, &Theme::colour());
    let screen = text(&t);
    assert!(
        screen.contains("warning: Crawford game, but neither player is one point away"),
        "{screen}"
    );
    assert!(
        screen.contains("warning: a 70-point match is longer than the 64 points gnubg accepts"),
        "{screen}"
    );
}

#[test]
fn a_small_terminal_asks_to_be_enlarged() {
    let t = render(&example(), 60, 20, &Theme::colour());
    let screen = text(&t);
    assert!(
        screen.contains("Terminal too small: enlarge to 80×24 (now 60×20)"),
        "{screen}"
    );
    assert!(!screen.contains("BAR"));
}

#[test]
fn the_board_is_gnubgs_text() {
    let m = example();
    let t = render(&m, 80, 24, &Theme::colour());
    let screen = text(&t);
    let board = bgedit_core::codec::text_board::render(&m.position);
    for line in board.lines().skip(2) {
        let board_part: String = line.chars().take(49).collect();
        assert!(screen.contains(board_part.trim_end()), "{board_part}");
    }
}

#[test]
fn stack_counts_take_their_owners_style() {
    // 8 X checkers on X's 6 point, 9 O checkers on O's 6 point (X's 19).
    let m = model([
        Action::Board(BoardAction::EmptyBoard),
        Action::Board(BoardAction::GoTo(Place::Point(6))),
        Action::Board(BoardAction::SetCount(Some(Player::X), 8)),
        Action::Board(BoardAction::GoTo(Place::Point(19))),
        Action::Board(BoardAction::SetCount(Some(Player::O), 9)),
        Action::Board(BoardAction::GoTo(Place::Point(1))),
    ]);
    let theme = Theme::colour();
    let t = render(&m, 80, 24, &theme);
    let buffer = t.backend().buffer();
    // Board line 7 (screen row 8) holds X's fifth row; point 6 is column 26.
    assert_eq!(buffer[(26, 8)].symbol(), "8");
    assert_eq!(essence(buffer[(26, 8)].style()), essence(theme.x));
    // Board line 5 (screen row 6) holds O's fifth row; X's 19 is column 26.
    assert_eq!(buffer[(26, 6)].symbol(), "9");
    assert_eq!(essence(buffer[(26, 6)].style()), essence(theme.o));
}

/// Text longer than the input line scrolls so the cursor stays in view,
/// with `…` where text is hidden; the cursor's character is reversed.
#[test]
fn a_long_input_line_scrolls_to_the_cursor() {
    use bgedit_tui::prompt::state::Motion;
    let mut actions = vec![
        Action::OpenPrompt(PromptKind::Import),
        Action::Prompt(bgedit_tui::action::PromptAction::Paste(
            "GNUBG ID: 4NvBA0DGzooBBg:QYkqASAAIAAA and XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10"
                .into(),
        )),
        Action::Prompt(bgedit_tui::action::PromptAction::Move(Motion::Home)),
    ];
    actions.extend(std::iter::repeat_n(
        Action::Prompt(bgedit_tui::action::PromptAction::Move(Motion::Right)),
        60,
    ));
    let m = model(actions);
    let t = render(&m, 80, 24, &Theme::plain());
    let screen = text(&t);
    let line = screen.lines().nth(21).unwrap();
    assert!(
        line.starts_with(" ID (GNUBG ID, XGID, Position or Match ID): …"),
        "{line}"
    );
    assert!(line.ends_with('…'), "{line}");
    // The cursor's cell (character 60 of the text) is the one reversed.
    let buffer = t.backend().buffer();
    let reversed: Vec<String> = (0..80)
        .filter(|&x| buffer[(x, 21)].modifier.contains(Modifier::REVERSED))
        .map(|x| buffer[(x, 21)].symbol().to_owned())
        .collect();
    assert_eq!(reversed, ["B"], "{line}");
    insta::assert_snapshot!("long_prompt_80x24", screen);
}

/// A score that makes one player 1-away asks about the Crawford game.
#[test]
fn the_crawford_question() {
    let mut m = example();
    m = update(m, Action::OpenPrompt(PromptKind::Score)).0;
    m = update(
        m,
        Action::Prompt(bgedit_tui::action::PromptAction::Paste(
            "1-away 5-away".into(),
        )),
    )
    .0;
    m = update(m, Action::Prompt(bgedit_tui::action::PromptAction::Submit)).0;
    let t = render(&m, 80, 24, &Theme::colour());
    insta::assert_snapshot!("crawford_question_80x24", text(&t));
}

/// A match in the match panel (m7_driven.mat, opened without gnubg, its
/// first game's verdicts given), walked to game 1's fifth decision: the
/// panel, the board and the IDs at 80×24 and 120×40.
#[test]
fn match_review_screens() {
    use bgedit_core::domain::match_stats::DecisionKind;
    use bgedit_engine::match_analysis::Judged;
    use bgedit_tui::match_review::{
        open,
        state::{ReviewAction, Step},
    };
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/selfplay/m7_driven.mat"
    );
    let mut loaded = open::load(path).unwrap();
    loaded.path = "m7_driven.mat".into();
    let verdicts: Vec<_> = loaded
        .replayed
        .decisions()
        .iter()
        .enumerate()
        .filter(|(_, d)| d.game == 1)
        .map(|(i, d)| {
            let kind = if d.dice.is_some() {
                DecisionKind::Checker
            } else {
                DecisionKind::Cube
            };
            let mut j = Judged::unjudged(d, kind, d.position.clone(), d.played.clone());
            j.best = "best".into();
            j.judgement.error = [0.0, 0.02, 0.05, 0.09, 0.3][i % 5];
            j.judgement.counted = true;
            j
        })
        .collect();
    let mut actions = vec![Action::Review(ReviewAction::Opened(Ok(Box::new(loaded))))];
    for (i, j) in verdicts.into_iter().enumerate() {
        actions.push(Action::Review(ReviewAction::Judged(1, i, 0, Ok(vec![j]))));
    }
    for _ in 0..4 {
        actions.push(Action::Review(ReviewAction::Walk(Step::Next)));
    }
    let m = model(actions);
    let theme = Theme::plain();
    for (w, h) in [(80, 24), (120, 40), (160, 50), (200, 60), (250, 70)] {
        insta::assert_snapshot!(
            format!("match_review_{w}x{h}"),
            text(&render(&m, w, h, &theme))
        );
    }
}

/// gnubg 1.07's 0-ply `hint` for `example()` (X to play 52 at 2-4 to 9),
/// its first 22 moves: move, equity, and the five chances in percent.
const EXAMPLE_HINT: &str = "\
9/4 6/4 +0.511 69.1 33.7 0.5 4.8 0.1
10/5 9/7 +0.255 62.6 27.4 0.4 6.4 0.2
21/16 9/7 +0.247 64.0 25.8 0.4 8.2 0.5
21/16 10/8 +0.228 63.4 24.4 0.4 7.7 0.3
13/11 13/8 +0.225 61.7 26.3 0.4 6.0 0.2
13/11 10/5 +0.207 61.1 27.0 0.5 6.6 0.3
21/14 +0.205 62.9 24.8 0.4 8.4 0.5
13/8 9/7 +0.177 60.4 25.6 0.5 6.6 0.3
21/16 13/11 +0.157 61.7 25.3 0.4 9.7 1.0
10/5 8/6 +0.141 59.3 25.7 0.4 7.1 0.3
13/6 +0.132 59.0 25.2 0.5 6.8 0.3
13/11 9/4 +0.118 58.8 26.5 0.5 8.1 0.4
13/8 10/8 +0.112 58.8 22.6 0.4 6.4 0.2
10/8 9/4 +0.110 58.6 23.8 0.5 6.9 0.2
21/16 8/6 +0.105 60.1 25.2 0.4 10.4 0.8
10/5 6/4 +0.082 57.9 24.3 0.5 7.7 0.3
10/3 +0.072 57.5 24.1 0.5 7.6 0.3
9/2 +0.065 57.8 22.0 0.4 7.3 0.2
13/8 6/4 +0.065 57.5 24.5 0.5 8.3 0.4
21/16 6/4 +0.064 59.4 24.0 0.5 11.1 0.8
9/4 8/6 +0.040 56.6 24.6 0.5 8.4 0.4
8/3 5/3 +0.025 56.4 24.8 0.5 9.1 0.5";

/// `example()` with gnubg's answer on show.
fn example_analysed() -> Model {
    use bgedit_engine::{Analysis, MoveLine};
    let m = example();
    // The answer to the request the last edit made.
    let id = m.analysis.latest;
    let moves = EXAMPLE_HINT
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            let n = f.len();
            let num = |i: usize| f[i].parse::<f64>().unwrap();
            let pc = |i: usize| num(i) / 100.0;
            MoveLine {
                notation: f[..n - 6].join(" "),
                equity: num(n - 6),
                mwc: None,
                probs: [pc(n - 5), pc(n - 4), pc(n - 3), pc(n - 2), pc(n - 1)],
                after: "4NvBA0DGzooBBg".into(),
                plies: Some(0),
                std_error: None,
                mwc_std_error: None,
            }
        })
        .collect();
    let answer = Analysis::Moves {
        plies: 0,
        moves,
        rollout: None,
    };
    update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            id,
            Ok(answer),
            None,
        )),
    )
    .0
}

/// The five screen sizes players have, from a laptop's 80×24 to a large
/// monitor's 250×70: panels stack under the board on narrow screens and
/// fill a column beside it on wide ones, none cut where a place wide
/// enough exists.
#[test]
fn layouts_at_five_sizes() {
    let m = example_analysed();
    let theme = Theme::plain();
    for (w, h) in [(80, 24), (120, 40), (160, 50), (200, 60), (250, 70)] {
        insta::assert_snapshot!(format!("layout_{w}x{h}"), text(&render(&m, w, h, &theme)));
    }
    // `A` at 80×24: the analysis in the IDs' rows, its column headers kept.
    let (a, _) = update(m, Action::TogglePanel(bgedit_tui::panels::Panel::Analysis));
    let screen = text(&render(&a, 80, 24, &theme));
    assert!(
        screen.contains("Move                     Equity"),
        "{screen}"
    );
    assert!(screen.contains("9/4 6/4"), "{screen}");
    insta::assert_snapshot!("layout_80x24_analysis", screen);
}

/// A cube decision in the analysis panel at 80×24 (`A`): the chances'
/// numbers are shown with their names, never the names alone.
#[test]
fn the_cube_analysis_at_80x24_shows_its_chances() {
    use bgedit_engine::Analysis;
    let m = update(example(), Action::Board(BoardAction::SetDice(None))).0;
    // At the deeper depth: the header on one line, five rows under it.
    let m = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Deepen),
    )
    .0;
    let id = m.analysis.latest;
    let answer = Analysis::Cube {
        plies: 2,
        action: "Double, take".into(),
        no_double: 0.623,
        double_take: 0.723,
        double_pass: 1.0,
        optimal: Some(0.723),
        no_double_mwc: None,
        double_take_mwc: None,
        double_pass_mwc: None,
        probs: [0.691, 0.337, 0.005, 0.048, 0.001],
        cubeless: 0.511,
        rollout: None,
    };
    let m = update(
        m,
        Action::Analysis(bgedit_tui::action::AnalysisAction::Answer(
            bgedit_engine::EngineKind::Gnubg,
            id,
            Ok(answer),
            None,
        )),
    )
    .0;
    let (a, _) = update(m, Action::TogglePanel(bgedit_tui::panels::Panel::Analysis));
    let screen = text(&render(&a, 80, 24, &Theme::plain()));
    assert!(
        screen.contains("Proper cube action: Double, take"),
        "{screen}"
    );
    assert!(
        screen.contains("Cubeless +0.511 · Win 69.1 Gam 33.7 Bg 0.5 · Lose 30.9 Gam 4.8 Bg 0.1"),
        "{screen}"
    );
    let tall = text(&render(&a, 120, 40, &Theme::plain()));
    assert!(tall.contains("69.1") && tall.contains("33.7"), "{tall}");
}
