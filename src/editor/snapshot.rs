//! A plain snapshot of what the screen shows, made from the model in one
//! place. The view draws from this and never reaches back into the model.

use super::keymap;
use super::model::{Mode, Model, Status};
use super::on_off;
use crate::codec::{self, IdFormat};
use crate::domain::{CubeOwner, Place, Player, Position};
use crate::text_board;

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
    /// (question, text typed so far) while the input line is open.
    pub prompt: Option<(&'static str, String)>,
    pub help: bool,
    /// The library panel, while it is open.
    pub library: Option<super::library::snapshot::LibrarySnapshot>,
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
    f.push(if s.is_money() {
        not_applicable("Crawford", "money")
    } else {
        field("Crawford", on_off(s.crawford))
    });
    if s.is_money() {
        f.push(field("Jacoby", on_off(s.jacoby)));
        f.push(field("Beavers", on_off(s.beavers)));
    } else {
        f.push(not_applicable("Jacoby", "match"));
        f.push(not_applicable("Beavers", "match"));
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
            crate::domain::Resignation::None => "no".to_owned(),
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

impl Snapshot {
    pub fn of(model: &Model) -> Snapshot {
        // The library shows the highlighted entry on the board.
        let p = model.library.preview().unwrap_or(&model.position);
        let text = text_board::render(p);
        let board_lines = text.lines().skip(2).map(str::to_owned).collect();
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
            Mode::Prompt(pr) => Some((pr.kind.label(), pr.text.clone())),
            Mode::Library(sub) => super::library::snapshot::prompt(sub, &model.library),
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
            hints: keymap::hints(&model.mode),
            prompt,
            help: model.mode == Mode::Help,
            library: super::library::snapshot::of(model),
        }
    }
}
