//! Whole screens rendered on ratatui's TestBackend, kept as insta snapshots:
//! the text, and a map of styles (so colour and NO_COLOR are both checked).

use bgedit::domain::{Place, Player};
use bgedit::editor::action::Action;
use bgedit::editor::model::Model;
use bgedit::editor::prompt::PromptKind;
use bgedit::editor::reducer::update;
use bgedit::editor::snapshot::Snapshot;
use bgedit::editor::view::{self, Theme};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier, Style};

fn model(actions: impl IntoIterator<Item = Action>) -> Model {
    actions
        .into_iter()
        .fold(Model::default(), |m, a| update(m, a).0)
}

fn example() -> Model {
    model([
        Action::Import("4NvBA0DGzooBBg:QYkqASAAIAAA".into()),
        Action::SetName(Player::O, "alice".into()),
        Action::SetName(Player::X, "bob".into()),
        Action::GoTo(Place::Point(6)),
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

/// At 80×24 the keys take two pages: every binding is on one of them, and
/// turning past the last page stays on it.
#[test]
fn help_pages_show_every_key_at_80x24() {
    let first = text(&render(
        &model([Action::ToggleHelp]),
        80,
        24,
        &Theme::colour(),
    ));
    let second = text(&render(
        &model([Action::ToggleHelp, Action::HelpPage(1), Action::HelpPage(1)]),
        80,
        24,
        &Theme::colour(),
    ));
    assert!(first.contains("Keys 1/2"), "{first}");
    assert!(second.contains("Keys 2/2"), "{second}");
    for b in bgedit::editor::keymap::BINDINGS {
        assert!(
            first.contains(b.label) || second.contains(b.label),
            "{} on no page",
            b.label
        );
    }
    insta::assert_snapshot!("help_80x24_page_2", second);
}

#[test]
fn input_line_and_refused_edit() {
    let m = model([
        Action::GoTo(Place::Point(6)),
        Action::AddChecker(Player::O),
        Action::OpenPrompt(PromptKind::Import),
        Action::PromptPaste("XGID=-b----E-C---eE".into()),
    ]);
    let t = render(&m, 80, 24, &Theme::colour());
    insta::assert_snapshot!("prompt_80x24", text(&t));
}

#[test]
fn warnings_are_shown() {
    let m = model([
        Action::SetMatchLength(7),
        Action::ToggleCrawford,
        Action::SetMatchLength(70),
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
    let board = bgedit::text_board::render(&m.position);
    for line in board.lines().skip(2) {
        let board_part: String = line.chars().take(49).collect();
        assert!(screen.contains(board_part.trim_end()), "{board_part}");
    }
}

#[test]
fn stack_counts_take_their_owners_style() {
    // 8 X checkers on X's 6 point, 9 O checkers on O's 6 point (X's 19).
    let m = model([
        Action::EmptyBoard,
        Action::GoTo(Place::Point(6)),
        Action::SetCount(Some(Player::X), 8),
        Action::GoTo(Place::Point(19)),
        Action::SetCount(Some(Player::O), 9),
        Action::GoTo(Place::Point(1)),
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
    use bgedit::editor::prompt::Motion;
    let mut actions = vec![
        Action::OpenPrompt(PromptKind::Import),
        Action::PromptPaste(
            "GNUBG ID: 4NvBA0DGzooBBg:QYkqASAAIAAA and XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10"
                .into(),
        ),
        Action::PromptMove(Motion::Home),
    ];
    actions.extend(std::iter::repeat_n(Action::PromptMove(Motion::Right), 60));
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
    m = update(m, Action::PromptPaste("1-away 5-away".into())).0;
    m = update(m, Action::PromptSubmit).0;
    let t = render(&m, 80, 24, &Theme::colour());
    insta::assert_snapshot!("crawford_question_80x24", text(&t));
}

/// A match in the match panel (m7_driven.mat, opened without gnubg, its
/// first game's verdicts given), walked to game 1's fifth decision: the
/// panel, the board and the IDs at 80×24 and 120×40.
#[test]
fn match_review_screens() {
    use bgedit::domain::match_stats::DecisionKind;
    use bgedit::editor::match_review::{self, ReviewAction, Step};
    use bgedit::engine::match_analysis::Judged;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/selfplay/m7_driven.mat"
    );
    let mut loaded = match_review::load(path).unwrap();
    loaded.path = "m7_driven.mat".into();
    let verdicts: Vec<_> = loaded
        .decisions
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
        actions.push(Action::Review(ReviewAction::Judged(1, i, Ok(vec![j]))));
    }
    for _ in 0..4 {
        actions.push(Action::Review(ReviewAction::Walk(Step::Next)));
    }
    let m = model(actions);
    let theme = Theme::plain();
    insta::assert_snapshot!("match_review_80x24", text(&render(&m, 80, 24, &theme)));
    insta::assert_snapshot!("match_review_120x40", text(&render(&m, 120, 40, &theme)));
}
