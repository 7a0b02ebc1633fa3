//! `bgedit analyse --sensitivity`: the live views' tables for each ID, by
//! the engine chosen (`--engine`): the best move at money, DMP,
//! gammon-save, gammon-go and the match's own score under each cube state,
//! or for a cube decision the doubling window at every score of the match
//! (`engine::sensitivity`). One ID a line or argument; text, or one JSON
//! line an input.

use crate::cli::input::{Messages, Tally, run_lines};
use crate::cli::output::OutputFormat;
use bgedit_core::codec::{self, IdFormat};
use bgedit_core::domain::Position;
use bgedit_engine::sensitivity::{self, Sensitivity};
use bgedit_engine::{Engine, EngineKind, StartRecord};
use serde_json::json;
use std::io::{self, Read, Write};
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub(crate) struct SensitivityOptions {
    pub engine: EngineKind,
    pub program: PathBuf,
    pub plies: u8,
    pub format: OutputFormat,
}

/// The header of a text answer: the position, the engine and its road.
fn header(p: &Position, engine: &dyn Engine, plies: u8, s: &Sensitivity) -> String {
    let kind = engine.kind();
    let road = if engine.in_process() {
        " in-process"
    } else {
        ""
    };
    let what = match s {
        Sensitivity::Moves(_) => "best move by score and cube",
        Sensitivity::Window(_) => "doubling window by score",
        Sensitivity::Nothing(_) => "nothing to show",
    };
    format!(
        "{} · {} on roll · {what} · {} {}{road}\n",
        codec::to_string_as(p, IdFormat::GnubgId),
        p.state.on_roll,
        kind.name(),
        kind.depth_label(plies)
    )
}

/// Why an input line has no answer.
#[derive(Debug, thiserror::Error)]
enum LineError {
    #[error(transparent)]
    Id(#[from] bgedit_core::codec::IdError),
    /// A cell the engine could not answer: the first one's reason, in
    /// the engine's words.
    #[error("the engine could not answer every cell: {said}")]
    Engine { said: String },
    /// The position asks nothing (the game is over, the board is empty):
    /// why, as `analyse` says it (the engine asked, then its words).
    #[error("{}: {why}", engine.name())]
    Over {
        engine: bgedit_engine::EngineKind,
        why: String,
    },
}

/// One ID's answer, appended to `out`; the first failed cell makes the
/// input an error (its answer is not printed).
fn one(
    engine: &mut dyn Engine,
    opts: &SensitivityOptions,
    text: &str,
    out: &mut String,
) -> Result<(), LineError> {
    let position = codec::parse_any(text.trim(), &Position::default())?.position;
    let s = sensitivity::compute(engine, &position, opts.plies);
    // The live views show a finished game as such; a command asked to
    // analyse it refuses it, as `analyse` does.
    if let Sensitivity::Nothing(why) = &s {
        return Err(LineError::Over {
            engine: engine.kind(),
            why: why.clone(),
        });
    }
    if let Some(why) = sensitivity::first_failure(&s) {
        return Err(LineError::Engine {
            said: why.to_owned(),
        });
    }
    match opts.format {
        OutputFormat::Json => {
            let mut v = sensitivity::to_json(&s);
            v["gnubg_id"] = json!(codec::to_string_as(&position, IdFormat::GnubgId));
            v["on_roll"] = json!(position.state.on_roll.to_string());
            v["engine"] = json!(engine.kind().key());
            v["in_process"] = json!(engine.in_process());
            v["plies"] = json!(opts.plies);
            out.push_str(&bgedit_core::quote::json(&v));
            out.push('\n');
        }
        OutputFormat::Text => {
            out.push_str(&header(&position, engine, opts.plies, &s));
            for line in sensitivity::lines(&s, &position) {
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    Ok(())
}

/// Each ID's tables: `ids`, or each line of `input` when there are none.
pub fn run<R: Read, W: Write, E: Write>(
    opts: &SensitivityOptions,
    ids: &[String],
    input: R,
    out: W,
    err: E,
) -> io::Result<Tally> {
    let mut engine = opts.engine.open(opts.program.clone(), StartRecord::batch());
    run_lines(ids, input, out, Messages::new(err), |text, buf| {
        one(engine.as_mut(), opts, text, buf).map(|()| None)
    })
}
