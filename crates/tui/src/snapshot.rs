//! A plain snapshot of what the screen shows, made from the model in one
//! place. The view draws from this and never reaches back into the model.

use super::analysis::{self, PanelText};
use super::board::place_info;
use super::keymap;
use super::model::{Mode, Model, Status};
use super::on_off;
use super::panels::PanelToggles;
use super::prompt::state::{Prompt, PromptKind};
use super::scores;
use bgedit_core::codec::text_board;
use bgedit_core::codec::{self, IdFormat};
use bgedit_core::domain::numbers;
use bgedit_core::domain::{CubeOwner, Place, Player, Position};

/// One row of the match panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub label: &'static str,
    pub value: String,
    /// Shown dimmed: the field does not apply here (Jacoby in a match, ...).
    pub not_applicable: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// gnubg's 13 board lines (its `show board` text without the ID lines),
    /// with gnubg's text beside the board.
    pub board_lines: Vec<String>,
    pub cursor: Place,
    pub on_roll: Player,
    pub fields: Vec<Field>,
    /// (label, ID) for the Position ID, Match ID, GNUBG ID and XGID.
    pub ids: Vec<(&'static str, String)>,
    pub warnings: Vec<String>,
    pub status: Status,
    pub hints: Vec<(&'static str, &'static str)>,
    /// The input line, while it is open.
    pub prompt: Option<PromptLine>,
    /// The place under the cursor in words (which point for whom, what is
    /// there), always shown.
    pub place: String,
    /// The colour 1–9 and clicks put on an empty point.
    pub brush: Player,
    pub help: bool,
    /// The help's page, as the user turned it (the view clamps it).
    pub help_page: u16,
    /// The `H` overlay is open.
    pub messages_open: bool,
    /// The message log, newest first (only while the overlay is open).
    pub messages: Vec<Status>,
    /// The analysis panel's text.
    pub analysis: PanelText,
    /// The second engine's panel, drawn beside the first's when more than
    /// one engine is on.
    pub second_analysis: Option<PanelText>,
    /// The board shows the selected move played.
    pub previewing: bool,
    /// The panels the user turned on.
    pub panels: PanelToggles,
    /// The numbers panel's lines (see `numbers_text`).
    pub numbers: Vec<String>,
    /// The first of them to show (the view keeps the last page full).
    pub numbers_scroll: u16,
    /// The copy menu (`F`) is open.
    pub copy_menu: bool,
    /// The library panel, while it is open.
    pub library: Option<super::library::snapshot::LibrarySnapshot>,
    /// The match panel, while a match is open.
    pub review: Option<super::match_review::view::ReviewPanel>,
    /// The statistics view, while it is open.
    pub statistics: Option<super::statistics::view::StatisticsView>,
    /// The statistics view of a player across the library's matches.
    pub player_statistics: Option<super::statistics::player::PlayerView>,
    /// The match list, while it is open.
    pub matches: Option<super::match_list::view::MatchListView>,
    /// The statistics view of a player by theme (`t`), in the player's
    /// view's place.
    pub player_themes: Option<super::statistics::themes::ThemesView>,
    /// The live views (`~`), while they are on: drawn in the analysis
    /// panel's place.
    pub sensitivity: Option<super::sensitivity::view::SensitivityView>,
}

/// The input line as drawn: the question, the text typed so far, where the
/// cursor is, and whether the text is the selected current value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptLine {
    pub question: String,
    pub prompt: Prompt,
}

fn field(label: &'static str, value: impl Into<String>) -> Field {
    Field {
        label,
        value: value.into(),
        not_applicable: false,
    }
}

fn not_applicable(label: &'static str, why: &str) -> Field {
    Field {
        label,
        value: format!("n/a ({why})"),
        not_applicable: true,
    }
}

fn fields(p: &Position) -> Vec<Field> {
    let s = &p.state;
    let name = |pl: Player| format!("{pl} {}", p.names.of(pl));
    let mut f = vec![
        field(
            "On roll",
            format!(
                "{} {}",
                name(s.on_roll),
                if s.on_roll == Player::X { "(v)" } else { "(^)" }
            ),
        ),
        field(
            "Dice",
            match s.dice {
                Some([a, b]) => format!("{a} {b}"),
                None => "not rolled".to_owned(),
            },
        ),
        field(
            "Cube",
            match s.cube_owner {
                CubeOwner::Centred => format!("{}, centred", s.cube_value()),
                CubeOwner::Owned(o) => format!("{}, {o} owns", s.cube_value()),
            },
        ),
        field(
            "Offered",
            if s.double_offered {
                format!("{} doubles to {}", s.on_roll, s.cube_value() * 2)
            } else {
                "no".to_owned()
            },
        ),
        field(
            "Score",
            if s.is_money() {
                format!("money  O {} X {}", s.score[0], s.score[1])
            } else {
                format!("O {} X {} to {}", s.score[0], s.score[1], s.match_length)
            },
        ),
    ];
    // In a match, the score as players say it takes the row the two money
    // rules share there.
    if let (Some(o), Some(x)) = (scores::away(s, Player::O), scores::away(s, Player::X)) {
        f.push(field("Away", format!("O {o}-away X {x}-away")));
    }
    f.push(if s.is_money() {
        not_applicable("Crawford", "money")
    } else {
        field("Crawford", on_off(s.crawford))
    });
    if s.is_money() {
        f.push(field("Jacoby", on_off(s.jacoby)));
        f.push(field("Beavers", on_off(s.beavers)));
    } else {
        f.push(Field {
            label: "Money",
            value: "Jacoby, beavers n/a".to_owned(),
            not_applicable: true,
        });
    }
    let b = &p.board;
    f.push(field(
        "Pips",
        format!("O {}  X {}", b.pip_count(Player::O), b.pip_count(Player::X)),
    ));
    f.push(field(
        "Off",
        format!("O {}  X {}", b.borne_off(Player::O), b.borne_off(Player::X)),
    ));
    f.push(field(
        "Resigns",
        match s.resignation {
            bgedit_core::domain::Resignation::None => "no".to_owned(),
            r => format!("{} offers {}", s.on_roll, r.words()),
        },
    ));
    f.push(field("Game", s.game_state.words()));
    f.push(field(
        "Names",
        format!("{} / {}", name(Player::O), name(Player::X)),
    ));
    f
}

/// The analysis panel while the board shows a library entry: gnubg's
/// answer is for the editor's own position, so it is not shown beside
/// another.
fn not_of_the_entry() -> analysis::PanelText {
    analysis::PanelText {
        header: "not shown: the board is the library's entry, not the position analysed".to_owned(),
        notes: vec![
            "Enter loads the entry onto the board, and gnubg analyses it there.".to_owned(),
        ],
        ..analysis::PanelText::default()
    }
}

/// The analysis panel in a quiz, while its question waits for the answer
/// (or, after a double, for the opponent's; the analysis would give it
/// away even where the question is the editor's own position) or is on
/// the board: the engine's analysis comes with the grade.
fn not_in_the_quiz(unanswered: bool) -> analysis::PanelText {
    analysis::PanelText {
        header: if unanswered {
            "not shown: the quiz's question is not answered yet"
        } else {
            "not shown: the board is the quiz's question, not the position analysed"
        }
        .to_owned(),
        notes: vec!["The engine's analysis comes with the grade, under the board.".to_owned()],
        ..analysis::PanelText::default()
    }
}

/// Whether the quiz's current question still waits for its answer.
fn quiz_unanswered(model: &Model) -> bool {
    model
        .library
        .review
        .as_ref()
        .is_some_and(super::library::state::Review::unanswered)
}

impl Snapshot {
    pub fn of(model: &Model) -> Snapshot {
        // The board shows the library's highlighted entry, or the analysis's
        // selected move played, or the position.
        let preview = analysis::board_position(model);
        let library_focused = super::library::snapshot::focused(&model.mode);
        let in_quiz = model.library.review.is_some();
        let p = library_focused
            .then(|| model.library.preview())
            .flatten()
            .or(preview.as_ref())
            .unwrap_or(&model.position);
        let text = text_board::render(p);
        let mut board_lines: Vec<String> = text.lines().skip(2).map(str::to_owned).collect();
        if let Some(side) = model.view_from {
            view_from(&mut board_lines, side, p.state.on_roll);
        }
        let ids = [
            ("Position ID", IdFormat::PositionId),
            ("Match ID", IdFormat::MatchId),
            ("GNUBG ID", IdFormat::GnubgId),
            ("XGID", IdFormat::Xgid),
        ]
        .into_iter()
        .map(|(label, format)| (label, codec::to_string_as(p, format)))
        .collect();
        let warnings = match p.validate() {
            Ok(w) => w.iter().map(ToString::to_string).collect(),
            // The reducer never keeps an invalid position; say so if it did.
            Err(e) => vec![format!("invalid position: {e}")],
        };
        let prompt = match &model.mode {
            Mode::Prompt(pr) => Some(PromptLine {
                question: if pr.kind == super::prompt::state::PromptKind::Move {
                    super::play::view::prompt_label(p)
                } else {
                    pr.kind.label().to_owned()
                },
                prompt: pr.clone(),
            }),
            Mode::Library(sub) => {
                super::library::snapshot::prompt(sub, &model.library).map(|(question, line)| {
                    PromptLine {
                        question,
                        prompt: Prompt {
                            kind: PromptKind::Import,
                            line,
                        },
                    }
                })
            }
            _ => None,
        };
        Snapshot {
            board_lines,
            cursor: model.cursor,
            on_roll: p.state.on_roll,
            fields: fields(p),
            ids,
            warnings,
            status: model.status.clone(),
            hints: match (&model.mode, &model.library.review) {
                // The quiz's keys follow its question.
                (Mode::Library(super::library::state::LibMode::Review), Some(r)) => {
                    let mut hints = super::library::keys::review_hints(r);
                    hints.push(("?", "all keys"));
                    hints
                }
                _ => keymap::hints(&model.mode),
            },
            prompt,
            place: place_info::describe(&p.board, model.cursor, p.state.on_roll),
            brush: model.brush,
            help: model.mode == Mode::Help,
            help_page: model.help_page,
            messages_open: model.mode == Mode::Messages,
            messages: if model.mode == Mode::Messages {
                model.log.newest_first().cloned().collect()
            } else {
                Vec::new()
            },
            analysis: if quiz_unanswered(model) || (in_quiz && *p != model.position) {
                not_in_the_quiz(quiz_unanswered(model))
            } else if library_focused && *p != model.position {
                not_of_the_entry()
            } else {
                analysis::panel_text(model)
            },
            second_analysis: if quiz_unanswered(model) || (library_focused && *p != model.position)
            {
                None
            } else {
                analysis::second_panel_text(model)
            },
            previewing: preview.is_some(),
            panels: super::library::snapshot::panels(model),
            numbers: super::numbers::text::lines(&numbers::compute(
                p,
                &model.numbers.met.0,
                // The evaluation is of the editor's position: not of an
                // entry or quiz question previewed.
                model
                    .numbers
                    .last_evaluation
                    .as_ref()
                    .filter(|_| p == &model.position)
                    .map(|e| &e.0),
            )),
            numbers_scroll: model.numbers.scroll,
            copy_menu: model.mode == Mode::CopyMenu,
            library: super::library::snapshot::of(model),
            review: model
                .review
                .open
                .as_deref()
                .map(super::match_review::view::of),
            player_themes: match (&model.mode, model.statistics.themes.as_deref()) {
                (Mode::Statistics, Some(t)) => {
                    Some(super::statistics::themes::of(t, model.statistics.scroll))
                }
                _ => None,
            },
            player_statistics: match (&model.mode, model.statistics.player.as_deref()) {
                _ if model.statistics.themes.is_some() => None,
                (Mode::Statistics, Some(p)) => {
                    Some(super::statistics::player::of(p, model.statistics.scroll))
                }
                _ => None,
            },
            statistics: match (&model.mode, model.review.open.as_deref()) {
                _ if model.statistics.player.is_some() => None,
                (Mode::Statistics, Some(m)) => {
                    Some(super::statistics::view::of(m, model.statistics.scroll))
                }
                _ => None,
            },
            matches: (model.mode == Mode::Matches)
                .then(|| super::match_list::view::of(&model.matches)),
            sensitivity: super::sensitivity::view::snapshot(&model.sensitivity, &model.position),
        }
    }
}

/// The board's point labels counted for `side`: gnubg counts them for the
/// player on roll, so reviewing a match they turn at every move; XG and
/// gnubg's own board keep one side. The checkers stay where they are.
fn view_from(lines: &mut [String], side: Player, on_roll: Player) {
    const LABELS: usize = 44;
    if side == on_roll || lines.len() < 13 {
        return;
    }
    let (top, bottom) = (lines[0].clone(), lines[12].clone());
    if !(top.is_char_boundary(LABELS) && bottom.is_char_boundary(LABELS)) {
        return;
    }
    lines[0] = format!("{}{}", &bottom[..LABELS], &top[LABELS..]);
    lines[12] = format!("{}{}", &top[..LABELS], &bottom[LABELS..]);
}
