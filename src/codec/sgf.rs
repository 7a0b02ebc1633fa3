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
use crate::domain::match_state::{MAX_CUBE_LOG2, MAX_MATCH_NUMBER};
use crate::domain::validation::check_match;
use crate::domain::{Board, CubeOwner, GameState, MatchState, Names, Player, Position};
use std::fmt::Write;

/// Largest SGF text read: a long match with analysis is a few megabytes.
pub const MAX_LEN: usize = 16 * 1024 * 1024;
/// Values one property may have (`AW` has at most 15 useful ones).
const MAX_VALUES: usize = 4096;

fn err(detail: impl Into<String>) -> IdError {
    IdError::Malformed {
        kind: IdKind::Sgf,
        detail: detail.into(),
    }
}

/// A property: its name and values.
type Property = (String, Vec<String>);
/// A node: its properties.
type Node = Vec<Property>;

/// Whether `text` looks like SGF: it starts with `(;`.
pub fn looks_like(text: &str) -> bool {
    text.trim_start().starts_with("(;")
}

/// Splits SGF text into games (the main line of each tree), each a list of
/// nodes. Variations after the first are skipped.
fn parse(text: &str) -> Result<Vec<Vec<Node>>, IdError> {
    if text.len() > MAX_LEN {
        return Err(err(format!(
            "the file has {} bytes; at most {MAX_LEN} are read",
            text.len()
        )));
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut games = Vec::new();
    // depth of '(' nesting; only the first branch at each depth is kept.
    let mut depth = 0usize;
    let mut skip_from: Option<usize> = None;
    let mut game: Vec<Node> = Vec::new();
    let mut branch_seen = vec![false];
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'(' => {
                depth += 1;
                if depth > 1000 {
                    return Err(err("variations nested more than 1000 deep"));
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
                    games.push(std::mem::take(&mut game));
                    branch_seen[0] = false;
                }
                i += 1;
            }
            b';' => {
                if depth == 0 {
                    return Err(err(format!("byte {}: a node outside '( )'", i + 1)));
                }
                i += 1;
                let mut node = Node::new();
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
                    let name = text[start..i].to_ascii_uppercase();
                    let mut values = Vec::new();
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
                            match bytes.get(i) {
                                None => {
                                    return Err(err(format!(
                                        "property {name}: the value starting at byte {} has no ']'",
                                        run
                                    )));
                                }
                                Some(b']') => break,
                                Some(b'\\') => {
                                    value.push_str(&text[run..i]);
                                    i += 1;
                                    run = i;
                                    if i < bytes.len() {
                                        // The escaped character is kept as is.
                                        i += text[i..].chars().next().map_or(1, char::len_utf8);
                                    }
                                }
                                Some(_) => i += 1,
                            }
                        }
                        value.push_str(&text[run..i]);
                        i += 1;
                        if values.len() < MAX_VALUES {
                            values.push(value);
                        }
                    }
                    if values.is_empty() {
                        return Err(err(format!("property {name} has no [value]")));
                    }
                    node.push((name, values));
                }
                if skip_from.is_none() {
                    game.push(node);
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
        return Err(err("the file ends inside a game: a ')' is missing"));
    }
    if games.is_empty() {
        return Err(err("no game: an SGF file starts with '(;'"));
    }
    Ok(games)
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

/// The position and match state being built while replaying a game.
struct Replay {
    sides: [[u8; 25]; 2],
    state: MatchState,
    names: Names,
    /// The game's result (`RE[W+2R]`): the points and whether by resignation.
    result: Option<(u32, bool)>,
}

/// Index in `player`'s own array for an SGF point letter; `None` for off.
fn own_index(ch: u8, player: Player) -> Result<Option<usize>, IdError> {
    match ch {
        b'y' => Ok(Some(24)),
        b'a'..=b'x' => Ok(Some(match player {
            Player::O => usize::from(ch - b'a'),
            Player::X => usize::from(b'x' - ch),
        })),
        b'z' => Ok(None),
        _ => Err(err(format!(
            "point '{}': points are a–x, y the bar, z off",
            ch as char
        ))),
    }
}

fn player_of(value: &str, property: &str) -> Result<Player, IdError> {
    match value.trim() {
        "W" | "w" => Ok(Player::O),
        "B" | "b" => Ok(Player::X),
        v => Err(err(format!(
            "{property}[{v}]: the player is W (White, O) or B (Black, X)"
        ))),
    }
}

fn number(value: &str, what: &str) -> Result<u32, IdError> {
    value
        .trim()
        .parse()
        .map_err(|_| err(format!("{what} '{value}' is not a number")))
}

fn dice_of(value: &str, what: &str) -> Result<[u8; 2], IdError> {
    let b = value.trim().as_bytes();
    match b {
        [a @ b'1'..=b'6', c @ b'1'..=b'6', ..] => Ok([a - b'0', c - b'0']),
        _ => Err(err(format!(
            "{what} '{value}': two dice 1–6 were expected, like 52"
        ))),
    }
}

impl Replay {
    fn new() -> Replay {
        let start = Board::starting();
        Replay {
            sides: [*start.side(Player::O), *start.side(Player::X)],
            state: MatchState::default(),
            names: Names::default(),
            result: None,
        }
    }

    fn root(&mut self, node: &Node) -> Result<(), IdError> {
        let s = &mut self.state;
        s.jacoby = false;
        for (name, values) in node {
            match name.as_str() {
                "MI" => {
                    for v in values {
                        let (tag, val) = v.split_once(':').unwrap_or((v, ""));
                        let n = || -> Result<u16, IdError> {
                            let n = number(val, &format!("MI {tag}"))?;
                            u16::try_from(n)
                                .ok()
                                .filter(|&n| n <= MAX_MATCH_NUMBER)
                                .ok_or_else(|| {
                                    err(format!("MI {tag}:{n} is above {MAX_MATCH_NUMBER}"))
                                })
                        };
                        match tag.to_ascii_lowercase().as_str() {
                            "length" => s.match_length = n()?,
                            "ws" => s.score[Player::O.index()] = n()?,
                            "bs" => s.score[Player::X.index()] = n()?,
                            _ => {}
                        }
                    }
                }
                "RE" => {
                    // `W+2R`: the winner, the points, R for a resignation.
                    let v = values[0].trim();
                    if let Some((_, rest)) = v.split_once('+') {
                        let digits: String =
                            rest.chars().take_while(char::is_ascii_digit).collect();
                        let points = digits.parse().unwrap_or(1);
                        let resigned = rest[digits.len()..].starts_with(['R', 'r']);
                        self.result = Some((points, resigned));
                    }
                }
                "PW" => self.names.o = one_line(&values[0]),
                "PB" => self.names.x = one_line(&values[0]),
                "RU" => {
                    for part in values[0].split(':') {
                        match part.trim() {
                            "CrawfordGame" => s.crawford = true,
                            "Jacoby" => s.jacoby = true,
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn set_up(&mut self, node: &Node) -> Result<(), IdError> {
        for (name, values) in node {
            match name.as_str() {
                "AE" => {
                    for v in values {
                        for ch in point_range(v)? {
                            let o = own_index(ch, Player::O)?;
                            let x = own_index(ch, Player::X)?;
                            if let (Some(o), Some(x)) = (o, x) {
                                self.sides[0][o] = 0;
                                self.sides[1][x] = 0;
                            }
                        }
                    }
                }
                "AW" | "AB" => {
                    let player = if name == "AW" { Player::O } else { Player::X };
                    for v in values {
                        for ch in point_range(v)? {
                            if let Some(i) = own_index(ch, player)? {
                                let n = &mut self.sides[player.index()][i];
                                *n = n.saturating_add(1);
                            }
                        }
                    }
                }
                "PL" => {
                    let p = player_of(&values[0], "PL")?;
                    self.state.on_roll = p;
                    self.state.turn = p;
                }
                "CV" => {
                    let v = number(&values[0], "CV (cube value)")?;
                    if !v.is_power_of_two() || v.trailing_zeros() > u32::from(MAX_CUBE_LOG2) {
                        return Err(err(format!(
                            "CV[{v}]: the cube is a power of two from 1 to {}",
                            1u32 << MAX_CUBE_LOG2
                        )));
                    }
                    self.state.cube_log2 = v.trailing_zeros() as u8;
                }
                "CP" => {
                    self.state.cube_owner = match values[0].trim() {
                        "c" | "n" => CubeOwner::Centred,
                        "w" => CubeOwner::Owned(Player::O),
                        "b" => CubeOwner::Owned(Player::X),
                        v => {
                            return Err(err(format!(
                                "CP[{v}]: the cube owner is c (centred), w (White, O) or b (Black, X)"
                            )));
                        }
                    }
                }
                "DI" => {
                    let [a, b] = dice_of(&values[0], "DI")?;
                    self.state.dice = Some([a, b]);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A play or a cube action (`B[...]`, `W[...]`).
    fn play(&mut self, player: Player, value: &str) -> Result<(), IdError> {
        let s = &mut self.state;
        match value.trim() {
            "double" => {
                s.on_roll = player;
                s.turn = player.opponent();
                s.double_offered = true;
                s.dice = None;
            }
            "take" => {
                s.cube_log2 = (s.cube_log2 + 1).min(MAX_CUBE_LOG2);
                s.cube_owner = CubeOwner::Owned(player);
                s.double_offered = false;
                s.turn = s.on_roll;
            }
            "drop" => {
                s.double_offered = false;
                s.turn = s.on_roll;
                s.game_state = GameState::Dropped;
            }
            m => {
                let b = m.as_bytes();
                dice_of(m, &format!("move {m}"))?;
                let mut pairs = b[2..].chunks_exact(2);
                for pair in pairs.by_ref().take(4) {
                    let from = own_index(pair[0], player)?
                        .ok_or_else(|| err(format!("move {m}: a checker moves from 'z' (off)")))?;
                    let to = own_index(pair[1], player)?;
                    let mine = player.index();
                    if self.sides[mine][from] == 0 {
                        return Err(err(format!(
                            "move {m}: {player} has no checker on '{}'",
                            pair[0] as char
                        )));
                    }
                    self.sides[mine][from] -= 1;
                    if let Some(to) = to {
                        if to == 24 {
                            return Err(err(format!("move {m}: a checker moves to the bar")));
                        }
                        let theirs = 1 - mine;
                        // The same point from the opponent's side.
                        let other = 23 - to;
                        if self.sides[theirs][other] == 1 {
                            self.sides[theirs][other] = 0;
                            self.sides[theirs][24] = self.sides[theirs][24].saturating_add(1);
                        }
                        self.sides[mine][to] = self.sides[mine][to].saturating_add(1);
                    }
                }
                s.on_roll = player.opponent();
                s.turn = s.on_roll;
                s.dice = None;
                if self.sides[player.index()].iter().all(|&n| n == 0) {
                    s.game_state = GameState::Over;
                }
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<Position, IdError> {
        let board =
            Board::from_sides(self.sides[0], self.sides[1]).map_err(|source| IdError::Board {
                kind: IdKind::Sgf,
                source,
            })?;
        let state = self.state;
        check_match(&state).map_err(|source| IdError::Match {
            kind: IdKind::Sgf,
            source,
        })?;
        Ok(Position {
            board,
            state,
            names: self.names,
        })
    }
}

/// A name as one line: control characters become spaces.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

/// The point letters of an `AW`-style value: `f` or a range `a:y`.
fn point_range(v: &str) -> Result<std::ops::RangeInclusive<u8>, IdError> {
    let b = v.trim().as_bytes();
    match b {
        [c] => Ok(*c..=*c),
        [a, b':', c] if a <= c => Ok(*a..=*c),
        _ => Err(err(format!(
            "point '{v}': a point is one letter a–y, or a range like a:y"
        ))),
    }
}

/// Reads the position at the end of the last game.
pub fn read(text: &str) -> Result<Position, IdError> {
    read_at(text, Selection::default()).map(|r| r.position)
}

/// Reads the position `selection` chooses.
pub fn read_at(text: &str, selection: Selection) -> Result<Read, IdError> {
    let mut read = read_at_unchecked(text, selection)?;
    read.position = super::checked_names(read.position, IdKind::Sgf)?;
    Ok(read)
}

fn read_at_unchecked(text: &str, selection: Selection) -> Result<Read, IdError> {
    let games = parse(text)?;
    let count = games.len();
    let index = match selection.game {
        None => count,
        Some(n) if (1..=count).contains(&n) => n,
        Some(n) => {
            return Err(err(format!(
                "game {n}: the file has {count} game{}",
                if count == 1 { "" } else { "s" }
            )));
        }
    };
    let game = &games[index - 1];
    let mut replay = Replay::new();
    let Some((root, rest)) = game.split_first() else {
        return Err(err(format!("game {index} has no nodes")));
    };
    replay.root(root)?;
    // Other programs put the set-up in the root node too.
    replay.set_up(root)?;
    let mut played = 0;
    let mut first_play = true;
    for node in rest {
        let play = node
            .iter()
            .find(|(name, _)| name == "B" || name == "W")
            .map(|(name, values)| (name.as_str(), values[0].as_str()));
        if let Some((who, value)) = play {
            if selection.moves.is_some_and(|m| played >= m) {
                break;
            }
            let player = if who == "W" { Player::O } else { Player::X };
            if first_play {
                // A game from the start: the first player to act is on roll.
                replay.state.on_roll = player;
                replay.state.turn = player;
                first_play = false;
            }
            replay.play(player, value)?;
            played += 1;
        } else {
            replay.set_up(node)?;
        }
    }
    // The whole game: a result that no move shows (a resignation, or the
    // last checker borne off) ends it.
    if selection.moves.is_none_or(|m| m >= played)
        && let Some((points, resigned)) = replay.result
        && replay.state.game_state == GameState::Playing
    {
        let s = &mut replay.state;
        s.dice = None;
        if resigned {
            s.game_state = GameState::Resigned;
            let per_cube = points / s.cube_value().max(1);
            s.resignation = crate::domain::Resignation::from_code(per_cube.clamp(1, 3) as u8)
                .unwrap_or(crate::domain::Resignation::Single);
        } else {
            s.game_state = GameState::Over;
        }
    }
    if let Some(m) = selection.moves
        && m > played
    {
        return Err(err(format!(
            "move {m}: game {index} has {played} move{}",
            if played == 1 { "" } else { "s" }
        )));
    }
    Ok(Read {
        position: replay.finish()?,
        games: count,
        game: index,
        moves: played,
    })
}

/// SGF escapes `]` and `\` in values.
fn escaped(s: &str, out: &mut String) {
    for c in s.chars() {
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

/// What an SGF position does not hold, one sentence each.
pub fn losses(state: &MatchState) -> Vec<String> {
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

    #[test]
    fn bad_input_is_named() {
        assert!(read("(;PL[Q])").unwrap_err().to_string().contains("PL[Q]"));
        assert!(read("(;AW[f").unwrap_err().to_string().contains("no ']'"));
        assert!(read("(;FF[4]\n;B[52zz])").is_err());
        assert!(read(")").is_err());
    }
}
