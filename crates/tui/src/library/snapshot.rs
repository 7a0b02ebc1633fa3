//! What the library panel shows, made from the model in one place: the
//! header, the loaded rows as text, the highlighted entry's details, the
//! note editor, the review card.

use super::state::{Ask, LibMode, LibState, LikeList, NoteEditor, Review};
use crate::model::{Mode, Model};
use crate::panels::{Panel, PanelToggles};
use crate::prompt::state::Line;
use bgedit_core::domain::skill::Skill;
use bgedit_engine::Analysis;
use bgedit_engine::match_analysis::{Judged, QuizAnswer};
use bgedit_library::Summary;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibrarySnapshot {
    /// Whether the panel has the keys (else the board has them).
    pub focused: bool,
    pub header: String,
    pub filter_error: Option<String>,
    /// The loaded page as cells; the view lays them out to its width
    /// ([`layout`]) and shows a window around `selected`.
    pub rows: Vec<Row>,
    pub selected: Option<usize>,
    /// Lines beside the board: the highlighted entry, or the review's card.
    pub detail: Vec<String>,
    /// Lines under the board instead of the list (a revealed review card).
    pub body: Option<Vec<String>>,
    pub note: Option<NoteEditor>,
    /// The quiz's trend under the statistics: each week's mean equity
    /// lost (mEMG), oldest first, drawn as a sparkline.
    pub trend: Option<Vec<u64>>,
}

/// Whether the library panel has the keys: in one of its modes, but not
/// while asking a title and tags for the editor's position (`+`), which is
/// about the board.
pub(crate) fn focused(mode: &Mode) -> bool {
    matches!(mode, Mode::Library(m) if !matches!(m, LibMode::Ask(Ask::AddTitle | Ask::AddTags)))
}

/// One list row's cells: number, title, play (`7pt 2a-4a`, on roll first),
/// the player on roll and the dice, the decision's error (a match's
/// mistake), tags, collections, the note's first line. Pips and the rest
/// are in the details beside the list; [`layout`] fits the cells to the
/// panel's width.
pub(crate) fn row(s: &Summary) -> Row {
    // Titles, notes and collections come from files and pastes: their
    // control characters are shown as escapes, never sent to the terminal.
    let cell = |t: &str| bgedit_core::quote::printable(t).into_owned();
    [
        s.id.to_string(),
        cell(&s.title),
        s.match_text(),
        s.roll_text(),
        s.error
            .map_or(String::new(), bgedit_core::domain::skill::given_away),
        cell(&s.tags),
        cell(&s.collections),
        cell(&s.note_line),
    ]
}

/// A list row's cells (see [`row`]).
pub(crate) type Row = [String; 8];

/// The cells whose width follows the room: title, tags, collections, note.
const FLEXIBLE: [usize; 4] = [1, 5, 6, 7];

/// The rows as lines of `width` columns: each column as wide as its
/// widest cell, a column empty in every row left out; where the room is
/// short, the title, tags, collections and note share it, the narrowest
/// whole and the rest cut alike (with `…`).
pub(crate) fn layout(rows: &[Row], width: usize) -> Vec<String> {
    let len = |t: &String| t.chars().count();
    let natural: Vec<usize> = (0..8)
        .map(|c| rows.iter().map(|r| len(&r[c])).max().unwrap_or(0))
        .collect();
    let shown: Vec<usize> = (0..8).filter(|&c| natural[c] > 0).collect();
    let fixed: usize = shown
        .iter()
        .filter(|c| !FLEXIBLE.contains(c))
        .map(|&c| natural[c])
        .sum();
    let gaps = shown.len().saturating_sub(1);
    let room = width.saturating_sub(fixed + gaps);
    let flexible: Vec<usize> = shown
        .iter()
        .copied()
        .filter(|c| FLEXIBLE.contains(c))
        .collect();
    // The widest cap that lets the flexible columns fit the room.
    let total = |cap: usize| -> usize { flexible.iter().map(|&c| natural[c].min(cap)).sum() };
    let mut cap = flexible.iter().map(|&c| natural[c]).max().unwrap_or(0);
    while cap > 1 && total(cap) > room {
        cap -= 1;
    }
    let widths: Vec<usize> = (0..8)
        .map(|c| {
            if FLEXIBLE.contains(&c) {
                natural[c].min(cap)
            } else {
                natural[c]
            }
        })
        .collect();
    rows.iter()
        .map(|r| {
            let cells: Vec<String> = shown
                .iter()
                .map(|&c| {
                    let t = clip(&r[c], widths[c]);
                    // Numbers to the right, words to the left.
                    if c == 0 || c == 4 {
                        format!("{t:>w$}", w = widths[c])
                    } else {
                        format!("{t:<w$}", w = widths[c])
                    }
                })
                .collect();
            cells.join(" ").trim_end().to_owned()
        })
        .collect()
}

fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_owned()
    } else if width == 0 {
        String::new()
    } else {
        let mut t: String = text.chars().take(width - 1).collect();
        t.push('…');
        t
    }
}

fn details(s: &Summary, loaded: Option<i64>) -> Vec<String> {
    let d = &s.derived;
    let mut v = vec![
        format!("Entry {}", s.id),
        if s.title.is_empty() {
            "(no title)".to_owned()
        } else {
            clip(&s.title, 40)
        },
        format!("Play    {}", s.match_text()),
        format!("Roll    {}", s.roll_text()),
        format!("Cube    {}", d.cube),
        format!("Pips    O {}  X {}", d.pips_o, d.pips_x),
        format!(
            "Kind    {}{}",
            if d.race { "race" } else { "contact" },
            if d.bar { ", bar" } else { "" }
        ),
    ];
    // A mistake's error, and the verdict it is by: the deepest the
    // library holds on the decision.
    if let Some(e) = s.error {
        let by = s
            .error_by
            .as_ref()
            .map_or(String::new(), |b| format!(" by {}", b.depth));
        v.push(format!(
            "Error   {}{by}",
            bgedit_core::domain::skill::given_away(e)
        ));
    }
    // What the user wrote, where there is any.
    for (label, text) in [
        ("Tags", &s.tags),
        ("In", &s.collections),
        ("Note", &s.note_line),
    ] {
        if !text.is_empty() {
            v.push(format!("{label:<7} {text}"));
        }
    }
    if loaded == Some(s.id) {
        v.push("(loaded in the editor)".to_owned());
    }
    v.into_iter()
        .map(|l| bgedit_core::quote::printable(&l).into_owned())
        .collect()
}

/// The panels to lay out: the library's slot is on while the panel is (its
/// own state, not a toggle of `model.panels`), and while it has the keys it
/// is the one turned on, so on a short screen it gets the room.
pub fn panels(model: &Model) -> PanelToggles {
    let mut panels = if focused(&model.mode) {
        PanelToggles::default()
    } else {
        model.panels
    };
    if panels.is_on(Panel::Library) != model.library.visible() {
        panels.toggle(Panel::Library);
    }
    panels
}

/// The input line's question and text in the panel's modes.
pub(crate) fn prompt(mode: &LibMode, state: &LibState) -> Option<(String, Line)> {
    match mode {
        LibMode::Filter => Some(("Filter".to_owned(), state.filter.clone())),
        LibMode::Ask(kind) => Some((kind.question(state.existing.as_ref()), state.input.clone())),
        _ => None,
    }
}

pub fn of(model: &Model) -> Option<LibrarySnapshot> {
    let s = &model.library;
    if !s.visible() {
        return None;
    }
    let focused = focused(&model.mode);
    if let Some(r) = &s.review {
        return Some(quiz(r, focused));
    }
    if let Some((lines, trend)) = &s.stats {
        return Some(LibrarySnapshot {
            focused,
            header: "Quiz statistics · S: back to the list".to_owned(),
            filter_error: None,
            rows: Vec::new(),
            selected: None,
            detail: vec!["(statistics)".to_owned()],
            body: Some(if lines.is_empty() {
                vec!["No quiz answered yet: r starts one.".to_owned()]
            } else {
                lines
                    .iter()
                    .map(|l| bgedit_core::quote::printable(l).into_owned())
                    .collect()
            }),
            note: None,
            trend: (!trend.is_empty()).then(|| trend.clone()),
        });
    }
    if let Some(l) = &s.likes {
        return Some(likes(l, s.loaded, focused));
    }
    if let Some(problem) = &s.problem {
        return Some(LibrarySnapshot {
            focused,
            header: "Library · cannot be listed".to_owned(),
            filter_error: None,
            rows: Vec::new(),
            selected: None,
            detail: vec!["(no entry)".to_owned()],
            body: Some(vec![
                bgedit_core::quote::printable(&problem.message).into_owned(),
                "Start with --library FILE for another library.".to_owned(),
            ]),
            note: None,
            trend: None,
        });
    }
    let header = format!(
        "Library · {}{} {}{}{}{}",
        s.total,
        if s.total_exact { "" } else { "+" },
        if s.total == 1 && s.total_exact {
            "entry"
        } else {
            "entries"
        },
        // The order is said when it is not the usual one.
        if s.order == bgedit_library::store::Order::Newest {
            String::new()
        } else {
            format!(" · {}", super::state::order_words(s.order))
        },
        if s.filter.text.is_empty() {
            String::new()
        } else {
            format!(" · filter: {}", s.filter.text)
        },
        if s.loading { " · …" } else { "" }
    );
    let selected = s
        .selected
        .checked_sub(s.offset)
        .and_then(|i| usize::try_from(i).ok())
        .filter(|&i| i < s.rows.len());
    Some(LibrarySnapshot {
        focused,
        header,
        filter_error: s.filter_error.clone(),
        rows: s.rows.iter().map(row).collect(),
        selected,
        detail: s
            .selected_row()
            .map(|r| details(r, s.loaded))
            .unwrap_or_else(|| vec!["(no entry)".to_owned()]),
        body: None,
        note: if model.mode == Mode::Library(LibMode::Note) {
            s.note.clone()
        } else {
            None
        },
        trend: None,
    })
}

/// The entries like one (`Q`), nearest first, each with its distance.
fn likes(l: &LikeList, loaded: Option<i64>, focused: bool) -> LibrarySnapshot {
    LibrarySnapshot {
        focused,
        header: format!(
            "Like {} · {} nearest · distance in checker-pips · Esc: back to the list",
            l.of,
            l.rows.len()
        ),
        filter_error: None,
        rows: l
            .rows
            .iter()
            .map(|(d, s)| {
                let mut r = row(s);
                r[0] = format!("{d:>3} · {}", s.id);
                r
            })
            .collect(),
        selected: Some(l.selected),
        detail: l.rows.get(l.selected).map_or_else(
            || vec!["(no entry)".to_owned()],
            |(d, s)| {
                let mut v = details(s, loaded);
                v.insert(1, format!("Distance {d}"));
                v
            },
        ),
        body: None,
        note: None,
        trend: None,
    }
}

/// The panel during a quiz: the question alone, then the grade, the
/// entry's words and the analyses once nothing can give the answer away.
fn quiz(r: &Review, focused: bool) -> LibrarySnapshot {
    let current = r.queue.get(r.index);
    let mut detail = vec![
        format!("Quiz: {}", r.collection),
        format!("{} of {}", r.index + 1, r.queue.len()),
        format!("known {}  not yet {}", r.known, r.unknown),
    ];
    if let Some(cur) = current {
        detail.push(String::new());
        detail.push(cur.match_text());
    }
    // The question alone first: no title, note or analysis, which
    // might give the answer away.
    let mut body = Vec::new();
    if let Some(cur) = current {
        body.push(question(&cur.position));
    }
    let who = r.grader.name();
    // Having doubled, the player is asked the opponent's answer: the
    // engine's figures and any kept analysis would give it away.
    let awaiting_response = r.awaiting_response();
    match (&r.answer, &r.grade) {
        (None, _) if r.revealed.is_none() => {
            if let Some(cur) = current {
                body.push(answer_keys(&cur.position));
            }
        }
        (None, _) => {}
        (Some(_), None) => body.push(format!("{who} grades your answer…")),
        (Some(answer), Some(Ok(j))) => {
            body.push(grade_line(j, who));
            match (&r.response, answer) {
                (Some(resp), _) => {
                    if let Some((_, text)) = super::quiz::response_verdict(&j.analysis, resp) {
                        body.push(text);
                    }
                }
                (None, QuizAnswer::Double) => {
                    body.push("and the opponent: t take or p pass?".to_owned());
                }
                _ => {}
            }
        }
        (Some(_), Some(Err(e))) => body.push(format!(
            "{who} could not grade it ({e}): y known · n not yet"
        )),
    }
    // Then the entry's own words, gnubg's list, and the analysis kept
    // with the entry.
    if let Some(e) = &r.revealed
        && (r.answer.is_none() || r.grade.is_some())
    {
        body.push(format!("Entry {}: {}", e.id, e.title));
        body.extend(e.note.lines().map(str::to_owned));
        if let Some(Some(Ok(j))) = r.answer.as_ref().map(|_| &r.grade)
            && !awaiting_response
        {
            body.extend(engine_lines(j, r.grader));
        }
        if let Some(a) = e.analysis.as_ref().filter(|_| !awaiting_response) {
            body.push(format!("Analysis ({}):", a.depth));
            body.extend(a.text.lines().map(str::to_owned));
        }
    }
    let body = body
        .iter()
        .map(|l| bgedit_core::quote::printable(l).into_owned())
        .collect();
    LibrarySnapshot {
        focused,
        header: format!(
            "Quiz of {} · {} of {} · known {} · not yet {}",
            r.collection,
            (r.index + 1).min(r.queue.len()),
            r.queue.len(),
            r.known,
            r.unknown
        ),
        filter_error: None,
        rows: Vec::new(),
        selected: None,
        detail,
        body: Some(body),
        note: None,
        trend: None,
    }
}

/// The question a position asks, as a player hears it.
pub(crate) fn question(p: &bgedit_core::domain::Position) -> String {
    let s = &p.state;
    let roller = s.on_roll;
    if s.double_offered {
        format!(
            "{roller} doubles to {}: {}, take or pass?",
            s.cube_value() * 2,
            roller.opponent()
        )
    } else if let Some([a, b]) = s.dice {
        format!("{roller} to play {a}{b}: your move?")
    } else {
        format!("{roller} on roll: double or no double?")
    }
}

/// The keys that answer the question `p` asks, and no others.
fn answer_keys(p: &bgedit_core::domain::Position) -> String {
    let s = &p.state;
    let answers = if s.double_offered {
        if s.is_money() && s.beavers {
            "t take · p pass · b beaver"
        } else {
            "t take · p pass"
        }
    } else if s.dice.is_some() {
        "m your move (e on the board)"
    } else {
        "d double · r no double"
    };
    format!("{answers} · Space reveal")
}

/// The grade of an answer: its word, the equity lost, the engine's best and
/// the answer's place in its list.
fn grade_line(j: &Judged, who: &str) -> String {
    let error = j.judgement.error;
    let word = Skill::of(error).word();
    if Skill::of(error) == Skill::Good && j.played == j.best {
        format!("{word}: {} is {who}'s best", j.played)
    } else {
        let place = match (&j.analysis, j.played_rank) {
            (Analysis::Moves { moves, .. }, Some(r)) => {
                format!(", yours {} of {}", r + 1, moves.len())
            }
            _ => String::new(),
        };
        format!(
            "{word} (-{error:.3}): your {} · {who}: {}{place}",
            j.played, j.best
        )
    }
}

/// The top of the engine's analysis behind a grade, its depth in the
/// engine's own count.
fn engine_lines(j: &Judged, engine: bgedit_engine::EngineKind) -> Vec<String> {
    let (who, depth) = (engine.name(), |p: u8| engine.depth_label(p));
    let mut lines = Vec::new();
    match &j.analysis {
        Analysis::Moves { plies, moves, .. } => {
            lines.push(format!("{who} {}:", depth(*plies)));
            for (i, m) in moves.iter().enumerate().take(5) {
                let mark = if Some(i) == j.played_rank {
                    " ◀ yours"
                } else {
                    ""
                };
                lines.push(format!(
                    "{:>2}. {:<24} {:+.3}{mark}",
                    i + 1,
                    m.notation,
                    m.equity
                ));
            }
        }
        Analysis::Cube {
            plies,
            action,
            no_double,
            double_take,
            double_pass,
            ..
        } => lines.push(format!(
            "{who} {}: no double {no_double:+.3} · double/take {double_take:+.3} · \
             double/pass {double_pass:+.3} · {action}",
            depth(*plies)
        )),
        Analysis::Take {
            plies, take, pass, ..
        } => lines.push(format!(
            "{who} {}: take {take:+.3} · pass {pass:+.3}",
            depth(*plies)
        )),
        _ => {}
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::{Row, layout};

    fn r(cells: [&str; 8]) -> Row {
        cells.map(str::to_owned)
    }

    #[test]
    fn columns_take_their_contents_width_and_share_a_short_room() {
        let rows = [
            r([
                "12",
                "A long title that says what it is",
                "7pt 2a-4a",
                "X 52",
                "-0.133",
                "",
                "",
                "Hit loose, then cover",
            ]),
            r(["3", "Race", "money", "X cube", "", "", "", ""]),
        ];
        // Room enough: no column cut, no blank column (tags and
        // collections are empty in every row), the error right-aligned.
        let wide = layout(&rows, 120);
        assert_eq!(
            wide[0],
            "12 A long title that says what it is 7pt 2a-4a X 52   -0.133 Hit loose, then cover"
        );
        assert_eq!(
            wide[1],
            " 3 Race                              money     X cube"
        );
        // Short of room: title and note cut alike, the numbers whole.
        let narrow = layout(&rows, 60);
        assert!(narrow.iter().all(|l| l.chars().count() <= 60), "{narrow:?}");
        assert!(
            narrow[0].contains("-0.133") && narrow[0].contains("7pt 2a-4a"),
            "{narrow:?}"
        );
        assert!(narrow[0].contains('…'), "{narrow:?}");
    }
}
