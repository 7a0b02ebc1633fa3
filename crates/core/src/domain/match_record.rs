//! One match, as every match file holds it: the header, the games, and each
//! game's actions in order. Every reader (gnubg SGF, Jellyfish `.mat`,
//! gnubg's `export match text`, XG's binary `.xg` and `.xgp`) produces a
//! [`MatchRecord`]; every consumer (the `match`, `analyse --file` and
//! `convert --file` commands, the library's import, the editor's match
//! review, the quiz) reads one. The
//! positions before each action come from one replay (`domain::replay`),
//! which applies gnubg's `move` rules, so no reader turns actions into
//! positions on its own.
//!
//! Players are gnubg's: `O` is player 0 (SGF's White, the left-hand column
//! of a `.mat` file as gnubg exports it), `X` is player 1. Checker
//! movements are written in the mover's own point numbers (24 down to 1, 25
//! the bar, 0 off), as gnubg's notation counts them, whatever the format's
//! own coordinates were.

use super::board::{Board, Place};
use super::match_state::{CubeOwner, Dice, Resignation};
use super::notation::Step;
use super::player::Player;
use super::position::Names;
use serde::{Deserialize, Serialize};

/// The format a match was read from. A new format is a variant here, its
/// reader in `codec/`, and its row in `codec::match_file`'s table of
/// formats (detection, dispatch and the messages that list them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchFormat {
    /// gnubg's `save match` (and Gibbon/libgsgf's SGF).
    Sgf,
    /// Jellyfish `.mat`, as gnubg, Backgammon Galaxy, FIBS and others write it.
    Mat,
    /// gnubg's `export match text` (and any text of `Position ID:` blocks).
    MatchText,
    /// eXtreme Gammon's binary match (`.xg`).
    Xg,
    /// eXtreme Gammon's binary position (`.xgp`).
    Xgp,
}

impl MatchFormat {
    pub fn name(self) -> &'static str {
        match self {
            MatchFormat::Sgf => "SGF",
            MatchFormat::Mat => "Jellyfish .mat",
            MatchFormat::MatchText => "gnubg match text",
            MatchFormat::Xg => "XG match",
            MatchFormat::Xgp => "XG position",
        }
    }
}

/// What a match file says about the whole match.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchHeader {
    pub names: Names,
    /// Points to win; 0 for money play (a session).
    pub length: u16,
    /// The Crawford rule is played (match play).
    pub crawford: bool,
    /// Money play: the Jacoby rule.
    pub jacoby: bool,
    /// Money play: beavers allowed.
    pub beavers: bool,
    pub event: Option<String>,
    pub round: Option<String>,
    pub place: Option<String>,
    /// As the file writes it (`2024-05-01`, `Mar 3 2019`, ...).
    pub date: Option<String>,
    /// The program or site that wrote the file, when it says.
    pub application: Option<String>,
    /// Who transcribed or annotated the match (`.mat`'s `Transcriber`,
    /// SGF's `AN`, XG's transcriber).
    #[serde(default)]
    pub annotator: Option<String>,
    pub comment: Option<String>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// The winner bore off the last checker.
    BoreOff,
    /// A double was dropped.
    Dropped,
    /// A resignation was accepted.
    Resigned,
}

/// The result of a game, as the file states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    pub winner: Player,
    /// Points won (cube and gammons counted).
    pub points: u32,
    /// `None` where the file gives the points but not how (`RE[W+2]`).
    pub ending: Option<Ending>,
}

/// A position set up inside a game (SGF's `AE/AB/AW`, `PL`, `CV`, `CP`,
/// `DI`; an XG position file). Each field is what the set-up changes; the
/// rest stays as the replay had it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetUp {
    pub board: Option<Board>,
    /// Places emptied, before `add` (SGF's `AE`): a point empties of both
    /// colours.
    pub clear: Vec<Place>,
    /// One checker of the player added to each place listed (SGF's `AB`,
    /// `AW`).
    pub add: Vec<(Player, Place)>,
    pub on_roll: Option<Player>,
    pub cube_log2: Option<u8>,
    pub cube_owner: Option<CubeOwner>,
    pub dice: Dice,
}

/// What a player did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionKind {
    /// A roll and the checkers moved for it (empty: no legal move, a dance).
    /// `dice` are as the file wrote them; gnubg writes the larger first.
    Move {
        dice: [u8; 2],
        steps: Vec<Step>,
    },
    Double,
    Take,
    Drop,
    /// A beaver: the taker redoubles at once and keeps the cube.
    Beaver,
    /// A resignation offered, of one game's worth, a gammon or a backgammon.
    Resign(Resignation),
    AcceptResign,
    RejectResign,
    SetUp(SetUp),
}

/// One candidate in a move analysis a file carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankedMove {
    /// In gnubg's notation (written by bgedit from the file's steps).
    pub notation: String,
    /// Cubeful equity (money) or normalised equity (match), the file's own.
    pub equity: f64,
    /// Win, win gammon, win backgammon, lose gammon, lose backgammon, when
    /// the file gives them.
    pub probs: Option<[f64; 5]>,
    /// The depth of this candidate in the file's own words (`2-ply`,
    /// `XG 3-ply`, `Rollout`, `XG Roller++`).
    pub depth: String,
}

/// The analysis a file carries for one action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FileAnalysis {
    /// The moves the analyser ranked for the roll, best first.
    Moves { moves: Vec<RankedMove> },
    /// The cube decision before the roll (or the take decision after a
    /// double), from the side of the player who doubles.
    Cube {
        /// Equities of no double, double/take and double/pass.
        no_double: f64,
        double_take: f64,
        double_pass: f64,
        probs: Option<[f64; 5]>,
        depth: String,
    },
}

impl FileAnalysis {
    /// The program whose analysis this is, for labels ("gnubg", "XG").
    pub fn depth(&self) -> &str {
        match self {
            FileAnalysis::Moves { moves } => moves.first().map_or("", |m| m.depth.as_str()),
            FileAnalysis::Cube { depth, .. } => depth,
        }
    }
}

/// How much equity a decision gave away by the file's own analysis: the
/// best candidate's equity minus the played one's (0 for the best play),
/// `None` when the analysis does not rank what was played. A match-play
/// cube analysis still in match winning chances (no table to convert it)
/// is not scored. The match-review work adds errors gnubg computes for
/// decisions the file left unanalysed.
pub fn stored_error(action: &Action, played: &str) -> Option<f64> {
    match (&action.kind, &action.analysis) {
        (ActionKind::Move { .. }, Some(FileAnalysis::Moves { moves })) => {
            let best = moves.first()?.equity;
            let chosen = moves.iter().find(|m| m.notation == played)?.equity;
            Some((best - chosen).max(0.0))
        }
        (
            kind,
            Some(FileAnalysis::Cube {
                no_double,
                double_take,
                double_pass,
                depth,
                ..
            }),
        ) if !depth.contains("match winning chances") => {
            // From the doubler's side: the taker answers with the smaller of
            // take and pass; the doubler keeps the larger of that and no
            // double.
            let answer = double_take.min(*double_pass);
            let best = no_double.max(answer);
            match kind {
                ActionKind::Double => Some(best - answer),
                ActionKind::Take => Some(double_take - answer),
                ActionKind::Drop => Some(double_pass - answer),
                _ => None,
            }
        }
        _ => None,
    }
}

/// An action with what the file says of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Action {
    pub player: Player,
    pub kind: ActionKind,
    /// The file's analysis of the decision this action answers, if any.
    pub analysis: Option<FileAnalysis>,
    /// The cube decision the file analysed before this move's roll (XG and
    /// gnubg both keep it on the move).
    pub cube_analysis: Option<FileAnalysis>,
    /// The annotator's comment on this action.
    pub comment: Option<String>,
    /// Where the action is in the file (a line number for text formats, a
    /// record index for XG), for error messages.
    pub origin: Option<u32>,
}

impl Action {
    pub fn new(player: Player, kind: ActionKind) -> Action {
        Action {
            player,
            kind,
            analysis: None,
            cube_analysis: None,
            comment: None,
            origin: None,
        }
    }
}

/// One game of a match.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// 1-based, as files and gnubg count games.
    pub number: usize,
    /// Score at the start of the game: O's, then X's.
    pub score: [u16; 2],
    /// This is the Crawford game.
    pub crawford_game: bool,
    pub actions: Vec<Action>,
    /// `None` for a game the file leaves unfinished.
    pub result: Option<GameResult>,
    pub comment: Option<String>,
}

/// A whole match (or money session).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub format: MatchFormat,
    pub header: MatchHeader,
    pub games: Vec<GameRecord>,
}

/// Something a reader could not read, with where it is: the rest of the file
/// is still read where it can be, and these are reported beside the match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadProblem {
    /// 1-based game, when the problem is inside one.
    pub game: Option<usize>,
    /// 1-based move (action) number in that game, when known.
    pub action: Option<usize>,
    /// 1-based line of a text file, or byte offset of a binary one.
    pub line: Option<u32>,
    /// What is wrong, quoting the text through `quote.rs`.
    pub message: String,
}

/// The readers' words for an entry they read as gnubg 1.07 reads it (a
/// move skipped or applied, a property ignored): every such message ends
/// its sentence with them.
pub const AS_GNUBG_DOES: &str = "as gnubg does";

impl ReadProblem {
    /// Whether the match is read all the same as gnubg reads it: an entry
    /// skipped, applied or ignored as gnubg does (the reader says so), or
    /// a candidate of the file's own analysis that is no legal move left
    /// out. Such a file is imported, not failed.
    pub fn read_as_gnubg(&self) -> bool {
        self.message.contains(AS_GNUBG_DOES)
            || (self.message.contains("candidate moves are not legal moves")
                && self.message.contains("; left out"))
    }
}

/// Problems of one game listed one by one before the rest are only counted.
const MAX_LISTED: usize = 1000;

/// A reader's problems as they are met, summarised as they come: a problem
/// that says what the one before it in the same game said is counted into
/// it ("and 3,199,999 more like it"), and past [`MAX_LISTED`] problems in a
/// game the rest of that game's are counted in one line. A game of
/// millions of bad nodes is read in memory that does not grow with them,
/// and read out in lines a person can read; each game still has its own.
#[derive(Debug, Default)]
pub(crate) struct Problems {
    listed: Vec<ReadProblem>,
    /// How many more like each listed problem followed it.
    more: Vec<u64>,
    /// The problems listed in the current game.
    in_game: usize,
    /// The current game's problems past the cap: the first one, and how
    /// many.
    unlisted: Option<(ReadProblem, u64)>,
}

impl Problems {
    pub(crate) fn push(&mut self, problem: ReadProblem) {
        let last_game = self.listed.last().map(|last| last.game);
        if last_game != Some(problem.game) {
            self.close_game();
        }
        if let Some((_, count)) = &mut self.unlisted {
            *count += 1;
        } else if self
            .listed
            .last()
            .is_some_and(|last| last.game == problem.game && last.message == problem.message)
        {
            if let Some(more) = self.more.last_mut() {
                *more += 1;
            }
        } else if self.in_game < MAX_LISTED {
            self.listed.push(problem);
            self.more.push(0);
            self.in_game += 1;
        } else {
            self.unlisted = Some((problem, 1));
        }
    }

    /// Ends the current game's problems: those past the cap become one.
    fn close_game(&mut self) {
        self.in_game = 0;
        if let Some((first, count)) = self.unlisted.take() {
            self.listed.push(ReadProblem {
                message: format!(
                    "{} more problems from here on in this game, not listed (the first: {})",
                    grouped(count),
                    first.message
                ),
                ..first
            });
            self.more.push(0);
        }
    }

    /// The problems, each saying how many more like it were met.
    pub(crate) fn into_list(mut self) -> Vec<ReadProblem> {
        self.close_game();
        let mut list = self.listed;
        for (problem, &more) in list.iter_mut().zip(&self.more) {
            if more > 0 {
                problem.message =
                    format!("{} (and {} more like it)", problem.message, grouped(more));
            }
        }
        list
    }
}

/// `n` with its thousands grouped by commas: 3,199,999.
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod problems_tests {
    use super::*;

    fn at(action: usize, message: &str) -> ReadProblem {
        ReadProblem {
            game: Some(1),
            action: Some(action),
            line: None,
            message: message.to_owned(),
        }
    }

    #[test]
    fn repeats_are_counted_into_the_first_and_the_rest_past_the_cap_in_one_line() {
        let mut p = Problems::default();
        for i in 0..3_200_000 {
            p.push(at(i, "CV[]: bad"));
        }
        p.push(at(9, "DI[9]: bad"));
        let list = p.into_list();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].message, "CV[]: bad (and 3,199,999 more like it)");
        assert_eq!(list[0].action, Some(0));
        assert_eq!(list[1].message, "DI[9]: bad");
        let mut p = Problems::default();
        for i in 0..MAX_LISTED + 5 {
            p.push(at(i, &format!("problem {i}")));
        }
        // The next game lists its own again.
        p.push(ReadProblem {
            game: Some(2),
            ..at(1, "problem 0")
        });
        let list = p.into_list();
        assert_eq!(list.len(), MAX_LISTED + 2);
        assert_eq!(
            list[MAX_LISTED].message,
            format!(
                "5 more problems from here on in this game, not listed (the first: problem {MAX_LISTED})"
            )
        );
        assert_eq!(list[MAX_LISTED].action, Some(MAX_LISTED));
        assert_eq!(list[MAX_LISTED + 1].game, Some(2));
    }

    #[test]
    fn the_same_problem_in_another_game_is_listed_again() {
        let mut p = Problems::default();
        for game in 1..=3 {
            p.push(ReadProblem {
                game: Some(game),
                ..at(1, "X's move '3zz': bad")
            });
        }
        let list = p.into_list();
        assert_eq!(list.len(), 3);
        assert!(list.iter().all(|q| q.message == "X's move '3zz': bad"));
    }

    #[test]
    fn thousands_are_grouped() {
        for (n, text) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (3_199_999, "3,199,999"),
        ] {
            assert_eq!(grouped(n), text);
        }
    }
}
