//! `bgedit stats --player NAME --by plan|class|score|kind`: the player's
//! decisions across the library's analysed matches grouped by a theme,
//! each group with its decisions, errors, error rate (mEMG over the
//! decisions gnubg's rates count) and PR, and its costliest positions; the
//! worst groups first (`bgedit_library::theme_stats`).

use super::player_stats::PlayerOptions;
use crate::cli::output::OutputFormat;
use bgedit_core::quote::Shown;
use bgedit_library::store::{self, Library};
use bgedit_library::theme_stats::{self, By, Group, ThemeStats};
use serde_json::{Value, json};
use std::io::Write;

/// `--by`'s values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThemeBy {
    /// The game plan of the player deciding (Open Sage's classification).
    Plan,
    /// gnubg's class of the position (contact, crashed, race, bear-off).
    Class,
    /// The score class (money, dmp, crawford, post-crawford, gs-gg,
    /// 2-away, match).
    Score,
    /// Checker play, cube (double or not) or take.
    Kind,
}

impl From<ThemeBy> for By {
    fn from(b: ThemeBy) -> By {
        match b {
            ThemeBy::Plan => By::Plan,
            ThemeBy::Class => By::Class,
            ThemeBy::Score => By::Score,
            ThemeBy::Kind => By::Kind,
        }
    }
}

/// Runs `stats --player --by`; the exit status as `stats --player`'s: 0,
/// 1 when the player has no analysed decision in the library, 2 when the
/// library cannot be opened.
pub fn run(opts: &PlayerOptions, by: ThemeBy, out: &mut impl Write) -> std::io::Result<u8> {
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
    let stats = match theme_stats::of(&mut lib, &opts.player, opts.since.as_deref(), by.into()) {
        Ok(s) => s,
        Err(e) => {
            bgedit_core::say!("bgedit: {}", lib.describe(&e));
            return Ok(2);
        }
    };
    if stats.groups.is_empty() {
        bgedit_core::say!(
            "bgedit: no decision of {} analysed by bgedit in {}{} (`bgedit library analyse` \
             analyses the imported matches)",
            Shown(&opts.player),
            Shown(path.display()),
            opts.since
                .as_deref()
                .map_or(String::new(), |d| format!(" since {d}"))
        );
        return Ok(1);
    }
    if stats.by == By::Plan
        && stats
            .groups
            .iter()
            .any(|g| g.key == theme_stats::UNKNOWN_PLAN)
    {
        bgedit_core::say!(
            "bgedit: some decisions have no game plan ({}): {}",
            theme_stats::UNKNOWN_PLAN,
            bgedit_engine::plans::plans_available().err().map_or_else(
                || "open the library with this bgedit once to fill them".to_owned(),
                |e| e.to_string()
            )
        );
    }
    match opts.format {
        OutputFormat::Json => writeln!(out, "{}", bgedit_core::quote::json(&to_json(&stats)))?,
        OutputFormat::Text => write!(out, "{}", Shown(text(&stats)))?,
    }
    Ok(0)
}

fn r6(v: f64) -> Value {
    json!(bgedit_engine::match_analysis::report::round6(v))
}

fn group_json(by: By, g: &Group) -> Value {
    let costliest: Vec<Value> = g
        .costliest
        .iter()
        .map(|c| {
            json!({
                "match": c.match_id,
                "gnubg_id": c.gnubg_id,
                "kind": c.kind.word(),
                "played": c.played,
                "best": c.best,
                "error": r6(c.error),
            })
        })
        .collect();
    json!({
        by.name(): g.key,
        "decisions": g.decisions,
        "errors": g.errors,
        "error": r6(g.error),
        "error_rate_memg": g.error_rate_memg.map(r6),
        "pr": g.pr.map(r6),
        "costliest": costliest,
    })
}

/// `{"by": "plan", "groups": [{"plan": "priming", "decisions": N, …}, …]}`
/// with the player and the matches read.
fn to_json(stats: &ThemeStats) -> Value {
    let groups: Vec<Value> = stats
        .groups
        .iter()
        .map(|g| group_json(stats.by, g))
        .collect();
    json!({
        "by": stats.by.name(),
        "player": stats.player,
        "matches": stats.matches,
        "groups": groups,
    })
}

fn text(stats: &ThemeStats) -> String {
    use std::fmt::Write as _;
    let f = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"));
    let mut s = format!(
        "{} by {}, worst first ({} analysed matches)\n{:<14} {:>9} {:>6} {:>8} {:>10} {:>6}\n",
        stats.player,
        stats.by.name(),
        stats.matches,
        stats.by.name(),
        "decisions",
        "errors",
        "error",
        "rate mEMG",
        "PR"
    );
    for g in &stats.groups {
        let _ = writeln!(
            s,
            "{:<14} {:>9} {:>6} {:>8.3} {:>10} {:>6}",
            g.key,
            g.decisions,
            g.errors,
            g.error,
            f(g.error_rate_memg),
            f(g.pr)
        );
        for c in &g.costliest {
            let _ = writeln!(
                s,
                "    {:.3}  {:<7} {}  played {}, best {}  (match {})",
                c.error,
                c.kind.word(),
                c.gnubg_id,
                c.played,
                c.best,
                c.match_id
            );
        }
    }
    s
}
