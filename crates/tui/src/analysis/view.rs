//! The analysis below the board: the panel's text for the snapshot (a
//! header saying the engine, the depth shown and what is running, then the
//! ranked moves or the cube decision), the clipboard's text, and the
//! drawing (the moves scrolled to keep the selected one in view).

use super::score_matrix;
pub use super::state::PanelText;
use super::state::{AnalysisState, RolloutRun, Shown, disagreement, second_engine};
use crate::model::Model;
use crate::snapshot::Snapshot;
use crate::ui::text::wrap;
use crate::ui::theme::Theme;
use bgedit_engine::text::Units;
use bgedit_engine::{Analysis, Choice, EngineKind};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, area: Rect, snapshot: &Snapshot, theme: &Theme) {
    let Some(second) = &snapshot.second_analysis else {
        draw_text(frame, area, &snapshot.analysis, snapshot.previewing, theme);
        return;
    };
    // Two engines: side by side where each gets a list's width (about
    // 70 columns), else one above the other.
    use ratatui::layout::{Constraint, Direction, Layout};
    let direction = if area.width >= 140 {
        Direction::Horizontal
    } else {
        Direction::Vertical
    };
    let halves = Layout::default()
        .direction(direction)
        .constraints([Constraint::Ratio(1, 2), Constraint::Ratio(1, 2)])
        .split(area);
    let (left, right) = if direction == Direction::Horizontal {
        // A column between the two lists.
        let r = halves[1];
        (
            halves[0],
            Rect {
                x: r.x + 1,
                width: r.width.saturating_sub(1),
                ..r
            },
        )
    } else {
        (halves[0], halves[1])
    };
    draw_text(frame, left, &snapshot.analysis, snapshot.previewing, theme);
    draw_text(frame, right, second, false, theme);
}

fn draw_text(
    frame: &mut Frame,
    area: Rect,
    t: &crate::analysis::PanelText,
    previewing: bool,
    theme: &Theme,
) {
    // The header and notes wrapped, not cut: they carry what is running
    // and why there is no answer (the engine missing, a state it refuses).
    let width = usize::from(area.width).max(20);
    let mut lines: Vec<Line> = wrap(&format!("Analysis · {}", t.header), width)
        .into_iter()
        .map(|l| Line::styled(l, theme.title))
        .collect();
    for note in &t.notes {
        lines.extend(
            wrap(note, width)
                .into_iter()
                .map(|l| Line::styled(l, theme.label)),
        );
    }
    // The column headers even on a short panel: figures without them are
    // a guess (the top 4 moves at 80×24).
    if let Some(c) = &t.columns {
        lines.push(Line::styled(c.clone(), theme.label));
    }
    let room = usize::from(area.height).saturating_sub(lines.len());
    let first = match t.selected {
        Some(s) if s >= room => s + 1 - room,
        _ => 0,
    };
    // The score matrix's wide grid where it fits, its cells coloured by
    // action.
    let grid = !t.wide_rows.is_empty();
    let fits = |rows: &[String]| {
        rows.iter()
            .all(|r| r.chars().count() <= usize::from(area.width))
    };
    let rows = if grid && fits(&t.wide_rows) {
        &t.wide_rows
    } else {
        &t.rows
    };
    for (i, row) in rows.iter().enumerate().skip(first).take(room) {
        if grid && i > 0 {
            lines.push(coloured(row));
            continue;
        }
        let style = if t.selected == Some(i) && previewing {
            theme.cursor
        } else {
            ratatui::style::Style::default()
        };
        lines.push(Line::styled(row.clone(), style));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// A matrix row with each action in its colour: no double green, double
/// and take yellow, double and pass red, too good magenta.
fn coloured(row: &str) -> Line<'static> {
    use ratatui::style::{Color, Style};
    use ratatui::text::Span;
    let mut spans = Vec::new();
    let mut rest = row;
    while !rest.is_empty() {
        let start = rest.len() - rest.trim_start().len();
        if start > 0 {
            spans.push(Span::raw(rest[..start].to_owned()));
            rest = &rest[start..];
            continue;
        }
        let end = rest.find(' ').unwrap_or(rest.len());
        let word = &rest[..end];
        let colour = match word {
            "ND" | "ND/B" => Some(Color::Green),
            "D/T" | "D/B" => Some(Color::Yellow),
            "D/P" => Some(Color::Red),
            "TG" => Some(Color::Magenta),
            _ => None,
        };
        spans.push(match colour {
            Some(c) => Span::styled(word.to_owned(), Style::default().fg(c)),
            None => Span::raw(word.to_owned()),
        });
        rest = &rest[end..];
    }
    Line::from(spans)
}

/// With every engine on: the other engine's panel, drawn beside the
/// reference's.
pub fn second_panel_text(model: &Model) -> Option<PanelText> {
    let a = &model.analysis;
    if a.engines.alone().is_some() || model.matrix.on {
        return None;
    }
    let engine = second_engine(a)?;
    let reference = EngineKind::reference();
    let other = AnalysisState {
        engines: Choice::only(engine),
        units: a.units,
        opinions: a
            .opinions
            .get(&engine)
            .map(|o| (engine, o.clone()))
            .into_iter()
            .collect(),
        played_after: a.played_after.clone(),
        played_action: a.played_action.clone(),
        other_pick: disagreement(a).map(|d| (reference, d.pick(reference).to_owned())),
        ..AnalysisState::default()
    };
    Some(panel_text_of(model, &other))
}

/// The analysis as text for the clipboard, with the position's ID first.
pub fn copy_text(model: &Model) -> Option<String> {
    let shown = model.analysis.displayed()?;
    let id =
        bgedit_core::codec::to_string_as(&model.position, bgedit_core::codec::IdFormat::GnubgId);
    let mut text = format!("GNUBG ID: {id}\n");
    if let Some(reason) = bgedit_engine::request::no_cube_action(&model.position) {
        text += &format!("No cube action: {reason}\n");
    }
    for note in bgedit_engine::request::sent_notes(&model.position) {
        text += &format!("{note}\n");
    }
    let engine = model.analysis.displayed_engine();
    // The cube before the roll is the reference's: with its list only.
    let cube = model.analysis.cube_before_roll.as_ref();
    if let (Some(line), true) = (
        cube.and_then(|c| cube_line(c, model.analysis.units)),
        engine.is_reference(),
    ) {
        text += &format!("{line}\n");
    }
    if !engine.is_reference() {
        text += &format!(
            "{} ({}):\n",
            engine.spec().full_name,
            engine.depth_label(shown.plies)
        );
    }
    text +=
        &bgedit_engine::text::render_for(&shown.analysis, model.analysis.units, usize::MAX, engine);
    Some(text)
}

fn pct(x: f64) -> String {
    format!("{:4.1}", x * 100.0)
}

/// The six chances of `p` in the panel's order, as fractions: win,
/// gammon, backgammon, then lose, gammon, backgammon.
fn six(p: &bgedit_engine::answer::Probs) -> [f64; 6] {
    [p[0], p[1], p[2], 1.0 - p[0], p[3], p[4]]
}

fn chances(p: &bgedit_engine::answer::Probs) -> String {
    let [w, wg, wb, l, lg, lb] = six(p).map(pct);
    format!("{w} {wg} {wb} · {l} {lg} {lb}")
}

const CHANCE_COLUMNS: &str = " Win  Gam   Bg · Lose  Gam   Bg";

/// A cube decision's cubeless equity and chances on one row, each number
/// after its name: a panel cut short shows both or neither, never a header
/// without its numbers (`Cubeless +0.511 · Win 69.1 Gam 33.7 Bg 0.5 · …`).
fn cubeless_row(label: &str, cubeless: f64, p: &bgedit_engine::answer::Probs) -> String {
    let [w, wg, wb, l, lg, lb] = six(p).map(|x| format!("{:.1}", x * 100.0));
    format!("{label} {cubeless:+.3} · Win {w} Gam {wg} Bg {wb} · Lose {l} Gam {lg} Bg {lb}")
}

/// The cube decision before the roll on one line: the proper action and
/// the three equities, as XG shows it above a move list.
fn cube_line(cube: &Shown, units: Units) -> Option<String> {
    use bgedit_engine::text::value;
    let Analysis::Cube {
        action,
        no_double,
        double_take,
        double_pass,
        no_double_mwc,
        double_take_mwc,
        double_pass_mwc,
        ..
    } = &cube.analysis
    else {
        return None;
    };
    Some(format!(
        "Before the roll ({}-ply): {action} · ND {} · D/T {} · D/P {}",
        cube.plies,
        value(*no_double, *no_double_mwc, units),
        value(*double_take, *double_take_mwc, units),
        value(*double_pass, *double_pass_mwc, units),
    ))
}

/// The header of a rollout: trials done, time left, how to stop it.
fn rollout_header(
    r: &bgedit_engine::Rollout,
    running: bool,
    unit_word: &str,
    engine: EngineKind,
) -> String {
    let mut h = format!("{} rollout {}/{} trials", engine.name(), r.trials, r.of);
    if running {
        if let Some(left) = r.seconds_left() {
            h += &format!(" · {} left", clock(left));
        }
        h += " · Esc stops";
    } else if r.stopped {
        h += " · stopped";
    }
    h + &format!(" · {unit_word}")
}

/// Why the engine shown has no answer, if so.
fn problem(a: &AnalysisState, engine: EngineKind) -> Option<&String> {
    a.problem_of(engine)
}

/// "1:05" or "42 s".
fn clock(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 60 {
        format!("{}:{:02}", s / 60, s % 60)
    } else {
        format!("{s} s")
    }
}

/// A rolled-out move list: each equity with its standard error and the
/// half-width of its 95% interval.
fn rollout_rows(text: &mut PanelText, moves: &[bgedit_engine::MoveLine], units: Units) {
    use bgedit_engine::answer::interval95;
    use bgedit_engine::text::{diff, value};
    text.columns = Some(format!(
        "{:>4} {:<22}{:>9}{:>10}{:>8}{:>8}  {CHANCE_COLUMNS}",
        "#", "Move", "Equity", "Diff", "SE", "±95%"
    ));
    let best = moves.first().map(|m| (m.equity, m.mwc));
    for (i, m) in moves.iter().enumerate() {
        let (be, bm) = best.expect("listed");
        let d = if i == 0 {
            String::new()
        } else {
            diff(m.equity, be, m.mwc.zip(bm), units)
        };
        let se = match (units, m.mwc_std_error) {
            (Units::Mwc, Some(s)) => Some((s * 100.0, 2)),
            _ => m.std_error.map(|s| (s, 3)),
        };
        let (se, ci) = se.map_or((String::new(), String::new()), |(s, digits)| {
            (
                format!("{s:.digits$}"),
                format!("{:.digits$}", interval95(s)),
            )
        });
        text.rows.push(format!(
            "{:>4} {:<22}{:>9}{:>10}{se:>8}{ci:>8}  {}",
            format!("{}.", i + 1),
            m.notation,
            value(m.equity, m.mwc, units),
            d,
            chances(&m.probs)
        ));
    }
}

/// What the analysis panel says (the score matrix while it is on).
/// The row the panel keeps in view: the move selected, or, when nothing is
/// previewed, a match decision's move played (the best is first, and named
/// in the match panel too).
fn in_view(a: &AnalysisState, moves: &[bgedit_engine::MoveLine]) -> usize {
    let played = moves
        .iter()
        .position(|m| a.played_after.as_deref() == Some(m.after.as_str()));
    match (a.preview, played) {
        (false, Some(p)) => p,
        _ => a.selected,
    }
}

pub fn panel_text(model: &Model) -> PanelText {
    if model.matrix.on {
        return score_matrix::panel_text(model);
    }
    let a = &model.analysis;
    if a.engines.alone().is_none() {
        // The reference's list marks the other's pick, and says where they
        // disagree.
        let d = disagreement(a);
        let other = second_engine(a);
        let marked = AnalysisState {
            other_pick: d
                .as_ref()
                .zip(other)
                .map(|(d, k)| (k, d.pick(k).to_owned())),
            ..a.clone()
        };
        let mut text = panel_text_of(model, &marked);
        if let Some(d) = d {
            text.notes.insert(0, format!("⚑ {}", d.describe()));
        }
        return text;
    }
    panel_text_of(model, a)
}

/// The panel's header: the engine, what is shown at what depth or how far
/// the rollout is, in what unit, and what is running.
fn header_of(a: &AnalysisState, engine: EngineKind, unit_word: &str) -> String {
    let rollout = a.displayed().and_then(|s| s.analysis.rollout());
    let mut header = match (rollout, a.displayed()) {
        (Some(r), _) => rollout_header(r, a.rolling(), unit_word, engine),
        (None, _) if a.rolling() => match a.rollout.as_ref() {
            Some(run @ RolloutRun { ticks: Some(t), .. }) => format!(
                "{} rollout {}/{} trials (no candidate finished yet) · Esc stops · {unit_word}",
                run.engine.name(),
                t.trials,
                t.of
            ),
            run => format!(
                "{} rollout: starting… · Esc stops · {unit_word}",
                run.map_or(EngineKind::reference(), |r| r.engine).name()
            ),
        },
        (None, Some(s)) => format!(
            "{} {} · {unit_word}",
            engine.name(),
            bgedit_engine::text::depth_words(engine, &s.analysis, s.plies)
        ),
        (None, None) if problem(a, engine).is_none() => format!("{}: analysing…", engine.name()),
        (None, None) => engine.name().to_owned(),
    };
    if let (Some(label), Some(v)) = (
        engine.spec().version_label,
        a.opinions.get(&engine).and_then(|o| o.version.as_ref()),
    ) {
        header += &format!(" · {label} {v}");
    }
    match a.running {
        _ if rollout.is_some() || a.rolling() => {}
        Some(p) if a.shown.is_some() => header += &format!(" · {p}-ply running…"),
        _ if a.deep_due && a.shown.as_ref().is_some_and(|s| s.plies < a.deep_plies) => {
            header += &format!(" · {}-ply when you pause (a: now)", a.deep_plies)
        }
        _ => {}
    }
    header
}

/// A move list's rows: each move's equity, its difference from the best,
/// its chances, and its marks (played, the other engine's pick).
fn move_rows(
    text: &mut PanelText,
    a: &AnalysisState,
    moves: &[bgedit_engine::MoveLine],
    plies: &u8,
    units: Units,
) {
    use bgedit_engine::text::{diff, value};
    if moves.is_empty() {
        text.rows
            .push("No legal move: the roll cannot be played".to_owned());
    }
    // At 2-ply and up the engine's move filter evaluates only the leading
    // candidates that deep; the rest keep their 0-ply equity and so
    // may rank below a move they beat. Each row says its depth then
    // (and the header what the rows are).
    let tail = bgedit_engine::answer::shallow_tail(*plies, moves);
    let ply_col = |m: Option<&bgedit_engine::MoveLine>| match (tail, m) {
        (None, _) => String::new(),
        (Some(_), None) => format!("{:>4}", "Ply"),
        (Some(_), Some(m)) => format!("{:>4}", m.depth(*plies)),
    };
    text.columns = Some(format!(
        "{:>4}{} {:<22}{:>9}{:>10}  {CHANCE_COLUMNS}",
        "#",
        ply_col(None),
        "Move",
        "Equity",
        "Diff"
    ));
    let best = moves.first().map(|m| (m.equity, m.mwc));
    for (i, m) in moves.iter().enumerate() {
        let (be, bm) = best.expect("listed");
        let d = if i == 0 {
            String::new()
        } else {
            diff(m.equity, be, m.mwc.zip(bm), units)
        };
        let played = a.played_after.as_deref() == Some(m.after.as_str());
        let notation = if played {
            format!("{} ◀ played", m.notation)
        } else if let Some((other, _)) = a.other_pick.as_ref().filter(|(_, p)| *p == m.notation) {
            format!("{} ◀ {}", m.notation, other.name())
        } else {
            m.notation.clone()
        };
        text.rows.push(format!(
            "{:>4}{} {:<22}{:>9}{:>10}  {}",
            format!("{}.", i + 1),
            ply_col(Some(m)),
            notation,
            value(m.equity, m.mwc, units),
            d,
            chances(&m.probs)
        ));
    }
    if !moves.is_empty() {
        text.selected = Some(in_view(a, moves));
    }
}

fn panel_text_of(model: &Model, a: &AnalysisState) -> PanelText {
    use bgedit_engine::text::value;
    let engine = a.displayed_engine();
    // An engine without MWC gives normalised equity only: with one
    // on, every engine is shown in it, one unit for the lists.
    let no_mwc = a.engines.kinds().find(|k| !k.spec().caps.gives_mwc);
    let units = if model.position.state.is_money() || no_mwc.is_some() {
        Units::Equity
    } else {
        a.units
    };
    let unit_word = match (model.position.state.is_money(), units, no_mwc) {
        (true, _, _) => "money equity".to_owned(),
        // The note is the engine's without MWC: a list beside it is in its
        // unit.
        (false, _, Some(k)) if k == engine => {
            format!("normalised equity ({} gives no MWC)", k.name())
        }
        (false, _, Some(k)) => format!("normalised equity, as {}'s", k.name()),
        (false, Units::Equity, None) => "normalised equity (% for MWC)".to_owned(),
        (false, Units::Mwc, None) => "match winning chances (% for equity)".to_owned(),
    };
    let unit_word = unit_word.as_str();
    let rollout = a.displayed().and_then(|s| s.analysis.rollout());
    let header = header_of(a, engine, unit_word);
    let mut text = PanelText {
        header,
        ..PanelText::default()
    };
    // Why there is no answer goes with the notes, which the panel wraps.
    if let Some(problem) = problem(a, engine) {
        text.notes.push(problem.clone());
        if a.displayed().is_none() {
            return text;
        }
    }
    let Some(shown) = a.displayed() else {
        return text;
    };
    text.notes
        .extend(bgedit_engine::request::sent_notes(&model.position));
    // The cube before the roll is the reference's: it goes with its list.
    if let (Analysis::Moves { .. }, Some(cube), true) =
        (&shown.analysis, &a.cube_before_roll, engine.is_reference())
    {
        text.notes.extend(cube_line(cube, units));
    }
    if let Some(r) = rollout {
        text.notes.push(format!("Rollout: {}", r.describe()));
    }
    if let (Analysis::Cube { .. } | Analysis::Take { .. }, Some(p)) =
        (&shown.analysis, &a.played_action)
    {
        text.notes.push(format!("Played in the match: {p}"));
    }
    match &shown.analysis {
        Analysis::Moves { moves, plies, .. } if rollout.is_some() => {
            rollout_rows(&mut text, moves, units);
            if !moves.is_empty() {
                text.selected = Some(in_view(a, moves));
            }
        }
        Analysis::Moves { moves, plies, .. } => move_rows(&mut text, a, moves, plies, units),
        Analysis::Cube {
            action,
            no_double,
            double_take,
            double_pass,
            no_double_mwc,
            double_take_mwc,
            double_pass_mwc,
            probs,
            cubeless,
            ..
        } => {
            text.rows.push(format!("Proper cube action: {action}"));
            for (label, e, m) in [
                ("No double", no_double, no_double_mwc),
                ("Double, take", double_take, double_take_mwc),
                ("Double, pass", double_pass, double_pass_mwc),
            ] {
                text.rows
                    .push(format!("  {label:<14}{:>9}", value(*e, *m, units)));
            }
            if let Some((n, t)) = rollout.and_then(|r| r.no_double_se.zip(r.double_take_se)) {
                text.rows.push(format!(
                    "  SE (95%)  No double {n:.3} (±{:.3}) · Double, take {t:.3} (±{:.3})",
                    bgedit_engine::answer::interval95(n),
                    bgedit_engine::answer::interval95(t)
                ));
            }
            text.rows.push(cubeless_row("Cubeless", *cubeless, probs));
        }
        Analysis::Take {
            take,
            pass,
            take_mwc,
            pass_mwc,
            proper,
            probs,
            cubeless,
            ..
        } => {
            let taker = model.position.state.on_roll.opponent();
            text.rows
                .push(format!("{taker} should {proper} (for the player doubled)"));
            text.rows.push(format!(
                "  {:<14}{:>9}",
                "Take",
                value(*take, *take_mwc, units)
            ));
            text.rows.push(format!(
                "  {:<14}{:>9}",
                "Pass",
                value(*pass, *pass_mwc, units)
            ));
            if let Some(t) = rollout.and_then(|r| r.double_take_se) {
                text.rows.push(format!(
                    "  SE (95%)  Take {t:.3} (±{:.3})",
                    bgedit_engine::answer::interval95(t)
                ));
            }
            text.rows.push(cubeless_row(
                &format!("{taker}'s cubeless"),
                *cubeless,
                probs,
            ));
        }
        Analysis::Eval {
            probs, cubeless, ..
        } => {
            let why = bgedit_engine::request::no_cube_action(&model.position).unwrap_or_default();
            text.rows.push(format!("No cube action: {why}"));
            text.rows.push(cubeless_row("Cubeless", *cubeless, probs));
        }
        Analysis::Over { reason } => text.rows.push(format!("Nothing to analyse: {reason}")),
    }
    text
}
