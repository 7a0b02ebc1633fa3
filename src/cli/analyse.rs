//! `bgedit analyse`: gnubg's verdict for each ID, from the arguments or
//! standard input, in input order, with J gnubg processes working at once.

use crate::codec::{self, IdFormat};
use crate::domain::Position;
use crate::engine::text::{self, Units};
use crate::engine::{Analysis, Engine, Request};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{self, BufRead, Read, Write};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest input line read; an ID or header block is far shorter.
const MAX_LINE: usize = 64 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

#[derive(Clone, Debug)]
pub struct AnalyseOptions {
    pub gnubg: PathBuf,
    pub plies: u8,
    /// Moves listed with dice; 0 for all.
    pub moves: usize,
    pub jobs: usize,
    pub format: Format,
    /// Draw a progress line on standard error.
    pub progress: bool,
}

/// How long one answer may take at each depth before gnubg is restarted.
pub fn time_limit(plies: u8) -> Duration {
    Duration::from_secs([30, 60, 120, 600][usize::from(plies.min(3))])
}

/// One input, analysed: the output text (with its newline) or the error.
pub fn analyse_one(
    engine: &mut Engine,
    opts: &AnalyseOptions,
    id: u64,
    line: &str,
) -> Result<String, String> {
    let position = codec::parse_any(line, &Position::default())
        .map_err(|e| e.to_string())?
        .position;
    let gnubg_id = codec::to_string_as(&position, IdFormat::GnubgId);
    let req = Request {
        id,
        position,
        plies: opts.plies,
        moves: opts.moves,
    };
    let analysis = engine
        .analyse(&req, time_limit(opts.plies))
        .map_err(|e| e.to_string())?;
    if let Analysis::Over { reason } = &analysis {
        return Err(reason.clone());
    }
    Ok(match opts.format {
        Format::Json => json_line(&gnubg_id, &req, &analysis).to_string() + "\n",
        Format::Text => {
            let mut out = format!("GNUBG ID: {gnubg_id}\n");
            if let Some(reason) = crate::engine::request::no_cube_action(&req.position) {
                out += &format!("No cube action: {reason}\n");
            }
            out += &text::render(&analysis, Units::Equity, usize::MAX);
            out + "\n"
        }
    })
}

fn json_line(gnubg_id: &str, req: &Request, a: &Analysis) -> Value {
    let mut v = json!({ "gnubg_id": gnubg_id, "plies": a.plies().unwrap_or(req.plies) });
    match a {
        Analysis::Moves { moves, .. } => {
            let list: Vec<Value> = moves
                .iter()
                .map(|m| {
                    let mut o = json!({"move": m.notation, "equity": m.equity, "probs": m.probs});
                    if let Some(w) = m.mwc {
                        o["mwc"] = json!(w);
                    }
                    o
                })
                .collect();
            v["moves"] = json!(list);
        }
        Analysis::Cube {
            action,
            no_double,
            double_take,
            double_pass,
            no_double_mwc,
            double_take_mwc,
            double_pass_mwc,
            probs,
            cubeless,
            ..
        } => {
            let mut c = json!({
                "action": action, "no_double": no_double, "double_take": double_take,
                "double_pass": double_pass, "probs": probs, "cubeless": cubeless,
            });
            if let (Some(n), Some(t), Some(p)) = (no_double_mwc, double_take_mwc, double_pass_mwc) {
                c["mwc"] = json!({"no_double": n, "double_take": t, "double_pass": p});
            }
            v["cube"] = c;
        }
        Analysis::Take {
            take,
            pass,
            take_mwc,
            pass_mwc,
            proper,
            probs,
            cubeless,
            ..
        } => {
            let mut t = json!({
                "action": proper, "take": take, "pass": pass, "probs": probs, "cubeless": cubeless,
            });
            if let (Some(a), Some(b)) = (take_mwc, pass_mwc) {
                t["mwc"] = json!({"take": a, "pass": b});
            }
            v["take"] = t;
        }
        Analysis::Eval {
            probs, cubeless, ..
        } => {
            let reason = crate::engine::request::no_cube_action(&req.position).unwrap_or_default();
            v["cube"] = json!({
                "action": format!("No cube action: {reason}"), "probs": probs, "cubeless": cubeless,
            });
        }
        Analysis::Over { .. } => {}
    }
    v
}

/// (sequence number, "line N", the line or why it cannot be read)
type Job = (u64, String, Result<String, String>);
type Done = (u64, String, Result<String, String>);

fn worker(opts: AnalyseOptions, jobs: Arc<Mutex<Receiver<Job>>>, done: Sender<Done>) {
    let mut engine = Engine::new(opts.gnubg.clone());
    loop {
        let next = jobs.lock().map(|rx| rx.recv());
        let Ok(Ok((seq, origin, line))) = next else {
            return;
        };
        let result = line.and_then(|l| analyse_one(&mut engine, &opts, seq + 1, &l));
        if done.send((seq, origin, result)).is_err() {
            return;
        }
    }
}

/// How the run went: answers written and inputs refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub analysed: u64,
    pub failed: u64,
}

/// Analyses `args` (or, when empty, each line of `input`), writing answers to
/// `out` in input order and `line N:` / `argument N:` errors to `err`.
pub fn run<R: BufRead, W: Write, E: Write>(
    opts: &AnalyseOptions,
    args: &[String],
    mut input: R,
    mut out: W,
    mut err: E,
) -> io::Result<Report> {
    let jobs_n = opts.jobs.max(1);
    let (job_tx, job_rx) = channel::<Job>();
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = channel::<Done>();
    let workers: Vec<_> = (0..jobs_n)
        .map(|_| {
            let (o, j, d) = (opts.clone(), Arc::clone(&job_rx), done_tx.clone());
            std::thread::spawn(move || worker(o, j, d))
        })
        .collect();
    drop(done_tx);

    let mut report = Report::default();
    let mut waiting: BTreeMap<u64, (String, Result<String, String>)> = BTreeMap::new();
    let mut next_out = 0u64;
    let mut sent = 0u64;
    let started = Instant::now();
    // Bounded: a million lines never sit in memory at once.
    let window = 8 * jobs_n as u64;
    let write_ready = |waiting: &mut BTreeMap<u64, (String, Result<String, String>)>,
                       next_out: &mut u64,
                       report: &mut Report,
                       out: &mut W,
                       err: &mut E|
     -> io::Result<()> {
        while let Some((origin, result)) = waiting.remove(next_out) {
            match result {
                Ok(text) => {
                    out.write_all(text.as_bytes())?;
                    report.analysed += 1;
                }
                Err(e) => {
                    out.flush()?;
                    writeln!(err, "{origin}: {e}")?;
                    report.failed += 1;
                }
            }
            *next_out += 1;
            if opts.progress && (*next_out).is_multiple_of(50) {
                let rate = *next_out as f64 / started.elapsed().as_secs_f64().max(1e-3);
                write!(err, "\ranalysed {next_out} ({rate:.0}/s)")?;
                err.flush()?;
            }
        }
        Ok(())
    };

    type Input = io::Result<(String, Result<String, String>)>;
    let mut inputs: Box<dyn Iterator<Item = Input> + '_> = if args.is_empty() {
        let mut number = 0u64;
        Box::new(std::iter::from_fn(move || {
            let mut raw = Vec::new();
            loop {
                raw.clear();
                number += 1;
                match Read::take(&mut input, MAX_LINE as u64).read_until(b'\n', &mut raw) {
                    Ok(0) => return None,
                    Ok(n) if n == MAX_LINE && raw.last() != Some(&b'\n') => {
                        // Far too long for an ID: skip to its end, and say so
                        // under its own line number.
                        let mut rest = Vec::new();
                        loop {
                            rest.clear();
                            match Read::take(&mut input, MAX_LINE as u64)
                                .read_until(b'\n', &mut rest)
                            {
                                Ok(0) => break,
                                Ok(_) if rest.last() == Some(&b'\n') => break,
                                Ok(_) => continue,
                                Err(e) => return Some(Err(e)),
                            }
                        }
                        let why = format!("longer than {MAX_LINE} bytes: not an ID");
                        return Some(Ok((format!("line {number}"), Err(why))));
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&raw).trim().to_owned();
                        if text.is_empty() {
                            continue;
                        }
                        return Some(Ok((format!("line {number}"), Ok(text))));
                    }
                    Err(e) => return Some(Err(e)),
                }
            }
        }))
    } else {
        Box::new(
            args.iter()
                .enumerate()
                .map(|(i, a)| Ok((format!("argument {}", i + 1), Ok(a.clone())))),
        )
    };

    loop {
        while sent - next_out < window {
            match inputs.next() {
                Some(item) => {
                    let (origin, text) = item?;
                    if job_tx.send((sent, origin, text)).is_err() {
                        break;
                    }
                    sent += 1;
                }
                None => break,
            }
        }
        if next_out == sent {
            break;
        }
        let Ok((seq, origin, result)) = done_rx.recv() else {
            break;
        };
        waiting.insert(seq, (origin, result));
        write_ready(&mut waiting, &mut next_out, &mut report, &mut out, &mut err)?;
    }
    drop(job_tx);
    for w in workers {
        let _ = w.join();
    }
    if opts.progress && next_out >= 50 {
        writeln!(err)?;
    }
    out.flush()?;
    Ok(report)
}
