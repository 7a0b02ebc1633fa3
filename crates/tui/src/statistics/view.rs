//! What the statistics view shows, as text (pure, for the snapshot), and
//! its drawing over the screen above the footer: gnubg's table on the
//! left, each player's costliest decision kinds on the right, and each
//! player's error per game as a bar chart below.

use crate::match_review::state::{OpenMatch, Verdict};
use crate::ui::theme::Theme;
use bgedit_core::domain::Player;
use bgedit_core::domain::cost_kinds::{self, Kind};
use bgedit_core::domain::match_stats::{self, Overall};
use bgedit_core::quote::printable;
use bgedit_engine::match_analysis::{Judged, Report};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Borders, Clear, Paragraph, Wrap};

/// The view's text: its part of the snapshot.
#[derive(Clone, Debug, PartialEq)]
pub struct StatisticsView {
    pub title: String,
    /// gnubg's `show statistics match` table, row by row.
    pub table: Vec<String>,
    pub names: [String; 2],
    /// By player (O, X): the kinds that cost, costliest first.
    pub costliest: [Vec<Kind>; 2],
    /// By game: its number and each player's PR in it (none where the
    /// player had no decision that counts).
    pub per_game: Vec<(usize, [Option<f64>; 2])>,
    /// What the view leaves out, and why.
    pub notes: Vec<String>,
    pub scroll: u16,
}

// Every number comes from checked answers (finite).
impl Eq for StatisticsView {}

/// What each player's decisions cost by kind, costliest first.
fn costliest(judged: &[&Judged]) -> [Vec<Kind>; 2] {
    cost_kinds::costliest(judged.iter().map(|j| (&j.judgement, &j.position.board)))
}

/// Each game's PR by player (XG's: 500 × the mean normalised error per
/// decision that counts), from that game's judgements alone.
fn per_game(judged: &[&Judged]) -> Vec<(usize, [Option<f64>; 2])> {
    let mut games: Vec<usize> = judged.iter().map(|j| j.game).collect();
    games.dedup();
    games
        .into_iter()
        .map(|g| {
            let stats =
                match_stats::summarise(judged.iter().filter(|j| j.game == g).map(|j| &j.judgement));
            let pr = |p: Player| Overall::of(&stats, p, 0).pr;
            (g, [pr(Player::O), pr(Player::X)])
        })
        .collect()
}

/// The file's own analysis judged as gnubg judges (no engine verdict is
/// there yet), and the depth words it is at (`XG Roller++, XG 3-ply`).
fn from_file(m: &OpenMatch) -> (Vec<Judged>, String) {
    let judged: Vec<Judged> = m
        .decisions()
        .iter()
        .flat_map(bgedit_engine::match_analysis::kept::from_file)
        .collect();
    let mut depths: Vec<String> = m
        .decisions()
        .iter()
        .filter_map(|d| d.analysis.as_ref().map(|a| a.depth().to_owned()))
        .filter(|d| !d.is_empty())
        .collect();
    depths.sort();
    depths.dedup();
    (judged, depths.join(", "))
}

/// The view of `m`'s verdicts so far, or of the file's own analysis while
/// the engine has given none.
pub fn of(m: &OpenMatch, scroll: u16) -> StatisticsView {
    let engine_judged = m.verdicts.iter().any(|v| matches!(v, Verdict::Judged(_)));
    if !engine_judged && m.carries_analysis() {
        let (owned, depths) = from_file(m);
        let title = format!(
            "Statistics · {} · the file's own analysis ({depths}) · E asks {}",
            printable(m.file_name()),
            m.judge.name()
        );
        return view_of(m, &owned, title, scroll);
    }
    let judged: Vec<&Judged> = m
        .verdicts
        .iter()
        .filter_map(|v| match v {
            Verdict::Judged(list) => Some(list.iter()),
            _ => None,
        })
        .flatten()
        .collect();
    let owned: Vec<Judged> = judged.iter().map(|j| (*j).clone()).collect();
    let with_verdict = m
        .verdicts
        .iter()
        .filter(|v| matches!(v, Verdict::Judged(_)))
        .count();
    let title = format!(
        "Statistics · {} · {} at {} · {with_verdict} of {} decisions judged{}",
        printable(m.file_name()),
        m.judge.name(),
        m.depth_words(),
        m.decisions().len(),
        if m.analysing { " (analysing)" } else { "" }
    );
    view_of(m, &owned, title, scroll)
}

/// The view of judgements `owned` of `m`'s decisions, under `title`.
fn view_of(m: &OpenMatch, owned: &[Judged], title: String, scroll: u16) -> StatisticsView {
    let judged: Vec<&Judged> = owned.iter().collect();
    let luck = m.luck.as_ref().map(|l| (*l.0).clone());
    let rated = luck.is_some();
    let report = Report::of(m.decisions(), owned, luck);
    let mut notes = Vec::new();
    if !rated {
        notes.push("Luck: rated with the analysis's last pass.".to_owned());
    }
    notes.push("PR across matches: P in the library panel.".to_owned());
    StatisticsView {
        title,
        // Names are the file's: escaped before they reach the terminal.
        table: report
            .text()
            .lines()
            .map(|l| printable(l).into_owned())
            .collect(),
        names: report.names.clone().map(|n| printable(&n).into_owned()),
        costliest: costliest(&judged),
        per_game: per_game(&judged),
        notes,
        scroll,
    }
}

/// The costliest kinds' lines of one player.
fn kind_lines(view: &StatisticsView, p: Player) -> Vec<String> {
    let mut out = vec![format!("{p}: {} — costliest", view.names[p.index()])];
    let list = &view.costliest[p.index()];
    if list.is_empty() {
        out.push("  nothing cost equity".to_owned());
    }
    out.extend(
        list.iter()
            .map(|k| format!("  {:<26} {:>3} {:>8.3}", k.name, k.count, -k.error)),
    );
    out
}

/// The rows the chart needs at least.
const CHART_ROWS: u16 = 10;

/// The table's columns: whole, or on a screen too short for it and wide
/// enough for two, split before its cube decisions (the player row heading
/// both), so that the overall block shows without scrolling.
fn table_columns(table: &[String], room: u16, width: u16, column: u16) -> Vec<Vec<String>> {
    let cut = table.iter().position(|l| l == "Cube decisions");
    match cut {
        Some(cut) if table.len() > usize::from(room) && width >= 2 * column => {
            let mut second = vec![table[0].clone(), String::new()];
            second.extend_from_slice(&table[cut..]);
            vec![table[..cut].to_vec(), second]
        }
        _ => vec![table.to_vec()],
    }
}

pub fn draw(frame: &mut Frame, area: Rect, view: &StatisticsView, theme: &Theme) {
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Line::styled(format!(" {} ", view.title), theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // gnubg's table is about 80 columns.
    let column = view
        .table
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0) as u16
        + 2;
    let room = inner.height.saturating_sub(CHART_ROWS).max(4);
    let columns = table_columns(&view.table, room, inner.width, column);
    let tallest = columns.iter().map(Vec::len).max().unwrap_or(0) as u16;
    let [top, bottom] =
        Layout::vertical([Constraint::Length(tallest.min(room)), Constraint::Min(0)]).areas(inner);
    let mut rest = top;
    for rows in &columns {
        let [here, right] =
            Layout::horizontal([Constraint::Length(column), Constraint::Min(0)]).areas(rest);
        let lines: Vec<Line> = rows.iter().map(|l| Line::raw(l.clone())).collect();
        frame.render_widget(Paragraph::new(lines).scroll((view.scroll, 0)), here);
        rest = right;
    }
    let kinds = kinds_text(view, theme);
    // The costliest kinds beside the table when they fit, else beside the
    // chart.
    let (chart, kinds_area) = if rest.width >= KINDS_WIDTH {
        (bottom, rest)
    } else {
        let [chart, kinds_area] =
            Layout::horizontal([Constraint::Min(0), Constraint::Length(KINDS_WIDTH)]).areas(bottom);
        (chart, kinds_area)
    };
    frame.render_widget(Paragraph::new(kinds).wrap(Wrap { trim: false }), kinds_area);
    draw_chart(frame, chart, view, theme);
}

/// The width the costliest kinds' lines take.
const KINDS_WIDTH: u16 = 46;

/// Each player's costliest kinds, then the notes.
fn kinds_text<'a>(view: &StatisticsView, theme: &Theme) -> Vec<Line<'a>> {
    let mut kinds: Vec<Line> = Vec::new();
    for p in Player::BOTH {
        for (i, l) in kind_lines(view, p).into_iter().enumerate() {
            kinds.push(if i == 0 {
                Line::styled(l, theme.label)
            } else {
                Line::raw(l)
            });
        }
        kinds.push(Line::raw(""));
    }
    kinds.extend(
        view.notes
            .iter()
            .map(|n| Line::styled(n.clone(), theme.dim)),
    );
    kinds
}

/// Each player's PR per game, O's bar and X's side by side.
fn draw_chart(frame: &mut Frame, area: Rect, view: &StatisticsView, theme: &Theme) {
    if area.height < 4 {
        return;
    }
    let groups: Vec<BarGroup> = view
        .per_game
        .iter()
        .map(|(g, prs)| {
            let bars: Vec<Bar> = Player::BOTH
                .iter()
                .map(|p| {
                    let pr = prs[p.index()];
                    let style = if *p == Player::O {
                        theme.label
                    } else {
                        theme.warning
                    };
                    Bar::new(pr.map_or(0, |v| (v * 10.0).round() as u64))
                        .text_value(pr.map_or("-".to_owned(), |v| format!("{v:.1}")))
                        .style(style)
                })
                .collect();
            BarGroup::new(bars).label(Line::raw(format!("game {g}")))
        })
        .collect();
    let title = format!(
        " PR per game (XG's: 500 × mean error per decision that counts) · each game: O {}'s bar, then X {}'s ",
        view.names[0], view.names[1]
    );
    let chart = BarChart::grouped(groups)
        .block(Block::default().borders(Borders::TOP).title(title))
        .bar_width(6)
        .bar_gap(1)
        .group_gap(3);
    frame.render_widget(chart, area);
}
