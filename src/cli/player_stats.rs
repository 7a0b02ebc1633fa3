//! `bgedit stats --player NAME`: a player's matches in the library, each
//! with the rates gnubg's `show statistics match` gives that player for
//! it (from bgedit's most complete analysis of the match: `library
//! analyse`) and XG's PR, in date order, then the trend.

use crate::cli::output::OutputFormat;
use bgedit_core::quote::Shown;
use bgedit_engine::registry::stored_depth_words as depth_words;
use bgedit_library::player_stats::{self, MatchRow as Row, PlayerStats};
use bgedit_library::store::{self, Library};
use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;

pub(crate) use bgedit_library::player_stats::since;

/// What `stats --player` was asked.
pub(crate) struct PlayerOptions {
    pub player: String,
    pub library: Option<PathBuf>,
    /// `YYYY-MM-DD`: only matches played on it or later.
    pub since: Option<String>,
    pub format: OutputFormat,
}

/// Runs `stats --player`; the exit status: 0, 1 when the player has no
/// match in the library, 2 when the library cannot be opened.
pub fn run(opts: &PlayerOptions, out: &mut impl Write) -> std::io::Result<u8> {
    let Some(path) = opts.library.clone().or_else(store::default_path) else {
        bgedit_core::say!("bgedit: no data directory; give the library with --library FILE");
        return Ok(2);
    };
    let mut lib = match Library::open_existing(&path) {
        Ok(l) => l,
        Err(e) => {
            bgedit_core::say!("bgedit: {}", store::describe(&path, &e));
            return Ok(2);
        }
    };
    let stats = match player_stats::of(&mut lib, &opts.player, opts.since.as_deref(), false) {
        Ok(r) => r,
        Err(e) => {
            bgedit_core::say!("bgedit: {}", lib.describe(&e));
            return Ok(2);
        }
    };
    let rows = &stats.rows;
    if rows.is_empty() {
        bgedit_core::say!(
            "bgedit: no match of {} in {}{}",
            Shown(&opts.player),
            Shown(path.display()),
            opts.since
                .as_deref()
                .map_or(String::new(), |d| format!(" since {d}"))
        );
        return Ok(1);
    }
    match opts.format {
        OutputFormat::Json => {
            for r in rows {
                writeln!(out, "{}", bgedit_core::quote::json(&row_json(r)))?;
            }
            let summary = json!({"summary": summary(&stats)});
            writeln!(out, "{}", bgedit_core::quote::json(&summary))?;
        }
        OutputFormat::Text => write!(out, "{}", Shown(text(&stats)))?,
    }
    Ok(0)
}

fn r6(v: Option<f64>) -> Value {
    v.map_or(Value::Null, |v| {
        json!(bgedit_engine::match_analysis::report::round6(v))
    })
}

fn row_json(r: &Row) -> Value {
    json!({
        "match": r.m.id,
        "file": r.m.path,
        "date": r.m.date,
        "opponent": r.opponent,
        "length": r.m.length,
        "result": r.m.result,
        "engine": r.analysis.as_ref().map(|a| a.0.clone()),
        "plies": r.analysis.as_ref().map(|a| a.1),
        "from_file": r.from_file,
        "pr": r6(r.pr),
        "error_rate_memg": r6(r.error),
        "checker_error_rate_memg": r6(r.checker),
        "cube_error_rate_memg": r6(r.cube),
        "luck_rate_memg": r6(r.luck),
        "partial": r.partial.as_ref().map(|p| json!({
            "engine": p.engine,
            "plies": p.plies,
            "decisions_judged": p.judged,
            "decisions": p.decisions,
        })),
    })
}

/// The summary's JSON: the counts, the means and the trend.
fn summary(stats: &PlayerStats) -> Value {
    let t = &stats.trend;
    json!({
        "player": stats.player,
        "matches": t.matches,
        "analysed": t.analysed,
        "partly_analysed": stats.rows.iter().filter(|r| r.partial.is_some()).count(),
        "pr": r6(t.pr),
        "error_rate_memg": r6(t.error),
        "checker_error_rate_memg": r6(t.checker),
        "cube_error_rate_memg": r6(t.cube),
        "luck_rate_memg": r6(t.luck),
        "pr_first_half": r6(t.pr_first_half),
        "pr_last_half": r6(t.pr_last_half),
        "pr_slope_per_match": r6(t.pr_slope),
    })
}

fn text(stats: &PlayerStats) -> String {
    let (player, rows) = (stats.player.as_str(), stats.rows.as_slice());
    use std::fmt::Write as _;
    let f = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"));
    let mut s = format!(
        "{:<10} {:<20} {:>3} {:>6} {:<18} {:>6} {:>7} {:>7} {:>7}\n",
        "date", "opponent", "len", "result", "analysis", "PR", "error", "checker", "cube"
    );
    for r in rows {
        let analysis = match (&r.analysis, &r.partial) {
            (Some((e, p)), _) if r.from_file => format!("{} (file)", depth_words(e, *p)),
            (Some((e, p)), _) => depth_words(e, *p),
            // Only part of it: how much.
            (None, Some(p)) => format!("part {}/{}", p.judged, p.decisions),
            (None, None) => "none".to_owned(),
        };
        let opponent: String = r.opponent.chars().take(20).collect();
        let _ = writeln!(
            s,
            "{:<10} {:<20} {:>3} {:>6} {:<18} {:>6} {:>7} {:>7} {:>7}",
            r.date.as_deref().unwrap_or("-"),
            opponent,
            r.m.length,
            r.m.result,
            analysis,
            f(r.pr),
            f(r.error),
            f(r.checker),
            f(r.cube)
        );
    }
    let sum = summary(stats);
    let g = |k: &str| sum[k].as_f64();
    let _ = writeln!(
        s,
        "{player}: {} matches, {} analysed; PR {} (first half {}, last half {}, {} a match); \
         error rate {} mEMG",
        rows.len(),
        sum["analysed"],
        f(g("pr")),
        f(g("pr_first_half")),
        f(g("pr_last_half")),
        g("pr_slope_per_match").map_or_else(|| "-".to_owned(), |v| format!("{v:+.2}")),
        f(g("error_rate_memg"))
    );
    for r in rows {
        let Some(p) = &r.partial else { continue };
        let _ = writeln!(
            s,
            "{} vs {}: partly analysed ({} judged {} of {} decisions), so not counted from \
             it: `bgedit library analyse` goes on with it",
            r.date.as_deref().unwrap_or("-"),
            r.opponent,
            depth_words(&p.engine, p.plies),
            p.judged,
            p.decisions
        );
    }
    if sum["analysed"] == 0 {
        let _ = writeln!(
            s,
            "no match of {player} is analysed yet: run `bgedit library analyse`"
        );
    }
    s
}
