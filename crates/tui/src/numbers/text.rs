//! The numbers panel's lines, made from the domain's [`Numbers`] in the
//! snapshot: most important first (MWCs, take points, gammon values, the
//! market window, race counts), so a short panel cuts the least useful.

use bgedit_core::domain::Player;
use bgedit_core::domain::equity::{MONEY_POINT_NAMES, Mwc};
use bgedit_core::domain::numbers::{GameNumbers, MatchNumbers, MoneyNumbers, Numbers};
use bgedit_core::domain::race::RaceCounts;
use std::fmt::Write as _;

/// The panel's rows for `position`, with the table in use and, when it is
/// of this position, the last evaluation (the market window needs it).
pub fn of(
    position: &bgedit_core::domain::Position,
    state: &super::state::NumbersState,
) -> Vec<String> {
    lines(&bgedit_core::domain::numbers::compute(
        position,
        &state.met.0,
        state.last_evaluation.as_ref().map(|e| &e.0),
    ))
}

fn pct(v: f32) -> String {
    if v.is_finite() {
        format!("{:5.1}%", v * 100.0)
    } else {
        "    - ".to_owned()
    }
}

/// Two decimals, as gnubg's `show marketwindow` prints.
fn pct2(v: f32) -> String {
    if v.is_finite() {
        format!("{:.2}%", v * 100.0)
    } else {
        "-".to_owned()
    }
}

/// An MWC in percent and its NEMG: 11 characters, so that the table fits
/// the 30 columns beside the board.
fn cell(m: &Mwc) -> String {
    let mwc = if m.mwc.is_finite() {
        format!("{:5.1}", m.mwc * 100.0)
    } else {
        "    -".to_owned()
    };
    match m.nemg {
        Some(e) if e.is_finite() => format!("{mwc} {e:+5.2}"),
        _ => format!("{mwc}   n/a"),
    }
}

/// The panel's lines, at most `width` characters each is not enforced
/// here; the widget clips.
pub fn lines(n: &Numbers) -> Vec<String> {
    let mut out = Vec::with_capacity(32);
    let roller = n.on_roll;
    let other = roller.opponent();
    let (r, o) = (roller.index(), other.index());
    out.push(format!("MET {}", n.met_name));
    match &n.game {
        GameNumbers::Match(m) => match_rows(&mut out, roller, m),
        GameNumbers::Money(m) => money_rows(&mut out, roller, n.probabilities.is_some(), m),
        GameNumbers::Unavailable(why) => out.push(format!("No match equities: {why}")),
    }
    let gv = &n.gammon_values;
    out.push(format!(
        "Gammon value {roller} {:.3} {other} {:.3}",
        gv[r].gammon, gv[o].gammon
    ));
    out.push(format!(
        "Backgammon   {roller} {:.3} {other} {:.3}",
        gv[r].backgammon, gv[o].backgammon
    ));
    if let Some(rates) = n.gammon_rates {
        out.push(format!(
            "Gammon rates {roller} {} {other} {}",
            pct(rates[r][0]).trim(),
            pct(rates[o][0]).trim()
        ));
    }
    match n.cube_efficiency {
        Some(x) => out.push(format!("Cube efficiency x = {x:.3}")),
        None => out.push("Cube efficiency: n/a (exact bear-off or over)".to_owned()),
    }
    race_rows(&mut out, &n.race);
    out
}

/// The match's rows: the take points, the market window, the MWC table.
fn match_rows(out: &mut Vec<String>, roller: Player, m: &MatchNumbers) {
    let other = roller.opponent();
    let (r, o) = (roller.index(), other.index());
    // What a player asks first at the table: the take points and
    // the market window; the table they come from after.
    out.push("Take points, no gammons, dead/live:".to_owned());
    out.push(format!(
        "  {roller} {}/{}  {other} {}/{}",
        pct(m.dead_take[r]).trim(),
        pct(m.live_take[r]).trim(),
        pct(m.dead_take[o]).trim(),
        pct(m.live_take[o]).trim()
    ));
    if let Some(w) = &m.window {
        for p in [roller, other] {
            let w = &w[p.index()];
            let mut line = format!(
                "{p} window dead {}-{}",
                pct2(w.dead_double),
                pct2(w.dead_cash)
            );
            if w.auto_redouble {
                let _ = write!(
                    line,
                    " redbl {}-{}",
                    pct2(w.second_double),
                    pct2(w.second_cash)
                );
            } else if !w.dead {
                let _ = write!(
                    line,
                    " live {}-{}",
                    pct2(w.second_double),
                    pct2(w.second_cash)
                );
            }
            out.push(line);
        }
    } else {
        out.push("Market window: needs an evaluation".to_owned());
    }
    out.push(format!(
        "{:<6}{:<13}{}",
        "",
        format!("{roller} on roll"),
        other
    ));
    out.push(format!("{:<6}{:<13}{}", "", "MWC%  NEMG", "MWC%  NEMG"));
    let row = |label: &str, a: &Mwc, b: &Mwc| format!("{label:<6}{}  {}", cell(a), cell(b));
    out.push(row("now", &m.mwc[r].now, &m.mwc[o].now));
    for k in 0..3 {
        out.push(row(
            &format!("W×{}", k + 1),
            &m.mwc[r].win[k],
            &m.mwc[o].win[k],
        ));
    }
    for k in 0..3 {
        out.push(row(
            &format!("L×{}", k + 1),
            &m.mwc[r].lose[k],
            &m.mwc[o].lose[k],
        ));
    }
    out.push("W/L×n: after winning/losing n cubes".to_owned());
}

/// Money play's rows: the rules, and the cube points.
fn money_rows(out: &mut Vec<String>, roller: Player, evaluated: bool, m: &MoneyNumbers) {
    let other = roller.opponent();
    let (r, o) = (roller.index(), other.index());
    out.push(format!(
        "Money: Jacoby {}, beavers {}",
        if m.jacoby { "on" } else { "off" },
        if m.beavers { "on" } else { "off" }
    ));
    let note = if evaluated {
        "with the evaluation's gammons"
    } else {
        "gammonless"
    };
    out.push(format!("Cube points ({note}), dead / live:"));
    for (j, name) in MONEY_POINT_NAMES.iter().enumerate() {
        let short = name
            .rsplit_once('(')
            .map_or(*name, |(_, s)| s.trim_end_matches(')'));
        out.push(format!(
            "{short:<4}{roller} {}/{}  {other} {}/{}",
            pct(m.points[r][j][0]).trim(),
            pct(m.points[r][j][1]).trim(),
            pct(m.points[o][j][0]).trim(),
            pct(m.points[o][j][1]).trim()
        ));
    }
}

/// The race's rows: counts and verdicts in a race, the pips in contact.
fn race_rows(out: &mut Vec<String>, race: &RaceCounts) {
    let leader: Player = race.leader;
    if race.is_race {
        out.push(format!(
            "Race: {leader} {} pips, {} {} (leader = on roll)",
            race.leader_pips,
            leader.opponent(),
            race.trailer_pips
        ));
        out.push(format!(
            "Kleinman K {:.4}, {leader} wins {}",
            race.kleinman.k,
            pct(race.kleinman.win).trim()
        ));
        out.push(format!(
            "Thorp {} L {:.1} T {}: {}",
            race.thorp.leader,
            race.thorp.adjusted,
            race.thorp.trailer,
            race.thorp.verdict.words()
        ));
        out.push(format!(
            "Keith {} L {:.1} T {}: {}",
            race.keith.leader,
            race.keith.adjusted,
            race.keith.trailer,
            race.keith.verdict.words()
        ));
        out.push(format!(
            "Isight {}/{} GWC {:.1}%: {}",
            race.isight.leader,
            race.isight.trailer,
            race.isight.gwc,
            race.isight.verdict.words()
        ));
        out.push(format!(
            "8-9-12 ahead {:.1}%: {}",
            race.rule_8912.ahead,
            race.rule_8912.verdict.words()
        ));
    } else {
        out.push(format!(
            "Pips {leader} {} {} {}; contact: no race counts",
            race.leader_pips,
            leader.opponent(),
            race.trailer_pips
        ));
    }
}
