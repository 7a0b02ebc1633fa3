//! gnubg's `export match text` (and any text holding several `Position ID:`
//! / `Match ID   :` blocks, such as a file of pasted `show board` output):
//! one position per block. The blocks' IDs are the truth; the lines around
//! them give the game (`The score (after N games) is: ...`), the move
//! (`Move number 7:  root to play 52`), what was played (`* root moves
//! 24/18 13/11`) and the names beside the board (`O: gnubg`, `X: root`).
//!
//! gnubg writes one file per game (`m.txt`, `m_002.txt`, ...); each starts
//! with the score line, so the game is known whichever file is read.

use super::match_text_analysis as analysis;
use super::{IdError, match_id, position_id};
use crate::domain::match_record::{
    Action, ActionKind, Ending, FileAnalysis, GameRecord, GameResult, MatchFormat, MatchHeader,
    MatchRecord, ReadProblem,
};
use crate::domain::moves::check_move;
use crate::domain::{GameState, Names, Position};
use crate::quote::clip;

/// One `Position ID:` / `Match ID   :` block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// 1-based line of the `Position ID:` line.
    pub line: u32,
    /// 1-based game: one more than the games the score line counts, 1
    /// when the text has none.
    pub game: usize,
    /// gnubg's `Move number N`, when the block has one.
    pub move_number: Option<usize>,
    /// gnubg's heading after `Move number N:` (`root to play 52`, `root
    /// doubles to 2`).
    pub heading: String,
    /// What was played, from the `* ...` line (`root moves 24/18 13/11`).
    pub played: Option<String>,
    pub position: Position,
    /// gnubg's analysis of what was played: the candidates for the roll,
    /// or the cube for a double, take or pass (the doubler's side).
    pub analysis: Option<FileAnalysis>,
    /// gnubg's analysis of the cube before this roll.
    pub cube_analysis: Option<FileAnalysis>,
    /// `gnubg wins 2 points` after this block: the winner's name and the
    /// points, ending its game.
    pub result: Option<(String, u32)>,
    /// The match's date (`Date: 11/24/26` under `Match Information:`), as
    /// `YYYY-MM-DD`, on the block after it.
    pub date: Option<String>,
}

/// Whether `text` holds a `Position ID:` line followed by a `Match ID` line.
pub(crate) fn looks_like(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim_start);
    while let Some(l) = lines.next() {
        if id_after(l, "Position ID:").is_some() {
            return lines
                .next()
                .is_some_and(|m| id_after(m, "Match ID").is_some());
        }
    }
    false
}

/// The token after `label` (and a colon) in a line.
fn id_after<'a>(line: &'a str, label: &str) -> Option<&'a str> {
    let at = line.find(label)?;
    let rest = line[at + label.len()..].trim_start();
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    rest.split_whitespace().next()
}

/// Every block of `text`, and the blocks that could not be read (an ID
/// that does not decode), each naming its line.
pub fn blocks(text: &str) -> (Vec<Block>, Vec<ReadProblem>) {
    let mut out: Vec<Block> = Vec::new();
    let mut problems = Vec::new();
    let mut game = 1;
    let mut move_number = None;
    let mut heading = String::new();
    let mut pending_position: Option<(u32, String)> = None;
    let mut date = None;
    let lines: Vec<&str> = text.lines().collect();
    for (i, raw) in lines.iter().enumerate() {
        let number = i as u32 + 1;
        let line = raw.trim();
        if let Some(d) = line.strip_prefix("Date:") {
            date = us_date(d);
            continue;
        }
        if let Some(last) = out.last_mut()
            && analysed(last, line, &lines[i + 1..])
        {
            continue;
        }
        if let Some(rest) = line.strip_prefix("The score (after ") {
            if let Some(n) = rest
                .split_whitespace()
                .next()
                .and_then(|n| n.parse::<usize>().ok())
            {
                game = n + 1;
            }
            move_number = None;
            continue;
        }
        if let Some(rest) = line.strip_prefix("Move number ") {
            let (n, head) = rest.split_once(':').unwrap_or((rest, ""));
            move_number = n.trim().parse().ok();
            heading = head.trim().to_owned();
            continue;
        }
        if let Some(played) = line.strip_prefix("* ")
            && let Some(last) = out.last_mut()
            && last.played.is_none()
            && !played.starts_with(char::is_whitespace)
        {
            last.played = Some(played.trim().to_owned());
            continue;
        }
        if let Some(id) = id_after(line, "Position ID:") {
            pending_position = Some((number, id.to_owned()));
            continue;
        }
        if let Some(id) = id_after(line, "Match ID")
            && let Some((at, pid)) = pending_position.take()
        {
            match decode(&pid, id) {
                Ok(position) => out.push(Block {
                    line: at,
                    game,
                    move_number,
                    heading: std::mem::take(&mut heading),
                    played: None,
                    position,
                    analysis: None,
                    cube_analysis: None,
                    result: None,
                    date: date.take(),
                }),
                Err(e) => problems.push(ReadProblem {
                    game: Some(game),
                    action: move_number,
                    line: Some(at),
                    message: e.to_string(),
                }),
            }
            // The names are beside the board, in the lines that follow.
            if let Some(block) = out.last_mut().filter(|b| b.line == at) {
                let (names, refused) = names_near(&lines[i + 1..]);
                block.position.names = names;
                problems.extend(refused.into_iter().map(|(offset, e)| ReadProblem {
                    game: Some(game),
                    action: move_number,
                    line: Some(number + 1 + offset as u32),
                    message: e.to_string(),
                }));
            }
            move_number = None;
        }
    }
    if let Some((at, pid)) = pending_position {
        problems.push(ReadProblem {
            game: Some(game),
            action: None,
            line: Some(at),
            message: format!("Position ID '{}' has no Match ID line after it", clip(&pid)),
        });
    }
    (out, problems)
}

/// What a line after a block's `* ...` line says of it, put on the block:
/// gnubg's cube analysis (`Cube analysis` and the lines after it), its
/// candidates for the roll (`Rolled 41:`), or the game's end (`gnubg
/// wins 2 points`). Whether the line was one of these.
fn analysed(block: &mut Block, line: &str, after: &[&str]) -> bool {
    let played = block.played.as_deref().unwrap_or("");
    if line == "Cube analysis" {
        let taker = played.ends_with(" accepts") || played.ends_with(" rejects");
        let cube = analysis::cube(after, taker);
        if taker || played.ends_with(" doubles") {
            block.analysis = cube;
        } else {
            block.cube_analysis = cube;
        }
        return true;
    }
    if line.starts_with("Rolled ") && line.ends_with(':') {
        block.analysis = analysis::moves(after);
        return true;
    }
    if let Some(result) = analysis::wins(line) {
        block.result = Some(result);
        return true;
    }
    false
}

/// gnubg's `Date: 11/24/26` (month, day, two-digit year of this century)
/// as `YYYY-MM-DD`.
fn us_date(text: &str) -> Option<String> {
    let mut parts = text.trim().split('/');
    let (m, d, y): (u32, u32, i32) = (
        parts.next()?.parse().ok()?,
        parts.next()?.parse().ok()?,
        parts.next()?.parse().ok()?,
    );
    let y = if y < 100 { 2000 + y } else { y };
    Some(format!("{y:04}-{m:02}-{d:02}")).filter(|_| (1..=12).contains(&m) && (1..=31).contains(&d))
}

fn decode(position: &str, matchid: &str) -> Result<Position, IdError> {
    let state = match_id::decode(matchid)?;
    let board = position_id::decode(position, state.on_roll)?;
    Ok(Position {
        board,
        state,
        names: Names::default(),
    })
}

/// `O: name` and `X: name` beside gnubg's board (the first 16 lines after
/// the IDs), and the names refused by the one rule for names (a control
/// character), with the line's offset.
fn names_near(lines: &[&str]) -> (Names, Vec<(usize, crate::domain::NameError)>) {
    let mut names = Names::default();
    let mut refused = Vec::new();
    for (offset, line) in lines.iter().enumerate().take(16) {
        for (label, player) in [
            ("O: ", crate::domain::Player::O),
            ("X: ", crate::domain::Player::X),
        ] {
            if let Some(at) = line.find(&format!("-+     {label}")) {
                let name = line[at + 7 + label.len()..].trim();
                // gnubg adds the cube beside its owner's name.
                let name = match name.rfind(" (Cube: ") {
                    Some(cut) if name.ends_with(')') => name[..cut].trim_end(),
                    _ => name,
                };
                match crate::domain::check_name(player, name) {
                    Ok(()) if !name.is_empty() => names.set(player, name.to_owned()),
                    Ok(()) => {}
                    Err(e) => refused.push((offset, e)),
                }
            }
        }
    }
    (names, refused)
}

/// The match the blocks tell, as actions (what each block's `* ...` line
/// played, from the player to decide there with its dice), for consumers
/// of the model. The blocks' positions stay the truth: a played text that
/// is not a legal move of its block's position is a problem, and that
/// game's record stops there. Results are not read (the record's games
/// end unfinished).
pub fn to_record(blocks: &[Block]) -> (MatchRecord, Vec<ReadProblem>) {
    let mut problems = Vec::new();
    let mut header = MatchHeader::default();
    let mut games: Vec<GameRecord> = Vec::new();
    let mut broken = false;
    for block in blocks {
        let p = &block.position;
        if games.last().is_none_or(|g| g.number != block.game) {
            if games.is_empty() {
                header.date = block.date.clone();
                header.names = p.names.clone();
                header.length = p.state.match_length;
                header.crawford = p.state.match_length > 0;
                header.jacoby = p.state.jacoby;
                header.beavers = p.state.beavers;
            }
            games.push(GameRecord {
                number: block.game,
                score: p.state.score,
                crawford_game: p.state.crawford,
                ..GameRecord::default()
            });
            broken = false;
        }
        if broken {
            continue;
        }
        let player = p.state.turn;
        let played = block.played.as_deref().unwrap_or("");
        let words = played
            .split_once(" moves ")
            .map_or(played, |(_, m)| m)
            .trim();
        let kind = if played.ends_with(" doubles") {
            Some(ActionKind::Double)
        } else if played.ends_with(" accepts") {
            Some(ActionKind::Take)
        } else if played.ends_with(" rejects") {
            Some(ActionKind::Drop)
        } else if played.ends_with(" cannot move") {
            p.state.dice.map(|dice| ActionKind::Move {
                dice,
                steps: Vec::new(),
            })
        } else if played.contains(" moves ") {
            let mut at = p.clone();
            at.state.game_state = GameState::Playing;
            crate::domain::notation::parse(words)
                .ok()
                .and_then(|typed| check_move(&at, &typed).ok())
                .zip(p.state.dice)
                .map(|(legal, dice)| ActionKind::Move {
                    dice,
                    steps: legal.steps().to_vec(),
                })
        } else {
            None
        };
        match kind {
            Some(kind) => {
                let mut action = Action::new(player, kind);
                action.origin = Some(block.line);
                action.analysis = block.analysis.clone();
                action.cube_analysis = block.cube_analysis.clone();
                if let Some(g) = games.last_mut() {
                    g.actions.push(action);
                }
            }
            None => {
                problems.push(ReadProblem {
                    game: Some(block.game),
                    action: block.move_number,
                    line: Some(block.line),
                    message: format!(
                        "'{}' is not a move, double, take or pass of this position; the game's record stops here",
                        clip(played)
                    ),
                });
                broken = true;
            }
        }
    }
    for block in blocks {
        if let Some((name, points)) = &block.result
            && let Some(g) = games.iter_mut().find(|g| g.number == block.game)
        {
            let passed = block
                .played
                .as_deref()
                .is_some_and(|p| p.ends_with(" rejects"));
            g.result = result_of(&block.position, name, *points, passed);
        }
    }
    (
        MatchRecord {
            format: MatchFormat::MatchText,
            header,
            games,
        },
        problems,
    )
}

/// `NAME wins N points` after the block at `p`: the winner by name (the
/// one whose name it is), ended by a pass when the block's player passed.
fn result_of(p: &Position, name: &str, points: u32, passed: bool) -> Option<GameResult> {
    let winner = crate::domain::Player::BOTH
        .into_iter()
        .find(|&w| p.names.of(w) == name)?;
    Some(GameResult {
        winner,
        points,
        ending: passed.then_some(Ending::Dropped),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "The score (after 2 games) is: gnubg 1, root 2 (match to 5 points)

Move number 1:  root to play 21

 GNU Backgammon  Position ID: 4HPwATDgc/ABMA
                 Match ID   : cAilAAAAAAAE
 +13-14-15-16-17-18------19-20-21-22-23-24-+     O: gnubg
 +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: root

* root moves 24/23 13/11

Rolled 21:
*    1. Cubeful 0-ply    24/23 13/11                  Eq.: -0.008

Move number 2:  gnubg to play 52

 GNU Backgammon  Position ID: 4HPkASjgc/ABMA
                 Match ID   : MIGqAAAAAAAE
";

    #[test]
    fn reads_one_position_per_block() {
        assert!(looks_like(TEXT));
        let (b, problems) = blocks(TEXT);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(b.len(), 2);
        assert_eq!((b[0].game, b[0].move_number, b[0].line), (3, Some(1), 5));
        assert_eq!(b[0].heading, "root to play 21");
        assert_eq!(b[0].played.as_deref(), Some("root moves 24/23 13/11"));
        assert_eq!(b[0].position.names.o, "gnubg");
        assert_eq!(b[0].position.names.x, "root");
        assert_eq!(b[1].move_number, Some(2));
        assert_eq!(b[1].played, None);
        assert_eq!(
            crate::codec::gnubg_id::encode(&b[1].position.board, &b[1].position.state),
            "4HPkASjgc/ABMA:MIGqAAAAAAAE"
        );
    }

    #[test]
    fn a_name_with_a_control_character_is_refused_by_line() {
        let text = TEXT.replace("O: gnubg", "O: gn\u{1b}ubg");
        let (b, problems) = blocks(&text);
        assert_eq!(b[0].position.names.o, "White");
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].line, Some(7));
        assert!(
            problems[0].message.contains("U+001B"),
            "{}",
            problems[0].message
        );
    }

    #[test]
    fn a_bad_id_is_named_by_line() {
        let (b, problems) = blocks("Position ID: 4HPw!TDgc/ABMA\nMatch ID : cAilAAAAAAAE\n");
        assert!(b.is_empty());
        assert_eq!(problems[0].line, Some(1));
        assert!(!looks_like("Position ID: x\nsomething else"));
    }
}
