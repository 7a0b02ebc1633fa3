//! `bgedit analyse --score-matrix`: the cube decision of a position at every
//! score of a match, asked of one engine (the reference unless another is
//! chosen) cell by cell with J processes at once, written as a grid of
//! actions and then each cell's equities.

use crate::cli::output::OutputFormat;
use bgedit_core::codec::{self, IdFormat};
use bgedit_core::domain::score_matrix::{Cell, CubeCase, cells, is_score, label, labels};
use bgedit_core::domain::{Player, Position};
use bgedit_engine::matrix::verdict;
pub(crate) use bgedit_engine::matrix::{Verdict, short_action};
use bgedit_engine::{EngineKind, StartRecord};
use serde_json::{Value, json};
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

#[derive(Clone, Debug)]
pub(crate) struct MatrixOptions {
    /// The engine asked, and its program.
    pub engine: EngineKind,
    pub program: PathBuf,
    pub plies: u8,
    /// The match length; `None` takes the position's (7 for money).
    pub length: Option<u16>,
    /// Add the redouble (a 2-cube the roller owns) to the centred cube.
    pub owner: bool,
    pub jobs: usize,
    pub format: OutputFormat,
    /// Colour the actions (standard output is a terminal).
    pub colour: bool,
}

/// Every cell's verdict, in the order of `cells`, with `jobs` engine
/// processes taking cells from one queue.
pub(crate) fn analyse_cells(opts: &MatrixOptions, cells: &[Cell]) -> Vec<Verdict> {
    let next = Arc::new(Mutex::new(0usize));
    let results = Arc::new(Mutex::new(vec![None; cells.len()]));
    // An engine that hangs is given up, not waited for cell after cell.
    let starts = StartRecord::batch();
    std::thread::scope(|scope| {
        for _ in 0..opts.jobs.clamp(1, cells.len().max(1)) {
            let (next, results, starts) = (&next, &results, starts.clone());
            scope.spawn(move || {
                let mut engine = opts.engine.open(opts.program.clone(), starts);
                loop {
                    let i = {
                        let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
                        let i = *n;
                        *n += 1;
                        i
                    };
                    let Some(cell) = cells.get(i) else { return };
                    let v = verdict(&mut *engine, opts.plies, i as u64 + 1, cell);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(v);
                }
            });
        }
    });
    let results = Arc::try_unwrap(results).map_or_else(
        |r| r.lock().unwrap_or_else(|e| e.into_inner()).clone(),
        |m| m.into_inner().unwrap_or_else(|e| e.into_inner()),
    );
    results
        .into_iter()
        .map(|v| v.unwrap_or_else(|| Verdict::Failed("not analysed".to_owned())))
        .collect()
}

/// The matrix's length for `p`.
pub(crate) fn length_for(p: &Position, asked: Option<u16>) -> u16 {
    asked.unwrap_or(if p.state.is_money() {
        7
    } else {
        p.state.match_length
    })
}

fn cell_json(c: &Cell, v: &Verdict) -> Value {
    let mut o = json!({
        "away_o": c.away[Player::O.index()],
        "away_x": c.away[Player::X.index()],
        "crawford": c.crawford,
        "cube": c.cube.name(),
    });
    match v {
        Verdict::Cube {
            action,
            no_double,
            double_take,
            double_pass,
        } => {
            o["action"] = json!(action);
            o["no_double"] = json!(no_double);
            o["double_take"] = json!(double_take);
            o["double_pass"] = json!(double_pass);
        }
        Verdict::NoCube(why) => o["action"] = json!(format!("No cube action: {why}")),
        Verdict::Failed(why) => o["error"] = json!(why),
    }
    o
}

fn colour(short: &str, on: bool) -> String {
    if !on {
        return short.to_owned();
    }
    let code = match short {
        "D/T" | "D/B" => "32",
        "D/P" => "33",
        "TG" => "31",
        _ => "0",
    };
    format!("\x1b[{code}m{short}\x1b[0m")
}

/// The away labels of a row or column: 2..L, then Crawford and
/// post-Crawford 1-away.
fn text(opts: &MatrixOptions, p: &Position, length: u16, all: &[(Cell, Verdict)]) -> String {
    let roller = p.state.on_roll;
    let other = roller.opponent();
    let gnubg_id = codec::to_string_as(p, IdFormat::GnubgId);
    let mut out = format!(
        "Score matrix of {gnubg_id} ({} {}): {length}-point match, {roller} on roll\n",
        opts.engine.name(),
        opts.engine.depth_label(opts.plies)
    );
    out += "ND no double · D/T double, take · D/P double, pass · TG too good · /B beaver · - no cube\n";
    let find = |cube: CubeCase, mine: (u16, Option<bool>), theirs: (u16, Option<bool>)| {
        let crawford = mine.1.or(theirs.1).unwrap_or(false);
        all.iter().find(|(c, _)| {
            c.cube == cube
                && c.away[roller.index()] == mine.0
                && c.away[other.index()] == theirs.0
                && c.crawford == crawford
        })
    };
    for cube in [CubeCase::Centred, CubeCase::Owned] {
        if !all.iter().any(|(c, _)| c.cube == cube) {
            continue;
        }
        let what = match cube {
            CubeCase::Centred => "centred cube",
            CubeCase::Owned => format!("2-cube owned by {roller}").leak(),
        };
        out += &format!("\n{what}: rows {roller} away, columns {other} away\n");
        out += &format!("{:>8}", "");
        for (a, c) in labels(length) {
            out += &format!("{:>7}", label(a, c));
        }
        out.push('\n');
        for mine in labels(length) {
            out += &format!("{:>8}", label(mine.0, mine.1));
            for theirs in labels(length) {
                // A Crawford label against a 1-away one: no such score.
                let short = match (!is_score(mine, theirs), find(cube, mine, theirs)) {
                    (false, Some((_, Verdict::Cube { action, .. }))) => short_action(action),
                    (false, Some((_, Verdict::NoCube(_)))) => "-",
                    (false, Some((_, Verdict::Failed(_)))) => "!",
                    _ => "",
                };
                let pad = 7usize.saturating_sub(short.chars().count());
                out += &format!("{}{}", " ".repeat(pad), colour(short, opts.colour));
            }
            out.push('\n');
        }
    }
    out += &format!(
        "\nEach cell: {roller}'s cubeful equities (no double, double/take, double/pass), the \
         gain from doubling (D/T or D/P, the smaller, minus ND) and the take margin (D/P - D/T)\n"
    );
    for (c, v) in all {
        let score = format!(
            "{} {}-away {} {}-away{}{}",
            roller,
            c.away[roller.index()],
            other,
            c.away[other.index()],
            if c.crawford { " Crawford" } else { "" },
            if c.cube == CubeCase::Owned {
                " owned 2-cube"
            } else {
                ""
            },
        );
        match v {
            Verdict::Cube {
                action,
                no_double,
                double_take,
                double_pass,
            } => {
                out += &format!(
                    "{score:<36} {:<5} ND {no_double:+.3}  D/T {double_take:+.3}  D/P {double_pass:+.3}  gain {:+.3}  take margin {:+.3}  ({action})\n",
                    short_action(action),
                    double_take.min(*double_pass) - no_double,
                    double_pass - double_take,
                )
            }
            Verdict::NoCube(why) => out += &format!("{score:<36} -     no cube action: {why}\n"),
            Verdict::Failed(why) => {
                out += &format!("{score:<36} !     {}\n", bgedit_core::quote::printable(why))
            }
        }
    }
    out
}

/// The matrix for each ID; 1 when any ID or cell failed.
pub fn run(
    opts: &MatrixOptions,
    ids: &[String],
    mut out: impl Write,
    mut err: impl Write,
) -> io::Result<u8> {
    let mut status = 0;
    if ids.is_empty() {
        writeln!(err, "bgedit: --score-matrix needs an ID")?;
        return Ok(2);
    }
    for (n, id) in ids.iter().enumerate() {
        let origin = format!("argument {}", n + 1);
        let position = match codec::parse_any(id, &Position::default()) {
            Ok(r) => r.position,
            Err(e) => {
                writeln!(err, "{origin}: {}", bgedit_core::quote::Shown(e))?;
                status = 1;
                continue;
            }
        };
        let length = length_for(&position, opts.length);
        if length < 2 {
            writeln!(
                err,
                "{origin}: a score matrix needs a match of 2 points or more (--length L)"
            )?;
            status = 1;
            continue;
        }
        let cubes: &[CubeCase] = if opts.owner {
            &[CubeCase::Centred, CubeCase::Owned]
        } else {
            &[CubeCase::Centred]
        };
        let cells = cells(&position, length, cubes);
        let verdicts = analyse_cells(opts, &cells);
        let failed = verdicts.iter().find_map(|v| match v {
            Verdict::Failed(why) => Some(why.clone()),
            _ => None,
        });
        if let Some(why) = &failed {
            writeln!(
                err,
                "{origin}: some cells have no answer: {}",
                bgedit_core::quote::Shown(why)
            )?;
            status = 1;
        }
        let all: Vec<(Cell, Verdict)> = cells.into_iter().zip(verdicts).collect();
        match opts.format {
            OutputFormat::Json => {
                let line = json!({
                    "gnubg_id": codec::to_string_as(&position, IdFormat::GnubgId),
                    "length": length,
                    "plies": opts.plies,
                    "on_roll": position.state.on_roll.to_string(),
                    "cells": all.iter().map(|(c, v)| cell_json(c, v)).collect::<Vec<_>>(),
                });
                writeln!(out, "{}", bgedit_core::quote::json(&line))?;
            }
            OutputFormat::Text => write!(out, "{}", text(opts, &position, length, &all))?,
        }
        out.flush()?;
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::short_action;

    #[test]
    fn gnubgs_actions_in_a_players_short_form() {
        for (gnubg, short) in [
            ("No double, take", "ND"),
            ("No redouble, take", "ND"),
            ("No double, beaver", "ND/B"),
            ("Double, take", "D/T"),
            ("Redouble, take", "D/T"),
            ("Double, pass", "D/P"),
            ("Double, beaver", "D/B"),
            ("Too good to double, pass", "TG"),
            ("Too good to redouble, take", "TG"),
        ] {
            assert_eq!(short_action(gnubg), short, "{gnubg}");
        }
    }
}
