//! A match file into the library: each decision of each game becomes an
//! entry (source `FILE game N move M`, the decider in its title, the
//! file's analysis as the entry's analysis), keeping only decisions that
//! gave away at least `--errors E` by the file's analysis when asked; and
//! the match itself (header, games, every decision with the file's own
//! verdict at its engine and depth) as the library's match tables keep it.

use super::filter::DecisionKind;
use super::store::{Analysis, Decision, NewDecision, NewEntry, NewGame, NewMatch, Source, Verdict};
use bgedit_core::codec::match_file::{Contents, FileDecision, MatchFile};
use bgedit_core::domain::Player;
use bgedit_core::domain::match_record::{Action, ActionKind, FileAnalysis, MatchRecord};
use std::fmt::Write;

/// The error of a decision by the file's own analysis (see
/// [`bgedit_core::domain::match_record::stored_error`]).
pub fn decision_error(d: &FileDecision) -> Option<f64> {
    let kind = match &d.analysis {
        Some(FileAnalysis::Moves { .. }) => ActionKind::Move {
            dice: d.dice.unwrap_or([1, 1]),
            steps: Vec::new(),
        },
        _ => match d.played.as_str() {
            "double" => ActionKind::Double,
            "take" => ActionKind::Take,
            "drop" => ActionKind::Drop,
            _ => return None,
        },
    };
    let mut action = Action::new(d.player, kind);
    action.analysis = d.analysis.clone();
    bgedit_core::domain::match_record::stored_error(&action, &d.played)
}

/// The error of the cube decision before a roll by the file's own
/// analysis of it, when the player did not double: what no double gave
/// away (0 when no double was right). `None` for a decision with no such
/// analysis, or one still in match winning chances.
pub fn no_double_error(d: &FileDecision) -> Option<f64> {
    d.dice?;
    match &d.cube_analysis {
        Some(FileAnalysis::Cube {
            no_double,
            double_take,
            double_pass,
            depth,
            ..
        }) if !depth.contains("match winning chances") => {
            Some((double_take.min(*double_pass) - no_double).max(0.0))
        }
        _ => None,
    }
}

/// The entry of the cube decision before a roll that was not doubled: the
/// position without the dice, kind `cube`, played `no double`, with
/// `error` (a double missed when above 0).
pub fn cube_entry(file: &str, d: &FileDecision, error: Option<f64>) -> NewEntry {
    let mut position = d.position.clone();
    position.state.dice = None;
    let mut e = NewEntry::new(
        position,
        Source::Imported(format!("{file} game {} move {} cube", d.game, d.number)),
    );
    let name = d.position.names.of(d.player);
    e.title = format!(
        "game {} move {}: {name} ({}), cube before the roll",
        d.game, d.number, d.player
    );
    e.note = format!("played: {NO_DOUBLE}");
    e.analysis = d.cube_analysis.as_ref().map(analysis_text);
    e.decision = Some(Decision::new(
        name.to_owned(),
        DecisionKind::Cube,
        NO_DOUBLE.to_owned(),
        error,
    ));
    e
}

/// What a player who could double and did not played, in gnubg's words.
pub const NO_DOUBLE: &str = "no double";

/// The entry for one decision.
pub fn entry(file: &str, d: &FileDecision) -> NewEntry {
    let mut e = NewEntry::new(
        d.position.clone(),
        Source::Imported(format!("{file} game {} move {}", d.game, d.number)),
    );
    let name = d.position.names.of(d.player);
    e.title = format!("game {} move {}: {name} ({})", d.game, d.number, d.player);
    if !d.played.is_empty() {
        e.note = format!("played: {}", d.played);
    }
    // The annotator's comment is the player's own note on the position.
    if let Some(c) = d
        .comment
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        if !e.note.is_empty() {
            e.note.push('\n');
        }
        e.note.push_str(c);
    }
    e.analysis = d.analysis.as_ref().map(analysis_text);
    e.decision = decision_kind(d)
        .map(|kind| Decision::new(name.to_owned(), kind, d.played.clone(), decision_error(d)));
    e
}

/// A checker play, a cube decision (the double) or a take decision (take,
/// drop or beaver); resignations and set-ups are none of these.
fn decision_kind(d: &FileDecision) -> Option<DecisionKind> {
    if d.dice.is_some() {
        return Some(DecisionKind::Checker);
    }
    match d.played.as_str() {
        "double" => Some(DecisionKind::Cube),
        "take" | "drop" | "beaver" => Some(DecisionKind::Take),
        _ => None,
    }
}

/// A file's analysis as the library keeps it: text and depth. The moves
/// are ranked by their equity, best first, each with its difference from
/// the best and its own depth (a file ranks candidates analysed at
/// different depths, XG's Roller++ above its 3-ply); `0.000`, never
/// `-0.000`.
pub(crate) fn analysis_text(a: &FileAnalysis) -> Analysis {
    use bgedit_core::domain::skill::signed3;
    let mut text = String::new();
    match a {
        FileAnalysis::Moves { moves } => {
            let mut ranked: Vec<&bgedit_core::domain::match_record::RankedMove> =
                moves.iter().collect();
            ranked.sort_by(|x, y| y.equity.total_cmp(&x.equity));
            let best = ranked.first().map_or(0.0, |m| m.equity);
            for (i, m) in ranked.iter().enumerate() {
                let diff = if i == 0 {
                    String::new()
                } else {
                    format!("({})", signed3(m.equity - best))
                };
                let _ = writeln!(
                    text,
                    "{:>2}. {:<28} {:>6} {:>8}  {}",
                    i + 1,
                    m.notation,
                    signed3(m.equity),
                    diff,
                    m.depth
                );
            }
        }
        FileAnalysis::Cube {
            no_double,
            double_take,
            double_pass,
            ..
        } => {
            let _ = writeln!(text, "No double     {:>6}", signed3(*no_double));
            let _ = writeln!(text, "Double, take  {:>6}", signed3(*double_take));
            let _ = writeln!(text, "Double, pass  {:>6}", signed3(*double_pass));
        }
    }
    Analysis {
        text,
        depth: a.depth().to_owned(),
    }
}

/// The file's own verdict on a decision, with its engine and depth as the
/// file says them.
pub(crate) fn file_verdict(d: &FileDecision) -> Option<Verdict> {
    let a = d.analysis.as_ref()?;
    let shown = analysis_text(a);
    let (engine, plies) = Verdict::engine_and_plies(&shown.depth);
    Some(Verdict {
        engine,
        plies,
        depth: shown.depth,
        from_file: true,
        error: decision_error(d),
        text: shown.text,
    })
}

/// A match file as the library keeps it: its header, games and every
/// decision with the file's verdict. `keep(error)` says whether a decision
/// with that error by the file's analysis is also kept as a position entry
/// (`--errors E` keeps some out; the match keeps them all); a double
/// missed by the file's analysis of the cube before a roll is one too, as
/// `keep` says of its error. `shown` is the file's name as messages and
/// sources give it.
pub fn new_match(
    shown: &str,
    bytes: &[u8],
    file: &MatchFile,
    decisions: &[FileDecision],
    keep: impl Fn(Option<f64>) -> bool,
) -> NewMatch {
    let first = decisions.first().map(|d| &d.position);
    let mut m = NewMatch {
        hash: super::store::content_hash(bytes),
        identity: String::new(),
        players: first.map_or_else(Default::default, |p| [p.names.o.clone(), p.names.x.clone()]),
        event: None,
        place: None,
        date: None,
        date_from: None,
        length: first.map_or(0, |p| p.state.match_length),
        result: String::new(),
        format: file.format.name().to_owned(),
        path: shown.to_owned(),
        content: bytes.to_vec(),
        games: Vec::new(),
        decisions: decisions
            .iter()
            .map(|d| new_decision(shown, d, &keep))
            .collect(),
    };
    match &file.contents {
        Contents::Record(record) => with_header(&mut m, record),
        // gnubg's match text: its games and results as the blocks tell
        // them (the positions are the blocks' own).
        Contents::Blocks(blocks) => {
            let (record, _) = bgedit_core::codec::match_text::to_record(blocks);
            with_header(&mut m, &record);
        }
    }
    match crate::dates::of_match(m.date.as_deref(), shown) {
        Some((date, from)) => {
            m.date = Some(date);
            m.date_from = Some(from);
        }
        // A date the file writes in another form is kept as written.
        None => {
            m.date = m.date.take().filter(|d| !d.trim().is_empty());
            m.date_from = m.date.as_ref().map(|_| crate::dates::DateFrom::Content);
        }
    }
    m.identity = identity(&m.players, m.length, &m.decisions);
    m
}

/// Whether a decision of this kind is a roll played or a cube action: the
/// match itself, which every format of it holds alike (a resignation is
/// written in some formats and only implied by the result in others).
pub(crate) fn is_play(kind: &str) -> bool {
    matches!(kind, "checker" | "cube" | "take")
}

/// Verdicts on one file's decisions (`from`: each decision's kind) moved
/// to the same match's decisions in another file (`to`): the n-th play to
/// the n-th play. A verdict on what is no play (a resignation, judged
/// nothing) is left out; `library analyse` fills it in without gnubg.
pub fn by_play(
    from: &[String],
    to: &[String],
    verdicts: Vec<(usize, Verdict)>,
) -> Vec<(usize, Verdict)> {
    let plays = |kinds: &[String]| -> Vec<Option<usize>> {
        let mut n = 0;
        kinds
            .iter()
            .map(|k| {
                is_play(k).then(|| {
                    n += 1;
                    n - 1
                })
            })
            .collect()
    };
    let (from, to) = (plays(from), plays(to));
    let seq_of: std::collections::HashMap<usize, usize> = to
        .iter()
        .enumerate()
        .filter_map(|(seq, p)| p.map(|p| (p, seq)))
        .collect();
    verdicts
        .into_iter()
        .filter_map(|(seq, v)| {
            let play = from.get(seq).copied().flatten()?;
            Some((*seq_of.get(&play)?, v))
        })
        .collect()
}

/// The match's identity apart from its file's format: SHA-256 of the
/// players, the length and each roll and cube action in order (its game,
/// who, the dice, the position's gnubg ID and what was played), written
/// one per line. The same match as `.mat` and as `.sgf` has one identity.
pub(crate) fn identity(players: &[String; 2], length: u16, decisions: &[NewDecision]) -> String {
    let mut text = format!(
        "bgedit match identity 1\n{}\n{}\n{length}\n",
        players[0].trim(),
        players[1].trim()
    );
    for d in decisions.iter().filter(|d| is_play(&d.kind)) {
        let dice = d
            .dice
            .map_or_else(|| "-".to_owned(), |[a, b]| format!("{a}{b}"));
        let _ = writeln!(
            text,
            "{} {} {} {dice} {} {}",
            d.game, d.player, d.kind, d.ids.0, d.played
        );
    }
    super::store::content_hash(text.as_bytes())
}

/// The header's names, event, place, date and length, and the games with
/// the result they add up to.
fn with_header(m: &mut NewMatch, record: &MatchRecord) {
    let h = &record.header;
    m.players = [h.names.o.clone(), h.names.x.clone()];
    m.event = h.event.clone();
    m.place = h.place.clone();
    m.date = h.date.clone();
    m.length = h.length;
    let mut won = [0u32; 2];
    for g in &record.games {
        let winner = g.result.as_ref().map(|r| {
            let letter = if r.winner == Player::O { 'O' } else { 'X' };
            won[usize::from(letter == 'X')] += r.points;
            (letter, r.points)
        });
        m.games.push(NewGame {
            number: g.number,
            score: g.score,
            crawford: g.crawford_game,
            winner,
        });
    }
    if m.games.iter().any(|g| g.winner.is_some()) {
        m.result = format!("{}-{}", won[0], won[1]);
    }
}

fn new_decision(shown: &str, d: &FileDecision, keep: &impl Fn(Option<f64>) -> bool) -> NewDecision {
    let entry = keep(decision_error(d)).then(|| entry(shown, d));
    let cube_entry = no_double_error(d)
        .filter(|e| *e > 0.0 && keep(Some(*e)))
        .map(|e| cube_entry(shown, d, Some(e)));
    NewDecision {
        game: d.game,
        number: d.number,
        player: if d.player == Player::O { 'O' } else { 'X' },
        name: d.position.names.of(d.player).to_owned(),
        kind: decision_kind(d).map_or_else(|| d.played.clone(), |k| k.name().to_owned()),
        dice: d.dice,
        played: d.played.clone(),
        entry,
        cube_entry,
        ids: ids_of(&d.position),
        analysis: file_verdict(d),
    }
}

fn ids_of(p: &bgedit_core::domain::Position) -> (String, String) {
    use bgedit_core::codec::{IdFormat, to_string_as};
    (
        to_string_as(p, IdFormat::GnubgId),
        to_string_as(p, IdFormat::Xgid),
    )
}

/// One judgement of an engine's verdict on a decision, as the library
/// keeps it (a verdict's text is a JSON array of them): gnubg's counts
/// are summed from these as `show statistics match` sums them.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StoredJudgement {
    pub judgement: bgedit_core::domain::match_stats::Judgement,
    /// The engine's best choice.
    pub best: String,
    pub played: String,
    /// The engine's answer the judgement was made from (its JSON), when
    /// kept: the editor keeps its own analysis's, cut to its first
    /// candidates, so a match reopened shows it without asking again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<serde_json::Value>,
    /// The engine's cube equities (normalised, from the decider's side)
    /// of a double (`[no double, double/take, double/pass]`) or a take
    /// (`[take, pass]`), for the player's cube thresholds; absent for a
    /// checker play and in verdicts stored before they were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equities: Option<Vec<f64>>,
}

/// Computes the identity of each match stored before schema 9 from its
/// kept file (a file that cannot be read again keeps none: it is then
/// only ever the same as itself, by its hash). The count filled in.
pub fn fill_identities(lib: &mut super::store::Library) -> super::store::Result<u64> {
    let mut filled = 0;
    for id in lib.matches_without_identity()? {
        let (path, bytes) = lib.match_content(id)?;
        let Ok(file) = bgedit_core::codec::match_file::read_bytes(&bytes) else {
            continue;
        };
        let (decisions, _) = bgedit_core::codec::match_file::decisions(&file);
        let m = new_match(&path, &bytes, &file, &decisions, |_| false);
        lib.set_identity(id, &m.identity)?;
        filled += 1;
    }
    Ok(filled)
}

/// Why a match file could not be attached to the library.
#[derive(Debug, thiserror::Error)]
pub enum AttachError {
    #[error(transparent)]
    File(#[from] bgedit_core::codec::match_file::MatchFileError),
    #[error(transparent)]
    Library(#[from] super::store::LibraryError),
}

/// The library's match for a file opened in the editor (`shown`, its
/// `bytes`): the one stored from the same file or the same match, else the
/// match imported now as `library import` imports it (every decision an
/// entry; a position the library refuses left out). Its id, and whether it
/// was imported now.
pub fn attach(
    lib: &mut super::store::Library,
    shown: &str,
    bytes: &[u8],
) -> Result<(i64, bool), AttachError> {
    use super::store::MatchAdded;
    let file = bgedit_core::codec::match_file::read_bytes(bytes)?;
    let (decisions, _) = bgedit_core::codec::match_file::decisions(&file);
    let mut m = new_match(shown, bytes, &file, &decisions, |_| true);
    for d in &mut m.decisions {
        if d.entry
            .as_ref()
            .is_some_and(|e| super::store::check_entry(e).is_err())
        {
            d.entry = None;
        }
        if d.cube_entry
            .as_ref()
            .is_some_and(|e| super::store::check_entry(e).is_err())
        {
            d.cube_entry = None;
        }
    }
    Ok(match lib.add_match(&m)? {
        MatchAdded::New { id, .. } => (id, true),
        MatchAdded::Existing(id) | MatchAdded::SameMatch(id, _) => (id, false),
    })
}
