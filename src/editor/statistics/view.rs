//! What the statistics view shows, as text (pure, for the snapshot), and
//! its drawing over the screen above the footer: gnubg's table on the
//! left, each player's costliest decision kinds on the right, and each
//! player's error per game as a bar chart below.

use crate::domain::Player;
use crate::domain::match_stats::{self, CubeError, DecisionKind, Overall};
use crate::domain::race::{GameClass, classify};
use crate::editor::match_review::state::{OpenMatch, Verdict};
use crate::editor::ui::theme::Theme;
use crate::engine::match_analysis::{Judged, Report};
use crate::quote::printable;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Borders, Clear, Paragraph, Wrap};

/// One kind of decision and what it cost a player.
#[derive(Clone, Debug, PartialEq)]
pub struct Kind {
    pub name: &'static str,
    /// Decisions of the kind that gave equity away.
    pub count: u32,
    /// Equity given away (normalised, as gnubg's table).
    pub error: f64,
}

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

/// The phases of a checker play, from the position before the roll is
/// played, as the roller sees it:
/// - opening: contact (gnubg's class), and both pip counts above 140 (the
///   start is 167: the first rolls of each side, before the armies meet);
/// - middle game: contact otherwise;
/// - race: no contact, the roller with checkers outside its home board;
/// - bear-off: no contact, every checker of the roller home (or off).
fn phase(j: &Judged) -> &'static str {
    let board = &j.position.board;
    let p = j.player;
    match classify(board, p) {
        GameClass::Contact if board.pip_count(p) > 140 && board.pip_count(p.opponent()) > 140 => {
            "checker play: opening"
        }
        GameClass::Contact => "checker play: middle game",
        _ if board.side(p)[6..].iter().all(|&n| n == 0) => "checker play: bear-off",
        _ => "checker play: race",
    }
}

/// The cube kinds gnubg's table counts, with its words.
fn cube_kind(e: CubeError) -> &'static str {
    match e {
        CubeError::MissedDoubleBelowCashPoint => "missed doubles below CP",
        CubeError::MissedDoubleAboveCashPoint => "missed doubles above CP",
        CubeError::WrongDoubleBelowDoublePoint => "wrong doubles below DP",
        CubeError::WrongDoubleAboveTooGood => "wrong doubles above TG",
        CubeError::WrongTake => "wrong takes",
        CubeError::WrongPass => "wrong passes",
    }
}

/// What each player's decisions cost by kind, costliest first (kinds that
/// cost nothing left out). Checker plays count as gnubg's table counts
/// them (unforced ones); cube errors as its cube rows.
fn costliest(judged: &[&Judged]) -> [Vec<Kind>; 2] {
    let mut out: [Vec<Kind>; 2] = Default::default();
    for j in judged {
        let g = &j.judgement;
        let name = match (g.kind, g.cube_error) {
            (DecisionKind::Checker, _) if g.counted && g.error > 0.0 => phase(j),
            (DecisionKind::Cube | DecisionKind::Take, Some(e)) => cube_kind(e),
            _ => continue,
        };
        let list = &mut out[j.player.index()];
        match list.iter_mut().find(|k| k.name == name) {
            Some(k) => {
                k.count += 1;
                k.error += g.error;
            }
            None => list.push(Kind {
                name,
                count: 1,
                error: g.error,
            }),
        }
    }
    for list in &mut out {
        list.sort_by(|a, b| b.error.total_cmp(&a.error).then(a.name.cmp(b.name)));
    }
    out
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

/// The view of `m`'s verdicts so far.
pub fn of(m: &OpenMatch, scroll: u16) -> StatisticsView {
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
    let luck = m.luck.as_ref().map(|l| (*l.0).clone());
    let rated = luck.is_some();
    let report = Report::of(&m.decisions, &owned, luck);
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
        m.decisions.len(),
        if m.analysing { " (analysing)" } else { "" }
    );
    let mut notes = Vec::new();
    if !rated {
        notes.push("Luck: rated with the analysis's last pass.".to_owned());
    }
    notes.push(
        "PR across matches: needs the library's match database, not in this view.".to_owned(),
    );
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
