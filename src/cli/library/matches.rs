//! `library matches`: the library's matches as a player lists them (date,
//! players, length, final score, winner, the analyses each has, each
//! player's PR), filtered and sorted; text or one JSON object a match.

use super::Failure;
use crate::cli::output::OutputFormat;
use bgedit_core::domain::Player;
use bgedit_engine::stored_depth::words as stored_depth_words;
use bgedit_library::listing::{self, Listing, MatchLine, SortBy};
use bgedit_library::store::Library;
use serde_json::{Value, json};
use std::io::Write;

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct MatchesArgs {
    /// The filter: `player:NAME` (its side's columns), `since:YYYY-MM-DD`,
    /// `undated`, `analysed`, or words found in the players, event, file
    /// and date.
    filter: Vec<String>,
    /// The order.
    #[arg(long, value_enum, default_value = "date")]
    sort: SortArg,
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
}

/// `--sort`: the list's order.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum SortArg {
    /// Newest first, the undated last.
    Date,
    /// The lowest PR first (the named player's, else the better side's).
    Pr,
    /// By the opponent's name (the named player's opponent, else X).
    Opponent,
    /// The longest first.
    Length,
    /// The widest win first (the named player's, else the winner's).
    Result,
}

impl From<SortArg> for SortBy {
    fn from(s: SortArg) -> SortBy {
        match s {
            SortArg::Date => SortBy::Date,
            SortArg::Pr => SortBy::Pr,
            SortArg::Opponent => SortBy::Opponent,
            SortArg::Length => SortBy::Length,
            SortArg::Result => SortBy::Result,
        }
    }
}

/// Lists the matches; exit 1 when the filter names no player or several.
pub(super) fn run(
    lib: &mut Library,
    args: MatchesArgs,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    let filter = args.filter.join(" ");
    let listing = match listing::list(lib, &filter, args.sort.into()) {
        Ok(l) => l,
        Err(listing::ListError::Library(e)) => return Err(e.into()),
        Err(e) => {
            bgedit_core::say!("bgedit: {e}");
            return Ok(1);
        }
    };
    match args.format {
        OutputFormat::Json => {
            for l in &listing.lines {
                writeln!(out, "{}", bgedit_core::quote::json(&line_json(l)))?;
            }
        }
        OutputFormat::Text => write!(out, "{}", bgedit_core::quote::printable(&text(&listing)))?,
    }
    Ok(0)
}

/// The analyses of a match in players' words: bgedit's each, and the
/// file's by its deepest (a file's verdicts come at many depths):
/// `gnubg 2-ply, XG Roller++ (file)`.
pub(crate) fn analyses_words(analyses: &[(String, i64, bool)]) -> String {
    if analyses.is_empty() {
        return "none".to_owned();
    }
    bgedit_engine::stored_depth::match_analyses(analyses).join(", ")
}

fn side_word(p: Player) -> &'static str {
    if p == Player::O { "O" } else { "X" }
}

fn line_json(l: &MatchLine) -> Value {
    let r = |v: Option<f64>| {
        v.map_or(Value::Null, |v| {
            json!(bgedit_engine::match_analysis::report::round6(v))
        })
    };
    json!({
        "match": l.id,
        "date": l.date,
        "date_from": l.date_from.map(|f| f.word()),
        "length": l.length,
        "players": {"O": l.players[0], "X": l.players[1]},
        "score": l.score.map_or(Value::Null, |[o, x]| json!({"O": o, "X": x})),
        "winner": l.winner.map(side_word),
        "games": l.games,
        "analysis": l.analyses.iter().map(|(e, p, file)| json!({
            "engine": e, "plies": p, "from_file": file,
            "words": stored_depth_words(e, *p),
        })).collect::<Vec<_>>(),
        "pr": {"O": r(l.pr[0]), "X": r(l.pr[1])},
        "event": l.event,
        "file": l.path,
        "format": l.format,
    })
}

fn text(listing: &Listing) -> String {
    use std::fmt::Write as _;
    let f = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"));
    let mut s = format!(
        "{:>5} {:<10} {:<24} {:<24} {:>3} {:>7} {:>6} {:>6}  analysis\n",
        "match", "date", "O", "X", "len", "score", "PR O", "PR X"
    );
    for l in &listing.lines {
        let mark = |p: Player| if l.winner == Some(p) { "*" } else { "" };
        let name = |p: Player| {
            let n = crate::cli::player_stats::cut(&l.players[p.index()], 24 - mark(p).len());
            format!("{n}{}", mark(p))
        };
        let _ = writeln!(
            s,
            "{:>5} {:<10} {:<24} {:<24} {:>3} {:>7} {:>6} {:>6}  {}",
            l.id,
            l.date.as_deref().unwrap_or("undated"),
            name(Player::O),
            name(Player::X),
            l.length,
            l.score
                .map_or_else(|| "-".to_owned(), |[o, x]| format!("{o}-{x}")),
            f(l.pr[0]),
            f(l.pr[1]),
            analyses_words(&l.analyses)
        );
    }
    let shown = bgedit_core::words::count(listing.lines.len(), "match", "matches");
    let _ = write!(s, "{shown} of {}", listing.total);
    if let Some(p) = &listing.player {
        let won = listing
            .lines
            .iter()
            .filter(|l| l.side_of(p).is_some_and(|s| l.winner == Some(s)))
            .count();
        let lost = listing
            .lines
            .iter()
            .filter(|l| l.side_of(p).is_some_and(|s| l.winner == Some(s.opponent())))
            .count();
        let _ = write!(s, "; {}: won {won}, lost {lost}", p.name);
    }
    let undated = listing.lines.iter().filter(|l| l.date.is_none()).count();
    if undated > 0 {
        let _ = write!(
            s,
            "; {} undated (`bgedit library date MATCH YYYY-MM-DD` sets one)",
            bgedit_core::words::count(undated, "match", "matches")
        );
    }
    s.push_str("; * the winner\n");
    s
}
