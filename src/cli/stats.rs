//! `bgedit stats`: the numbers at each position's score, one line per
//! input (text or JSON Lines). The per-line work is [`stats_line`], a pure
//! function of the line; [`as_job`] streams arguments or standard input
//! through it with the batch rules (`line N:` / `argument N:` errors).

use crate::cli::output::OutputFormat;
use bgedit_core::codec::{self, IdFormat};
use bgedit_core::domain::equity::{GammonValues, MONEY_POINT_NAMES, Probabilities};
use bgedit_core::domain::met::Met;
use bgedit_core::domain::numbers::{self, GameNumbers, Numbers};
use bgedit_core::domain::race::RaceCounts;
use bgedit_core::domain::{Player, Position, PositionError};
use std::fmt::Write as _;

/// What `stats --format` writes, as its help says it.
pub(crate) const FORMAT_TEXT_HELP: &str = "One readable line per position";
pub(crate) const FORMAT_JSON_HELP: &str = "One JSON object per position";

/// A number for JSON: fixed decimals, `null` when not finite.
fn num(v: f64, decimals: usize) -> String {
    if v.is_finite() {
        format!("{v:.decimals$}")
    } else {
        "null".to_owned()
    }
}

/// A percentage gnubg prints with one decimal (`63.8`), as the fraction
/// JSON gives (`0.638`): rounded as a percentage first, as gnubg's `%.1f`
/// does, so that 63.75 is 0.638 and not 0.6375's binary neighbour 0.637.
fn percent_as_fraction(percent: f32) -> String {
    if !percent.is_finite() {
        return "null".to_owned();
    }
    let shown = format!("{percent:.1}");
    let digits = shown.trim_start_matches('-').replace('.', "");
    let value: u64 = digits.parse().unwrap_or(0);
    // One decimal of a percentage is three of a fraction: move the point.
    let sign = if shown.starts_with('-') { "-" } else { "" };
    format!("{sign}{}.{:03}", value / 1000, value % 1000)
}

fn gv_json(g: &GammonValues) -> String {
    format!(
        "{{\"gammon\": {}, \"backgammon\": {}}}",
        num(f64::from(g.gammon), 5),
        num(f64::from(g.backgammon), 5)
    )
}

fn pips_of(r: &RaceCounts, p: Player) -> u32 {
    if p == r.leader {
        r.leader_pips
    } else {
        r.trailer_pips
    }
}

/// The JSON object for one position (keys as the issue lists them, and a
/// few more).
pub(crate) fn json(position: &Position, n: &Numbers) -> String {
    let r = &n.race;
    let mut s = String::with_capacity(768);
    s.push_str("{\"gnubg_id\": \"");
    codec::write_as(position, IdFormat::GnubgId, &mut s);
    let _ = write!(
        s,
        "\", \"on_roll\": \"{}\", \"race\": {}, \"pips\": {{\"o\": {}, \"x\": {}}}",
        n.on_roll,
        r.is_race,
        pips_of(r, Player::O),
        pips_of(r, Player::X)
    );
    let _ = write!(
        s,
        ", \"kleinman\": {{\"k\": {}, \"win\": {}}}",
        num(r.kleinman.k, 4),
        num(f64::from(r.kleinman.win), 4)
    );
    let _ = write!(
        s,
        ", \"thorp\": {{\"leader\": {}, \"leader_count\": {}, \"trailer\": {}, \"action\": \"{}\"}}",
        num(f64::from(r.thorp.adjusted), 1),
        r.thorp.leader,
        r.thorp.trailer,
        r.thorp.verdict.key()
    );
    let _ = write!(
        s,
        ", \"keith\": {{\"leader\": {}, \"leader_count\": {}, \"trailer\": {}, \"action\": \"{}\"}}",
        num(f64::from(r.keith.adjusted), 1),
        r.keith.leader,
        r.keith.trailer,
        r.keith.verdict.key()
    );
    let _ = write!(
        s,
        ", \"isight\": {{\"leader\": {}, \"trailer\": {}, \"win\": {}, \"action\": \"{}\"}}",
        r.isight.leader,
        r.isight.trailer,
        percent_as_fraction(r.isight.gwc),
        r.isight.verdict.key()
    );
    let _ = write!(
        s,
        ", \"rule_8912\": {{\"ahead\": {}, \"action\": \"{}\"}}",
        percent_as_fraction(r.rule_8912.ahead),
        r.rule_8912.verdict.key()
    );
    let name = bgedit_core::quote::json(&n.met_name);
    match &n.game {
        GameNumbers::Match(m) => {
            let _ = write!(
                s,
                ", \"met\": {{\"name\": {name}, \"o\": {}, \"x\": {}}}",
                num(f64::from(m.mwc[0].now.mwc), 6),
                num(f64::from(m.mwc[1].now.mwc), 6)
            );
        }
        _ => {
            let _ = write!(
                s,
                ", \"met\": {{\"name\": {name}, \"o\": null, \"x\": null}}"
            );
        }
    }
    let _ = write!(
        s,
        ", \"gammon_values\": {{\"o\": {}, \"x\": {}}}",
        gv_json(&n.gammon_values[0]),
        gv_json(&n.gammon_values[1])
    );
    evaluation_json(&mut s, n);
    s.push('}');
    s
}

fn pair(a: f32, b: f32) -> String {
    format!("[{}, {}]", num(f64::from(a), 4), num(f64::from(b), 4))
}

/// With `--eval`: the gammon rates, and the market window (match) or the
/// money cube points, as `show marketwindow` gives them.
fn evaluation_json(s: &mut String, n: &Numbers) {
    let (Some(p), Some(rates)) = (n.probabilities, n.gammon_rates) else {
        return;
    };
    let probs: Vec<String> = p.iter().map(|v| num(f64::from(*v), 4)).collect();
    let _ = write!(
        s,
        ", \"evaluation\": [{}], \"gammon_rates\": {{\"o\": {}, \"x\": {}}}",
        probs.join(", "),
        pair(rates[0][0], rates[0][1]),
        pair(rates[1][0], rates[1][1])
    );
    match &n.game {
        GameNumbers::Match(m) => {
            if let Some(w) = &m.window {
                let one = |w: &bgedit_core::domain::equity::MatchWindow| {
                    let second = pair(w.second_double, w.second_cash);
                    format!(
                        "{{\"dead\": {}, \"live\": {}, \"redoubled\": {}}}",
                        pair(w.dead_double, w.dead_cash),
                        if w.auto_redouble || w.dead {
                            "null"
                        } else {
                            &second
                        },
                        if w.auto_redouble { &second } else { "null" }
                    )
                };
                let _ = write!(
                    s,
                    ", \"market_window\": {{\"o\": {}, \"x\": {}}}",
                    one(&w[0]),
                    one(&w[1])
                );
            }
        }
        GameNumbers::Money(m) => {
            let one = |player: usize| {
                let items: Vec<String> = MONEY_POINT_NAMES
                    .iter()
                    .zip(&m.points[player])
                    .map(|(name, v)| format!("\"{name}\": {}", pair(v[0], v[1])))
                    .collect();
                format!("{{{}}}", items.join(", "))
            };
            let _ = write!(
                s,
                ", \"money_points\": {{\"o\": {}, \"x\": {}}}",
                one(0),
                one(1)
            );
        }
        GameNumbers::Unavailable(_) => {}
    }
}

fn pct(v: f32) -> String {
    if v.is_finite() {
        format!("{:.2}%", v * 100.0)
    } else {
        "-".to_owned()
    }
}

/// One readable line for a position.
pub(crate) fn text(position: &Position, n: &Numbers) -> String {
    let r = &n.race;
    let (l, t) = (r.leader, r.leader.opponent());
    let mut s = String::with_capacity(512);
    codec::write_as(position, IdFormat::GnubgId, &mut s);
    let _ = write!(s, "  pips {l} {} {t} {}", r.leader_pips, r.trailer_pips);
    match &n.game {
        GameNumbers::Match(m) => {
            let _ = write!(
                s,
                "  MWC O {} X {}",
                pct(m.mwc[0].now.mwc),
                pct(m.mwc[1].now.mwc)
            );
        }
        GameNumbers::Money(_) => s.push_str("  money"),
        GameNumbers::Unavailable(why) => {
            let _ = write!(s, "  no MWC ({why})");
        }
    }
    let gv = &n.gammon_values;
    let _ = write!(
        s,
        "  gammon values O {:.5}/{:.5} X {:.5}/{:.5}",
        gv[0].gammon, gv[0].backgammon, gv[1].gammon, gv[1].backgammon
    );
    if let GameNumbers::Match(m) = &n.game
        && let Some(w) = &m.window
    {
        for p in [Player::O, Player::X] {
            let w = &w[p.index()];
            let _ = write!(
                s,
                "  window {p} dead {}-{}",
                pct(w.dead_double),
                pct(w.dead_cash)
            );
            if w.auto_redouble || !w.dead {
                let what = if w.auto_redouble { "redoubled" } else { "live" };
                let _ = write!(s, " {what} {}-{}", pct(w.second_double), pct(w.second_cash));
            }
        }
    }
    if !r.is_race {
        s.push_str("  contact: race counts do not apply");
        return s;
    }
    let _ = write!(
        s,
        "  Kleinman {:.4} ({}: {})  Thorp {} {:.1}/{} {}  Keith {} {:.1}/{} {}  Isight {:.1}% {}  8-9-12 {:.1}% {}",
        r.kleinman.k,
        l,
        pct(r.kleinman.win),
        r.thorp.leader,
        r.thorp.adjusted,
        r.thorp.trailer,
        r.thorp.verdict.key(),
        r.keith.leader,
        r.keith.adjusted,
        r.keith.trailer,
        r.keith.verdict.key(),
        r.isight.gwc,
        r.isight.verdict.key(),
        r.rule_8912.ahead,
        r.rule_8912.verdict.key()
    );
    s
}

/// What `stats` works with besides the positions.
// No doc comment: the command's help is its variant's in `args.rs`.
#[derive(clap::Args, Debug, Clone)]
pub struct StatsArgs {
    /// A gnubg match equity table file (XML) instead of the built-in
    /// Kazaross-XG2.
    #[arg(long, value_name = "FILE")]
    pub met: Option<std::path::PathBuf>,
    /// Output format.
    #[arg(long, default_value = "text",
          value_parser = OutputFormat::described(FORMAT_TEXT_HELP, FORMAT_JSON_HELP))]
    pub format: OutputFormat,
    /// An evaluation for every position, from the player on roll's
    /// side: W,WG,WBG,LG,LBG (e.g. 0.52,0.15,0.01,0.13,0.01). Adds the
    /// gammon rates and the market window (or money cube points).
    #[arg(long, value_name = "W,WG,WBG,LG,LBG", value_parser = parse_eval)]
    pub eval: Option<Probabilities>,
    /// A player's matches in the library instead of positions: per match
    /// the rates gnubg's statistics give that player and XG's PR (from
    /// `library analyse`), then the trend.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["ids", "eval", "met"])]
    pub player: Option<String>,
    /// With --player: the library (else the default one).
    #[arg(long, value_name = "FILE", requires = "player")]
    pub library: Option<std::path::PathBuf>,
    /// With --player: only matches played on this date (YYYY-MM-DD) or
    /// later.
    #[arg(long, value_name = "DATE", requires = "player",
          value_parser = super::player_stats::since)]
    pub since: Option<String>,
    /// With --player: the player's decisions grouped by a theme instead
    /// (the game plan they had, gnubg's class of the position, the score
    /// class, the kind of decision), each group with its decisions, errors,
    /// error rate and PR and its costliest positions, the worst first.
    #[arg(long, value_enum, value_name = "THEME", requires = "player")]
    pub by: Option<super::theme_stats::ThemeBy>,
    /// With --player: their own cube thresholds instead: where they take
    /// and double against the right points (take point, double point,
    /// too-good point), over all scores and by score class, each with its
    /// 95% interval and the decisions behind it.
    #[arg(long, requires = "player", conflicts_with = "by")]
    pub thresholds: bool,
    /// IDs in any accepted format; standard input when none.
    #[arg(allow_hyphen_values = true)]
    pub ids: Vec<String>,
}

/// `bgedit stats`: the numbers at each position's score, one line each.
pub fn run(args: StatsArgs) -> std::process::ExitCode {
    use crate::cli::input::{Messages, exit_code, run_lines};
    use bgedit_core::codec::met_xml;
    use std::io;
    if let Some(player) = args.player {
        let opts = super::player_stats::PlayerOptions {
            player,
            library: args.library,
            since: args.since,
            format: args.format,
        };
        let mut out = io::BufWriter::new(io::stdout().lock());
        let done = match args.by {
            _ if args.thresholds => super::thresholds::run(&opts, &mut out),
            Some(by) => super::theme_stats::run(&opts, by, &mut out),
            None => super::player_stats::run(&opts, &mut out),
        }
        .and_then(|c| io::Write::flush(&mut out).map(|_| c));
        return match done {
            Ok(code) => std::process::ExitCode::from(code),
            Err(e) => super::output::write_failed(&e),
        };
    }
    let met = match args.met.as_deref().map(met_xml::load_file) {
        None => met_xml::default_met(),
        Some(Ok(met)) => met,
        Some(Err(e)) => {
            bgedit_core::say!("bgedit: --met: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = Messages::new(io::BufWriter::new(io::stderr().lock()));
    let opts = StatsOptions {
        met: &met,
        format: args.format,
        eval: args.eval,
    };
    exit_code(run_lines(&args.ids, stdin, stdout, stderr, as_job(&opts)))
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct StatsOptions<'a> {
    pub met: &'a Met,
    pub format: OutputFormat,
    /// An evaluation for every position (`--eval`): the market window and
    /// the money points use its gammon rates.
    pub eval: Option<Probabilities>,
}

/// An `--eval` that is not an evaluation.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum EvalError {
    #[error(
        "{0} numbers; an evaluation is five: win, win gammon, win backgammon, lose gammon, lose backgammon (e.g. 0.52,0.15,0.01,0.13,0.01)"
    )]
    NotFive(usize),
    /// The word as given.
    #[error("{0:?} is not a probability from 0 to 1")]
    NotAProbability(String),
    #[error("win gammon must be at most win, and win backgammon at most win gammon")]
    Wins,
    #[error("lose gammon must be at most 1 − win, and lose backgammon at most lose gammon")]
    Losses,
}

/// Reads `--eval`: five probabilities `W,WG,WBG,LG,LBG` from the player on
/// roll's side, gammons counting backgammons, as gnubg prints them.
pub(crate) fn parse_eval(text: &str) -> Result<Probabilities, EvalError> {
    let parts: Vec<&str> = text.split([',', ' ']).filter(|s| !s.is_empty()).collect();
    if parts.len() != 5 {
        return Err(EvalError::NotFive(parts.len()));
    }
    let mut p = [0.0f32; 5];
    for (slot, part) in p.iter_mut().zip(&parts) {
        *slot = part
            .parse::<f32>()
            .ok()
            .filter(|v| (0.0..=1.0).contains(v))
            .ok_or_else(|| EvalError::NotAProbability((*part).to_owned()))?;
    }
    if p[1] > p[0] || p[2] > p[1] {
        return Err(EvalError::Wins);
    }
    if p[3] > 1.0 - p[0] || p[4] > p[3] {
        return Err(EvalError::Losses);
    }
    Ok(p)
}

/// Why a line of `stats` has no numbers.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LineError {
    #[error(transparent)]
    Id(#[from] codec::IdError),
    /// The position breaks a rule.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// The output line for one input line (no newline), or why it has none.
pub(crate) fn stats_line(line: &str, opts: &StatsOptions) -> Result<String, LineError> {
    let position = codec::parse_any(line, &Position::default())?.position;
    position.validate()?;
    let n = numbers::compute(&position, opts.met, opts.eval.as_ref());
    Ok(match opts.format {
        OutputFormat::Json => json(&position, &n),
        OutputFormat::Text => text(&position, &n),
    })
}

/// [`stats_line`] as a job for [`crate::cli::input::run_lines`], which
/// streams the arguments or standard input (bounded lines, `line N:`
/// errors, one output line per input line).
pub(crate) fn as_job<'a>(
    opts: &'a StatsOptions<'a>,
) -> impl FnMut(&str, &mut String) -> Result<Option<String>, LineError> + 'a {
    move |text, buf| {
        buf.push_str(&stats_line(text, opts)?);
        buf.push('\n');
        Ok(None)
    }
}

#[cfg(test)]
mod percent_tests {
    use super::percent_as_fraction;

    #[test]
    fn percentages_keep_gnubgs_digits() {
        // gnubg prints 63.8 for 63.75; dividing first gave 0.637.
        assert_eq!(percent_as_fraction(63.75), "0.638");
        assert_eq!(percent_as_fraction(35.7), "0.357");
        assert_eq!(percent_as_fraction(100.0), "1.000");
        assert_eq!(percent_as_fraction(0.04), "0.000");
        assert_eq!(percent_as_fraction(-12.25), "-0.122");
        assert_eq!(percent_as_fraction(f32::NAN), "null");
    }
}
