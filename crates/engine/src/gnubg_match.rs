//! A whole match handed to gnubg, and a file of some of its games analysed
//! by gnubg's own `analyse match`: where gnubg is asked (a request to the
//! bridge) and how its records are read.
//!
//! Why gnubg analyses whole games rather than bgedit asking position by
//! position: every evaluation gnubg 1.07's Python module makes waits for
//! its thread pool in 10 ms steps, while its `analyse match` queues every
//! game of the file and waits once (see docs/analysis.md, "A whole match"). The
//! game's records carry what bgedit judges from: the cube's equities before
//! each roll and at each double, each move list, the move played, and the
//! luck of each roll (`engine::match_analysis` turns them into verdicts).
//!
//! gnubg reads bgedit's SGF of the match, whatever the file's format: it
//! then analyses the match bgedit read (a `.mat` gnubg would import
//! differently, an XG file it cannot read, a pasted match), game for game.

use super::answer::{MoveLine, Probs};
use bgedit_core::codec::match_file::{Contents, FileDecision, MatchFile};
use bgedit_core::codec::sgf;
use bgedit_core::domain::Player;
use bgedit_core::domain::match_record::{Action, ActionKind, GameRecord, MatchRecord, SetUp};
use serde::Deserialize;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A match as gnubg is to read it: bgedit's SGF of the match, its games
/// cut into pieces, and where each piece starts.
///
/// Why pieces: gnubg analyses a game in one process, so a match of one
/// long game would keep one job busy and the others idle. A piece is a run
/// of a game's decisions, from a roll on, written as an SGF game of its
/// own that opens with the position set up (board, player on roll, cube,
/// and the game's score and Crawford flag): gnubg judges each decision and
/// rates each roll from the position alone, so the pieces' analyses are the
/// game's. Only a game's last piece carries its result (the luck-adjusted
/// result adds up the same).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MatchForGnubg {
    /// The match cut into pieces, each an SGF game of its own: a file of
    /// any of them is a match gnubg reads (each game carries its score and
    /// Crawford flag).
    cut: Arc<MatchRecord>,
    pieces: Vec<Piece>,
}

// The cut record holds no analysis (`in_pieces` leaves the file's out:
// gnubg analyses afresh), so no number that breaks equality: the editor's
// model, which holds the match, stays `Eq`.
impl Eq for MatchForGnubg {}

/// One of gnubg's games: a piece of one of the file's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    /// The file's game.
    pub game: usize,
    /// Its first decision's number in the game (decisions before it belong
    /// to earlier pieces).
    pub first: usize,
}

/// Decisions in a piece, about: some 50 ms of gnubg's work at 0-ply with
/// the luck, so that two jobs share even a one-game match, and a run
/// stopped at 2-ply (a piece a request there, some 2 s) loses little (24
/// gave the best two-job times of 24, 40 and 60 on the bench's matches
/// when each piece was a request of its own; each costs a set-up).
pub(crate) const PIECE: usize = 24;

impl MatchForGnubg {
    /// The match of a read file whose `decisions` (`match_file::decisions`
    /// of it: the replay is made once, by the caller,
    /// `match_analysis::ReplayedMatch`) are known, its games cut into pieces
    /// of about `size` decisions (0: whole games; the analysis cuts at
    /// [`PIECE`]); `None` for gnubg's match text, which holds positions,
    /// not a match gnubg can replay.
    pub(crate) fn in_pieces(
        file: &MatchFile,
        decisions: &[FileDecision],
        size: usize,
    ) -> Option<MatchForGnubg> {
        let Contents::Record(record) = &file.contents else {
            return None;
        };
        let mut cut = MatchRecord {
            format: record.format,
            header: record.header.clone(),
            games: Vec::new(),
        };
        let mut pieces = Vec::new();
        // Each game's decisions, gathered once (a file of many games stays
        // linear).
        let mut by_game: HashMap<usize, Vec<&FileDecision>> = HashMap::new();
        for d in decisions.iter().filter(|d| d.number > 0) {
            by_game.entry(d.game).or_default().push(d);
        }
        for game in &record.games {
            // Where each piece starts: (action index, decision number, set-up).
            let mut starts: Vec<(usize, usize, Option<SetUp>)> = vec![(0, 0, None)];
            let mut plays = game
                .actions
                .iter()
                .enumerate()
                .filter(|(_, a)| !matches!(a.kind, ActionKind::SetUp(_)));
            let mut since = 0;
            for d in by_game.get(&game.number).into_iter().flatten() {
                let Some((at, action)) = plays.next() else {
                    break;
                };
                since += 1;
                if size == 0 || since <= size || !matches!(action.kind, ActionKind::Move { .. }) {
                    continue;
                }
                let s = &d.position.state;
                starts.push((
                    at,
                    d.number,
                    Some(SetUp {
                        board: Some(d.position.board.clone()),
                        on_roll: Some(s.on_roll),
                        cube_log2: Some(s.cube_log2),
                        cube_owner: Some(s.cube_owner),
                        ..SetUp::default()
                    }),
                ));
                since = 1;
            }
            for (k, (at, first, setup)) in starts.iter().enumerate() {
                let end = starts.get(k + 1).map_or(game.actions.len(), |n| n.0);
                let mut actions = Vec::with_capacity(end - at + 1);
                if let Some(set) = setup {
                    let who = set.on_roll.unwrap_or(Player::O);
                    actions.push(Action::new(who, ActionKind::SetUp(set.clone())));
                }
                actions.extend(game.actions[*at..end].iter().map(|a| Action {
                    analysis: None,
                    cube_analysis: None,
                    comment: None,
                    ..a.clone()
                }));
                let last = k + 1 == starts.len();
                cut.games.push(GameRecord {
                    actions,
                    result: if last { game.result } else { None },
                    ..game.clone()
                });
                pieces.push(Piece {
                    game: game.number,
                    first: *first,
                });
            }
        }
        Some(MatchForGnubg {
            cut: Arc::new(cut),
            pieces,
        })
    }

    /// The pieces, in gnubg's order of games.
    pub(crate) fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The SGF of the pieces `which` (their places in [`Self::pieces`]),
    /// in that order, in a file of this user's alone, removed when dropped.
    ///
    /// Why a file of only the pieces asked: gnubg's `analyse game` waits
    /// for its threads in 25 ms steps (multithread.c `MT_WaitForTasks`
    /// polls every `UI_UPDATETIME / 10`), a wait per game that is as long
    /// as a game's whole analysis at 0-ply; `analyse match` of a file of
    /// several pieces waits once for all of them.
    pub(crate) fn write_pieces(&self, which: &[usize]) -> Result<PrivateCopy, CopyError> {
        let mut text = String::new();
        let games = which.iter().filter_map(|&k| self.cut.games.get(k));
        // Numbered from 0 in the file: gnubg's Python refuses a match whose
        // first game is not game 0 (gnubgmodule.c, "First game missing").
        for (index, game) in games.enumerate() {
            sgf::write_game(&self.cut.header, index, game, &mut text);
        }
        PrivateCopy::write(&text)
    }
}

/// A file of this user's alone in the temporary directory, removed when
/// dropped: the match as gnubg is to read it. Each one is also listed in
/// [`COPIES`] until dropped, for the exits that drop nothing (a signal, the
/// editor quitting while its worker analyses): [`remove_private_copies`].
#[derive(Debug)]
pub(crate) struct PrivateCopy(PathBuf);

/// The private copies not dropped yet.
static COPIES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

fn copies() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    COPIES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every private copy still on disk: called on the way out of
/// the process, whoever holds them.
pub fn remove_private_copies() {
    for path in copies().drain(..) {
        let _ = std::fs::remove_file(path);
    }
}

/// The match could not be written for gnubg to read: where, and why.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", .path.display())]
pub struct CopyError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

impl PrivateCopy {
    fn write(text: &str) -> Result<PrivateCopy, CopyError> {
        use std::os::unix::fs::OpenOptionsExt;
        use std::sync::atomic::{AtomicU64, Ordering};
        // Unique within the process (several runs may write at once) and
        // across processes.
        static SERIAL: AtomicU64 = AtomicU64::new(0);
        let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!(
            "bgedit-match-{}-{serial}-{nanos}.sgf",
            std::process::id()
        ));
        // Listed before it exists: a signal between the two still finds it.
        copies().push(path.clone());
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path);
        let mut f = match created {
            Ok(f) => f,
            Err(e) => {
                // Not created: a file of that name is not ours to remove.
                unlist(&path);
                return Err(CopyError { path, source: e });
            }
        };
        let copy = PrivateCopy(path);
        f.write_all(text.as_bytes()).map_err(|e| CopyError {
            path: copy.0.clone(),
            source: e,
        })?;
        Ok(copy)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for PrivateCopy {
    fn drop(&mut self) {
        // Removed here only if still listed: once the exit took it, a
        // file of that name is no longer ours.
        if unlist(&self.0) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

/// Takes `path` off the list; whether it was on it.
fn unlist(path: &Path) -> bool {
    let mut listed = copies();
    let at = listed.iter().position(|p| p == path);
    at.map(|at| listed.swap_remove(at)).is_some()
}

/// What a request for the games of a file asks: gnubg loads the file
/// ([`MatchForGnubg::write_pieces`]), analyses every game in it with one
/// `analyse match`, and answers each game's records in the file's order.
#[derive(Clone, Copy, Debug)]
pub struct GamesRequest<'a> {
    /// The SGF gnubg loads.
    pub path: &'a Path,
    /// The games the file holds: an answer of another count is refused.
    pub count: usize,
    pub plies: u8,
    /// Rate the luck of each roll too (21 best-move searches a roll).
    pub luck: bool,
}

/// The bridge request for the analysis of a file's games.
pub(crate) fn request_line(id: u64, req: &GamesRequest) -> String {
    serde_json::json!({
        "id": id,
        "games": {
            "path": req.path.to_string_lossy(),
            "count": req.count,
            "plies": req.plies,
            "luck": req.luck,
        },
    })
    .to_string()
}

/// The cube decision gnubg analysed before a roll or at a double, as it
/// keeps it: the cubeful equities of no double and double/take (MWC in
/// match play, normalised money equity for money), from the roller's side.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct CubeRecord {
    pub nd: f64,
    pub dt: f64,
    pub probs: Probs,
    /// The cubeless equity.
    pub cubeless: f64,
    pub plies: u8,
}

/// One record of gnubg's game.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Record {
    /// `move`, `double`, `take`, `drop`, `resign`, `set`, …
    pub action: String,
    pub player: Option<Player>,
    #[serde(default)]
    pub dice: Option<[u8; 2]>,
    /// The Position ID before the action, the player acting on roll.
    #[serde(default)]
    pub board: Option<String>,
    #[serde(default)]
    pub cube: Option<CubeRecord>,
    /// The ranked moves (gnubg's notation, normalised equity, the Position
    /// ID after, each move's depth); none for a dance.
    #[serde(default)]
    pub moves: Option<Vec<MoveLine>>,
    /// The move played's place in `moves`.
    #[serde(default)]
    pub imove: Option<i64>,
    /// The luck of the roll, normalised equity.
    #[serde(default)]
    pub luck: Option<f64>,
}

/// A player's luck over one game, as gnubg's statistics give it.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
pub struct PlayerLuck {
    pub luck: f64,
    pub cost: f64,
    pub actual: f64,
    pub adjusted: f64,
}

/// One game as gnubg analysed it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct GameAnswer {
    pub records: Vec<Record>,
    /// By player (`O`, `X`), when the luck was asked.
    #[serde(default)]
    pub players: HashMap<String, PlayerLuck>,
}

/// What is wrong with gnubg's answer for a file's games: the engine's
/// answer is garbage, said in these words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameAnswerError {
    #[error("gnubg answered a line that is not JSON")]
    NotJson,
    #[error("gnubg answered {0:?} to a game's analysis")]
    NotAGame(String),
    #[error("gnubg analysed {got} games of a file of {asked}")]
    Count { got: usize, asked: usize },
    /// Not of the shape of an answer: where, in the JSON reader's words.
    #[error("gnubg's game analysis: {said}")]
    Unreadable { said: String },
    /// A number or list out of range: which one.
    #[error("gnubg's game analysis {0}")]
    OutOfRange(&'static str),
}

/// The bridge's line read for a games request.
#[derive(Debug)]
pub enum Line {
    /// Another request's answer, or the ready line: not this one's.
    Other,
    /// The bridge could not do it: its words.
    Refused(String),
    /// Each game's records, in the file's order.
    Games(Vec<GameAnswer>),
}

/// Reads the bridge's line `text` for request `id`, a file of `count`
/// games: each game's records, checked. Read straight into the records, in
/// one pass: an answer at 0-ply is a megabyte of JSON a few hundred
/// decisions, and a tree of values in between cost bgedit as much again.
pub fn read_line(text: &str, id: u64, count: usize) -> Result<Line, GameAnswerError> {
    #[derive(Deserialize)]
    struct Answer {
        id: Option<u64>,
        error: Option<String>,
        kind: Option<String>,
        games: Option<Vec<GameAnswer>>,
    }
    let a: Answer = match serde_json::from_str(text) {
        Ok(a) => a,
        Err(typed) => return read_odd_line(text, id, typed),
    };
    if a.id != Some(id) {
        return Ok(Line::Other);
    }
    if let Some(e) = a.error {
        return Ok(Line::Refused(e));
    }
    if a.kind.as_deref() != Some("games") {
        return Err(GameAnswerError::NotAGame(a.kind.unwrap_or_default()));
    }
    let games = a.games.unwrap_or_default();
    if games.len() != count {
        return Err(GameAnswerError::Count {
            got: games.len(),
            asked: count,
        });
    }
    games.iter().try_for_each(check_game)?;
    Ok(Line::Games(games))
}

/// A line that is not a games answer as bgedit reads one: not JSON at all,
/// another request's line of another shape, a refusal, or this request's
/// answer unreadable (`typed` says why).
fn read_odd_line(text: &str, id: u64, typed: serde_json::Error) -> Result<Line, GameAnswerError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|_| GameAnswerError::NotJson)?;
    if value.get("id").and_then(serde_json::Value::as_u64) != Some(id) {
        return Ok(Line::Other);
    }
    match value.get("error").and_then(serde_json::Value::as_str) {
        Some(e) => Ok(Line::Refused(e.to_owned())),
        None => Err(GameAnswerError::Unreadable {
            said: typed.to_string(),
        }),
    }
}

/// One game of the answer: every number finite and in range, every move
/// list well formed.
fn check_game(a: &GameAnswer) -> Result<(), GameAnswerError> {
    let sane = |x: f64| x.is_finite() && x.abs() <= 1e6;
    let probs_ok = |p: &Probs| {
        p.iter()
            .all(|x| x.is_finite() && (-1e-6..=1.0 + 1e-6).contains(x))
    };
    for r in &a.records {
        if r.dice
            .is_some_and(|d| d.iter().any(|x| !(1..=6).contains(x)))
        {
            return Err(GameAnswerError::OutOfRange("has dice out of range"));
        }
        if let Some(c) = &r.cube
            && !([c.nd, c.dt, c.cubeless].into_iter().all(sane) && probs_ok(&c.probs))
        {
            return Err(GameAnswerError::OutOfRange(
                "has a cube number out of range",
            ));
        }
        if let Some(moves) = &r.moves {
            let ok = moves
                .iter()
                .all(|m| sane(m.equity) && probs_ok(&m.probs) && m.after.len() == 14);
            if !ok {
                return Err(GameAnswerError::OutOfRange("has a move out of range"));
            }
            if r.imove.is_some_and(|i| i < 0 || i as usize >= moves.len()) {
                return Err(GameAnswerError::OutOfRange(
                    "names a move played not in its list",
                ));
            }
        }
        if r.luck.is_some_and(|l| !sane(l)) {
            return Err(GameAnswerError::OutOfRange("has a luck out of range"));
        }
    }
    for l in a.players.values() {
        if ![l.luck, l.cost, l.actual, l.adjusted].into_iter().all(sane) {
            return Err(GameAnswerError::OutOfRange("has a luck total out of range"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> serde_json::Value {
        serde_json::json!({"records": [
            {"action": "move", "player": "O", "dice": [2, 1], "board": "4HPwATDgc/ABMA",
             "moves": [{"move": "13/11 24/23", "equity": -0.008, "probs": [0.5, 0.14, 0.01, 0.14, 0.01],
                        "after": "4HPkASjgc/ABMA", "plies": 0}],
             "imove": 0, "luck": -0.008},
            {"action": "double", "player": "X", "board": "4HPwATDgc/ABMA",
             "cube": {"nd": 0.51, "dt": 0.49, "probs": [0.53, 0.16, 0.01, 0.12, 0.0], "cubeless": 0.1, "plies": 0}},
            {"action": "take", "player": "O"},
            {"action": "resign", "player": "O"}],
            "players": {"O": {"luck": 0.8, "cost": 0.1, "actual": -0.5, "adjusted": -0.4}}})
    }

    /// The bridge's answer to request 7 holding `games`.
    fn games(games: &[serde_json::Value]) -> String {
        serde_json::json!({"id": 7, "kind": "games", "games": games}).to_string()
    }

    /// The games read from `text`, the answer to request 7.
    fn parse(text: &str, count: usize) -> Result<Vec<GameAnswer>, GameAnswerError> {
        match read_line(text, 7, count)? {
            Line::Games(g) => Ok(g),
            other => panic!("not the games: {other:?}"),
        }
    }

    fn one(game: serde_json::Value) -> Result<GameAnswer, GameAnswerError> {
        parse(&games(&[game]), 1).map(|mut g| g.remove(0))
    }

    #[test]
    fn the_answer_is_read_and_checked() {
        let a = one(answer()).unwrap();
        assert_eq!(a.records.len(), 4);
        assert_eq!(a.records[0].player, Some(Player::O));
        assert_eq!(
            a.records[0].moves.as_ref().unwrap()[0].notation,
            "13/11 24/23"
        );
        assert_eq!(a.records[1].cube.as_ref().unwrap().dt, 0.49);
        assert_eq!(a.players["O"].adjusted, -0.4);
        let mut bad = answer();
        bad["records"][0]["dice"] = serde_json::json!([7, 1]);
        assert!(one(bad).unwrap_err().to_string().contains("dice"));
        let mut bad = answer();
        bad["records"][0]["imove"] = serde_json::json!(3);
        assert!(
            one(bad)
                .unwrap_err()
                .to_string()
                .contains("not in its list")
        );
        let mut bad = answer();
        bad["records"][1]["cube"]["nd"] = serde_json::json!(1e9);
        assert!(one(bad).unwrap_err().to_string().contains("cube"));
        assert!(parse(r#"{"id": 7, "kind": "moves"}"#, 0).is_err());
    }

    #[test]
    fn another_requests_line_a_refusal_and_garbage_are_told_apart() {
        let other = |text: &str| matches!(read_line(text, 7, 1), Ok(Line::Other));
        assert!(other(&games(&[answer()]).replace("\"id\":7", "\"id\":6")));
        assert!(other(r#"{"ready": true}"#));
        assert!(other(
            r#"{"id": 5, "kind": "moves", "moves": [{"move": 3}]}"#
        ));
        assert!(other(r#"{"id": "seven", "games": 3}"#));
        let refused = read_line(r#"{"id": 7, "error": "no match"}"#, 7, 1);
        assert!(matches!(refused, Ok(Line::Refused(e)) if e == "no match"));
        let odd = read_line(
            r#"{"id": 7, "kind": "games", "games": 3, "error": "no"}"#,
            7,
            1,
        );
        assert!(matches!(odd, Ok(Line::Refused(e)) if e == "no"));
        let unreadable = read_line(r#"{"id": 7, "kind": "games", "games": 3}"#, 7, 1);
        assert!(matches!(
            unreadable,
            Err(GameAnswerError::Unreadable { .. })
        ));
        assert!(matches!(
            read_line("gnubg> ", 7, 1),
            Err(GameAnswerError::NotJson)
        ));
    }

    #[test]
    fn an_answer_of_another_count_of_games_is_refused() {
        let two = games(&[answer(), answer()]);
        assert_eq!(parse(&two, 2).unwrap().len(), 2);
        assert_eq!(
            parse(&two, 3).unwrap_err().to_string(),
            "gnubg analysed 2 games of a file of 3"
        );
    }

    /// The match of a match text, as gnubg is to read it.
    fn match_of(text: &str) -> MatchForGnubg {
        let file = bgedit_core::codec::match_file::read_bytes(text.as_bytes()).unwrap();
        let (decisions, _) = bgedit_core::codec::match_file::decisions(&file);
        MatchForGnubg::in_pieces(&file, &decisions, PIECE).unwrap()
    }

    #[test]
    fn a_file_of_later_pieces_opens_with_game_0_at_its_own_score() {
        let m = match_of(
            "; [Match ID \"x\"]\n 3 point match\n\n Game 1\n alice : 0                 bob : 0\n  1) 31: 8/5 6/5                  64: 24/18 18/14\n  2)                             Wins 1 point\n\n Game 2\n alice : 0                 bob : 1\n  1) 52: 13/8 13/11               31: 8/5 6/5\n  2) Wins 1 point\n",
        );
        assert_eq!(m.pieces().len(), 2);
        let copy = m.write_pieces(&[1]).unwrap();
        let written = std::fs::read_to_string(copy.path()).unwrap();
        // gnubg's Python refuses a match whose first game is not game 0;
        // the game keeps its own score (bob 1 ahead).
        assert!(
            written.contains("MI[length:3][game:0][ws:0][bs:1]"),
            "{written}"
        );
        assert_eq!(written.matches("(;FF[4]").count(), 1, "{written}");
    }

    #[test]
    fn a_match_goes_to_gnubg_as_bgedit_reads_it() {
        let m = match_of(
            "; [Match ID \"x\"]\n 3 point match\n\n Game 1\n alice : 0                 bob : 0\n  1) 31: 8/5 6/5                  64: 24/18 18/14\n  2)                             Wins 1 point\n",
        );
        assert_eq!(m.pieces(), [Piece { game: 1, first: 0 }]);
        let copy = m.write_pieces(&[0]).unwrap();
        let written = std::fs::read_to_string(copy.path()).unwrap();
        assert!(written.starts_with("(;FF[4]GM[6]"), "{written}");
        let path = copy.path().to_owned();
        drop(copy);
        assert!(!path.exists(), "the copy is removed");
    }
}
