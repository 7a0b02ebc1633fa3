//! The statistics view of a player across the library's matches (`P` in
//! the library panel): each match with its numbers, the summary and trend
//! `bgedit stats --player` prints (the same computation,
//! `library::player_stats`), the decision kinds that cost most, and PR
//! over time as a chart, checker plays and cube decisions apart.

use crate::ui::theme::Theme;
use bgedit_core::quote::printable;
use bgedit_engine::stored_depth::words as depth_words;
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
    /// PR by dated match (x: the match's place in date order, from 1):
    /// overall, checker plays, and cube decisions.
    pub overall: Vec<(f64, f64)>,
    pub checker: Vec<(f64, f64)>,
    pub cube: Vec<(f64, f64)>,
    /// The chart's matches (dated), and those left out for having no date.
    pub dated: usize,
    pub undated: usize,
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
        "{:>3} {:<10} {:<20} {:>3} {:>8} {:<12} {:>6} {:>7} {:>7} {:>7}",
        "#", "date", "opponent", "len", "result", "analysis", "PR", "chk PR", "cube PR", "luck"
    )];
    for (i, r) in rows.iter().enumerate() {
        let analysis = r
            .analysis
            .as_ref()
            .map_or_else(|| "none".to_owned(), |(e, p)| depth_words(e, *p));
        let opponent: String = r.opponent.chars().take(20).collect();
        // The result from the player's side: W 10-4, L 4-7.
        let result = match (r.score, r.won) {
            (Some([f, a]), Some(true)) => format!("W {f}-{a}"),
            (Some([f, a]), Some(false)) => format!("L {f}-{a}"),
            (Some([f, a]), None) => format!("{f}-{a}"),
            (None, _) => "-".to_owned(),
        };
        table.push(format!(
            "{:>3} {:<10} {:<20} {:>3} {:>8} {:<12} {:>6} {:>7} {:>7} {:>7}",
            i + 1,
            r.date.as_deref().unwrap_or("undated"),
            opponent,
            r.m.length,
            result,
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
            "{}, {} analysed; over all {} (not a mean of matches): PR {}",
            bgedit_core::words::count(t.matches, "match", "matches"),
            t.analysed,
            bgedit_core::words::count(t.decisions as usize, "decision", "decisions"),
            one(t.pr),
        ),
        format!(
            "error rate {} mEMG · checker {} · cube {} · luck {} mEMG a move",
            one(t.error),
            one(t.checker),
            one(t.cube),
            one(t.luck)
        ),
        format!(
            "trend over the dated matches: PR first half {}, last half {}, {} a match{}",
            one(t.pr_first_half),
            one(t.pr_last_half),
            t.pr_slope
                .map_or_else(|| "-".to_owned(), |v| format!("{v:+.2}")),
            match t.undated {
                0 => String::new(),
                n => format!(
                    "; {} undated, in no trend",
                    bgedit_core::words::count(n, "match", "matches")
                ),
            }
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
    // Only the dated matches have a place in time.
    let dated: Vec<&bgedit_library::player_stats::MatchRow> =
        rows.iter().filter(|r| r.date.is_some()).collect();
    let points = |f: fn(&bgedit_library::player_stats::MatchRow) -> Option<f64>| {
        dated
            .iter()
            .enumerate()
            .filter_map(|(i, r)| f(r).map(|v| ((i + 1) as f64, v)))
            .collect::<Vec<_>>()
    };
    let label = |i: usize| {
        dated
            .get(i)
            .and_then(|r| r.date.clone())
            .unwrap_or_default()
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
        overall: points(|r| r.pr),
        checker: points(|r| r.checker_pr),
        cube: points(|r| r.cube_pr),
        x_labels: [label(0), label(dated.len().saturating_sub(1))],
        dated: dated.len(),
        undated: rows.len() - dated.len(),
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

/// PR over the dated matches in date order: overall, checker plays and
/// cube decisions, each its own line; the legend on a row of its own
/// above the chart, off the lines.
fn draw_chart(frame: &mut Frame, area: Rect, view: &PlayerView, theme: &Theme) {
    if area.height < 6 {
        return;
    }
    let [legend, area] = Layout::vertical([Constraint::Length(2), Constraint::Min(0)]).areas(area);
    let series = [
        ("overall PR", &view.overall, theme.success),
        ("checker PR", &view.checker, theme.label),
        ("cube PR", &view.cube, theme.warning),
    ];
    let undated = match view.undated {
        0 => String::new(),
        n => format!(
            " · {} undated, not shown",
            bgedit_core::words::count(n, "match", "matches")
        ),
    };
    let mut spans = vec![ratatui::text::Span::raw(format!(
        " PR over time: {} in date order (lower is better){undated}   ",
        bgedit_core::words::count(view.dated, "dated match", "dated matches")
    ))];
    for (name, _, style) in &series {
        spans.push(ratatui::text::Span::styled("── ", *style));
        spans.push(ratatui::text::Span::raw(format!("{name}   ")));
    }
    frame.render_widget(
        Paragraph::new(vec![Line::raw(""), Line::from(spans)]),
        legend,
    );
    let last_x = series
        .iter()
        .flat_map(|s| s.1.iter())
        .map(|p| p.0)
        .fold(1.0, f64::max);
    let top = series
        .iter()
        .flat_map(|s| s.1.iter())
        .map(|p| p.1)
        .fold(1.0, f64::max)
        * 1.1;
    let datasets: Vec<Dataset> = series
        .iter()
        .map(|(name, data, style)| {
            Dataset::default()
                .name(*name)
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(*style)
                .data(data)
        })
        .collect();
    let chart = Chart::new(datasets)
        .legend_position(None)
        .block(Block::default().borders(Borders::TOP))
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
