//! The cube and the score as views (issue 33): for a position with dice,
//! the best move at money, DMP, gammon-save, gammon-go and the match's own
//! score under each cube state, with where it changes marked; for a cube
//! decision, the doubling window at every score of the match. Asked of any
//! [`Engine`]; the editor's live view asks an in-process one, `bgedit
//! analyse --sensitivity` the one chosen. The scores are
//! `domain::sensitivity`'s and `domain::score_matrix`'s.

use super::matrix::{Verdict, short_action, verdict};
use super::{Analysis, Engine, Request, Waiter, time_limit};
use bgedit_core::domain::Position;
use bgedit_core::domain::score_matrix::{Cell, CubeCase, cells, is_score, label, labels};
use bgedit_core::domain::sensitivity::{self, CUBE_STATES, NotHere, Row, ScoreCase};
use serde_json::{Value, json};

/// What one cell of the move table holds.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveCell {
    /// The best move in gnubg's notation, and its equity.
    Best {
        notation: String,
        equity: f64,
    },
    /// The roll cannot be played.
    NoMove,
    /// This cube state cannot arise at this score.
    NotHere(NotHere),
    Failed(String),
}

impl MoveCell {
    fn notation(&self) -> Option<&str> {
        match self {
            MoveCell::Best { notation, .. } => Some(notation),
            MoveCell::NoMove => Some(""),
            _ => None,
        }
    }
}

/// One score's best moves, a cell a cube state.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRow {
    pub score: ScoreCase,
    /// "GS 1a-2a C" and the like.
    pub words: String,
    pub cells: [MoveCell; 3],
}

/// The best move at each score and cube state.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveTable {
    pub rows: Vec<MoveRow>,
    /// The board's own score and cube: the cell the others are set beside.
    pub anchor: (usize, usize),
}

impl MoveTable {
    /// Whether the best move in a cell differs from the board's own.
    pub fn changes(&self, row: usize, col: usize) -> bool {
        let own = self.rows[self.anchor.0].cells[self.anchor.1].notation();
        let here = self.rows[row].cells[col].notation();
        matches!((own, here), (Some(a), Some(b)) if a != b)
    }
}

/// The doubling window at every score of a match (both cubes), and at
/// money.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    pub length: u16,
    /// Money: the centred cube, then the roller's 2-cube.
    pub money: [Verdict; 2],
    pub cells: Vec<(Cell, Verdict)>,
}

/// What the views show for a position.
#[derive(Clone, Debug, PartialEq)]
pub enum Sensitivity {
    Moves(MoveTable),
    Window(Window),
    /// Nothing to ask: why.
    Nothing(String),
}

// Every number comes from a checked answer (finite), so equality is total.
impl Eq for MoveCell {}
impl Eq for MoveRow {}
impl Eq for MoveTable {}
impl Eq for Window {}
impl Eq for Sensitivity {}

/// The match length of the window for `p`: the match's (at most 25, as
/// the editor's matrix), or 7 for money.
pub(crate) fn window_length(p: &Position) -> u16 {
    if p.state.is_money() {
        7
    } else {
        p.state.match_length.clamp(2, 25)
    }
}

/// The views for `position`, asked of `engine` at `plies` (gnubg's count).
pub fn compute(engine: &mut dyn Engine, position: &Position, plies: u8) -> Sensitivity {
    if let Some(reason) = super::request::nothing_to_analyse(position) {
        return Sensitivity::Nothing(reason);
    }
    if position.state.dice.is_some() && !position.state.double_offered {
        Sensitivity::Moves(moves(engine, position, plies))
    } else {
        Sensitivity::Window(window(engine, position, plies))
    }
}

fn moves(engine: &mut dyn Engine, position: &Position, plies: u8) -> MoveTable {
    let rows: Vec<Row> = sensitivity::rows(position);
    let anchor = sensitivity::anchor(position, &rows);
    let mut id = 0;
    let rows = rows
        .iter()
        .map(|r| MoveRow {
            score: r.score,
            words: r.words(),
            cells: std::array::from_fn(|i| match &r.cells[i] {
                Err(why) => MoveCell::NotHere(*why),
                Ok(p) => {
                    id += 1;
                    best(engine, p, plies, id)
                }
            }),
        })
        .collect();
    MoveTable { rows, anchor }
}

fn best(engine: &mut dyn Engine, p: &Position, plies: u8, id: u64) -> MoveCell {
    let req = Request {
        id,
        position: p.clone(),
        plies,
        moves: 1,
    };
    match engine.analyse(&req, time_limit(plies, Waiter::Batch)) {
        Ok(Analysis::Moves { moves, .. }) => match moves.into_iter().next() {
            Some(m) => MoveCell::Best {
                notation: m.notation,
                equity: m.equity,
            },
            None => MoveCell::NoMove,
        },
        Ok(Analysis::Over { reason }) => MoveCell::Failed(reason),
        Ok(_) => MoveCell::Failed("no move list".to_owned()),
        Err(e) => MoveCell::Failed(e.to_string()),
    }
}

fn window(engine: &mut dyn Engine, position: &Position, plies: u8) -> Window {
    let length = window_length(position);
    let all = cells(position, length, &[CubeCase::Centred, CubeCase::Owned]);
    let mut id = 0;
    let mut ask = |cell: &Cell| {
        id += 1;
        verdict(engine, plies, id, cell)
    };
    let money = [CubeCase::Centred, CubeCase::Owned].map(|cube| {
        let mut cell = cells(position, 2, &[cube]).swap_remove(0);
        let s = &mut cell.position.state;
        s.match_length = 0;
        s.score = [0, 0];
        s.crawford = false;
        cell.away = [0, 0];
        ask(&cell)
    });
    let cells = all
        .into_iter()
        .map(|c| {
            let v = ask(&c);
            (c, v)
        })
        .collect();
    Window {
        length,
        money,
        cells,
    }
}

/// A cell's mark: `=` the board's own, `*` another best move than its.
fn cell_words(c: &MoveCell, mark: &str, width: usize) -> String {
    let text = match c {
        MoveCell::Best { notation, equity } => {
            format!("{mark}{notation:<w$} {equity:+.3}", w = width)
        }
        MoveCell::NoMove => format!("{mark}{:<w$}", "no move", w = width + 7),
        MoveCell::NotHere(_) => format!(" {:<w$}", "-", w = width + 7),
        MoveCell::Failed(_) => format!(" {:<w$}", "!", w = width + 7),
    };
    format!("{text}  ")
}

/// The move table as text: a row a score, a column a cube state; `=`
/// marks the board's own score (its row) and cube (its cell), `*` a best
/// move other than the board's own.
pub fn move_lines(t: &MoveTable, roller: bgedit_core::domain::Player) -> Vec<String> {
    let width = t
        .rows
        .iter()
        .flat_map(|r| r.cells.iter())
        .filter_map(|c| c.notation())
        .map(str::len)
        .max()
        .unwrap_or(0)
        .max(7);
    let other = roller.opponent();
    let heads = [
        "centred".to_owned(),
        format!("{roller} owns"),
        format!("{other} owns"),
    ];
    // The legend in the score column's head: `=` the board's own score
    // and cube, `*` another best move than its.
    let mut head = format!("{:<15}", "=own *other");
    for h in &heads {
        head += &format!(" {h:<w$}  ", w = width + 7);
    }
    let mut out = vec![head.trim_end().to_owned()];
    for (i, r) in t.rows.iter().enumerate() {
        let own = if i == t.anchor.0 { "=" } else { " " };
        let mut line = format!("{own}{:<14}", r.words);
        for (j, c) in r.cells.iter().enumerate() {
            let mark = match ((i, j) == t.anchor, t.changes(i, j)) {
                (true, _) => "=",
                (false, true) => "*",
                (false, false) => " ",
            };
            line += &cell_words(c, mark, width);
        }
        out.push(line.trim_end().to_owned());
    }
    let notes: Vec<String> = t
        .rows
        .iter()
        .flat_map(|r| r.cells.iter())
        .filter_map(|c| match c {
            MoveCell::Failed(why) => Some(format!("! {}", bgedit_core::quote::printable(why))),
            _ => None,
        })
        .take(1)
        .collect();
    out.extend(notes);
    out
}

/// A grid of the window's actions for one cube, rows the roller's away
/// counts, columns the opponent's.
fn grid(w: &Window, cube: CubeCase, roller: bgedit_core::domain::Player) -> Vec<String> {
    let other = roller.opponent();
    let mut head = format!("{:>6}", format!("{roller}\\{other}"));
    for (a, c) in labels(w.length) {
        head += &format!("{:>6}", label(a, c));
    }
    let mut rows = vec![head];
    for mine in labels(w.length) {
        let mut row = format!("{:>6}", label(mine.0, mine.1));
        for theirs in labels(w.length) {
            let crawford = mine.1.or(theirs.1).unwrap_or(false);
            let found = w.cells.iter().find(|(c, _)| {
                c.cube == cube
                    && c.away[roller.index()] == mine.0
                    && c.away[other.index()] == theirs.0
                    && c.crawford == crawford
            });
            let text = match found {
                Some((_, v)) if is_score(mine, theirs) => verdict_short(v),
                _ => "",
            };
            row += &format!("{text:>6}");
        }
        rows.push(row);
    }
    rows
}

fn verdict_short(v: &Verdict) -> &'static str {
    match v {
        Verdict::Cube { action, .. } => short_action(action),
        Verdict::NoCube(_) => "-",
        Verdict::Failed(_) => "!",
    }
}

/// A verdict's equities: "ND -0.123 D/T +0.456 D/P +1.000 → D/T".
pub(crate) fn verdict_words(v: &Verdict) -> String {
    match v {
        Verdict::Cube {
            action,
            no_double,
            double_take,
            double_pass,
        } => format!(
            "ND {no_double:+.3}  D/T {double_take:+.3}  D/P {double_pass:+.3}  {}",
            short_action(action)
        ),
        Verdict::NoCube(why) => format!("no cube action: {why}"),
        Verdict::Failed(why) => format!("! {}", bgedit_core::quote::printable(why)),
    }
}

/// The window as text: money's equities, the board's own score's, then a
/// grid by cube.
pub fn window_lines(w: &Window, position: &Position) -> Vec<String> {
    let roller = position.state.on_roll;
    let mut out = vec![
        format!("money centred  {}", verdict_words(&w.money[0])),
        format!("money {roller} owns 2  {}", verdict_words(&w.money[1])),
    ];
    if !position.state.is_money() {
        let s = &position.state;
        let away = |p| s.match_length.saturating_sub(s.score_of(p));
        let (mine, theirs) = (away(roller), away(roller.opponent()));
        // The board's own cube: the roller's (as a 2-cube), else centred.
        let cube = match s.cube_owner {
            bgedit_core::domain::CubeOwner::Owned(p) if p == roller => CubeCase::Owned,
            _ => CubeCase::Centred,
        };
        let own = w.cells.iter().find(|(c, _)| {
            c.cube == cube
                && c.away[roller.index()] == mine
                && c.away[roller.opponent().index()] == theirs
                && (c.crawford == s.crawford || (mine > 1 && theirs > 1))
        });
        if let Some((c, v)) = own {
            let what = match c.cube {
                CubeCase::Centred => "centred".to_owned(),
                CubeCase::Owned => format!("{roller} owns 2"),
            };
            out.push(format!("={mine}a-{theirs}a {what}  {}", verdict_words(v)));
        }
    }
    for (cube, what) in [
        (CubeCase::Centred, "centred cube".to_owned()),
        (CubeCase::Owned, format!("2-cube {roller} owns")),
    ] {
        out.push(format!(
            "{}-point match, {what}: rows {roller} away, columns {} away",
            w.length,
            roller.opponent()
        ));
        out.extend(grid(w, cube, roller));
    }
    out
}

/// The views as text lines (the editor's panel and the CLI's text).
pub fn lines(s: &Sensitivity, position: &Position) -> Vec<String> {
    match s {
        Sensitivity::Moves(t) => move_lines(t, position.state.on_roll),
        Sensitivity::Window(w) => window_lines(w, position),
        Sensitivity::Nothing(why) => vec![format!("Nothing to show: {why}")],
    }
}

fn move_cell_json(c: &MoveCell, changed: bool) -> Value {
    match c {
        MoveCell::Best { notation, equity } => {
            json!({"move": notation, "equity": equity, "changed": changed})
        }
        MoveCell::NoMove => json!({"move": null, "changed": changed}),
        MoveCell::NotHere(why) => json!({"not_here": why.words()}),
        MoveCell::Failed(why) => json!({"error": why}),
    }
}

fn verdict_json(v: &Verdict) -> Value {
    match v {
        Verdict::Cube {
            action,
            no_double,
            double_take,
            double_pass,
        } => json!({"action": action, "short": short_action(action), "no_double": no_double,
                    "double_take": double_take, "double_pass": double_pass}),
        Verdict::NoCube(why) => json!({"action": null, "no_cube": why}),
        Verdict::Failed(why) => json!({"error": why}),
    }
}

/// The views as JSON: `moves` (a row a score, each cube state's cell) or
/// `window` (money and every cell), or `nothing`.
pub fn to_json(s: &Sensitivity) -> Value {
    match s {
        Sensitivity::Moves(t) => {
            let rows: Vec<Value> = t
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let mut o = json!({"score": r.score.key(), "words": r.words});
                    for (j, c) in r.cells.iter().enumerate() {
                        o[CUBE_STATES[j].key()] = move_cell_json(c, t.changes(i, j));
                    }
                    o
                })
                .collect();
            json!({"kind": "moves", "anchor": {"row": t.anchor.0,
                   "cube": CUBE_STATES[t.anchor.1].key()}, "rows": rows})
        }
        Sensitivity::Window(w) => {
            let cells: Vec<Value> = w
                .cells
                .iter()
                .map(|(c, v)| {
                    let mut o = verdict_json(v);
                    o["away_o"] = json!(c.away[bgedit_core::domain::Player::O.index()]);
                    o["away_x"] = json!(c.away[bgedit_core::domain::Player::X.index()]);
                    o["crawford"] = json!(c.crawford);
                    o["cube"] = json!(c.cube.name());
                    o
                })
                .collect();
            json!({"kind": "window", "length": w.length,
                   "money": {"centred": verdict_json(&w.money[0]), "owned": verdict_json(&w.money[1])},
                   "cells": cells})
        }
        Sensitivity::Nothing(why) => json!({"kind": "nothing", "reason": why}),
    }
}

/// The first error among the answers, if any.
pub fn first_failure(s: &Sensitivity) -> Option<&str> {
    match s {
        Sensitivity::Moves(t) => t
            .rows
            .iter()
            .flat_map(|r| r.cells.iter())
            .find_map(|c| match c {
                MoveCell::Failed(why) => Some(why.as_str()),
                _ => None,
            }),
        Sensitivity::Window(w) => w
            .money
            .iter()
            .chain(w.cells.iter().map(|(_, v)| v))
            .find_map(|v| match v {
                Verdict::Failed(why) => Some(why.as_str()),
                _ => None,
            }),
        Sensitivity::Nothing(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bgedit_core::domain::Player;

    fn best(m: &str, e: f64) -> MoveCell {
        MoveCell::Best {
            notation: m.to_owned(),
            equity: e,
        }
    }

    fn table() -> MoveTable {
        let row = |score, words: &str, cells| MoveRow {
            score,
            words: words.to_owned(),
            cells,
        };
        MoveTable {
            rows: vec![
                row(
                    ScoreCase::Money,
                    "money",
                    [
                        best("8/5 6/5", 0.1),
                        best("8/5 6/5", 0.2),
                        best("24/21", -0.1),
                    ],
                ),
                row(
                    ScoreCase::Dmp,
                    "DMP 1a-1a",
                    [
                        MoveCell::NoMove,
                        MoveCell::NotHere(NotHere::DeadCube),
                        MoveCell::Failed("gone\u{1b}[2J".to_owned()),
                    ],
                ),
            ],
            anchor: (0, 0),
        }
    }

    #[test]
    fn a_best_move_other_than_the_boards_own_is_marked() {
        let t = table();
        assert!(!t.changes(0, 0) && !t.changes(0, 1));
        assert!(t.changes(0, 2));
        // No move is another answer than a move; a cell with none is not.
        assert!(t.changes(1, 0));
        assert!(!t.changes(1, 1) && !t.changes(1, 2));
        let lines = move_lines(&t, Player::X);
        assert_eq!(
            lines[0],
            "=own *other     centred          X owns           O owns"
        );
        assert_eq!(
            lines[1],
            "=money         =8/5 6/5 +0.100   8/5 6/5 +0.200  *24/21   -0.100"
        );
        assert_eq!(
            lines[2],
            " DMP 1a-1a     *no move          -                !"
        );
        // An engine's words reach the terminal escaped.
        assert_eq!(lines[3], "! gone\\x1b[2J");
    }

    #[test]
    fn the_window_is_the_matchs_length_or_seven_for_money() {
        let mut p = Position::default();
        assert_eq!(window_length(&p), 7);
        p.state.match_length = 5;
        assert_eq!(window_length(&p), 5);
        p.state.match_length = 1;
        assert_eq!(window_length(&p), 2);
        p.state.match_length = 99;
        assert_eq!(window_length(&p), 25);
    }
}
