//! A match's report: each player's statistics as gnubg's `show statistics
//! match` gives them (`domain::match_stats`), with the luck of the dice
//! when gnubg rated it, and its two writers: gnubg's table as text, and
//! the same numbers as JSON. The CLI's `analyse --file` writes it after
//! its decisions; anything else that shows a match's statistics can take
//! it whole.

use super::Judged;
use crate::luck::MatchLuck;
use bgedit_core::codec::match_file::FileDecision;
use bgedit_core::domain::Player;
use bgedit_core::domain::match_stats::{self, Error, Luck, Overall, PlayerStats};
use serde_json::{Value, json};

/// The statistics of a match's judged decisions, and the luck.
#[derive(Clone, Debug)]
pub struct Report {
    pub stats: [PlayerStats; 2],
    /// The players' names, O's then X's.
    pub names: [String; 2],
    /// The match length; 0 for money.
    pub length: u16,
    /// gnubg's luck of the dice, when it was rated.
    pub luck: Option<MatchLuck>,
}

impl Report {
    /// The report of `judged`, the judgements of `decisions` (a match's,
    /// not empty, which give the names and the length).
    pub fn of(decisions: &[FileDecision], judged: &[Judged], luck: Option<MatchLuck>) -> Report {
        let first = decisions.first().map(|d| &d.position);
        let names = first.map_or_else(Default::default, |p| {
            [
                p.names.of(Player::O).to_owned(),
                p.names.of(Player::X).to_owned(),
            ]
        });
        let length = first
            .filter(|p| !p.state.is_money())
            .map_or(0, |p| p.state.match_length);
        Report {
            stats: match_stats::summarise(judged.iter().map(|j| &j.judgement)),
            names,
            length,
            luck,
        }
    }

    /// The numbers as JSON: one object by player (`"O"`, `"X"`).
    pub fn json(&self) -> Value {
        summary_json(&self.stats, &self.names, self.length, self.luck.as_ref())
    }

    /// gnubg's `show statistics match` table, its rows in its order.
    pub fn text(&self) -> String {
        let units = Units {
            money: self.length == 0,
        };
        let mut table = Table::default();
        table.row(
            "Player",
            format!("O: {}", self.names[0]),
            format!("X: {}", self.names[1]),
        );
        checker_rows(&mut table, units, &self.stats);
        if let Some(l) = &self.luck {
            luck_rows(&mut table, units, &self.stats, l);
        }
        cube_rows(&mut table, units, &self.stats);
        overall_error_rows(&mut table, units, &self.stats);
        overall_rows(&mut table, &self.stats, self.length, self.luck.as_ref());
        table.text()
    }
}

/// A number rounded to six decimals for JSON, as every figure of the
/// analysis is written.
pub fn round6(x: f64) -> f64 {
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

/// gnubg's table as it is built: a label and each player's cell a row.
#[derive(Default)]
struct Table {
    rows: Vec<(String, String, String)>,
}

impl Table {
    fn row(&mut self, label: &str, o: String, x: String) {
        self.rows.push((label.to_owned(), o, x));
    }

    /// A block's heading, after an empty row.
    fn heading(&mut self, label: &str) {
        self.row("", String::new(), String::new());
        self.row(label, String::new(), String::new());
    }

    /// The rows in gnubg's columns, each line without trailing blanks.
    fn text(self) -> String {
        let mut text = String::new();
        for (label, a, b) in self.rows {
            let line = format!("{label:<34}{a:<24}{b}");
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text
    }
}

/// How gnubg writes an error (or luck): points in money play, MWC in a
/// match, both as a total and as a rate a decision.
#[derive(Clone, Copy)]
struct Units {
    money: bool,
}

impl Units {
    fn unit(self) -> &'static str {
        if self.money { "points" } else { "MWC" }
    }

    fn total(self, e: f64, c: f64) -> String {
        if self.money {
            format!("{:+.3} ({:+.3})", -e, -c)
        } else {
            format!("{:+.3} ({:+.3}%)", -e, -100.0 * c)
        }
    }

    fn rate(self, e: f64, c: f64, n: u32) -> String {
        if n == 0 {
            return "n/a".to_owned();
        }
        let n = f64::from(n);
        if self.money {
            format!("{:+.1} ({:+.3})", -1000.0 * e / n, -c / n)
        } else {
            format!("{:+.1} ({:+.3}%)", -1000.0 * e / n, -100.0 * c / n)
        }
    }

    fn counted(self, e: &Error) -> String {
        if e.count == 0 {
            "0".to_owned()
        } else {
            format!("{} ({})", e.count, self.total(e.error, e.cost))
        }
    }
}

fn rating(r: Option<f64>) -> String {
    r.map_or("n/a", match_stats::rating).to_owned()
}

/// The checker play block.
fn checker_rows(t: &mut Table, u: Units, [o, x]: &[PlayerStats; 2]) {
    let unit = u.unit();
    t.heading("Checker play");
    t.row(
        "Total moves",
        o.total_moves.to_string(),
        x.total_moves.to_string(),
    );
    t.row(
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
        t.row(label, o.marked[i].to_string(), x.marked[i].to_string());
    }
    t.row(
        &format!("Error total EMG ({unit})"),
        u.total(o.checker.error, o.checker.cost),
        u.total(x.checker.error, x.checker.cost),
    );
    t.row(
        &format!("Error rate mEMG ({unit})"),
        u.rate(o.checker.error, o.checker.cost, o.unforced_moves),
        u.rate(x.checker.error, x.checker.cost, x.unforced_moves),
    );
    t.row(
        "Checker play rating",
        rating(o.checker_rate()),
        rating(x.checker_rate()),
    );
}

/// The luck block (gnubg's, when it rated the dice).
fn luck_rows(t: &mut Table, u: Units, [o, x]: &[PlayerStats; 2], l: &MatchLuck) {
    let unit = u.unit();
    let [lo, lx] = &l.players;
    t.heading("Luck");
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
        t.row(
            label,
            lo.rolls[4 - i].to_string(),
            lx.rolls[4 - i].to_string(),
        );
    }
    // Luck is good when positive: the signs are gnubg's, not an error's.
    t.row(
        &format!("Luck total EMG ({unit})"),
        u.total(-lo.total, -lo.cost),
        u.total(-lx.total, -lx.cost),
    );
    t.row(
        &format!("Luck rate mEMG ({unit})"),
        u.rate(-lo.total, -lo.cost, o.total_moves),
        u.rate(-lx.total, -lx.cost, x.total_moves),
    );
    let luck_rating =
        |l: &Luck, n: u32| l.rate(n).map_or("n/a", match_stats::luck_rating).to_owned();
    t.row(
        "Luck rating",
        luck_rating(lo, o.total_moves),
        luck_rating(lx, x.total_moves),
    );
}

/// The cube decisions block.
fn cube_rows(t: &mut Table, u: Units, [o, x]: &[PlayerStats; 2]) {
    let unit = u.unit();
    t.heading("Cube decisions");
    t.row(
        "Total cube decisions",
        o.total_cube.to_string(),
        x.total_cube.to_string(),
    );
    t.row(
        "Close or actual cube decisions",
        o.close_cube.to_string(),
        x.close_cube.to_string(),
    );
    t.row("Doubles", o.doubles.to_string(), x.doubles.to_string());
    t.row("Takes", o.takes.to_string(), x.takes.to_string());
    t.row("Passes", o.drops.to_string(), x.drops.to_string());
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
        t.row(label, u.counted(&f(o)), u.counted(&f(x)));
    }
    let (oc, xc) = (o.cube(), x.cube());
    t.row(
        &format!("Error total EMG ({unit})"),
        u.total(oc.error, oc.cost),
        u.total(xc.error, xc.cost),
    );
    t.row(
        &format!("Error rate mEMG ({unit})"),
        u.rate(oc.error, oc.cost, o.close_cube),
        u.rate(xc.error, xc.cost, x.close_cube),
    );
    t.row(
        "Cube decision rating",
        rating(o.cube_rate()),
        rating(x.cube_rate()),
    );
}

/// The overall block's head: checker play and cube errors together.
fn overall_error_rows(t: &mut Table, u: Units, [o, x]: &[PlayerStats; 2]) {
    let unit = u.unit();
    let (oc, xc) = (o.cube(), x.cube());
    t.heading("Overall");
    t.row(
        &format!("Error total EMG ({unit})"),
        u.total(o.checker.error + oc.error, o.checker.cost + oc.cost),
        u.total(x.checker.error + xc.error, x.checker.cost + xc.cost),
    );
    t.row(
        &format!("Error rate mEMG ({unit})"),
        u.rate(
            o.checker.error + oc.error,
            o.checker.cost + oc.cost,
            o.unforced_moves + o.close_cube,
        ),
        u.rate(
            x.checker.error + xc.error,
            x.checker.cost + xc.cost,
            x.unforced_moves + x.close_cube,
        ),
    );
}

/// The end of gnubg's overall block, from its Snowie error rate on (the
/// luck-adjusted results and FIBS ratings with the luck, in match play),
/// then XG's PR.
fn overall_rows(t: &mut Table, stats: &[PlayerStats; 2], length: u16, luck: Option<&MatchLuck>) {
    let money = length == 0;
    let mut row = |label: &str, a: String, b: String| t.row(label, a, b);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(count: u32, error: f64, cost: f64) -> Error {
        Error { count, error, cost }
    }

    /// A 7-point match's report with every block filled, the two players'
    /// numbers apart so that a swapped column shows.
    fn report() -> Report {
        let o = PlayerStats {
            total_moves: 41,
            unforced_moves: 35,
            marked: [30, 3, 1, 1],
            checker: error(5, 0.412, 0.0318),
            total_cube: 22,
            close_cube: 6,
            doubles: 2,
            takes: 1,
            drops: 1,
            missed_double_below_cp: error(1, 0.051, 0.0042),
            wrong_take: error(1, 0.083, 0.0071),
            ..PlayerStats::default()
        };
        let x = PlayerStats {
            total_moves: 40,
            unforced_moves: 33,
            marked: [31, 1, 1, 0],
            checker: error(2, 0.127, 0.0094),
            total_cube: 20,
            close_cube: 4,
            doubles: 1,
            takes: 1,
            wrong_pass: error(1, 0.212, 0.0183),
            ..PlayerStats::default()
        };
        let luck = |total: f64, cost: f64, actual: f64, adjusted: f64| Luck {
            total,
            cost,
            rolls: [1, 4, 30, 5, 1],
            actual,
            adjusted,
        };
        Report {
            stats: [o, x],
            names: ["alice".to_owned(), "bob".to_owned()],
            length: 7,
            luck: Some(MatchLuck {
                players: [
                    luck(0.734, 0.061, 0.5, 0.43),
                    luck(-0.734, -0.061, -0.5, -0.43),
                ],
                rolls: Vec::new(),
            }),
        }
    }

    /// The two cells of the text's row `label` (the first row so named
    /// after the heading `block`), read as numbers: each cell's first
    /// number, the figure before its bracket.
    fn cells(text: &str, block: &str, label: &str) -> [f64; 2] {
        let line = text
            .lines()
            .skip_while(|l| *l != block)
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no row {label:?} under {block:?} in\n{text}"));
        let number = |cell: &str| -> f64 {
            let first = cell.split_whitespace().next().unwrap();
            first.trim_end_matches('%').parse().unwrap()
        };
        [number(&line[34..58]), number(&line[58..])]
    }

    fn near(text: f64, json: f64, decimals: i32) {
        let half_unit = 0.5 * 10f64.powi(-decimals) + 1e-9;
        assert!(
            (text - json).abs() <= half_unit,
            "text {text} but JSON {json}"
        );
    }

    #[test]
    fn the_text_and_the_json_give_the_same_numbers() {
        let r = report();
        let (text, json) = (r.text(), r.json());
        for (i, p) in ["O", "X"].into_iter().enumerate() {
            let j = &json[p];
            let at = |block, label| cells(&text, block, label)[i];
            let num = |key: &str| j[key].as_f64().unwrap();
            assert_eq!(at("Checker play", "Total moves"), num("total_moves"));
            assert_eq!(
                at("Checker play", "Unforced moves"),
                num("checker_decisions")
            );
            assert_eq!(
                at("Checker play", "Moves marked bad"),
                j["marked"]["bad"].as_f64().unwrap()
            );
            // Errors are written lost (negative) in the text.
            near(
                -at("Checker play", "Error total EMG"),
                num("checker_error"),
                3,
            );
            near(
                -at("Checker play", "Error rate mEMG"),
                num("checker_rate_memg"),
                1,
            );
            near(
                -at("Cube decisions", "Error total EMG"),
                num("cube_error"),
                3,
            );
            near(
                -at("Cube decisions", "Error rate mEMG"),
                num("cube_rate_memg"),
                1,
            );
            near(-at("Overall", "Error rate mEMG"), num("error_rate_memg"), 1);
            assert_eq!(at("Cube decisions", "Doubles"), num("doubles"));
            assert_eq!(at("Cube decisions", "Passes"), num("drops"));
            assert_eq!(
                at("Cube decisions", "Wrong takes"),
                j["wrong_takes"]["count"].as_f64().unwrap()
            );
            let luck = &j["luck"];
            near(
                at("Luck", "Luck total EMG"),
                luck["total"].as_f64().unwrap(),
                3,
            );
            near(
                at("Luck", "Luck rate mEMG"),
                luck["rate_memg"].as_f64().unwrap(),
                1,
            );
            assert_eq!(
                at("Luck", "Rolls marked very lucky"),
                luck["rolls"]["very_lucky"].as_f64().unwrap()
            );
            // Results in percent in match play.
            near(
                at("Overall", "Luck adjusted result"),
                100.0 * luck["luck_adjusted_result"].as_f64().unwrap(),
                2,
            );
            let overall = &j["overall"];
            near(
                at("Overall", "Error based abs. FIBS rating"),
                overall["fibs_rating"].as_f64().unwrap(),
                1,
            );
            near(at("Overall", "PR (XG"), overall["pr"].as_f64().unwrap(), 1);
            // The ratings are words, the same in both.
            let word = |label: &str| {
                let line = text.lines().find(|l| l.starts_with(label)).unwrap();
                [line[34..58].trim_end().to_owned(), line[58..].to_owned()][i].clone()
            };
            assert_eq!(
                word("Checker play rating"),
                j["checker_rating"].as_str().unwrap()
            );
            assert_eq!(word("Overall rating"), j["rating"].as_str().unwrap());
        }
        assert!(
            text.starts_with("Player                            O: alice"),
            "{text}"
        );
        assert_eq!(json["O"]["name"], "alice");
        assert_eq!(json["X"]["name"], "bob");
    }
}
