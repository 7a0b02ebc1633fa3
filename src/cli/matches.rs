//! `bgedit match FILE...`: every decision of every game of match files,
//! one line each (game, move, player, dice, what was played, the GNUBG ID
//! and XGID of the position before it), or one JSON object each with the
//! file's analysis of the decision. With `--save-sgf OUT`: the match
//! written as gnubg's SGF with its analysis (the file's, or with
//! `--analyse` bgedit's), for gnubg's `load match`.

use crate::cli::engine_args::EngineArgs;
use crate::cli::output::OutputFormat;
use bgedit_core::codec::match_file::{self, Contents, FileDecision};
use bgedit_core::codec::{gnubg_id, sgf, xgid};
use bgedit_core::out_file;
use bgedit_core::quote::{Shown, printable};
use bgedit_engine::match_analysis::annotate::analysed_sgf;
use bgedit_engine::match_analysis::{Judged, ReplayedMatch, RunOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// text: tab-separated fields (the file first when several are given);
    /// json: one object per decision.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    /// Match files: gnubg SGF, Jellyfish .mat, gnubg's match text, XG;
    /// `-` for standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the match (one FILE) with its analysis as gnubg's SGF to OUT,
    /// which gnubg's `load match` reads with the analysis: the file's own,
    /// or bgedit's with --analyse. OUT is written whole, never over FILE.
    #[arg(long, value_name = "OUT")]
    pub save_sgf: Option<PathBuf>,
    /// With --save-sgf: analyse every decision as `analyse --file` does and
    /// save that analysis (the file's own is left out).
    #[arg(long, requires = "save_sgf")]
    pub analyse: bool,
    /// The depth of --analyse: 0 (the default) to 3.
    #[arg(long, requires = "analyse", value_parser = clap::value_parser!(u8).range(0..=3))]
    pub plies: Option<u8>,
    /// Engine processes working at once for --analyse (default: the cores).
    #[arg(long, requires = "analyse", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// The engine --analyse runs (one), and each engine's program and
    /// data.
    #[command(flatten)]
    pub engines: EngineArgs,
}

/// Runs the command: 0 when every file was read whole, 1 when anything
/// was bad (the rest is still listed), 141 when the output closed.
pub fn run(args: &MatchArgs) -> ExitCode {
    if let Some(out) = &args.save_sgf {
        return save_sgf(args, out);
    }
    let mut out = io::stdout().lock();
    let mut code = 0;
    for path in &args.files {
        // A file's name is printed at the head of lines: escaped.
        let shown = if path.as_os_str() == "-" {
            "standard input".to_owned()
        } else {
            printable(&path.display().to_string()).into_owned()
        };
        let file = match match_file::read_path(path) {
            Ok(f) => f,
            Err(e) => {
                bgedit_core::say!("{shown}: {e}");
                code = 1;
                continue;
            }
        };
        let (decisions, problems) = match_file::decisions(&file);
        for p in &problems {
            bgedit_core::say!("{}", match_file::describe(&shown, p));
            code = 1;
        }
        for d in &decisions {
            let line = match args.format {
                // Several files: each line says which.
                OutputFormat::Text if args.files.len() > 1 => {
                    format!("{shown}\t{}", text_line(d))
                }
                OutputFormat::Text => text_line(d),
                OutputFormat::Json => json_line(&shown, d),
            };
            if let Err(e) = writeln!(out, "{line}") {
                return super::output::write_failed(&e);
            }
        }
    }
    ExitCode::from(code)
}

fn dice_text(d: &FileDecision) -> String {
    d.dice
        .map_or_else(|| "-".to_owned(), |[a, b]| format!("{a}{b}"))
}

/// `game move player dice played GNUBGID XGID`, tab-separated.
pub(crate) fn text_line(d: &FileDecision) -> String {
    let p = &d.position;
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}",
        d.game,
        d.number,
        d.player,
        dice_text(d),
        if d.played.is_empty() {
            "-".into()
        } else {
            printable(&d.played)
        },
        gnubg_id::encode(&p.board, &p.state),
        xgid::encode(&p.board, &p.state),
    )
}

pub(crate) fn json_line(file: &str, d: &FileDecision) -> String {
    let p = &d.position;
    bgedit_core::quote::json(&serde_json::json!({
        "file": file,
        "game": d.game,
        "move": d.number,
        "player": d.player.to_string(),
        "name": p.names.of(d.player),
        "dice": d.dice,
        "played": d.played,
        "gnubg_id": gnubg_id::encode(&p.board, &p.state),
        "xgid": xgid::encode(&p.board, &p.state),
        "analysis": d.analysis,
        "cube_analysis": d.cube_analysis,
        "comment": d.comment,
    }))
}

/// `--save-sgf OUT`: one match file written as gnubg's SGF with its
/// analysis. 0 when it was written from a file read whole, 1 when the file
/// had problems (still written) or could not be read or written, 2 for
/// arguments that do not go together.
fn save_sgf(args: &MatchArgs, out: &Path) -> ExitCode {
    let [path] = args.files.as_slice() else {
        bgedit_core::say!("bgedit: --save-sgf saves one match: give one FILE");
        return ExitCode::from(2);
    };
    if let Err(e) = out_file::not_the_input(out, path) {
        bgedit_core::say!("bgedit: {e}");
        return ExitCode::from(2);
    }
    let shown = if path.as_os_str() == "-" {
        "standard input".to_owned()
    } else {
        printable(&path.display().to_string()).into_owned()
    };
    let file = match match_file::read_path(path) {
        Ok(f) => f,
        Err(e) => {
            bgedit_core::say!("{shown}: {e}");
            return ExitCode::from(1);
        }
    };
    let Contents::Record(record) = &file.contents else {
        bgedit_core::say!(
            "{shown}: gnubg's match text holds positions, not the moves of a match: \
             it cannot be saved as a match (save the match itself from gnubg)"
        );
        return ExitCode::from(1);
    };
    let (text, code) = if args.analyse {
        match analysed(args, &file, &shown) {
            Ok((judged, luck, code)) => (analysed_sgf(record, &judged, luck.as_ref()), code),
            Err(code) => return ExitCode::from(code),
        }
    } else {
        let (_, problems) = match_file::decisions(&file);
        for p in &problems {
            bgedit_core::say!("{}", match_file::describe(&shown, p));
        }
        let mut text = String::new();
        sgf::write_match_analysed(record, &sgf::MarksByAction::new(), &mut text);
        (text, u8::from(!problems.is_empty()))
    };
    match out_file::write_whole(out, path, text.as_bytes()) {
        Ok(()) => ExitCode::from(code),
        Err(e) => {
            bgedit_core::say!("bgedit: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--analyse`: every decision judged as `analyse --file` judges it; the
/// verdicts, the luck, and the exit status so far (or the status to stop
/// with: 2 when no engine is found).
fn analysed(
    args: &MatchArgs,
    file: &match_file::MatchFile,
    shown: &str,
) -> Result<(Vec<Judged>, Option<bgedit_engine::luck::MatchLuck>, u8), u8> {
    let refused = |e: &dyn std::fmt::Display| {
        bgedit_core::say!("bgedit: {e}");
        2u8
    };
    let engine = args
        .engines
        .one("match --analyse")
        .map_err(|e| refused(&e))?;
    let program = args
        .engines
        .setup
        .program(engine)
        .map_err(|e| refused(&e))?;
    let replayed = ReplayedMatch::of(file);
    let mut code = 0;
    for p in replayed.problems() {
        bgedit_core::say!("{}", match_file::describe(shown, p));
        code = 1;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let opts = RunOptions {
        engine,
        program,
        plies: args.plies.unwrap_or(0),
        jobs: args.jobs.map_or(cores, usize::from),
        luck: true,
        engines: None,
        min_runs: None,
    };
    let mut judged: Vec<Judged> = Vec::new();
    let mut handed = 0;
    let ran = replayed.analyse(&opts, &AtomicBool::new(false), &mut |_, outcome| {
        handed += 1;
        match outcome {
            Ok(list) => judged.extend(list),
            Err(f) => {
                bgedit_core::say!(
                    "{shown}: game {}, move {}: {}",
                    f.game,
                    f.number,
                    Shown(&f.why)
                );
                code = 1;
            }
        }
    });
    if handed < replayed.decisions().len() {
        let why = ran.gave_up.as_ref().map_or_else(
            || "the engine could not be started".to_owned(),
            ToString::to_string,
        );
        bgedit_core::say!(
            "{shown}: {} of {} decisions not analysed: {}",
            replayed.decisions().len() - handed,
            replayed.decisions().len(),
            Shown(why)
        );
        code = 1;
    }
    let luck = match ran.luck {
        Some(Ok(l)) => Some(l),
        Some(Err(e)) => {
            bgedit_core::say!("{shown}: no luck analysis: {}", printable(&e.to_string()));
            None
        }
        None => None,
    };
    Ok((judged, luck, code))
}
