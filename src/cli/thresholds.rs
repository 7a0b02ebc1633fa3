//! `bgedit stats --player NAME --thresholds`: where the player actually
//! takes and doubles against the right points, by score class and over all
//! scores, with 95% intervals and the decisions behind each
//! (`bgedit_library::thresholds`).

use super::player_stats::PlayerOptions;
use crate::cli::output::OutputFormat;
use bgedit_core::domain::cube_thresholds::Edge;
use bgedit_core::quote::Shown;
use bgedit_library::store::{self, Library};
use bgedit_library::thresholds::{self, EdgeThreshold, Thresholds};
use serde_json::{Value, json};
use std::io::Write;

/// How many decisions behind each threshold the text shows (JSON: all).
const SHOWN: usize = 3;

/// Runs `stats --player --thresholds`; the exit status as `stats
/// --player`'s: 0, 1 when no cube decision of the player's has the
/// engine's equities, 2 when the library cannot be opened.
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
    let t = match thresholds::of(&mut lib, &opts.player, opts.since.as_deref()) {
        Ok(t) => t,
        Err(e) => {
            bgedit_core::say!("bgedit: {}", lib.describe(&e));
            return Ok(2);
        }
    };
    if t.without_equities > 0 {
        bgedit_core::say!(
            "bgedit: {} cube decisions of {} were analysed before bgedit kept the engine's cube \
             equities and are left out (an analysis at another depth, `bgedit library analyse \
             --plies N`, keeps them)",
            t.without_equities,
            Shown(&opts.player)
        );
    }
    if t.rows.is_empty() {
        bgedit_core::say!(
            "bgedit: no cube decision of {} with the engine's equities in {} \
             (`bgedit library analyse` analyses the imported matches)",
            Shown(&opts.player),
            Shown(path.display())
        );
        return Ok(1);
    }
    match opts.format {
        OutputFormat::Json => writeln!(out, "{}", bgedit_core::quote::json(&to_json(&t)))?,
        OutputFormat::Text => write!(out, "{}", Shown(text(&t)))?,
    }
    Ok(0)
}

fn r6(v: f64) -> Value {
    json!(bgedit_engine::match_analysis::report::round6(v))
}

fn row_json(r: &EdgeThreshold) -> Value {
    let behind: Vec<Value> = r
        .behind
        .iter()
        .map(|b| {
            json!({"match": b.match_id, "gnubg_id": b.gnubg_id, "margin": r6(b.margin),
                   "acted": b.acted, "played": b.played, "error": r6(b.error)})
        })
        .collect();
    let mut v = json!({"score": r.score, "edge": r.edge.name(), "decisions": r.behind.len(),
                       "behind": behind});
    match &r.threshold {
        Ok(t) => {
            v["estimate"] = r6(t.estimate);
            v["low"] = r6(t.low);
            v["high"] = r6(t.high);
            v["separated"] = json!(t.separated);
        }
        Err(e) => v["none"] = json!(e.to_string()),
    }
    v
}

fn to_json(t: &Thresholds) -> Value {
    let rows: Vec<Value> = t.rows.iter().map(row_json).collect();
    json!({"player": t.player, "matches": t.matches, "without_equities": t.without_equities,
           "thresholds": rows})
}

/// What a threshold says of the player, in words.
fn meaning(edge: Edge, t: f64) -> String {
    let by = t.abs();
    match (edge, t >= 0.0) {
        (Edge::Take, true) => {
            format!("passes positions worth taking up to {by:.3} past the take point")
        }
        (Edge::Take, false) => {
            format!("takes positions worth passing up to {by:.3} past the take point")
        }
        (Edge::Double, true) => format!("does not double until {by:.3} past the double point"),
        (Edge::Double, false) => format!("doubles up to {by:.3} before the double point"),
        (Edge::TooGood, true) => {
            format!("plays on in positions worth cashing up to {by:.3} past the too-good point")
        }
        (Edge::TooGood, false) => format!("cashes positions too good to double by up to {by:.3}"),
    }
}

fn text(t: &Thresholds) -> String {
    use std::fmt::Write as _;
    let mut s = format!(
        "{}'s cube thresholds ({} analysed matches): the margin, in normalised equity past the \
         right point, at which they act half the time (0: right)\n{:<14} {:<9} {:>9} {:>9}  {:<20}\n",
        t.player, t.matches, "score", "edge", "decisions", "threshold", "95% interval"
    );
    for r in &t.rows {
        let (number, interval, words) = match &r.threshold {
            Ok(th) => (
                format!("{:+.3}", th.estimate),
                format!(
                    "[{:+.3}, {:+.3}]{}",
                    th.low,
                    th.high,
                    if th.separated { " gap" } else { "" }
                ),
                meaning(r.edge, th.estimate),
            ),
            Err(e) => ("-".to_owned(), String::new(), e.to_string()),
        };
        let _ = writeln!(
            s,
            "{:<14} {:<9} {:>9} {:>9}  {:<20}  {words}",
            r.score,
            r.edge.name(),
            r.behind.len(),
            number,
            interval
        );
        for b in r.behind.iter().take(SHOWN) {
            let _ = writeln!(
                s,
                "    {:+.3}  {:<10} {}  (match {})",
                b.margin, b.played, b.gnubg_id, b.match_id
            );
        }
    }
    s
}
