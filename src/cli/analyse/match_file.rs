//! `bgedit analyse --file FILE`: every decision of a match analysed by gnubg
//! as its `analyse match` does it, one line each in match order, then each
//! player's statistics as `show statistics match` gives them.

use crate::cli::output::OutputFormat;
use crate::codec::match_file::{self, FileDecision};
use crate::domain::Player;
use crate::domain::match_stats::{self, DecisionKind, Error, Luck, Overall, PlayerStats};
use crate::engine::EngineKind;
use crate::engine::gnubg_match::MatchForGnubg;
use crate::engine::luck::MatchLuck;
use crate::engine::match_analysis::{self, Judged, RunOptions};
use crate::quote::Shown;
use serde_json::{Value, json};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;

#[derive(Clone, Debug)]
pub struct FileOptions {
    pub run: RunOptions,
    pub format: OutputFormat,
    /// Draw a progress line on standard error.
    pub progress: bool,
}

/// Analyses the match in `path`; the exit status: 0, or 1 when the file or
/// a decision had a problem (the rest is still analysed) or the file
/// cannot be read (as `bgedit match` says it).
pub fn run<W: Write, E: Write>(
    opts: &FileOptions,
    path: &Path,
    mut out: W,
    mut err: E,
) -> io::Result<u8> {
    // A file's name is printed at the head of lines: escaped.
    let shown = crate::quote::printable(&path.display().to_string()).into_owned();
    let file = match match_file::read_path(path) {
        Ok(f) => f,
        Err(e) => {
            writeln!(err, "bgedit: {shown}: {}", Shown(e))?;
            return Ok(1);
        }
    };
    let (decisions, problems) = match_file::decisions(&file);
    let mut status = 0;
    for p in &problems {
        writeln!(err, "{}", match_file::describe(&shown, p))?;
        status = 1;
    }
    if decisions.is_empty() {
        writeln!(err, "bgedit: {shown}: no decisions to analyse")?;
        return Ok(1);
    }
    let names = names(&decisions);
    // gnubg analyses the match bgedit read, whole games at a time, and
    // rates the dice as it goes.
    let whole = MatchForGnubg::of(&file);
    let mut judged: Vec<Judged> = Vec::new();
    let total = decisions.len();
    let mut io_error = None;
    let mut handed = 0;
    let ran = match_analysis::run(
        &decisions,
        &opts.run,
        whole.as_ref(),
        &AtomicBool::new(false),
        &mut |i, outcome| {
            if io_error.is_some() {
                return;
            }
            handed += 1;
            let written = (|| -> io::Result<()> {
                match outcome {
                    Ok(list) => {
                        for j in list {
                            match opts.format {
                                OutputFormat::Json => {
                                    let mut v = json_line(&j);
                                    // Which engine judged, and at what depth
                                    // in its own count.
                                    v["engine"] = json!(opts.run.engine.key());
                                    v["level"] = json!(opts.run.engine.depth_label(opts.run.plies));
                                    writeln!(out, "{}", crate::quote::json(&v))?
                                }
                                OutputFormat::Text => {
                                    if worth_a_line(&j) {
                                        // Names and moves are the file's.
                                        writeln!(out, "{}", Shown(text_line(&j)))?;
                                    }
                                }
                            }
                            judged.push(j);
                        }
                    }
                    Err(f) => {
                        status = 1;
                        writeln!(
                            err,
                            "{shown}: game {}, move {}: {}",
                            f.game,
                            f.number,
                            Shown(&f.why)
                        )?;
                    }
                }
                out.flush()?;
                if opts.progress {
                    write!(
                        err,
                        "\r\x1b[Kanalysing {shown}: {}/{total} decisions",
                        i + 1
                    )?;
                    err.flush()?;
                }
                Ok(())
            })();
            if let Err(e) = written {
                io_error = Some(e);
            }
        },
    );
    if let Some(e) = io_error {
        return Err(e);
    }
    if opts.progress {
        write!(err, "\r\x1b[K")?;
    }
    if handed < total {
        // The engine was given up (it could not start, or hung): the rest
        // was not asked, and the summary covers what was.
        let why = ran
            .gave_up
            .as_deref()
            .unwrap_or("the engine could not be started");
        writeln!(
            err,
            "{shown}: {} of {total} decisions not analysed: {}",
            total - handed,
            Shown(why)
        )?;
        status = 1;
    }
    let stats = match_stats::summarise(judged.iter().map(|j| &j.judgement));
    let money = decisions
        .first()
        .is_some_and(|d| d.position.state.is_money());
    let length = decisions
        .first()
        .filter(|_| !money)
        .map_or(0, |d| d.position.state.match_length);
    let luck = match ran.luck {
        Some(Ok(l)) => Some(l),
        Some(Err(e)) if opts.run.engine == EngineKind::Gnubg => {
            // The reason may be gnubg's own words (a Python exception's).
            writeln!(
                err,
                "{shown}: no luck analysis: {}",
                crate::quote::printable(&e)
            )?;
            None
        }
        _ => None,
    };
    let luck = luck.as_ref();
    match opts.format {
        OutputFormat::Json => writeln!(
            out,
            "{}",
            crate::quote::json(&json!({"summary": summary_json(&stats, &names, length, luck)}))
        )?,
        OutputFormat::Text => write!(
            out,
            "\n{}",
            Shown(summary_text(&stats, &names, length, luck))
        )?,
    }
    out.flush()?;
    Ok(status)
}

fn names(decisions: &[FileDecision]) -> [String; 2] {
    let n = &decisions[0].position.names;
    [n.of(Player::O).to_owned(), n.of(Player::X).to_owned()]
}

/// The text lists every checker play and every cube action taken, and a
/// roll with the cube left alone only when it was close or wrong (gnubg's
/// own export shows the cube only then).
fn worth_a_line(j: &Judged) -> bool {
    j.kind() != DecisionKind::Cube
        || j.played != "no double"
        || j.judgement.counted
        || j.judgement.error > 0.0
}

pub fn text_line(j: &Judged) -> String {
    let dice = j.dice.map_or(String::new(), |[a, b]| format!("{a}{b}"));
    let mark = j.judgement.skill().mark();
    let lost = if j.judgement.error > 0.0 {
        format!("{:+.3}", -j.judgement.error)
    } else {
        String::new()
    };
    let best = if j.played == j.best || j.judgement.error == 0.0 {
        String::new()
    } else {
        format!("  best: {}", j.best)
    };
    format!(
        "game {} move {:<3} {} {:<12} {:<2} {:<24} {:<2} {:>7}{best}",
        j.game, j.number, j.player, j.name, dice, j.played, mark, lost
    )
    .trim_end()
    .to_owned()
}

pub fn json_line(j: &Judged) -> Value {
    let mut v = json!({
        "game": j.game,
        "move": j.number,
        "player": j.player.to_string(),
        "name": j.name,
        "kind": j.kind().word(),
        "gnubg_id": j.gnubg_id(),
        "played": j.played,
        "best": j.best,
        "error": round6(j.judgement.error),
        "cost": round6(j.judgement.cost),
        "mark": j.judgement.skill().mark(),
        "counted": j.judgement.counted,
    });
    if let Some([a, b]) = j.dice {
        v["dice"] = json!(format!("{a}{b}"));
    }
    if let Some(r) = j.played_rank {
        v["rank"] = json!(r + 1);
    }
    v
}

fn round6(x: f64) -> f64 {
    let r = (x * 1e6).round() / 1e6;
    // No "-0.0" in the output: an error or cost of nothing is 0.
    if r == 0.0 { 0.0 } else { r }
}

fn error_json(e: &Error) -> Value {
    json!({"count": e.count, "error": round6(e.error), "cost": round6(e.cost)})
}

fn memg(rate: Option<f64>) -> Value {
    rate.map_or(Value::Null, |r| json!(round6(r * 1000.0)))
}

fn summary_json(
    stats: &[PlayerStats; 2],
    names: &[String; 2],
    length: u16,
    luck: Option<&MatchLuck>,
) -> Value {
    let mut out = serde_json::Map::new();
    for p in Player::BOTH {
        let s = &stats[p.index()];
        let cube = s.cube();
        let overall = overall_json(stats, p, length, luck);
        out.insert(
            p.to_string(),
            json!({
                "name": names[p.index()],
                "total_moves": s.total_moves,
                "checker_decisions": s.unforced_moves,
                "checker_error": round6(s.checker.error),
                "checker_cost": round6(s.checker.cost),
                "marked": {"doubtful": s.marked[1], "bad": s.marked[2], "very_bad": s.marked[3]},
                "total_cube": s.total_cube,
                "cube_decisions": s.close_cube,
                "doubles": s.doubles,
                "takes": s.takes,
                "drops": s.drops,
                "missed_doubles_below_cp": error_json(&s.missed_double_below_cp),
                "missed_doubles_above_cp": error_json(&s.missed_double_above_cp),
                "wrong_doubles_below_dp": error_json(&s.wrong_double_below_dp),
                "wrong_doubles_above_tg": error_json(&s.wrong_double_above_tg),
                "wrong_takes": error_json(&s.wrong_take),
                "wrong_passes": error_json(&s.wrong_pass),
                "cube_error": round6(cube.error),
                "cube_cost": round6(cube.cost),
                "checker_rate_memg": memg(s.checker_rate()),
                "cube_rate_memg": memg(s.cube_rate()),
                "error_rate_memg": memg(s.overall_rate()),
                "checker_rating": s.checker_rate().map(match_stats::rating),
                "cube_rating": s.cube_rate().map(match_stats::rating),
                "rating": s.overall_rate().map(match_stats::rating),
                "luck": luck.map(|l| luck_json(&l.players[p.index()], s.total_moves)),
                "overall": overall,
            }),
        );
    }
    Value::Object(out)
}

/// gnubg's overall block and XG's PR for player `p` (`summary[P].overall`).
/// The luck-based rating difference is O's, as gnubg gives it (X's is its
/// negative).
fn overall_json(
    stats: &[PlayerStats; 2],
    p: Player,
    length: u16,
    luck: Option<&MatchLuck>,
) -> Value {
    let o = Overall::of(stats, p, length);
    let diff = luck_diff(length, luck).map(|d| if p == Player::O { d } else { -d });
    let r = |v: Option<f64>| v.map_or(Value::Null, |v| json!(round6(v)));
    json!({
        "snowie_error_rate": r(o.snowie_error_rate.map(|e| -e)),
        "fibs_rating": r(o.fibs_rating),
        "luck_fibs_rating_diff": r(diff),
        "checker_rating_loss": r(o.checker_rating_loss),
        "cube_rating_loss": r(o.cube_rating_loss),
        "rating": stats[p.index()].overall_rate().map(match_stats::rating),
        "pr": r(o.pr),
    })
}

/// gnubg's "Luck based FIBS rating diff.": O's match winning chance with the
/// luck taken out, as a rating difference (match play, with the luck).
fn luck_diff(length: u16, luck: Option<&MatchLuck>) -> Option<f64> {
    let [lo, lx] = &luck?.players;
    match_stats::luck_fibs_rating_diff(0.5 + lo.actual - lo.cost + lx.cost, length)
}

fn luck_json(l: &Luck, total_moves: u32) -> Value {
    json!({
        "total": round6(l.total),
        "cost": round6(l.cost),
        "rate_memg": memg(l.rate(total_moves)),
        "rating": l.rate(total_moves).map(match_stats::luck_rating),
        "rolls": {"very_unlucky": l.rolls[0], "unlucky": l.rolls[1], "unmarked": l.rolls[2],
                  "lucky": l.rolls[3], "very_lucky": l.rolls[4]},
        "actual_result": round6(l.actual),
        "luck_adjusted_result": round6(l.adjusted),
    })
}

/// gnubg's `show statistics match` table, its rows in its order.
pub fn summary_text(
    stats: &[PlayerStats; 2],
    names: &[String; 2],
    length: u16,
    luck: Option<&MatchLuck>,
) -> String {
    let money = length == 0;
    let [o, x] = stats;
    let unit = if money { "points" } else { "MWC" };
    let total = |e: f64, c: f64| {
        if money {
            format!("{:+.3} ({:+.3})", -e, -c)
        } else {
            format!("{:+.3} ({:+.3}%)", -e, -100.0 * c)
        }
    };
    let rate = |e: f64, c: f64, n: u32| {
        if n == 0 {
            return "n/a".to_owned();
        }
        let n = f64::from(n);
        if money {
            format!("{:+.1} ({:+.3})", -1000.0 * e / n, -c / n)
        } else {
            format!("{:+.1} ({:+.3}%)", -1000.0 * e / n, -100.0 * c / n)
        }
    };
    let counted_error = |e: &Error| {
        if e.count == 0 {
            "0".to_owned()
        } else {
            format!("{} ({})", e.count, total(e.error, e.cost))
        }
    };
    let rating = |r: Option<f64>| r.map_or("n/a", match_stats::rating).to_owned();
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let mut row = |label: &str, a: String, b: String| rows.push((label.to_owned(), a, b));
    row(
        "Player",
        format!("O: {}", names[0]),
        format!("X: {}", names[1]),
    );
    row("", String::new(), String::new());
    row("Checker play", String::new(), String::new());
    row(
        "Total moves",
        o.total_moves.to_string(),
        x.total_moves.to_string(),
    );
    row(
        "Unforced moves",
        o.unforced_moves.to_string(),
        x.unforced_moves.to_string(),
    );
    for (i, label) in [
        "Unmarked moves",
        "Moves marked doubtful",
        "Moves marked bad",
        "Moves marked very bad",
    ]
    .iter()
    .enumerate()
    {
        row(label, o.marked[i].to_string(), x.marked[i].to_string());
    }
    row(
        &format!("Error total EMG ({unit})"),
        total(o.checker.error, o.checker.cost),
        total(x.checker.error, x.checker.cost),
    );
    row(
        &format!("Error rate mEMG ({unit})"),
        rate(o.checker.error, o.checker.cost, o.unforced_moves),
        rate(x.checker.error, x.checker.cost, x.unforced_moves),
    );
    row(
        "Checker play rating",
        rating(o.checker_rate()),
        rating(x.checker_rate()),
    );
    if let Some(l) = luck {
        let [lo, lx] = &l.players;
        row("", String::new(), String::new());
        row("Luck", String::new(), String::new());
        for (i, label) in [
            "Rolls marked very lucky",
            "Rolls marked lucky",
            "Rolls unmarked",
            "Rolls marked unlucky",
            "Rolls marked very unlucky",
        ]
        .iter()
        .enumerate()
        {
            row(
                label,
                lo.rolls[4 - i].to_string(),
                lx.rolls[4 - i].to_string(),
            );
        }
        // Luck is good when positive: the signs are gnubg's, not an error's.
        row(
            &format!("Luck total EMG ({unit})"),
            total(-lo.total, -lo.cost),
            total(-lx.total, -lx.cost),
        );
        row(
            &format!("Luck rate mEMG ({unit})"),
            rate(-lo.total, -lo.cost, o.total_moves),
            rate(-lx.total, -lx.cost, x.total_moves),
        );
        let luck_rating =
            |l: &Luck, n: u32| l.rate(n).map_or("n/a", match_stats::luck_rating).to_owned();
        row(
            "Luck rating",
            luck_rating(lo, o.total_moves),
            luck_rating(lx, x.total_moves),
        );
    }
    row("", String::new(), String::new());
    row("Cube decisions", String::new(), String::new());
    row(
        "Total cube decisions",
        o.total_cube.to_string(),
        x.total_cube.to_string(),
    );
    row(
        "Close or actual cube decisions",
        o.close_cube.to_string(),
        x.close_cube.to_string(),
    );
    row("Doubles", o.doubles.to_string(), x.doubles.to_string());
    row("Takes", o.takes.to_string(), x.takes.to_string());
    row("Passes", o.drops.to_string(), x.drops.to_string());
    for (label, f) in [
        (
            "Missed doubles below CP",
            (|s: &PlayerStats| s.missed_double_below_cp) as fn(&PlayerStats) -> Error,
        ),
        ("Missed doubles above CP", |s| s.missed_double_above_cp),
        ("Wrong doubles below DP", |s| s.wrong_double_below_dp),
        ("Wrong doubles above TG", |s| s.wrong_double_above_tg),
        ("Wrong takes", |s| s.wrong_take),
        ("Wrong passes", |s| s.wrong_pass),
    ] {
        row(label, counted_error(&f(o)), counted_error(&f(x)));
    }
    let (oc, xc) = (o.cube(), x.cube());
    row(
        &format!("Error total EMG ({unit})"),
        total(oc.error, oc.cost),
        total(xc.error, xc.cost),
    );
    row(
        &format!("Error rate mEMG ({unit})"),
        rate(oc.error, oc.cost, o.close_cube),
        rate(xc.error, xc.cost, x.close_cube),
    );
    row(
        "Cube decision rating",
        rating(o.cube_rate()),
        rating(x.cube_rate()),
    );
    row("", String::new(), String::new());
    row("Overall", String::new(), String::new());
    row(
        &format!("Error total EMG ({unit})"),
        total(o.checker.error + oc.error, o.checker.cost + oc.cost),
        total(x.checker.error + xc.error, x.checker.cost + xc.cost),
    );
    row(
        &format!("Error rate mEMG ({unit})"),
        rate(
            o.checker.error + oc.error,
            o.checker.cost + oc.cost,
            o.unforced_moves + o.close_cube,
        ),
        rate(
            x.checker.error + xc.error,
            x.checker.cost + xc.cost,
            x.unforced_moves + x.close_cube,
        ),
    );
    rows.extend(overall_rows(stats, length, luck));
    let mut text = String::new();
    for (label, a, b) in rows {
        let line = format!("{label:<34}{a:<24}{b}");
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// The end of gnubg's overall block, from its Snowie error rate on (the
/// luck-adjusted results and FIBS ratings with the luck, in match play),
/// then XG's PR.
fn overall_rows(
    stats: &[PlayerStats; 2],
    length: u16,
    luck: Option<&MatchLuck>,
) -> Vec<(String, String, String)> {
    let money = length == 0;
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let mut row = |label: &str, a: String, b: String| rows.push((label.to_owned(), a, b));
    let overall = Player::BOTH.map(|p| match_stats::Overall::of(stats, p, length));
    let [oo, xo] = &overall;
    // gnubg's errorRateMP with no MWC figure: "-41.1 (+0.000%)".
    let snowie = |r: Option<f64>| {
        r.map_or("n/a".to_owned(), |r| {
            format!("{:+.1} (+0.000{})", -r, if money { "" } else { "%" })
        })
    };
    row(
        "Snowie error rate",
        snowie(oo.snowie_error_rate),
        snowie(xo.snowie_error_rate),
    );
    let rating = |s: &PlayerStats| {
        s.overall_rate()
            .map_or("n/a", match_stats::rating)
            .to_owned()
    };
    row("Overall rating", rating(&stats[0]), rating(&stats[1]));
    if let Some(l) = luck {
        let result = |r: f64| {
            if money {
                format!("{r:+.3}")
            } else {
                format!("{:+.2}%", 100.0 * r)
            }
        };
        let [lo, lx] = &l.players;
        row("Actual result", result(lo.actual), result(lx.actual));
        row(
            "Luck adjusted result",
            result(lo.adjusted),
            result(lx.adjusted),
        );
        if !money {
            let diff = luck_diff(length, Some(l));
            let shown = diff.map_or("n/a".to_owned(), |d| format!("{d:+.2}"));
            row("Luck based FIBS rating diff.", shown, String::new());
        }
    }
    if !money {
        let one = |v: Option<f64>| v.map_or("n/a".to_owned(), |v| format!("{v:.1}"));
        row(
            "Error based abs. FIBS rating",
            one(oo.fibs_rating),
            one(xo.fibs_rating),
        );
        row(
            "Chequerplay errors rating loss",
            one(oo.checker_rating_loss),
            one(xo.checker_rating_loss),
        );
        row(
            "Cube errors rating loss",
            one(oo.cube_rating_loss),
            one(xo.cube_rating_loss),
        );
    }
    // Not gnubg's: XG's Performance Rating, on the same decisions.
    let pr = |v: Option<f64>| v.map_or("n/a".to_owned(), |v| format!("{v:.1}"));
    row("PR (XG: 500 x EMG a decision)", pr(oo.pr), pr(xo.pr));
    rows
}
