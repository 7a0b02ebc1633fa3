//! The statistics view of a player across the library's matches (`P` in
//! the library panel): each match with its numbers, the summary and trend
//! `bgedit stats --player` prints (the same computation,
//! `library::player_stats`), the decision kinds that cost most, and PR
//! over time as a chart, checker plays and cube decisions apart.

use crate::ui::theme::Theme;
use bgedit_core::quote::printable;
use bgedit_engine::registry::stored_depth_words as depth_words;
use bgedit_library::player_stats::PlayerStats;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Block, Borders, Chart, Clear, Dataset, GraphType, Paragraph};

/// The view's text and the chart's points: its part of the snapshot.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerView {
    pub title: String,
    /// One line a match, under a header line.
    pub table: Vec<String>,
    /// The summary and trend, as `stats --player` says them.
    pub summary: Vec<String>,
    /// The kinds of decision that cost most, costliest first.
    pub costliest: Vec<String>,
    /// PR by match (x: the match's place in date order, from 1): checker
    /// plays, and cube decisions.
    pub checker: Vec<(f64, f64)>,
    pub cube: Vec<(f64, f64)>,
    /// The x axis's labels: the first and last matches' dates (or their
    /// places).
    pub x_labels: [String; 2],
    pub scroll: u16,
}

// Every number comes from the store's finite values.
impl Eq for PlayerView {}

fn one(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"))
}

/// The view of `stats`.
pub fn of(stats: &PlayerStats, scroll: u16) -> PlayerView {
    let rows = &stats.rows;
    let mut table = vec![format!(
        "{:>3} {:<10} {:<20} {:>3} {:>6} {:<12} {:>6} {:>7} {:>7} {:>7}",
        "#", "date", "opponent", "len", "result", "analysis", "PR", "chk PR", "cube PR", "luck"
    )];
    for (i, r) in rows.iter().enumerate() {
        let analysis = r
            .analysis
            .as_ref()
            .map_or_else(|| "none".to_owned(), |(e, p)| depth_words(e, *p));
        let opponent: String = r.opponent.chars().take(20).collect();
        table.push(format!(
            "{:>3} {:<10} {:<20} {:>3} {:>6} {:<12} {:>6} {:>7} {:>7} {:>7}",
            i + 1,
            r.date.as_deref().unwrap_or("-"),
            opponent,
            r.m.length,
            r.m.result,
            analysis,
            one(r.pr),
            one(r.checker_pr),
            one(r.cube_pr),
            one(r.luck)
        ));
    }
    let t = &stats.trend;
    let mut summary = vec![
        format!(
            "{} matches, {} analysed; PR {} (first half {}, last half {}, {} a match)",
            t.matches,
            t.analysed,
            one(t.pr),
            one(t.pr_first_half),
            one(t.pr_last_half),
            t.pr_slope
                .map_or_else(|| "-".to_owned(), |v| format!("{v:+.2}"))
        ),
        format!(
            "error rate {} mEMG · checker {} · cube {} · luck {} mEMG a move",
            one(t.error),
            one(t.checker),
            one(t.cube),
            one(t.luck)
        ),
        "PR: XG's, 500 × the mean error per decision that counts (checker: per unforced \
         move; cube: per close cube decision)"
            .to_owned(),
    ];
    if t.analysed == 0 {
        summary.push("No match of theirs is analysed yet: run `bgedit library analyse`.".into());
    }
    let mut costliest = vec!["Costliest across the matches".to_owned()];
    if stats.costliest.is_empty() {
        costliest.push("  nothing cost equity".to_owned());
    }
    costliest.extend(
        stats
            .costliest
            .iter()
            .map(|k| format!("  {:<26} {:>4} {:>8.3}", k.name, k.count, -k.error)),
    );
    let points = |f: fn(&bgedit_library::player_stats::MatchRow) -> Option<f64>| {
        rows.iter()
            .enumerate()
            .filter_map(|(i, r)| f(r).map(|v| ((i + 1) as f64, v)))
            .collect::<Vec<_>>()
    };
    let label = |i: usize| {
        rows.get(i)
            .and_then(|r| r.date.clone())
            .unwrap_or_else(|| format!("match {}", i + 1))
    };
    PlayerView {
        title: printable(&format!(
            "Statistics of {} across the library's matches",
            stats.player
        ))
        .into_owned(),
        // Names are the files': escaped before they reach the terminal.
        table: table.iter().map(|l| printable(l).into_owned()).collect(),
        summary,
        costliest,
        checker: points(|r| r.checker_pr),
        cube: points(|r| r.cube_pr),
        x_labels: [label(0), label(rows.len().saturating_sub(1))],
        scroll,
    }
}

/// The rows the chart takes at least.
const CHART_ROWS: u16 = 12;
/// The width of the costliest kinds.
const KINDS_WIDTH: u16 = 46;

pub fn draw(frame: &mut Frame, area: Rect, view: &PlayerView, theme: &Theme) {
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Line::styled(format!(" {} ", view.title), theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let text_rows = (view.table.len() + view.summary.len() + 1) as u16;
    let room = inner.height.saturating_sub(CHART_ROWS).max(4);
    let [top, chart] =
        Layout::vertical([Constraint::Length(text_rows.min(room)), Constraint::Min(0)])
            .areas(inner);
    let [table, kinds] =
        Layout::horizontal([Constraint::Min(0), Constraint::Length(KINDS_WIDTH)]).areas(top);
    let mut lines: Vec<Line> = Vec::new();
    for (i, l) in view.table.iter().enumerate() {
        lines.push(if i == 0 {
            Line::styled(l.clone(), theme.label)
        } else {
            Line::raw(l.clone())
        });
    }
    lines.push(Line::raw(""));
    lines.extend(view.summary.iter().map(|l| Line::raw(l.clone())));
    frame.render_widget(Paragraph::new(lines).scroll((view.scroll, 0)), table);
    let kinds_lines = crate::ui::text::headed(&view.costliest, theme.label);
    frame.render_widget(Paragraph::new(kinds_lines), kinds);
    draw_chart(frame, chart, view, theme);
}

/// PR over the matches in date order: checker plays and cube decisions.
fn draw_chart(frame: &mut Frame, area: Rect, view: &PlayerView, theme: &Theme) {
    if area.height < 5 {
        return;
    }
    let n = view.checker.len().max(view.cube.len()).max(1);
    let last_x = view
        .checker
        .iter()
        .chain(&view.cube)
        .map(|p| p.0)
        .fold(1.0, f64::max);
    let top = view
        .checker
        .iter()
        .chain(&view.cube)
        .map(|p| p.1)
        .fold(1.0, f64::max)
        * 1.1;
    let datasets = vec![
        Dataset::default()
            .name("checker PR")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.label)
            .data(&view.checker),
        Dataset::default()
            .name("cube PR")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.warning)
            .data(&view.cube),
    ];
    let chart = Chart::new(datasets)
        .block(Block::default().borders(Borders::TOP).title(format!(
            " PR over time: {n} matches in date order (lower is better) "
        )))
        .x_axis(
            Axis::default()
                .bounds([1.0, last_x.max(2.0)])
                .labels(view.x_labels.iter().map(|l| Line::raw(l.clone()))),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, top])
                .labels([Line::raw("0"), Line::raw(format!("{top:.0}"))]),
        );
    frame.render_widget(chart, area);
}
