//! `bgedit quiz --answer ANSWER ID`: one answer to the question a position
//! asks (the move with dice, double or no double without, take or pass
//! with a double offered), graded by gnubg at once, for scripts and other
//! study tools. One output line per input line, as the other commands.

use super::editor::EditorOptions;
use super::engine_args::EngineArgs;
use crate::cli::moves::LineOutput;
use crate::cli::output::OutputFormat;
use bgedit_core::codec::{IdError, gnubg_id, parse_any};
use bgedit_core::domain::Position;
use bgedit_core::domain::skill::Skill;
use bgedit_engine::match_analysis::{self, JudgeError, QuizAnswer};
use bgedit_engine::{Choice, Engine};
use bgedit_tui::io::runtime::Start;
use std::cell::RefCell;
use std::io::Write as _;
use std::process::ExitCode;

/// Without `--answer` or `--stats`, the editor opens on a quiz of the
/// collection or filter given (every due entry when none).
#[derive(clap::Args, Debug, Clone)]
pub struct QuizArgs {
    /// The answer: a move in any notation bgedit reads (`13/7 8/7`,
    /// `13-7 8-7`), or `double`, `no double`, `take`, `pass`, `beaver`.
    #[arg(long, value_name = "ANSWER", allow_hyphen_values = true)]
    pub answer: Option<String>,
    /// The quiz's statistics from the library: answers, the share correct,
    /// the mean equity lost (mEMG) and its trend by week, the positions
    /// missed most; overall and per collection.
    #[arg(long, conflicts_with = "answer")]
    pub stats: bool,
    /// With --stats: this collection only.
    #[arg(long, value_name = "NAME", requires = "stats")]
    pub collection: Option<String>,
    /// The library file (default: the data directory's).
    #[arg(long, value_name = "FILE")]
    pub library: Option<std::path::PathBuf>,
    /// gnubg's depth: 0 (instant) to 3; in the editor's quiz, the depth of
    /// its grades (an analysis kept from a shallower quiz is not used).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3))]
    pub plies: u8,
    /// Output: a sentence, or one JSON object per input.
    #[arg(long, default_value = "text",
          value_parser = OutputFormat::described(FORMAT_TEXT_HELP, FORMAT_JSON_HELP))]
    pub format: OutputFormat,
    /// The engine that grades (one), and each engine's program and data.
    #[command(flatten)]
    pub engines: EngineArgs,
    /// With --answer: IDs in any accepted format (standard input when
    /// none). Else the quiz's collection, or a filter (`tag:blitz race`).
    #[arg(allow_hyphen_values = true, value_name = "ID|QUERY")]
    pub ids: Vec<String>,
}

/// `bgedit quiz`: grades the answer in each position (`--answer`), prints
/// the statistics (`--stats`), or else opens the editor on a quiz with
/// `editor`'s options (the top-level ones, which the quiz's own override).
pub fn run(args: QuizArgs, editor: EditorOptions) -> ExitCode {
    if args.answer.is_none() && !args.stats {
        let grader = match args.engines.one("quiz") {
            Ok(kind) => kind,
            Err(e) => {
                bgedit_core::say!("bgedit: {e}");
                return ExitCode::from(2);
            }
        };
        let start = Start::Quiz(args.ids.join(" "), args.plies, Choice::only(grader));
        let library = args.library.or(editor.library);
        // A quiz reads the library: a path where none is (mistyped) is
        // said, not opened as a new, empty one.
        if let Some(path) = library.clone().or_else(bgedit_library::store::default_path)
            && std::fs::symlink_metadata(&path).is_err()
        {
            let e = bgedit_library::LibraryError::NotThere {
                path: path.display().to_string(),
            };
            bgedit_core::say!("bgedit: {e}");
            return ExitCode::from(2);
        }
        // The quiz's own engine options: the top-level ones cannot be
        // given with a command.
        let opts = EditorOptions {
            engines: args.engines,
            met: editor.met,
            library,
            view: editor.view,
        };
        return super::editor::run(start, opts);
    }
    if args.stats {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        let code = stats(&args, &mut out);
        return match out.flush() {
            Err(e) if code == 0 => super::output::write_failed(&e),
            _ => ExitCode::from(code),
        };
    }
    super::signals::with_engines(|| grade(&args))
}

/// `--answer`: each position's grade, by the engine chosen.
fn grade(args: &QuizArgs) -> ExitCode {
    let found = match args.engines.one("quiz") {
        Ok(kind) => args
            .engines
            .setup
            .open(kind, Default::default())
            .map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    let engine = match found {
        Ok(e) => RefCell::new(e),
        Err(e) => {
            bgedit_core::say!("bgedit: {e}");
            return ExitCode::from(2);
        }
    };
    let answer = QuizAnswer::parse(args.answer.as_deref().unwrap_or_default());
    super::moves::each_line(&args.ids, |l| {
        quiz_line(&engine, &answer, args.plies, args.format, l)
    })
}

/// What `quiz --format` writes, as its help says it.
pub(crate) const FORMAT_TEXT_HELP: &str =
    "`bad (-0.094): 24/18 13/11 · gnubg: 13/8 13/11 (yours 4th of 17)`";
pub(crate) const FORMAT_JSON_HELP: &str =
    "`{\"gnubg_id\", \"answer\", \"best\", \"error\", \"grade\", \"rank\", \"plies\"}`";

/// The grade of an error, in gnubg 1.07's words and thresholds (0.03,
/// 0.06, 0.12, as `show analysis` prints them).
pub fn grade_word(error: f64) -> &'static str {
    Skill::of(error).word()
}

/// Why a position's answer has no grade.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LineError {
    #[error(transparent)]
    Id(#[from] IdError),
    /// Not an answer to this position's question, or the engine failed.
    #[error(transparent)]
    Grade(#[from] JudgeError),
}

/// Grades `answer` in the position on `text` with `engine`.
pub(crate) fn quiz_line(
    engine: &RefCell<Box<dyn Engine>>,
    answer: &QuizAnswer,
    plies: u8,
    format: OutputFormat,
    text: &str,
) -> Result<LineOutput, LineError> {
    let position: Position = parse_any(text, &Position::default())?.position;
    let kind = engine.borrow().kind();
    let j = match_analysis::grade(&mut **engine.borrow_mut(), &position, answer, plies)?;
    let who = kind.name();
    let depth = kind.depth_label(plies);
    let error = j.judgement.error;
    let grade = grade_word(error);
    let rank = j.played_rank.map(|r| r + 1);
    let count = match &j.analysis {
        bgedit_engine::Analysis::Moves { moves, .. } => Some(moves.len()),
        _ => None,
    };
    let id = gnubg_id::encode(&position.board, &position.state);
    let line = match format {
        OutputFormat::Json => bgedit_core::quote::json(&serde_json::json!({
            "gnubg_id": id,
            "answer": j.played,
            "best": j.best,
            "error": (error * 1000.0).round() / 1000.0,
            "grade": grade,
            "rank": rank,
            "plies": plies,
            "engine": kind.key(),
            "level": depth,
        })),
        OutputFormat::Text => {
            let place = match (rank, count) {
                (Some(r), Some(n)) => format!(" (yours {} of {n})", ordinal(r)),
                _ => String::new(),
            };
            if Skill::of(error) == Skill::Good && j.played == j.best {
                format!("correct: {} is {who}'s best at {depth}", j.played)
            } else {
                format!(
                    "{grade} (-{error:.3}): {} · {who}: {}{place}",
                    j.played, j.best
                )
            }
        }
    };
    Ok(LineOutput { line, note: None })
}

/// `bgedit quiz --stats`: the statistics of every collection quizzed (or
/// of one), text or one JSON object. Returns the exit status.
pub fn stats(args: &QuizArgs, out: &mut impl std::io::Write) -> u8 {
    use bgedit_library::store::{self, Library};
    let Some(path) = args.library.clone().or_else(store::default_path) else {
        bgedit_core::say!("bgedit: no data directory; give the library with --library FILE");
        return 2;
    };
    let lib = match Library::open_existing(&path) {
        Ok(l) => l,
        Err(e) => {
            bgedit_core::say!("bgedit: {}", store::describe(&path, &e));
            return 2;
        }
    };
    let scopes: Vec<Option<String>> = match &args.collection {
        Some(c) => vec![Some(c.clone())],
        None => {
            let names = match lib.quizzed_collections() {
                Ok(n) => n,
                Err(e) => {
                    bgedit_core::say!("bgedit: {}", lib.describe(&e));
                    return 2;
                }
            };
            std::iter::once(None)
                .chain(names.into_iter().map(Some))
                .collect()
        }
    };
    let mut json = serde_json::Map::new();
    for scope in scopes {
        let s = match lib.quiz_stats(scope.as_deref()) {
            Ok(s) => s,
            Err(e) => {
                bgedit_core::say!("bgedit: {}", lib.describe(&e));
                return 2;
            }
        };
        let name = scope.unwrap_or_else(|| "all".to_owned());
        let written = match args.format {
            OutputFormat::Json => {
                json.insert(name, serde_json::to_value(&s).unwrap_or_default());
                Ok(())
            }
            // The collection's name is the user's: printed escaped.
            OutputFormat::Text => write!(out, "{}", bgedit_core::quote::printable(&s.text(&name))),
        };
        if let Err(e) = written {
            return crate::cli::output::write_failed_status(&e);
        }
    }
    if args.format == OutputFormat::Json
        && let Err(e) = writeln!(out, "{}", bgedit_core::quote::json(&json))
    {
        return crate::cli::output::write_failed_status(&e);
    }
    0
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_use_gnubgs_thresholds_and_ordinals_read_right() {
        assert_eq!(grade_word(0.0), "correct");
        assert_eq!(grade_word(0.03), "correct");
        assert_eq!(grade_word(0.031), "doubtful");
        assert_eq!(grade_word(0.061), "bad");
        assert_eq!(grade_word(0.121), "very bad");
        let o: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            o,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"
            ]
        );
    }

    #[test]
    fn answers_are_read_as_players_write_them() {
        assert_eq!(QuizAnswer::parse(" No  Double "), QuizAnswer::NoDouble);
        assert_eq!(QuizAnswer::parse("DROP"), QuizAnswer::Pass);
        assert_eq!(QuizAnswer::parse("beaver"), QuizAnswer::Beaver);
        assert_eq!(
            QuizAnswer::parse("13-7 8-7"),
            QuizAnswer::Move("13-7 8-7".to_owned())
        );
    }
}
