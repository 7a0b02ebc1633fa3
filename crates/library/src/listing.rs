//! The library's matches as a player lists them: date, players, length,
//! final score, winner, the analyses each has (engine and depth, or the
//! file's) and each player's PR, filtered and sorted. One computation for
//! `bgedit library matches` and the editor's match list.
//!
//! The filter's words, all of which must hold: `player:NAME` (part of a
//! name, as `stats --player` finds it: the columns are then from that
//! player's side), `since:YYYY-MM-DD`, `undated`, `analysed`, and any
//! other word looked for in the players, event, file and date (case and
//! accents ignored).

use crate::dates::{self, DateFrom};
use crate::names::{self, Found, Person};
use crate::store::{self, Library, ListedMatch, MatchRates};
use bgedit_core::domain::Player;

/// One match as listed.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchLine {
    pub id: i64,
    /// `YYYY-MM-DD` when known (else as the file writes it).
    pub date: Option<String>,
    pub date_from: Option<DateFrom>,
    pub length: u16,
    /// O's name, X's.
    pub players: [String; 2],
    /// O's points, X's, as the games add up.
    pub score: Option<[u32; 2]>,
    pub winner: Option<Player>,
    pub games: u32,
    /// The analyses held: engine, plies as stored, whether the file's;
    /// the file's last, deepest first.
    pub analyses: Vec<(String, i64, bool)>,
    /// Each side's PR (O's, X's), from the analysis the rates are from.
    pub pr: [Option<f64>; 2],
    pub event: Option<String>,
    pub path: String,
    pub format: String,
}

// Every number comes from the store's finite values: the editor's model,
// which holds a listing, stays `Eq`.
impl Eq for MatchLine {}

impl MatchLine {
    /// The side `person` sat on, if theirs.
    pub fn side_of(&self, person: &Person) -> Option<Player> {
        [Player::O, Player::X]
            .into_iter()
            .find(|p| person.is(&self.players[p.index()]))
    }
}

/// The list's order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortBy {
    /// Newest first, the undated last.
    #[default]
    Date,
    /// The lowest PR first (the player's when one is named, else the
    /// better side's), those without one last.
    Pr,
    /// By the opponent's name (X's when no player is named).
    Opponent,
    /// The longest first.
    Length,
    /// The player's widest win first (the winner's when no player is
    /// named), the unfinished last.
    Result,
}

impl SortBy {
    pub const ALL: [SortBy; 5] = [
        SortBy::Date,
        SortBy::Pr,
        SortBy::Opponent,
        SortBy::Length,
        SortBy::Result,
    ];

    pub fn word(self) -> &'static str {
        match self {
            SortBy::Date => "date",
            SortBy::Pr => "pr",
            SortBy::Opponent => "opponent",
            SortBy::Length => "length",
            SortBy::Result => "result",
        }
    }
}

/// The list: its lines, and the player its columns are from, if named.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listing {
    pub lines: Vec<MatchLine>,
    pub player: Option<Person>,
    /// Matches in the library before the filter.
    pub total: usize,
}

impl Eq for Listing {}

/// Why a filter lists nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ListError {
    #[error(transparent)]
    Library(#[from] store::LibraryError),
    #[error("no player's name holds '{}'", bgedit_core::quote::printable(.0))]
    NoPlayer(String),
    #[error(
        "'{}' is part of {} players' names: {}; give more of the name",
        bgedit_core::quote::printable(.query),
        .candidates.len(),
        bgedit_core::quote::printable(&.candidates.join(", "))
    )]
    Ambiguous {
        query: String,
        candidates: Vec<String>,
    },
    #[error("since: {0}")]
    Since(#[from] dates::NotADate),
}

/// What a filter asks.
#[derive(Default)]
struct Wanted {
    player: Option<String>,
    since: Option<String>,
    undated: bool,
    analysed: bool,
    words: Vec<String>,
}

fn wanted(filter: &str) -> Result<Wanted, ListError> {
    let mut w = Wanted::default();
    for word in filter.split_whitespace() {
        let lower = word.to_lowercase();
        if let Some(name) = lower
            .strip_prefix("player:")
            .map(|_| &word["player:".len()..])
        {
            w.player = Some(name.to_owned());
        } else if let Some(d) = lower.strip_prefix("since:") {
            w.since = Some(dates::parse_given(d)?);
        } else if lower == "undated" {
            w.undated = true;
        } else if lower == "analysed" || lower == "analyzed" {
            w.analysed = true;
        } else {
            w.words.push(names::fold(word));
        }
    }
    Ok(w)
}

/// The matches `filter` selects, sorted. Rates not yet kept are computed
/// and kept (a library that cannot be written is read all the same).
pub fn list(lib: &mut Library, filter: &str, sort: SortBy) -> Result<Listing, ListError> {
    let want = wanted(filter)?;
    let listed = lib.listed_matches()?;
    let total = listed.len();
    let player = match &want.player {
        None => None,
        Some(q) => {
            let aliases = lib.aliases()?;
            let people = names::people(
                listed
                    .iter()
                    .flat_map(|l| l.m.players.iter().map(String::as_str)),
                &aliases,
            );
            match names::find(q, &people) {
                Found::One(p) => Some(p),
                Found::None => return Err(ListError::NoPlayer(q.clone())),
                Found::Several(many) => {
                    return Err(ListError::Ambiguous {
                        query: q.clone(),
                        candidates: many.into_iter().map(|p| p.name).collect(),
                    });
                }
            }
        }
    };
    let mut fresh = Vec::new();
    let mut lines = Vec::new();
    for l in listed {
        let line = line(lib, l, &mut fresh)?;
        if selected(&line, &want, player.as_ref()) {
            lines.push(line);
        }
    }
    let _ = lib.put_rates(&fresh);
    sort_lines(&mut lines, sort, player.as_ref());
    Ok(Listing {
        lines,
        player,
        total,
    })
}

fn line(
    lib: &Library,
    l: ListedMatch,
    fresh: &mut Vec<(i64, [MatchRates; 2])>,
) -> store::Result<MatchLine> {
    let rates = match l.rates {
        Some(r) => r,
        None => {
            let r = crate::rates::of(lib, &l.m)?;
            fresh.push((l.m.id, r.clone()));
            r
        }
    };
    let m = l.m;
    Ok(MatchLine {
        id: m.id,
        date: m
            .date
            .as_deref()
            .map(|d| dates::normal(d).unwrap_or_else(|| d.to_owned())),
        date_from: m.date_from,
        length: m.length,
        score: m.score(),
        winner: m.winner(),
        games: l.games,
        analyses: l.analyses,
        pr: [rates[0].pr, rates[1].pr],
        players: m.players,
        event: m.event,
        path: m.path,
        format: m.format,
    })
}

fn selected(line: &MatchLine, want: &Wanted, player: Option<&Person>) -> bool {
    if player.is_some_and(|p| line.side_of(p).is_none()) {
        return false;
    }
    let date = line.date.as_deref().and_then(dates::normal);
    if let Some(since) = &want.since
        && date.as_deref().is_none_or(|d| d < since.as_str())
    {
        return false;
    }
    if want.undated && date.is_some() {
        return false;
    }
    if want.analysed && line.analyses.is_empty() {
        return false;
    }
    if want.words.is_empty() {
        return true;
    }
    let hay = names::fold(&format!(
        "{} {} {} {} {}",
        line.players[0],
        line.players[1],
        line.event.as_deref().unwrap_or(""),
        line.path,
        line.date.as_deref().unwrap_or("")
    ));
    want.words.iter().all(|w| hay.contains(w.as_str()))
}

fn sort_lines(lines: &mut [MatchLine], sort: SortBy, player: Option<&Person>) {
    let side = |l: &MatchLine| player.and_then(|p| l.side_of(p));
    let pr = |l: &MatchLine| match side(l) {
        Some(s) => l.pr[s.index()],
        None => match l.pr {
            [Some(a), Some(b)] => Some(a.min(b)),
            [a, b] => a.or(b),
        },
    };
    let opponent = |l: &MatchLine| {
        let s = side(l).unwrap_or(Player::O);
        names::fold(&l.players[1 - s.index()])
    };
    // The margin won by the player (or the winner): the unfinished last.
    let margin = |l: &MatchLine| -> Option<i64> {
        let [o, x] = l.score?;
        let s = side(l).or(l.winner)?;
        let (me, them) = if s == Player::O { (o, x) } else { (x, o) };
        Some(i64::from(me) - i64::from(them))
    };
    match sort {
        SortBy::Date => lines.sort_by(|a, b| {
            let (da, db) = (a.date.as_deref(), b.date.as_deref());
            db.is_some()
                .cmp(&da.is_some())
                .then(db.cmp(&da))
                .then(b.id.cmp(&a.id))
        }),
        SortBy::Pr => lines.sort_by(|a, b| {
            let (x, y) = (pr(a), pr(b));
            y.is_some()
                .cmp(&x.is_some())
                .then(x.unwrap_or(0.0).total_cmp(&y.unwrap_or(0.0)))
                .then(a.id.cmp(&b.id))
        }),
        SortBy::Opponent => {
            lines.sort_by(|a, b| opponent(a).cmp(&opponent(b)).then(a.id.cmp(&b.id)));
        }
        SortBy::Length => lines.sort_by(|a, b| b.length.cmp(&a.length).then(a.id.cmp(&b.id))),
        SortBy::Result => lines.sort_by(|a, b| {
            let (x, y) = (margin(a), margin(b));
            y.is_some()
                .cmp(&x.is_some())
                .then(y.cmp(&x))
                .then(a.id.cmp(&b.id))
        }),
    }
}
