//! `bgedit stats --player NAME`: a player's matches in the library, each
//! with the rates gnubg's `show statistics match` gives that player for
//! it (from bgedit's most complete analysis of the match: `library
//! analyse`) and XG's PR, in date order, then the trend.

use crate::cli::output::OutputFormat;
use crate::library::rates;
use crate::library::store::{self, Library, StoredMatch};
use crate::quote::Shown;
use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;

/// What `stats --player` was asked.
pub struct PlayerOptions {
    pub player: String,
    pub library: Option<PathBuf>,
    /// `YYYY-MM-DD`: only matches played on it or later.
    pub since: Option<String>,
    pub format: OutputFormat,
}

/// One match of the player's, with its numbers.
struct Row {
    m: StoredMatch,
    date: Option<String>,
    opponent: String,
    analysis: Option<(String, i64)>,
    pr: Option<f64>,
    error: Option<f64>,
    checker: Option<f64>,
    cube: Option<f64>,
    luck: Option<f64>,
    /// The rates are the file's own analysis's, not bgedit's.
    from_file: bool,
}

/// A `--since` that is not a date as `YYYY-MM-DD` (the text, escaped).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a date: give it as YYYY-MM-DD, such as 2024-01-31")]
pub struct NotADate(String);

/// `--since DATE`: a date as `YYYY-MM-DD`.
pub fn since(text: &str) -> Result<String, NotADate> {
    let t = text.trim();
    let ok = t.len() == 10
        && t.char_indices().all(|(i, c)| {
            if i == 4 || i == 7 {
                c == '-'
            } else {
                c.is_ascii_digit()
            }
        });
    if ok {
        Ok(t.to_owned())
    } else {
        Err(NotADate(crate::quote::printable(text).into_owned()))
    }
}

/// A file's date as `YYYY-MM-DD` when it is written that way with `-`,
/// `.` or `/` between (`2024.01.01`); other forms are not compared.
fn normal_date(d: &str) -> Option<String> {
    let t: String = d
        .trim()
        .chars()
        .take(10)
        .map(|c| if c == '.' || c == '/' { '-' } else { c })
        .collect();
    since(&t).ok()
}

/// Runs `stats --player`; the exit status: 0, 1 when the player has no
/// match in the library, 2 when the library cannot be opened.
pub fn run(opts: &PlayerOptions, out: &mut impl Write) -> std::io::Result<u8> {
    let Some(path) = opts.library.clone().or_else(store::default_path) else {
        crate::say!("bgedit: no data directory; give the library with --library FILE");
        return Ok(2);
    };
    let mut lib = match Library::open(&path) {
        Ok(l) => l,
        Err(e) => {
            crate::say!("bgedit: {}", store::describe(&path, &e));
            return Ok(2);
        }
    };
    let rows = match rows(&mut lib, opts) {
        Ok(r) => r,
        Err(e) => {
            crate::say!("bgedit: {}", lib.describe(&e));
            return Ok(2);
        }
    };
    if rows.is_empty() {
        crate::say!(
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
            for r in &rows {
                writeln!(out, "{}", crate::quote::json(&row_json(r)))?;
            }
            let summary = json!({"summary": summary(&opts.player, &rows)});
            writeln!(out, "{}", crate::quote::json(&summary))?;
        }
        OutputFormat::Text => write!(out, "{}", Shown(text(&opts.player, &rows)))?,
    }
    Ok(0)
}

fn rows(lib: &mut Library, opts: &PlayerOptions) -> store::Result<Vec<Row>> {
    let name = opts.player.trim().to_lowercase();
    let mut rows = Vec::new();
    let mut fresh = Vec::new();
    for (m, kept) in lib.matches_with_rates()? {
        let Some(side) = m
            .players
            .iter()
            .position(|p| p.trim().to_lowercase() == name)
        else {
            continue;
        };
        let date = m.date.as_deref().and_then(normal_date);
        if let Some(from) = &opts.since
            && date.as_ref().is_none_or(|d| d < from)
        {
            continue;
        }
        // Rates not kept yet (or emptied by a new verdict) are computed
        // once and kept for the next run.
        let rates = match kept {
            Some(r) => r,
            None => {
                let r = rates::of(lib, &m)?;
                fresh.push((m.id, r.clone()));
                r
            }
        };
        let r = &rates[side];
        rows.push(Row {
            opponent: m.players[1 - side].clone(),
            date,
            analysis: r.engine.clone().zip(r.plies),
            pr: r.pr,
            error: r.error,
            checker: r.checker,
            cube: r.cube,
            luck: r.luck,
            from_file: r.from_file,
            m,
        });
    }
    // A library this user cannot write to is read all the same.
    let _ = lib.put_rates(&fresh);
    rows.sort_by(|a, b| a.date.cmp(&b.date).then(a.m.id.cmp(&b.m.id)));
    Ok(rows)
}

fn r6(v: Option<f64>) -> Value {
    v.map_or(Value::Null, |v| {
        json!(crate::engine::match_analysis::report::round6(v))
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
    })
}

/// The mean of the values there are.
fn mean(v: impl Iterator<Item = f64>) -> Option<f64> {
    let (n, sum) = v.fold((0u32, 0.0), |(n, s), x| (n + 1, s + x));
    (n > 0).then(|| sum / f64::from(n))
}

/// The trend: the least-squares slope of PR over the analysed matches in
/// date order (PR per match; negative is better), and the mean PR of the
/// first and last halves.
fn summary(player: &str, rows: &[Row]) -> Value {
    let prs: Vec<f64> = rows.iter().filter_map(|r| r.pr).collect();
    let half = prs.len() / 2;
    let slope = (prs.len() >= 2).then(|| {
        let n = prs.len() as f64;
        let mx = (n - 1.0) / 2.0;
        let my = prs.iter().sum::<f64>() / n;
        let (num, den) = prs.iter().enumerate().fold((0.0, 0.0), |(a, b), (i, y)| {
            let dx = i as f64 - mx;
            (a + dx * (y - my), b + dx * dx)
        });
        num / den
    });
    json!({
        "player": player,
        "matches": rows.len(),
        "analysed": rows.iter().filter(|r| r.analysis.is_some()).count(),
        "pr": r6(mean(prs.iter().copied())),
        "error_rate_memg": r6(mean(rows.iter().filter_map(|r| r.error))),
        "checker_error_rate_memg": r6(mean(rows.iter().filter_map(|r| r.checker))),
        "cube_error_rate_memg": r6(mean(rows.iter().filter_map(|r| r.cube))),
        "luck_rate_memg": r6(mean(rows.iter().filter_map(|r| r.luck))),
        "pr_first_half": r6(mean(prs[..half].iter().copied())),
        "pr_last_half": r6(mean(prs[prs.len() - half..].iter().copied())),
        "pr_slope_per_match": r6(slope),
    })
}

/// An engine's depth in its own words (`plies` is gnubg's count, which
/// the library keeps for every engine).
fn depth_words(engine: &str, plies: i64) -> String {
    match (
        crate::engine::EngineKind::by_key(engine),
        u8::try_from(plies),
    ) {
        (Some(kind), Ok(p)) => format!("{engine} {}", kind.depth_label(p)),
        _ => format!("{engine} {plies}-ply"),
    }
}

fn text(player: &str, rows: &[Row]) -> String {
    use std::fmt::Write as _;
    let f = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"));
    let mut s = format!(
        "{:<10} {:<20} {:>3} {:>6} {:<18} {:>6} {:>7} {:>7} {:>7}\n",
        "date", "opponent", "len", "result", "analysis", "PR", "error", "checker", "cube"
    );
    for r in rows {
        let analysis = r.analysis.as_ref().map_or_else(
            || "none".to_owned(),
            |(e, p)| {
                let words = depth_words(e, *p);
                if r.from_file {
                    format!("{words} (file)")
                } else {
                    words
                }
            },
        );
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
    let sum = summary(player, rows);
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
    if sum["analysed"] == 0 {
        let _ = writeln!(
            s,
            "no match of {player} is analysed yet: run `bgedit library analyse`"
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_read_as_files_write_them() {
        assert_eq!(normal_date("2024.01.01"), Some("2024-01-01".to_owned()));
        assert_eq!(normal_date("2023-11-26"), Some("2023-11-26".to_owned()));
        assert_eq!(normal_date("Mar 3 2019"), None);
        assert!(
            since("2024-13")
                .unwrap_err()
                .to_string()
                .contains("YYYY-MM-DD")
        );
    }
}
