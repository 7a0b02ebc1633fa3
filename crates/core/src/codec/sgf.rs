//! gnubg's SGF files (`save position`, `save match`), both ways.
//!
//! A game is `(;root;node;node…)`. The root holds the match: `MI[length:7]
//! [game:0][ws:2][bs:1]` (scores at the start of the game, White first),
//! `PW`/`PB` names, `RU[Crawford]` (the rule is used) or
//! `RU[Crawford:CrawfordGame]` (this is the Crawford game), `RU[Jacoby]`.
//! Nodes set up a position (`AE[a:y]` clears, `AW`/`AB` add one checker per
//! value, `PL[W|B]` who is on roll, `CV[4]` cube value, `CP[c|w|b]` owner,
//! `DI[52]` dice) or play: `B[52lqac]` (dice, then from/to pairs),
//! `W[double]`, `B[take]`, `W[drop]`.
//!
//! Coordinates: `a`–`x` are White's (O's) points 1–24 and Black's (X's)
//! 24–1; `y` is the bar and `z` borne off. White is gnubg's player 0 (O),
//! Black player 1 (X). gnubg's own files put `PL` first in the set-up node.
//! What SGF cannot hold: a double or resignation on offer in a saved position
//! (gnubg writes neither), the game state, beavers, the maximum cube, and the
//! Jacoby setting in match play.

use super::error::{IdError, IdKind};
use crate::domain::equity::Score;
use crate::domain::match_record::{
    Action, ActionKind, Ending, FileAnalysis, GameRecord, GameResult, MatchFormat, MatchHeader,
    MatchRecord, Problems, RankedMove, ReadProblem, SetUp,
};
use crate::domain::match_state::{MAX_CUBE_LOG2, MAX_MATCH_NUMBER};
use crate::domain::met::Met;
use crate::domain::notation::{Step, format_steps};
use crate::domain::replay::{GameReplay, replay_actions, replay_game};
use crate::domain::skill::Skill;
use crate::domain::validation::check_match;
use crate::domain::{
    Board, CubeOwner, GameState, MatchState, Place, Player, Position, Resignation, check_name,
};
use std::fmt::Write;

/// Largest SGF text read: a long match with analysis is a few megabytes.
pub const MAX_LEN: usize = 16 * 1024 * 1024;
/// Values one property may have (`AW` has at most 15 useful ones).
const MAX_VALUES: usize = 4096;
/// Games read from one file: a long money session has a few hundred, and
/// a file of 400,000 one-node games is still listed (each game costs a few
/// hundred bytes once read).
const MAX_GAMES: usize = 500_000;
/// Moves, cube actions and set-ups read from one file: a long match with
/// analysis is a few thousand. Each is a few hundred bytes once read (its
/// analysis, its replayed position), so 16 MiB of bare moves (`;B[31qtst]`,
/// 1.7 million of them) held 650 MB; this many hold about a tenth of that.
const MAX_ACTIONS: usize = 200_000;

fn err(detail: impl Into<String>) -> IdError {
    IdError::Malformed {
        kind: IdKind::Sgf,
        detail: detail.into(),
    }
}

/// What is wrong in one node's value: a set-up that cannot be read (the
/// file is refused, naming the game and node), or a value gnubg passes
/// over (a problem naming the game and move). The values are quoted cut
/// ([`crate::quote::clip`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum NodeError {
    /// A set-up letter, escaped.
    #[error("point '{0}': points are a–x, y the bar, z off")]
    Point(String),
    #[error("point '{0}': a point is one letter a–y, or a range like a:y")]
    PointRange(String),
    #[error("{property}[{value}]: the player is W (White, O) or B (Black, X)")]
    Player {
        property: &'static str,
        value: String,
    },
    #[error(
        "CV[{0}]: the cube is a power of two from 1 to {max}; ignored, as gnubg does",
        max = 1u32 << MAX_CUBE_LOG2
    )]
    Cube(String),
    #[error("CP[{0}]: the cube owner is c, w or b; ignored, as gnubg does")]
    CubeOwner(String),
    #[error("DI[{0}]: two dice 1–6 were expected; ignored, as gnubg does")]
    Dice(String),
    #[error("{player}'s move '{text}' does not start with two dice 1–6; skipped, as gnubg does")]
    MoveDice { player: Player, text: String },
    #[error("{player}'s move '{text}' has a point outside a–z; skipped")]
    MovePoint { player: Player, text: String },
    #[error("the file's cube analysis holds a number that is not finite (nan, inf); it is dropped")]
    CubeNotFinite,
}

/// A property: its name and values.
type Property = (String, Vec<String>);
/// A node: its properties.
type Node = Vec<Property>;

/// Whether `text` looks like SGF: it starts with `(;`, white space allowed
/// before and between the two (SGF allows it, and gnubg loads `(` and `;`
/// on separate lines).
pub fn looks_like(text: &str) -> bool {
    text.trim_start().strip_prefix('(').is_some_and(|rest| {
        rest.trim_start_matches(|c: char| c.is_ascii_whitespace())
            .starts_with(';')
    })
}

/// An error inside the game after the `done` games read whole.
fn in_game(done: usize, message: &str) -> IdError {
    err(format!("game {}: {message}", done + 1))
}

/// Where each game's main line is in the text: the byte offset of each of
/// its nodes (the `;`), and where each game's nodes end in that list.
/// Nodes are read from their offsets one at a time when the match is read
/// ([`node_at`]): a file of millions of nodes holds four bytes a node here
/// (16 MiB of `;A[]` held every node's properties at once: 1.5 GB).
struct Outline {
    nodes: Vec<u32>,
    game_ends: Vec<u32>,
}

impl Outline {
    /// Each game's node offsets, in order.
    fn games(&self) -> impl Iterator<Item = &[u32]> {
        let starts = std::iter::once(0).chain(self.game_ends.iter().copied());
        starts
            .zip(&self.game_ends)
            .map(|(from, &to)| &self.nodes[from as usize..to as usize])
    }
}

/// Checks the SGF text's syntax and outlines its games (the main line of
/// each tree). Variations after the first are skipped.
fn parse(text: &str) -> Result<Outline, IdError> {
    if text.len() > MAX_LEN {
        return Err(err(format!(
            "the file has {} bytes; at most {MAX_LEN} are read",
            text.len()
        )));
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut outline = Outline {
        nodes: Vec::new(),
        game_ends: Vec::new(),
    };
    // depth of '(' nesting; only the first branch at each depth is kept.
    let mut depth = 0usize;
    let mut skip_from: Option<usize> = None;
    let mut branch_seen = vec![false];
    while i < bytes.len() {
        let c = bytes[i];
        let done = outline.game_ends.len();
        match c {
            b'(' => {
                depth += 1;
                if depth > 1000 {
                    return Err(in_game(done, "variations nested more than 1000 deep"));
                }
                if branch_seen.len() <= depth {
                    branch_seen.resize(depth + 1, false);
                }
                if skip_from.is_none() && branch_seen[depth - 1] && depth > 1 {
                    skip_from = Some(depth);
                }
                branch_seen[depth - 1] = true;
                branch_seen[depth] = false;
                i += 1;
            }
            b')' => {
                if depth == 0 {
                    return Err(err(format!("byte {}: ')' closes nothing", i + 1)));
                }
                if skip_from == Some(depth) {
                    skip_from = None;
                }
                depth -= 1;
                if depth == 0 {
                    outline.game_ends.push(outline.nodes.len() as u32);
                    branch_seen[0] = false;
                }
                i += 1;
            }
            b';' => {
                if depth == 0 {
                    return Err(err(format!("byte {}: a node outside '( )'", i + 1)));
                }
                // MAX_LEN keeps every offset within a u32.
                let at = i as u32;
                i += 1;
                read_node(text, &mut i, done, None)?;
                if skip_from.is_none() {
                    outline.nodes.push(at);
                }
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(err(format!(
                    "byte {}: '{ch}' where '(', ';' or ')' was expected",
                    i + 1
                )));
            }
        }
    }
    if depth != 0 {
        return Err(in_game(
            outline.game_ends.len(),
            "the file ends inside the game: a ')' is missing",
        ));
    }
    if outline.game_ends.is_empty() {
        return Err(err("no game: an SGF file starts with '(;'"));
    }
    Ok(outline)
}

/// Reads the properties of the node whose `;` is before `*at`, moving `*at`
/// past them, into `into` when given (else checks them only, keeping
/// nothing). `done`: the games read whole before it, for messages.
fn read_node(
    text: &str,
    at: &mut usize,
    done: usize,
    mut into: Option<&mut Node>,
) -> Result<(), IdError> {
    let bytes = text.as_bytes();
    let mut i = *at;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        if start == i {
            break;
        }
        let name = &text[start..i];
        let mut values = Vec::new();
        let mut count = 0usize;
        loop {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if i >= bytes.len() || bytes[i] != b'[' {
                break;
            }
            i += 1;
            let mut value = String::new();
            let mut run = i;
            loop {
                let Some(next) = memchr::memchr2(b']', b'\\', &bytes[i..]) else {
                    let name = name.to_ascii_uppercase();
                    return Err(in_game(
                        done,
                        &format!("property {name}: the value starting at byte {run} has no ']'"),
                    ));
                };
                i += next;
                if bytes[i] == b']' {
                    break;
                }
                if into.is_some() {
                    value.push_str(&text[run..i]);
                }
                i += 1;
                run = i;
                if i < bytes.len() {
                    // The escaped character is kept as is.
                    i += text[i..].chars().next().map_or(1, char::len_utf8);
                }
            }
            if into.is_some() && values.len() < MAX_VALUES {
                value.push_str(&text[run..i]);
                values.push(value);
            }
            i += 1;
            count += 1;
        }
        if count == 0 {
            let name = name.to_ascii_uppercase();
            return Err(in_game(done, &format!("property {name} has no [value]")));
        }
        if let Some(node) = into.as_deref_mut() {
            node.push((name.to_ascii_uppercase(), values));
        }
    }
    *at = i;
    Ok(())
}

/// The node whose `;` is at byte `at` of `text` (an offset of a checked
/// [`Outline`]), read into `node`.
fn node_at(text: &str, at: u32, done: usize, node: &mut Node) -> Result<(), IdError> {
    node.clear();
    read_node(text, &mut (at as usize + 1), done, Some(node))
}

/// An SGF point letter as the mover counts it: `a`–`x` the points (White's
/// 1–24, Black's 24–1), `y` the bar (25), `z` off (0).
fn own_point(ch: u8, player: Player) -> Option<u8> {
    match ch {
        b'y' => Some(25),
        b'z' => Some(0),
        b'a'..=b'x' => Some(match player {
            Player::O => ch - b'a' + 1,
            Player::X => b'x' - ch + 1,
        }),
        _ => None,
    }
}

/// The place a set-up letter names for `player`'s checkers: `None` for
/// `z` (off), which gnubg's set-up ignores.
fn setup_place(ch: u8, player: Player) -> Result<Option<Place>, NodeError> {
    match own_point(ch, player) {
        Some(25) => Ok(Some(Place::Bar(player))),
        Some(0) => Ok(None),
        Some(p) => Ok(Some(Place::own_point(player, p))),
        None => Err(NodeError::Point((ch as char).escape_debug().to_string())),
    }
}

fn player_of(value: &str, property: &'static str) -> Result<Player, NodeError> {
    match value.trim() {
        "W" | "w" => Ok(Player::O),
        "B" | "b" => Ok(Player::X),
        v => Err(NodeError::Player {
            property,
            value: crate::quote::clip(v),
        }),
    }
}

fn dice_of(value: &str) -> Option<[u8; 2]> {
    match value.trim().as_bytes() {
        [a @ b'1'..=b'6', c @ b'1'..=b'6', ..] => Some([a - b'0', c - b'0']),
        _ => None,
    }
}

/// The point letters of an `AW`-style value: `f` or a range `a:y`.
fn point_range(v: &str) -> Result<std::ops::RangeInclusive<u8>, NodeError> {
    let b = v.trim().as_bytes();
    match b {
        [c] => Ok(*c..=*c),
        [a, b':', c] if a <= c => Ok(*a..=*c),
        _ => Err(NodeError::PointRange(crate::quote::clip(v))),
    }
}

/// A name from `PW`/`PB`: the one rule for names (no control characters),
/// refused with the character and where it is.
fn name_of(value: &str, player: Player, game: usize, property: &str) -> Result<String, IdError> {
    let name = value.trim().to_owned();
    check_name(player, &name).map_err(|e| err(format!("game {game}, {property}: {e}")))?;
    Ok(name)
}

/// `RE[W+2R]`: the winner, the points, R for a resignation. `None` for a
/// result that names no winner (`RE[?]`, `RE[0]`).
fn result_of(value: &str) -> Option<GameResult> {
    let v = value.trim();
    let (who, rest) = v.split_once('+')?;
    let winner = match who.trim() {
        "W" | "w" => Player::O,
        "B" | "b" => Player::X,
        _ => return None,
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let points = digits.parse().unwrap_or(1);
    let tail = &rest[digits.len()..];
    let ending = if tail.starts_with(['R', 'r']) {
        Some(Ending::Resigned)
    } else {
        None
    };
    Some(GameResult {
        winner,
        points,
        ending,
    })
}

/// What a game's root node says: the header (from the first game) and this
/// game's score, Crawford flag and result.
fn read_root(
    node: &Node,
    number: usize,
    header: &mut MatchHeader,
    game: &mut GameRecord,
) -> Result<(), IdError> {
    for (name, values) in node {
        let first = values[0].as_str();
        match name.as_str() {
            "MI" => {
                for v in values {
                    let (tag, val) = v.split_once(':').unwrap_or((v, ""));
                    let n = || -> Result<u16, IdError> {
                        val.trim()
                            .parse::<u16>()
                            .ok()
                            .filter(|&n| n <= MAX_MATCH_NUMBER)
                            .ok_or_else(|| {
                                err(format!(
                                    "game {number}, MI {tag}:{}: a number 0–{MAX_MATCH_NUMBER} was expected",
                                    crate::quote::clip(val)
                                ))
                            })
                    };
                    match tag.trim().to_ascii_lowercase().as_str() {
                        "length" => header.length = n()?,
                        "ws" => game.score[Player::O.index()] = n()?,
                        "bs" => game.score[Player::X.index()] = n()?,
                        _ => {}
                    }
                }
            }
            "RE" => game.result = result_of(first),
            "PW" => header.names.o = name_of(first, Player::O, number, "PW")?,
            "PB" => header.names.x = name_of(first, Player::X, number, "PB")?,
            "RU" => {
                for part in first.split(':') {
                    match part.trim() {
                        "Crawford" => header.crawford = true,
                        "CrawfordGame" => {
                            header.crawford = true;
                            game.crawford_game = true;
                        }
                        "Jacoby" => header.jacoby = true,
                        _ => {}
                    }
                }
            }
            "EV" => header.event = Some(first.trim().to_owned()),
            "RO" => header.round = Some(first.trim().to_owned()),
            "PC" => header.place = Some(first.trim().to_owned()),
            "AN" => header.annotator = Some(first.trim().to_owned()),
            "DT" => header.date = Some(first.trim().to_owned()),
            "AP" => header.application = Some(first.trim().to_owned()),
            "GC" => game.comment = Some(first.to_owned()),
            _ => {}
        }
    }
    Ok(())
}

/// The set-up a node holds (`AE`, `AW`, `AB`, `PL`, `CV`, `CP`, `DI`), or
/// `None`. Values gnubg ignores are reported and skipped.
fn read_setup(node: &Node, problems: &mut Vec<NodeError>) -> Result<Option<SetUp>, NodeError> {
    let mut set = SetUp::default();
    let mut any = false;
    for (name, values) in node {
        match name.as_str() {
            "AE" => {
                any = true;
                for v in values {
                    for ch in point_range(v)? {
                        match ch {
                            b'y' => set.clear.extend(Player::BOTH.map(Place::Bar)),
                            b'a'..=b'x' => {
                                set.clear.push(Place::own_point(Player::O, ch - b'a' + 1))
                            }
                            _ => {}
                        }
                    }
                }
            }
            "AW" | "AB" => {
                any = true;
                let player = if name == "AW" { Player::O } else { Player::X };
                for v in values {
                    for ch in point_range(v)? {
                        if let Some(place) = setup_place(ch, player)? {
                            set.add.push((player, place));
                        }
                    }
                }
            }
            "PL" => {
                any = true;
                set.on_roll = Some(player_of(&values[0], "PL")?);
            }
            "CV" => {
                let v = values[0].trim();
                match v.parse::<u32>() {
                    Ok(n)
                        if n.is_power_of_two()
                            && n.trailing_zeros() <= u32::from(MAX_CUBE_LOG2) =>
                    {
                        any = true;
                        set.cube_log2 = Some(n.trailing_zeros() as u8);
                    }
                    _ => problems.push(NodeError::Cube(crate::quote::clip(v))),
                }
            }
            "CP" => match values[0].trim() {
                "c" | "n" => {
                    any = true;
                    set.cube_owner = Some(CubeOwner::Centred);
                }
                "w" => {
                    any = true;
                    set.cube_owner = Some(CubeOwner::Owned(Player::O));
                }
                "b" => {
                    any = true;
                    set.cube_owner = Some(CubeOwner::Owned(Player::X));
                }
                v => problems.push(NodeError::CubeOwner(crate::quote::clip(v))),
            },
            "DI" => match dice_of(&values[0]) {
                Some(d) => {
                    any = true;
                    set.dice = Some(d);
                }
                None => problems.push(NodeError::Dice(crate::quote::clip(&values[0]))),
            },
            _ => {}
        }
    }
    Ok(any.then_some(set))
}

/// A `B[...]`/`W[...]` value as an action, or why gnubg would skip it.
fn read_play(player: Player, value: &str) -> Result<ActionKind, NodeError> {
    let v = value.trim();
    Ok(match v {
        "double" => ActionKind::Double,
        "take" => ActionKind::Take,
        "drop" => ActionKind::Drop,
        "beaver" => ActionKind::Beaver,
        "accept" => ActionKind::AcceptResign,
        "reject" => ActionKind::RejectResign,
        // Gibbon (libgsgf) writes `resign:N`, N the points per cube (1–3).
        r if r == "resign" || r.starts_with("resign:") => {
            let n = r
                .strip_prefix("resign:")
                .and_then(|n| n.trim().parse::<u8>().ok())
                .unwrap_or(1);
            ActionKind::Resign(Resignation::from_code(n.clamp(1, 3)).unwrap_or(Resignation::Single))
        }
        m => {
            let dice = dice_of(m).ok_or_else(|| NodeError::MoveDice {
                player,
                text: crate::quote::clip(m),
            })?;
            let steps = pairs(&m.as_bytes()[2..], player).ok_or_else(|| NodeError::MovePoint {
                player,
                text: crate::quote::clip(m),
            })?;
            ActionKind::Move { dice, steps }
        }
    })
}

/// Checker steps from SGF letter pairs (at most four, as gnubg reads).
fn pairs(b: &[u8], player: Player) -> Option<Vec<Step>> {
    b.chunks_exact(2)
        .take(4)
        .map(|pair| {
            Some(Step {
                from: own_point(pair[0], player)?,
                to: own_point(pair[1], player)?,
            })
        })
        .collect()
}

/// gnubg's move analysis `A[i][pairs E ver 3 w wg wbg lg lbg eq plies...]`:
/// each candidate's steps, probabilities and equity. Candidates gnubg rolled
/// out (`R`, `X`) keep only their depth's name; they are left out.
///
/// A candidate with a number that is not finite (`nan`, `inf`, `1e999`) is
/// dropped: the second value counts them.
fn read_move_analysis(values: &[String], player: Player) -> (Vec<(Vec<Step>, RankedMove)>, usize) {
    let mut out = Vec::new();
    let mut not_finite = 0;
    for v in values.iter().skip(1) {
        let mut tokens = v.split_whitespace();
        let Some(first) = tokens.next() else { continue };
        let (steps, kind) = if first.len() == 1 && first.chars().all(|c| c.is_ascii_uppercase()) {
            (Vec::new(), first)
        } else {
            let Some(kind) = tokens.next() else { continue };
            let Some(steps) = pairs(first.as_bytes(), player) else {
                continue;
            };
            (steps, kind)
        };
        if kind != "E" {
            continue;
        }
        let rest: Vec<&str> = tokens.collect();
        // `ver 3` is optional in older files.
        let rest = match rest.first() {
            Some(&"ver") => &rest[2.min(rest.len())..],
            _ => &rest[..],
        };
        let numbers: Vec<f64> = rest.iter().take(6).filter_map(|t| t.parse().ok()).collect();
        if numbers.len() < 6 {
            continue;
        }
        if !numbers.iter().all(|x| x.is_finite()) {
            not_finite += 1;
            continue;
        }
        let plies = rest
            .get(6)
            .map(|t| t.trim_end_matches('C'))
            .and_then(|t| t.parse::<u32>().ok());
        out.push((
            steps,
            RankedMove {
                notation: String::new(),
                equity: numbers[5],
                probs: Some([numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]]),
                depth: plies.map_or_else(|| "gnubg".to_owned(), |p| format!("gnubg {p}-ply")),
            },
        ));
    }
    (out, not_finite)
}

/// gnubg's cube analysis `DA[E ver 3 plies ... <7 numbers> <7 numbers>]`:
/// the outputs without and with the double; the last of each seven is the
/// cubeful equity (money) or match winning chance (match play), as gnubg
/// stores it. An analysis with a number that is not finite is an error.
fn read_cube_analysis(value: &str, money: bool) -> Result<Option<FileAnalysis>, NodeError> {
    let tokens: Vec<&str> = value.split_whitespace().collect();
    if tokens.first() != Some(&"E") {
        return Ok(None);
    }
    let numbers: Vec<f64> = tokens
        .iter()
        .rev()
        .take(14)
        .filter_map(|t| t.parse().ok())
        .collect();
    if numbers.len() < 14 {
        return Ok(None);
    }
    if !numbers.iter().all(|x| x.is_finite()) {
        return Err(NodeError::CubeNotFinite);
    }
    let n: Vec<f64> = numbers.into_iter().rev().collect();
    let plies = tokens
        .iter()
        .skip(1)
        .find(|t| t.ends_with('C') || t.parse::<u32>().is_ok() && **t != "ver" && **t != "3")
        .and_then(|t| t.trim_end_matches('C').parse::<u32>().ok());
    Ok(Some(FileAnalysis::Cube {
        no_double: n[6],
        double_take: n[13],
        double_pass: 1.0,
        probs: Some([n[0], n[1], n[2], n[3], n[4]]),
        depth: format!(
            "gnubg {}{}",
            plies.map_or_else(String::new, |p| format!("{p}-ply")),
            if money {
                ""
            } else {
                " (match winning chances)"
            }
        ),
    }))
}

/// Reads every game of an SGF file (`save match`, `save game`, `save
/// position`, Gibbon's files) into the match model, with the problems gnubg
/// would pass over. A file whose syntax cannot be read is an error naming
/// the game.
pub fn read_match(text: &str) -> Result<(MatchRecord, Vec<ReadProblem>), IdError> {
    let outline = parse(text)?;
    if outline.game_ends.len() > MAX_GAMES {
        return Err(err(format!(
            "the file holds {} games; at most {MAX_GAMES} are read from one file",
            outline.game_ends.len()
        )));
    }
    let mut actions = 0usize;
    let mut header = MatchHeader {
        beavers: true,
        ..MatchHeader::default()
    };
    let mut records = Vec::with_capacity(outline.game_ends.len());
    let mut problems = Problems::default();
    let mut node = Node::new();
    for (index, nodes) in outline.games().enumerate() {
        let number = index + 1;
        let mut game = GameRecord {
            number,
            ..GameRecord::default()
        };
        let Some(&root_at) = nodes.first() else {
            return Err(err(format!("game {number} has no nodes")));
        };
        node_at(text, root_at, index, &mut node)?;
        // Each game's root repeats the match; the first one's header is kept
        // except for names a later root gives first.
        let mut game_header = header.clone();
        read_root(&node, number, &mut game_header, &mut game)?;
        if index == 0 {
            header = game_header;
        }
        let mut analyses: Vec<Candidates> = Vec::new();
        let too_many = || {
            in_game(
                index,
                &format!(
                    "the file holds more than {MAX_ACTIONS} moves; at most that many are read \
                     from one file"
                ),
            )
        };
        for (n, &at) in nodes.iter().enumerate() {
            if actions + game.actions.len() > MAX_ACTIONS {
                return Err(too_many());
            }
            node_at(text, at, index, &mut node)?;
            let node = &node;
            let mut notes = Vec::new();
            match read_setup(node, &mut notes) {
                Ok(Some(set)) => game.actions.push(Action::new(
                    set.on_roll.unwrap_or(Player::X),
                    ActionKind::SetUp(set),
                )),
                Ok(None) => {}
                Err(e) => {
                    return Err(err(format!("game {number}, node {}: {e}", n + 1)));
                }
            }
            let at = Where {
                game: number,
                action: game.actions.len() + 1,
            };
            for e in notes {
                problems.push(at.problem(e.to_string()));
            }
            if n == 0 {
                continue;
            }
            let money = header.length == 0;
            if let Some(action) = read_action(node, money, at, &mut problems, &mut analyses) {
                game.actions.push(action);
            }
        }
        let cubes = game.actions.iter().any(|a| {
            matches!(a.analysis, Some(FileAnalysis::Cube { .. })) || a.cube_analysis.is_some()
        });
        if !analyses.is_empty() || (cubes && header.length > 0) {
            name_candidates(&header, &mut game, &analyses);
        }
        actions += game.actions.len();
        if actions > MAX_ACTIONS {
            return Err(too_many());
        }
        records.push(game);
    }
    Ok((
        MatchRecord {
            format: MatchFormat::Sgf,
            header,
            games: records,
        },
        problems.into_list(),
    ))
}

/// An analysed move's action index and its candidates' steps.
type Candidates = (usize, Vec<Vec<Step>>);

/// The game and action (both 1-based) a node's problems are said at.
#[derive(Clone, Copy)]
struct Where {
    game: usize,
    action: usize,
}

impl Where {
    fn problem(self, message: String) -> ReadProblem {
        ReadProblem {
            game: Some(self.game),
            action: Some(self.action),
            line: None,
            message,
        }
    }
}

/// The play a node holds (`B` or `W`, with its comment and the file's
/// analysis), or `None`; what gnubg would pass over is told to `problems`
/// at `at`, and an analysed move's candidates are kept in `analyses` to be
/// named once the game is replayed.
fn read_action(
    node: &Node,
    money: bool,
    at: Where,
    problems: &mut Problems,
    analyses: &mut Vec<Candidates>,
) -> Option<Action> {
    let (who, value) = node
        .iter()
        .find(|(name, _)| name == "B" || name == "W")
        .map(|(name, values)| (name.as_str(), values[0].as_str()))?;
    let player = if who == "W" { Player::O } else { Player::X };
    let kind = match read_play(player, value) {
        Ok(k) => k,
        Err(e) => {
            problems.push(at.problem(e.to_string()));
            return None;
        }
    };
    let mut action = Action::new(player, kind);
    for (name, values) in node {
        match name.as_str() {
            "C" => action.comment = Some(values[0].clone()),
            "DA" => {
                let cube = read_cube_analysis(&values[0], money).unwrap_or_else(|e| {
                    problems.push(at.problem(e.to_string()));
                    None
                });
                if matches!(action.kind, ActionKind::Move { .. }) {
                    action.cube_analysis = cube;
                } else {
                    action.analysis = cube;
                }
            }
            "A" if matches!(action.kind, ActionKind::Move { .. }) => {
                let (ranked, not_finite) = read_move_analysis(values, player);
                if not_finite > 0 {
                    problems.push(at.problem(format!(
                        "the file's analysis holds {not_finite} candidate(s) \
                         with a number that is not finite (nan, inf); dropped"
                    )));
                }
                if !ranked.is_empty() {
                    analyses.push((
                        at.action - 1,
                        ranked.iter().map(|(s, _)| s.clone()).collect(),
                    ));
                    action.analysis = Some(FileAnalysis::Moves {
                        moves: ranked.into_iter().map(|(_, m)| m).collect(),
                    });
                }
            }
            _ => {}
        }
    }
    Some(action)
}

/// Writes each analysed candidate in gnubg's notation, from the position
/// before the move (hits are marked from it).
fn name_candidates(header: &MatchHeader, game: &mut GameRecord, analyses: &[Candidates]) {
    let replay = match replay_game(header, game) {
        Ok(r) => r,
        Err(e) => *e.partial,
    };
    if header.length > 0 {
        let met = super::met_xml::shared_default_met();
        for (action, before) in game.actions.iter_mut().zip(&replay.before) {
            // gnubg keeps the cube decision from the doubler's side: the
            // mover before its roll, the doubler (on roll) at take or drop.
            let doubler = match action.kind {
                ActionKind::Take | ActionKind::Drop | ActionKind::Beaver => before.state.on_roll,
                _ => action.player,
            };
            for analysis in [&mut action.analysis, &mut action.cube_analysis] {
                if let Some(a) = analysis.as_mut() {
                    cube_in_emg(a, &met, before, doubler);
                }
            }
        }
    }
    for (index, candidates) in analyses {
        let Some(before) = replay.before.get(*index) else {
            continue;
        };
        let action = &mut game.actions[*index];
        let player = action.player;
        if let Some(FileAnalysis::Moves { moves }) = &mut action.analysis {
            for (m, steps) in moves.iter_mut().zip(candidates) {
                m.notation = steps_notation(&before.board, player, steps);
            }
        }
    }
}

/// A match-play cube analysis as gnubg shows it: match winning chances
/// turned into normalised equities for the current cube (gnubg's
/// `mwc2eq`), the double/pass at +1.
fn cube_in_emg(a: &mut FileAnalysis, met: &Met, at: &Position, doubler: Player) {
    let FileAnalysis::Cube {
        no_double,
        double_take,
        double_pass,
        depth,
        ..
    } = a
    else {
        return;
    };
    let Some((win, lose)) = emg_scale(met, at, doubler) else {
        return;
    };
    let emg = |mwc: f64| 2.0 * (mwc - lose) / (win - lose) - 1.0;
    *no_double = emg(*no_double);
    *double_take = emg(*double_take);
    *double_pass = 1.0;
    if let Some(cut) = depth.find(" (match winning chances)") {
        depth.truncate(cut);
    }
}

/// The match winning chances of the doubler winning and losing the cube's
/// value at `at`'s score (gnubg's `mwc2eq` scale); `None` for money, or a
/// score where the two are the same.
fn emg_scale(met: &Met, at: &Position, doubler: Player) -> Option<(f64, f64)> {
    let score = Score::of(&at.state).ok()?;
    let player = doubler.index();
    let after = |who: usize| {
        f64::from(met.after(
            score.score,
            score.match_to,
            player,
            score.cube,
            who,
            score.crawford,
        ))
    };
    let (win, lose) = (after(player), after(1 - player));
    ((win - lose).abs() >= 1e-9).then_some((win, lose))
}

/// gnubg's notation for steps played by `player` on `board`.
pub(crate) fn steps_notation(board: &Board, player: Player, steps: &[Step]) -> String {
    let opponent = player.opponent();
    format_steps(steps, |p| {
        (1..=24).contains(&p) && board.count(opponent, Place::own_point(player, p)) > 0
    })
}

/// Which position of a file to read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// 1-based game; `None` for the last.
    pub game: Option<usize>,
    /// Moves (plays and cube actions) of that game to replay; `None` for all.
    pub moves: Option<usize>,
}

/// How much of a file was read, for notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    pub position: Position,
    /// Games in the file.
    pub games: usize,
    /// The game read (1-based) and the moves replayed in it.
    pub game: usize,
    pub moves: usize,
}

/// Reads the position at the end of the last game.
pub fn read(text: &str) -> Result<Position, IdError> {
    read_at(text, Selection::default()).map(|r| r.position)
}

/// Reads the position `selection` chooses: the match model replayed.
pub fn read_at(text: &str, selection: Selection) -> Result<Read, IdError> {
    let (record, _) = read_match(text)?;
    let (position, game, moves) = position_at(&record, selection)?;
    Ok(Read {
        position,
        games: record.games.len(),
        game,
        moves,
    })
}

/// The position after `selection.moves` plays and cube actions of a game
/// of any match (set-up actions before the next play are applied, as the
/// file holds them); the game's result only when the whole game is chosen.
/// Returns the position, the game number and the actions counted.
pub(crate) fn position_at(
    record: &MatchRecord,
    selection: Selection,
) -> Result<(Position, usize, usize), IdError> {
    let count = record.games.len();
    let index = match selection.game {
        None if count > 0 => count,
        Some(n) if (1..=count).contains(&n) => n,
        _ => {
            return Err(err(format!(
                "game {}: the file has {count} game{}",
                selection.game.unwrap_or(0),
                if count == 1 { "" } else { "s" }
            )));
        }
    };
    let game = &record.games[index - 1];
    let is_play = |a: &Action| !matches!(a.kind, ActionKind::SetUp(_));
    let played = game.actions.iter().filter(|a| is_play(a)).count();
    // A resignation the file writes only as the game's result (`RE[B+1R]`)
    // is a record of its own to gnubg, after the last move: the last move
    // (`--move M`) is still in play there, and M + 1 is the resignation.
    let open = open_resignation(record, game);
    let total = played + usize::from(open.is_some());
    let wanted = selection.moves.unwrap_or(total);
    if wanted > total {
        return Err(err(format!(
            "move {wanted}: game {index} has {total} move{}",
            if total == 1 { "" } else { "s" }
        )));
    }
    // Actions up to the (wanted+1)-th play.
    let upto = game
        .actions
        .iter()
        .enumerate()
        .filter(|(_, a)| is_play(a))
        .nth(wanted)
        .map_or(game.actions.len(), |(i, _)| i);
    let position = match open {
        Some(open) if wanted == played => open.end,
        _ => {
            replay_actions(&record.header, game, upto)
                .map_err(|e| err(e.to_string()))?
                .end
        }
    };
    let checked = check_match(&position.state).map_err(|source| IdError::Match {
        kind: IdKind::Sgf,
        source,
    });
    checked?;
    Ok((position, index, wanted))
}

/// The game replayed without its result, where that result is a
/// resignation no action holds and the actions leave the game in play.
fn open_resignation(record: &MatchRecord, game: &GameRecord) -> Option<GameReplay> {
    let resigned = game
        .result
        .is_some_and(|r| r.ending == Some(Ending::Resigned));
    let acted = game
        .actions
        .iter()
        .any(|a| matches!(a.kind, ActionKind::Resign(_) | ActionKind::AcceptResign));
    if !resigned || acted {
        return None;
    }
    let open = GameRecord {
        result: None,
        ..game.clone()
    };
    replay_game(&record.header, &open)
        .ok()
        .filter(|r| r.end.state.game_state == GameState::Playing)
}

/// SGF escapes `]` and `\` in values. A NUL is left out: gnubg's C
/// strings would end at it. Other control characters (a comment's line
/// breaks among them) are SGF text as they are.
fn escaped(s: &str, out: &mut String) {
    for c in s.chars().filter(|&c| c != '\0') {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
}

/// Writes `position` as gnubg's `save position` does: the root, a set-up
/// node, the cube value, the owner and the dice.
pub fn write(position: &Position, out: &mut String) {
    let s = &position.state;
    let _ = write!(
        out,
        "(;FF[4]GM[6]CA[UTF-8]AP[bgedit:{}]MI[length:{}][game:0][ws:{}][bs:{}]PW[",
        env!("CARGO_PKG_VERSION"),
        s.match_length,
        s.score_of(Player::O),
        s.score_of(Player::X)
    );
    escaped(&position.names.o, out);
    out.push_str("]PB[");
    escaped(&position.names.x, out);
    out.push(']');
    if s.crawford {
        out.push_str("RU[Crawford:CrawfordGame]");
    } else if s.match_length > 1 {
        out.push_str("RU[Crawford]");
    } else if s.is_money() && s.jacoby {
        out.push_str("RU[Jacoby]");
    }
    let pl = |p: Player| if p == Player::O { 'W' } else { 'B' };
    let _ = write!(out, "\n;PL[{}]AE[a:y]", pl(s.on_roll));
    for (player, tag) in [(Player::O, "AW"), (Player::X, "AB")] {
        let side = position.board.side(player);
        if side.iter().all(|&n| n == 0) {
            continue;
        }
        out.push_str(tag);
        for (i, &n) in side.iter().enumerate() {
            let ch = match (i, player) {
                (24, _) => 'y',
                (i, Player::O) => (b'a' + i as u8) as char,
                (i, Player::X) => (b'x' - i as u8) as char,
            };
            for _ in 0..n {
                let _ = write!(out, "[{ch}]");
            }
        }
    }
    let _ = write!(out, "\n;CV[{}]\n;CP[", s.cube_value());
    out.push(match s.cube_owner {
        CubeOwner::Centred => 'c',
        CubeOwner::Owned(Player::O) => 'w',
        CubeOwner::Owned(Player::X) => 'b',
    });
    out.push(']');
    if let Some([a, b]) = s.dice {
        let _ = write!(out, "\n;PL[{}]DI[{a}{b}]", pl(s.on_roll));
    }
    out.push_str(")\n");
}

/// The SGF letter of the mover's own point (1–24, 25 the bar, 0 off).
fn letter(point: u8, player: Player) -> char {
    match point {
        25 => 'y',
        0 => 'z',
        p => match player {
            Player::O => (b'a' + p - 1) as char,
            Player::X => (b'x' + 1 - p) as char,
        },
    }
}

/// The SGF letter of a physical place, for set-up nodes.
fn place_letter(place: Place, player: Player) -> Option<char> {
    match place {
        Place::Bar(_) => Some('y'),
        Place::Off(_) => None,
        Place::Point(_) => place.point_for(player).map(|p| letter(p, player)),
    }
}

/// Writes a whole match as gnubg's `save match` does: one game tree per
/// game, a root with the match (`MI`, names, rules, result), then one node
/// per action. Set-ups are written as set-up nodes; beavers and
/// resignations in Gibbon's forms (`beaver`, `resign:N`, `accept`,
/// `reject`), which gnubg itself does not write. The file's analysis is
/// not written (this is the match handed to gnubg to analyse afresh):
/// [`write_match_analysed`] writes it.
pub fn write_match(record: &MatchRecord, out: &mut String) {
    for (index, game) in record.games.iter().enumerate() {
        write_game(&record.header, index, game, out);
    }
}

/// One game of a match (its `index`, 0-based, in the match) as
/// [`write_match`] writes it: a whole SGF game tree, which carries its own
/// score and Crawford flag, so a file of any of a match's games is a match
/// gnubg reads.
pub fn write_game(header: &MatchHeader, index: usize, game: &GameRecord, out: &mut String) {
    write_root(header, index, game, false, out);
    for action in &game.actions {
        write_action(action, out);
    }
    out.push_str(")\n");
}

/// What bgedit adds to an action beside the analysis the match model
/// holds: gnubg's marks and the luck of the roll.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Marks {
    /// The checker play's mark (`BM`, `DO`); for a double, take or drop,
    /// the cube action's.
    pub skill: Option<Skill>,
    /// The mark of the cube decision before a roll (`BC`, `DC`).
    pub cube_skill: Option<Skill>,
    /// The roll's luck in normalised equity (`LU`, and gnubg's luck mark
    /// `GB`/`GW`).
    pub luck: Option<f64>,
}

/// Marks by game number (1-based) and the action's index in its game.
pub type MarksByAction = std::collections::HashMap<(usize, usize), Marks>;

/// Writes a whole match with its analysis as gnubg's `save match` does, so
/// that gnubg's `load match` shows it: the first game's root with the
/// match's date, event, round, place, annotator and comment, each action's
/// comment (`C`), and gnubg's analysis properties (sgf.c `SaveGame`): the
/// ranked moves (`A[played][steps E ver 3 …]`), the cube decision before a
/// roll and at a double, take or drop (`DA[E ver 3 …]`, in match winning
/// chances in match play as gnubg keeps it), the luck (`LU`, `GB`/`GW`)
/// and the marks (`BM`, `DO`, `BC`, `DC`).
///
/// An analysis the replay cannot place (a candidate that is not a legal
/// move, a played move the list does not hold) is left out: gnubg would
/// take the list's first move for the one played.
pub fn write_match_analysed(record: &MatchRecord, marks: &MarksByAction, out: &mut String) {
    let met = super::met_xml::shared_default_met();
    for (index, game) in record.games.iter().enumerate() {
        write_root(&record.header, index, game, true, out);
        let replay = match replay_game(&record.header, game) {
            Ok(r) => r,
            Err(e) => *e.partial,
        };
        let mut last_cube: Option<&FileAnalysis> = None;
        for (i, action) in game.actions.iter().enumerate() {
            write_action(action, out);
            let Some(before) = replay.before.get(i) else {
                continue;
            };
            let mark = marks.get(&(game.number, i)).copied().unwrap_or_default();
            match &action.kind {
                ActionKind::Move { dice, steps } => {
                    if let Some(cube) = &action.cube_analysis {
                        write_cube_analysis(cube, &met, before, action.player, out);
                    }
                    if let Some(FileAnalysis::Moves { moves }) = &action.analysis {
                        write_move_analysis(moves, before, action.player, *dice, steps, out);
                    }
                    write_luck(mark.luck, action.player, out);
                    write_skill(mark.skill, "BM", "DO", out);
                    write_skill(mark.cube_skill, "BC", "DC", out);
                }
                ActionKind::Double | ActionKind::Take | ActionKind::Drop => {
                    // gnubg's take and drop share the double's cube
                    // decision: a file that analysed only the double
                    // gives it to the answer too.
                    if let Some(a @ FileAnalysis::Cube { .. }) = &action.analysis {
                        last_cube = Some(a);
                    } else if matches!(action.kind, ActionKind::Double) {
                        last_cube = None;
                    }
                    let doubler = match action.kind {
                        ActionKind::Double => action.player,
                        _ => before.state.on_roll,
                    };
                    if let Some(cube) = last_cube {
                        write_cube_analysis(cube, &met, before, doubler, out);
                    }
                    write_skill(mark.skill, "BM", "DO", out);
                }
                _ => {}
            }
            if let Some(c) = &action.comment {
                out.push_str("C[");
                escaped(c, out);
                out.push(']');
            }
        }
        out.push_str(")\n");
    }
}

/// A game's root node: the match, the names, the rules, the result, and
/// (`with_info`, first game only, as gnubg writes it) the match's details.
fn write_root(h: &MatchHeader, index: usize, game: &GameRecord, with_info: bool, out: &mut String) {
    let _ = write!(
        out,
        "(;FF[4]GM[6]CA[UTF-8]AP[bgedit:{}]MI[length:{}][game:{index}][ws:{}][bs:{}]PW[",
        env!("CARGO_PKG_VERSION"),
        h.length,
        game.score[0],
        game.score[1]
    );
    escaped(&h.names.o, out);
    out.push_str("]PB[");
    escaped(&h.names.x, out);
    out.push(']');
    if with_info && index == 0 {
        let info = [
            ("DT", &h.date),
            ("EV", &h.event),
            ("RO", &h.round),
            ("PC", &h.place),
            ("AN", &h.annotator),
            // gnubg keeps one comment for the match (`GC` of the first
            // game); bgedit's SGF reader gives it to the first game.
            (
                "GC",
                if h.comment.is_some() {
                    &h.comment
                } else {
                    &game.comment
                },
            ),
        ];
        for (tag, value) in info {
            if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
                let _ = write!(out, "{tag}[");
                escaped(v, out);
                out.push(']');
            }
        }
    }
    if h.length > 0 && h.crawford {
        out.push_str(if game.crawford_game {
            "RU[Crawford:CrawfordGame]"
        } else {
            "RU[Crawford]"
        });
    } else if h.length == 0 && h.jacoby {
        out.push_str("RU[Jacoby]");
    }
    if let Some(r) = game.result {
        let _ = write!(
            out,
            "RE[{}+{}{}]",
            if r.winner == Player::O { 'W' } else { 'B' },
            r.points,
            if r.ending == Some(Ending::Resigned) {
                "R"
            } else {
                ""
            }
        );
    }
}

/// One action's node, without its analysis.
fn write_action(action: &Action, out: &mut String) {
    let node_start = out.len();
    out.push_str("\n;");
    let who = if action.player == Player::O { 'W' } else { 'B' };
    let play = |out: &mut String, v: &str| {
        let _ = write!(out, "{who}[{v}]");
    };
    match &action.kind {
        ActionKind::Move { dice, steps } => {
            let mut v = format!("{}{}", dice[0], dice[1]);
            push_steps(steps, action.player, &mut v);
            play(out, &v);
        }
        ActionKind::Double => play(out, "double"),
        ActionKind::Take => play(out, "take"),
        ActionKind::Drop => play(out, "drop"),
        ActionKind::Beaver => play(out, "beaver"),
        ActionKind::Resign(r) => play(out, &format!("resign:{}", r.code())),
        ActionKind::AcceptResign => play(out, "accept"),
        ActionKind::RejectResign => play(out, "reject"),
        ActionKind::SetUp(set) => {
            write_setup(set, out);
            // A set-up that changes nothing makes no node: an empty
            // `;` would read back as no action at all.
            if out.len() == node_start + 2 {
                out.truncate(node_start);
            }
        }
    }
}

fn push_steps(steps: &[Step], player: Player, out: &mut String) {
    for s in steps {
        out.push(letter(s.from, player));
        out.push(letter(s.to, player));
    }
}

/// The plies a depth names (`gnubg 2-ply`, `XG 3-ply`), 0 when it names
/// none (a rollout is written as the evaluation it is not: gnubg's `E`).
fn plies_of(depth: &str) -> u32 {
    depth
        .split(|c: char| !c.is_ascii_digit())
        .find(|t| !t.is_empty())
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
}

/// gnubg's five chances and the cubeless equity they make (money).
fn outputs(probs: Option<[f64; 5]>) -> [f64; 6] {
    let p = probs.unwrap_or_default();
    let cubeless = 2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4];
    [p[0], p[1], p[2], p[3], p[4], cubeless]
}

/// `A[played][steps E ver 3 w wg wbg lg lbg equity plies 0 1 0.000000 0]…MR[]`
/// (sgf.c `WriteMoveAnalysis`): each candidate's steps found among the
/// roll's legal moves.
fn write_move_analysis(
    moves: &[RankedMove],
    before: &Position,
    player: Player,
    dice: [u8; 2],
    played: &[Step],
    out: &mut String,
) {
    let mut at = before.clone();
    at.state.dice = Some(dice);
    at.state.on_roll = player;
    at.state.turn = player;
    let candidates: Vec<(crate::domain::moves::LegalMove, &RankedMove)> = moves
        .iter()
        .filter_map(|m| {
            let typed = crate::domain::notation::parse(&m.notation).ok()?;
            Some((crate::domain::moves::check_move(&at, &typed).ok()?, m))
        })
        .collect();
    let played_board = crate::domain::moves::steps_reach(&before.board, player, played);
    let Some(index) = candidates
        .iter()
        .position(|(legal, _)| Some(&legal.result) == played_board.as_ref())
    else {
        return;
    };
    let _ = write!(out, "A[{index}]");
    for (legal, m) in &candidates {
        out.push('[');
        push_steps(legal.steps(), player, out);
        out.push_str(" E ver 3");
        for x in outputs(m.probs).iter().take(5).chain([&m.equity]) {
            let _ = write!(out, " {x:.6}");
        }
        let _ = write!(out, " {}C 0 1 0.000000 0]", plies_of(&m.depth));
    }
    out.push_str("MR[]");
}

/// `DA[E ver 3 plies 1 0.000000 0 <7 outputs> <7 outputs>]` (sgf.c
/// `WriteDoubleAnalysis`): no double, then double/take, from the doubler's
/// side; the seventh of each is the cubeful equity (money) or the match
/// winning chance (match play), so the model's normalised equities go back
/// to match winning chances at the score (gnubg's `eq2mwc`).
fn write_cube_analysis(
    a: &FileAnalysis,
    met: &Met,
    at: &Position,
    doubler: Player,
    out: &mut String,
) {
    let FileAnalysis::Cube {
        no_double,
        double_take,
        probs,
        depth,
        ..
    } = a
    else {
        return;
    };
    let in_mwc = depth.contains("match winning chances");
    let to_mwc = |emg: f64| match emg_scale(met, at, doubler) {
        Some((win, lose)) if !in_mwc => lose + (emg + 1.0) / 2.0 * (win - lose),
        _ => emg,
    };
    let _ = write!(out, "DA[E ver 3 {}C 1 0.000000 0", plies_of(depth));
    let base = outputs(*probs);
    for cubeful in [to_mwc(*no_double), to_mwc(*double_take)] {
        for x in base.iter().chain([&cubeful]) {
            let _ = write!(out, " {x:.6}");
        }
    }
    out.push(']');
}

/// `LU[luck]` and gnubg's luck mark (sgf.c `WriteLuck`): `GB` good for
/// Black (X), `GW` good for White (O), 2 for very.
fn write_luck(luck: Option<f64>, player: Player, out: &mut String) {
    let Some(luck) = luck else { return };
    let _ = write!(out, "LU[{luck:.5}]");
    let (mine, theirs) = match player {
        Player::O => ('W', 'B'),
        Player::X => ('B', 'W'),
    };
    match crate::domain::match_stats::roll_mark(luck) {
        0 => {
            let _ = write!(out, "G{theirs}[2]");
        }
        1 => {
            let _ = write!(out, "G{theirs}[1]");
        }
        3 => {
            let _ = write!(out, "G{mine}[1]");
        }
        4 => {
            let _ = write!(out, "G{mine}[2]");
        }
        _ => {}
    }
}

/// gnubg's skill marks (sgf.c `WriteSkill`, `WriteSkillCube`).
fn write_skill(skill: Option<Skill>, bad: &str, doubtful: &str, out: &mut String) {
    match skill {
        Some(Skill::VeryBad) => {
            let _ = write!(out, "{bad}[2]");
        }
        Some(Skill::Bad) => {
            let _ = write!(out, "{bad}[1]");
        }
        Some(Skill::Doubtful) => {
            let _ = write!(out, "{doubtful}[]");
        }
        _ => {}
    }
}

fn write_setup(set: &SetUp, out: &mut String) {
    if let Some(p) = set.on_roll {
        let _ = write!(out, "PL[{}]", if p == Player::O { 'W' } else { 'B' });
    }
    let mut clear: Vec<Place> = set.clear.clone();
    let mut add: Vec<(Player, Place)> = set.add.clone();
    if let Some(board) = &set.board {
        out.push_str("AE[a:y]");
        clear.clear();
        add.clear();
        for player in Player::BOTH {
            for own in 1..=24u8 {
                let place = Place::own_point(player, own);
                add.extend(std::iter::repeat_n(
                    (player, place),
                    usize::from(board.count(player, place)),
                ));
            }
            let bar = Place::Bar(player);
            add.extend(std::iter::repeat_n(
                (player, bar),
                usize::from(board.count(player, bar)),
            ));
        }
    }
    if !clear.is_empty() {
        out.push_str("AE");
        // `y` clears both bars: the two bar places of one `AE[y]` are
        // written as one `y` again, or each round trip would double them.
        let mut bars = 0usize;
        for place in &clear {
            if matches!(place, Place::Bar(_)) {
                bars += 1;
                if bars.is_multiple_of(2) {
                    continue;
                }
            }
            if let Some(c) = place_letter(*place, Player::O) {
                let _ = write!(out, "[{c}]");
            }
        }
    }
    for (player, tag) in [(Player::O, "AW"), (Player::X, "AB")] {
        let letters: Vec<char> = add
            .iter()
            .filter(|(p, _)| *p == player)
            .filter_map(|(p, place)| place_letter(*place, *p))
            .collect();
        if !letters.is_empty() {
            out.push_str(tag);
            for c in letters {
                let _ = write!(out, "[{c}]");
            }
        }
    }
    if let Some(c) = set.cube_log2 {
        let _ = write!(out, "CV[{}]", 1u32 << c);
    }
    if let Some(o) = set.cube_owner {
        out.push_str(match o {
            CubeOwner::Centred => "CP[c]",
            CubeOwner::Owned(Player::O) => "CP[w]",
            CubeOwner::Owned(Player::X) => "CP[b]",
        });
    }
    if let Some([a, b]) = set.dice {
        let _ = write!(out, "DI[{a}{b}]");
    }
}

/// What an SGF position does not hold, one sentence each.
pub(crate) fn losses(state: &MatchState) -> Vec<String> {
    let mut notes = Vec::new();
    if state.double_offered {
        notes.push("the double on offer is not kept: gnubg's saved position holds none".into());
    }
    if state.resignation != crate::domain::Resignation::None {
        notes.push("the resignation on offer is not kept: SGF positions hold none".into());
    } else if !state.double_offered && state.turn != state.on_roll {
        notes.push(format!(
            "the player to decide ({}) is not kept: SGF's PL names the player on roll",
            state.turn
        ));
    }
    if state.game_state != GameState::Playing {
        notes.push(format!(
            "the game state ({}) is not kept: an SGF position is a game in play",
            state.game_state.words()
        ));
    }
    // gnubg reads a match SGF with the Jacoby bit off (Match ID bit 67 set).
    if !state.is_money() && state.jacoby {
        notes.push("the Match ID's Jacoby bit (unused in match play) is not kept".into());
    }
    if state.is_money() && !state.beavers {
        notes.push("beavers off is not kept: SGF has no beaver rule".into());
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    const GNUBG: &str = "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:9][game:0][ws:2][bs:4]PW[gnubg]PB[root]DT[2026-11-22]RU[Crawford]GS[M:0 0]\n;PL[B]AE[a:y]AW[f][f][f][f][f][g][g][h][h][h][m][m][m][m][y]AB[w][w][t][t][s][s][s][q][q][p][o][l][l][d][d]\n;CV[2]\n;CP[w]\n;PL[B]DI[52])\n";

    #[test]
    fn node_errors_read_as_before() {
        assert_eq!(
            NodeError::Cube("3".to_owned()).to_string(),
            "CV[3]: the cube is a power of two from 1 to 32768; ignored, as gnubg does"
        );
        let (_, problems) = read_match("(;FF[4]GM[6]MI[length:5];B[x1])").unwrap();
        assert_eq!(
            problems[0].message,
            "X's move 'x1' does not start with two dice 1–6; skipped, as gnubg does"
        );
        assert_eq!(
            read("(;PL[Q])").unwrap_err().to_string(),
            "SGF: game 1, node 1: PL[Q]: the player is W (White, O) or B (Black, X)"
        );
    }

    #[test]
    fn reads_gnubgs_saved_position() {
        let p = read(GNUBG).unwrap();
        assert_eq!(
            crate::codec::gnubg_id::encode(&p.board, &p.state),
            "4NvBA0DGzooBBg:QYkqASAAIAAE"
        );
        assert_eq!(p.names.o, "gnubg");
        assert_eq!(p.names.x, "root");
    }

    #[test]
    fn writes_what_it_reads() {
        let p = read(GNUBG).unwrap();
        let mut s = String::new();
        write(&p, &mut s);
        assert_eq!(read(&s).unwrap(), p);
    }

    #[test]
    fn replays_moves_and_hits() {
        // X plays 8/5 6/5, O 24/18/14.
        let text = "(;MI[length:0]PW[a]PB[b]\n;B[31qtst]\n;W[64xrrn])";
        let p = read(text).unwrap();
        assert_eq!(p.state.on_roll, Player::X);
        assert_eq!(p.board.pip_count(Player::X), 167 - 4);
        assert_eq!(p.board.pip_count(Player::O), 167 - 10);
        let first = read_at(
            text,
            Selection {
                game: None,
                moves: Some(1),
            },
        )
        .unwrap();
        assert_eq!(first.position.state.on_roll, Player::O);
        assert_eq!(first.moves, 1);
    }

    /// The analysis of each action, numbers rounded as the file holds
    /// them (six decimals; a match-play cube through its match winning
    /// chances and back).
    fn analyses(record: &MatchRecord) -> Vec<(Option<FileAnalysis>, Option<FileAnalysis>)> {
        let round = |a: &Option<FileAnalysis>| {
            a.clone().map(|mut a| {
                let r = |x: &mut f64| *x = (*x * 1e4).round() / 1e4;
                match &mut a {
                    FileAnalysis::Moves { moves } => {
                        moves.iter_mut().for_each(|m| r(&mut m.equity))
                    }
                    FileAnalysis::Cube {
                        no_double,
                        double_take,
                        probs,
                        ..
                    } => {
                        r(no_double);
                        r(double_take);
                        *probs = None;
                    }
                }
                a
            })
        };
        record
            .games
            .iter()
            .flat_map(|g| &g.actions)
            .map(|a| (round(&a.analysis), round(&a.cube_analysis)))
            .collect()
    }

    #[test]
    fn the_files_analysis_is_written_and_read_back() {
        let text = include_str!("../../../../tests/fixtures/analysis/m5_noisy.sgf");
        let (record, problems) = read_match(text).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        let mut written = String::new();
        write_match_analysed(&record, &MarksByAction::new(), &mut written);
        let (again, problems) = read_match(&written).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        let (before, after) = (analyses(&record), analyses(&again));
        assert!(
            before
                .iter()
                .filter(|(a, c)| a.is_some() || c.is_some())
                .count()
                > 50
        );
        assert_eq!(before, after);
        // The same moves, and nothing but the analysis properties added.
        let mut plain = String::new();
        write_match(&again, &mut plain);
        let mut first = String::new();
        write_match(&record, &mut first);
        assert_eq!(plain, first);
    }

    #[test]
    fn marks_and_luck_are_gnubgs_properties() {
        let text = "(;FF[4]GM[6]MI[length:0]PW[a]PB[b]\n;B[31qtst]\n;W[64xrrn])";
        let (record, _) = read_match(text).unwrap();
        let mut marks = MarksByAction::new();
        marks.insert(
            (1, 0),
            Marks {
                skill: Some(Skill::VeryBad),
                cube_skill: Some(Skill::Doubtful),
                luck: Some(-0.7),
            },
        );
        marks.insert(
            (1, 1),
            Marks {
                skill: Some(Skill::Bad),
                cube_skill: None,
                luck: Some(0.4),
            },
        );
        let mut out = String::new();
        write_match_analysed(&record, &marks, &mut out);
        // X (Black) very unlucky is very good for White; O lucky is good
        // for White.
        assert!(
            out.contains(";B[31qtst]LU[-0.70000]GW[2]BM[2]DC[]"),
            "{out}"
        );
        assert!(out.contains(";W[64xrrn]LU[0.40000]GW[1]BM[1]"), "{out}");
    }

    #[test]
    fn names_comments_and_events_are_escaped() {
        let text = "(;FF[4]GM[6]MI[length:0]PW[a]PB[b]\n;B[31qtst])";
        let (mut record, _) = read_match(text).unwrap();
        record.header.names.o = "Ann ]\\ Lee".to_owned();
        record.header.names.x = "x]".to_owned();
        record.header.event = Some("Cup ] \\ final \u{1b}[31m\u{9b}".to_owned());
        record.header.comment = Some("line one\nline ] two\\".to_owned());
        record.games[0].actions[0].comment = Some("why]? \\ \u{7}\u{202e}".to_owned());
        let mut out = String::new();
        write_match_analysed(&record, &MarksByAction::new(), &mut out);
        assert!(out.contains("PW[Ann \\]\\\\ Lee]PB[x\\]]"), "{out}");
        assert!(out.contains("EV[Cup \\] \\\\ final"), "{out}");
        assert!(out.contains("C[why\\]? \\\\ "), "{out}");
        let (again, problems) = read_match(&out).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(again.header.names, record.header.names);
        assert_eq!(again.header.event, record.header.event);
        assert_eq!(again.games[0].comment, record.header.comment);
        assert_eq!(
            again.games[0].actions[0].comment,
            record.games[0].actions[0].comment
        );
    }

    /// What the `sgf_match` fuzz target checks, on its seed of a match
    /// saved with its analysis (`match --save-sgf`): read, replayed,
    /// written back, and the written text stable.
    #[test]
    fn the_fuzz_seed_of_a_saved_match_round_trips() {
        let text = include_str!("../../../../fuzz/corpus/sgf_match/saved_with_analysis.sgf");
        let (record, problems) = read_match(text).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert!(record.games[0].actions.iter().any(|a| a.analysis.is_some()));
        let _ = crate::domain::replay::match_decisions(&record);
        let mut once = String::new();
        write_match(&record, &mut once);
        let (again, _) = read_match(&once).unwrap();
        let mut twice = String::new();
        write_match(&again, &mut twice);
        assert_eq!(once, twice);
        let mut analysed = String::new();
        write_match_analysed(&record, &MarksByAction::new(), &mut analysed);
        assert_eq!(
            analyses(&read_match(&analysed).unwrap().0),
            analyses(&record)
        );
    }

    #[test]
    fn bad_input_is_named() {
        assert!(read("(;PL[Q])").unwrap_err().to_string().contains("PL[Q]"));
        assert!(read("(;AW[f").unwrap_err().to_string().contains("no ']'"));
        assert!(read("(;FF[4]\n;B[52zz])").is_err());
        assert!(read(")").is_err());
    }

    #[test]
    fn more_games_or_moves_than_one_file_may_hold_are_refused_with_the_count() {
        // The error's words; the record read is not printed (it is huge).
        let refusal = |text: &str| match read_match(text) {
            Ok(_) => panic!("{} bytes read whole", text.len()),
            Err(e) => e.to_string(),
        };
        let e = refusal(&"(;)".repeat(MAX_GAMES + 1));
        assert!(
            e.contains(&format!("the file holds {} games", MAX_GAMES + 1)),
            "{e}"
        );
        assert!(read_match(&"(;)".repeat(MAX_GAMES)).is_ok());
        // Set-ups are actions too: one more than the cap, in one game.
        let e = refusal(&format!("(;FF[4]{})", ";PL[B]".repeat(MAX_ACTIONS + 1)));
        assert!(e.contains(&format!("more than {MAX_ACTIONS} moves")), "{e}");
        assert!(read_match(&format!("(;FF[4]{})", ";PL[B]".repeat(MAX_ACTIONS))).is_ok());
    }

    #[test]
    fn a_problem_at_every_node_is_kept_once_with_its_count() {
        let text = format!("(;FF[4]PL[B]{};DI[9])", ";CV[3]".repeat(5000));
        let (_, problems) = read_match(&text).unwrap();
        let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(
            messages[0].starts_with("CV[3]: the cube is a power of two"),
            "{messages:?}"
        );
        assert!(
            messages[0].ends_with(" (and 4,999 more like it)"),
            "{messages:?}"
        );
        assert!(messages[1].starts_with("DI[9]"), "{messages:?}");
    }
}
