//! `bgedit match FILE...`: every decision of every game of match files,
//! one line each (game, move, player, dice, what was played, the GNUBG ID
//! and XGID of the position before it), or one JSON object each with the
//! file's analysis of the decision.

use crate::cli::output::OutputFormat;
use crate::codec::match_file::{self, FileDecision};
use crate::codec::{gnubg_id, xgid};
use crate::quote::printable;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

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
}

/// Runs the command: 0 when every file was read whole, 1 when anything
/// was bad (the rest is still listed), 141 when the output closed.
pub fn run(args: &MatchArgs) -> ExitCode {
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
                crate::say!("{shown}: {e}");
                code = 1;
                continue;
            }
        };
        let (decisions, problems) = match_file::decisions(&file);
        for p in &problems {
            crate::say!("{}", match_file::describe(&shown, p));
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
pub fn text_line(d: &FileDecision) -> String {
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

pub fn json_line(file: &str, d: &FileDecision) -> String {
    let p = &d.position;
    crate::quote::json(&serde_json::json!({
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
