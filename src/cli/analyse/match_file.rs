//! `bgedit analyse --file FILE`: every decision of a match analysed by an
//! engine as gnubg's `analyse match` does it, one line each in match order,
//! then each player's statistics as `show statistics match` gives them.

use crate::cli::output::OutputFormat;
use bgedit_core::codec::match_file;
use bgedit_core::domain::match_stats::DecisionKind;
use bgedit_core::quote::Shown;
use bgedit_engine::match_analysis::report::{Report, round6};
use bgedit_engine::match_analysis::{Judged, ReplayedMatch, RunOptions};
use serde_json::{Value, json};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;

#[derive(Clone, Debug)]
pub struct FileOptions {
    pub run: RunOptions,
    pub format: OutputFormat,
    /// Draw a progress line on standard error.
    pub progress: bool,
}

/// Analyses the match in `path`; the exit status: 0, or 1 when the file or
/// a decision had a problem (the rest is still analysed) or the file
/// cannot be read (as `bgedit match` says it).
pub fn run<W: Write, E: Write>(
    opts: &FileOptions,
    path: &Path,
    mut out: W,
    mut err: E,
) -> io::Result<u8> {
    // A file's name is printed at the head of lines: escaped.
    let shown = bgedit_core::quote::printable(&path.display().to_string()).into_owned();
    let file = match match_file::read_path(path) {
        Ok(f) => f,
        Err(e) => {
            writeln!(err, "bgedit: {shown}: {}", Shown(e))?;
            return Ok(1);
        }
    };
    // An engine that reads whole games (gnubg) analyses the match bgedit
    // read, whole games at a time, and rates the dice as it goes.
    let replayed = ReplayedMatch::of(&file);
    let decisions = replayed.decisions();
    let mut status = 0;
    for p in replayed.problems() {
        writeln!(err, "{}", match_file::describe(&shown, p))?;
        status = 1;
    }
    if decisions.is_empty() {
        writeln!(err, "bgedit: {shown}: no decisions to analyse")?;
        return Ok(1);
    }
    let mut judged: Vec<Judged> = Vec::new();
    let total = decisions.len();
    let mut io_error = None;
    let mut handed = 0;
    let ran = replayed.analyse(&opts.run, &AtomicBool::new(false), &mut |i, outcome| {
        if io_error.is_some() {
            return;
        }
        handed += 1;
        let written = (|| -> io::Result<()> {
            match outcome {
                Ok(list) => {
                    for j in list {
                        match opts.format {
                            OutputFormat::Json => {
                                let mut v = json_line(&j);
                                // Which engine judged, and at what depth
                                // in its own count.
                                v["engine"] = json!(opts.run.engine.key());
                                v["level"] = json!(opts.run.engine.depth_label(opts.run.plies));
                                writeln!(out, "{}", bgedit_core::quote::json(&v))?
                            }
                            OutputFormat::Text => {
                                if worth_a_line(&j) {
                                    // Names and moves are the file's.
                                    writeln!(out, "{}", Shown(text_line(&j)))?;
                                }
                            }
                        }
                        judged.push(j);
                    }
                }
                Err(f) => {
                    status = 1;
                    writeln!(
                        err,
                        "{shown}: game {}, move {}: {}",
                        f.game,
                        f.number,
                        Shown(&f.why)
                    )?;
                }
            }
            out.flush()?;
            if opts.progress {
                write!(
                    err,
                    "\r\x1b[Kanalysing {shown}: {}/{total} decisions",
                    i + 1
                )?;
                err.flush()?;
            }
            Ok(())
        })();
        if let Err(e) = written {
            io_error = Some(e);
        }
    });
    if let Some(e) = io_error {
        return Err(e);
    }
    if opts.progress {
        write!(err, "\r\x1b[K")?;
    }
    if handed < total {
        // The engine was given up (it could not start, or hung): the rest
        // was not asked, and the summary covers what was.
        let why = ran.gave_up.as_ref().map_or_else(
            || "the engine could not be started".to_owned(),
            ToString::to_string,
        );
        writeln!(
            err,
            "{shown}: {} of {total} decisions not analysed: {}",
            total - handed,
            Shown(why)
        )?;
        status = 1;
    }
    let luck = match ran.luck {
        Some(Ok(l)) => Some(l),
        // The luck is rated by an engine that analyses whole games; the
        // others have none to say, and are not asked.
        Some(Err(e)) if opts.run.engine.spec().caps.whole_games => {
            // The reason may be the engine's own words (a Python exception's).
            writeln!(
                err,
                "{shown}: no luck analysis: {}",
                bgedit_core::quote::printable(&e.to_string())
            )?;
            None
        }
        _ => None,
    };
    let report = Report::of(decisions, &judged, luck);
    match opts.format {
        OutputFormat::Json => writeln!(
            out,
            "{}",
            bgedit_core::quote::json(&json!({"summary": report.json()}))
        )?,
        OutputFormat::Text => write!(out, "\n{}", Shown(report.text()))?,
    }
    out.flush()?;
    Ok(status)
}

/// The text lists every checker play and every cube action taken, and a
/// roll with the cube left alone only when it was close or wrong (gnubg's
/// own export shows the cube only then).
fn worth_a_line(j: &Judged) -> bool {
    j.kind() != DecisionKind::Cube
        || j.played != "no double"
        || j.judgement.counted
        || j.judgement.error > 0.0
}

pub(crate) fn text_line(j: &Judged) -> String {
    let dice = j.dice.map_or(String::new(), |[a, b]| format!("{a}{b}"));
    let mark = j.judgement.skill().mark();
    let lost = if j.judgement.error > 0.0 {
        format!("{:+.3}", -j.judgement.error)
    } else {
        String::new()
    };
    let best = if j.played == j.best || j.judgement.error == 0.0 {
        String::new()
    } else {
        format!("  best: {}", j.best)
    };
    format!(
        "game {} move {:<3} {} {:<12} {:<2} {:<24} {:<2} {:>7}{best}",
        j.game, j.number, j.player, j.name, dice, j.played, mark, lost
    )
    .trim_end()
    .to_owned()
}

pub fn json_line(j: &Judged) -> Value {
    let mut v = json!({
        "game": j.game,
        "move": j.number,
        "player": j.player.to_string(),
        "name": j.name,
        "kind": j.kind().word(),
        "gnubg_id": j.gnubg_id(),
        "played": j.played,
        "best": j.best,
        "error": round6(j.judgement.error),
        "cost": round6(j.judgement.cost),
        "mark": j.judgement.skill().mark(),
        "counted": j.judgement.counted,
    });
    if let Some([a, b]) = j.dice {
        v["dice"] = json!(format!("{a}{b}"));
    }
    if let Some(r) = j.played_rank {
        v["rank"] = json!(r + 1);
    }
    v
}
