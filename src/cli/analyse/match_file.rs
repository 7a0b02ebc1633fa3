//! `bgedit analyse --file FILE`: every decision of a match analysed by an
//! engine as gnubg's `analyse match` does it, one line each in match order,
//! then each player's statistics as `show statistics match` gives them.

use crate::cli::output::OutputFormat;
use bgedit_core::codec::match_file;
use bgedit_core::domain::match_stats::DecisionKind;
use bgedit_core::quote::Shown;
use bgedit_engine::match_analysis::report::{Report, round6};
use bgedit_engine::match_analysis::{Judged, Outcome, Ran, ReplayedMatch, RunOptions};
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
    for p in replayed.problems() {
        writeln!(err, "{}", match_file::describe(&shown, p))?;
    }
    if replayed.decisions().is_empty() {
        writeln!(err, "bgedit: {shown}: no decisions to analyse")?;
        return Ok(1);
    }
    let mut lines = Lines {
        opts,
        shown: &shown,
        total: replayed.decisions().len(),
        out: &mut out,
        err: &mut err,
        judged: Vec::new(),
        handed: 0,
        failed: !replayed.problems().is_empty(),
        io_error: None,
    };
    let ran = replayed.analyse(&opts.run, &AtomicBool::new(false), &mut |i, outcome| {
        lines.take(i, outcome)
    });
    if let Some(e) = lines.io_error.take() {
        return Err(e);
    }
    lines.end(&replayed, ran)
}

/// The lines of an analysis as its decisions come, and what the summary
/// needs of them.
struct Lines<'a, W: Write, E: Write> {
    opts: &'a FileOptions,
    shown: &'a str,
    /// The decisions asked.
    total: usize,
    out: &'a mut W,
    err: &'a mut E,
    judged: Vec<Judged>,
    /// The decisions whose outcome came.
    handed: usize,
    /// The file or a decision had a problem: the exit status is 1.
    failed: bool,
    /// Writing failed: the rest is not written.
    io_error: Option<io::Error>,
}

impl<W: Write, E: Write> Lines<'_, W, E> {
    /// Decision `i`'s outcome, written (after a write failed, dropped).
    fn take(&mut self, i: usize, outcome: Outcome) {
        if self.io_error.is_some() {
            return;
        }
        self.handed += 1;
        if let Err(e) = self.write(i, outcome) {
            self.io_error = Some(e);
        }
    }

    fn write(&mut self, i: usize, outcome: Outcome) -> io::Result<()> {
        match outcome {
            Ok(list) => {
                for j in list {
                    self.line(&j)?;
                    self.judged.push(j);
                }
            }
            Err(f) => {
                self.failed = true;
                writeln!(
                    self.err,
                    "{}: game {}, move {}: {}",
                    self.shown,
                    f.game,
                    f.number,
                    Shown(&f.why)
                )?;
            }
        }
        self.out.flush()?;
        if self.opts.progress {
            write!(
                self.err,
                "\r\x1b[Kanalysing {}: {}/{} decisions",
                self.shown,
                i + 1,
                self.total
            )?;
            self.err.flush()?;
        }
        Ok(())
    }

    /// One judgement's line.
    fn line(&mut self, j: &Judged) -> io::Result<()> {
        let run = &self.opts.run;
        match self.opts.format {
            OutputFormat::Json => {
                let mut v = json_line(j);
                // Which engine judged, and at what depth in its own count.
                v["engine"] = json!(run.engine.key());
                v["level"] = json!(run.engine.depth_label(run.plies));
                writeln!(self.out, "{}", bgedit_core::quote::json(&v))
            }
            // Names and moves are the file's.
            OutputFormat::Text if worth_a_line(j) => writeln!(self.out, "{}", Shown(text_line(j))),
            OutputFormat::Text => Ok(()),
        }
    }

    /// The end: what was not analysed and why, then the statistics and
    /// the luck. The exit status.
    fn end(self, replayed: &ReplayedMatch, ran: Ran) -> io::Result<u8> {
        let (shown, total) = (self.shown, self.total);
        let mut failed = self.failed;
        if self.opts.progress {
            write!(self.err, "\r\x1b[K")?;
        }
        if self.handed < total {
            // The engine was given up (it could not start, or hung): the
            // rest was not asked, and the summary covers what was.
            let why = ran.gave_up.as_ref().map_or_else(
                || "the engine could not be started".to_owned(),
                ToString::to_string,
            );
            writeln!(
                self.err,
                "{shown}: {} of {total} decisions not analysed: {}",
                total - self.handed,
                Shown(why)
            )?;
            failed = true;
        }
        let luck = match ran.luck {
            Some(Ok(l)) => Some(l),
            // The luck is rated by an engine that analyses whole games; the
            // others have none to say, and are not asked.
            Some(Err(e)) if self.opts.run.engine.spec().caps.whole_games => {
                // The reason may be the engine's own words (a Python exception's).
                writeln!(
                    self.err,
                    "{shown}: no luck analysis: {}",
                    bgedit_core::quote::printable(&e.to_string())
                )?;
                None
            }
            _ => None,
        };
        let report = Report::of(replayed.decisions(), &self.judged, luck);
        match self.opts.format {
            OutputFormat::Json => writeln!(
                self.out,
                "{}",
                bgedit_core::quote::json(&json!({"summary": report.json()}))
            )?,
            OutputFormat::Text => write!(self.out, "\n{}", Shown(report.text()))?,
        }
        self.out.flush()?;
        Ok(u8::from(failed))
    }
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
