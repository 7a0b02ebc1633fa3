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

/// A file's analysis as the library keeps it: text and depth.
pub(crate) fn analysis_text(a: &FileAnalysis) -> Analysis {
    let mut text = String::new();
    match a {
        FileAnalysis::Moves { moves } => {
            let best = moves.first().map_or(0.0, |m| m.equity);
            for (i, m) in moves.iter().enumerate() {
                let _ = write!(text, "{:>2}. {:<28} {:+.3}", i + 1, m.notation, m.equity);
                if i > 0 {
                    let _ = write!(text, " ({:+.3})", m.equity - best);
                }
                text.push('\n');
            }
        }
        FileAnalysis::Cube {
            no_double,
            double_take,
            double_pass,
            ..
        } => {
            let _ = writeln!(text, "No double     {no_double:+.3}");
            let _ = writeln!(text, "Double, take  {double_take:+.3}");
            let _ = writeln!(text, "Double, pass  {double_pass:+.3}");
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
/// decision with the file's verdict. `keep(d)` says whether a decision is
/// also kept as a position entry (`--errors E` keeps some out; the match
/// keeps them all). `shown` is the file's name as messages and sources
/// give it.
pub fn new_match(
    shown: &str,
    bytes: &[u8],
    file: &MatchFile,
    decisions: &[FileDecision],
    keep: impl Fn(&FileDecision) -> bool,
) -> NewMatch {
    let first = decisions.first().map(|d| &d.position);
    let mut m = NewMatch {
        hash: super::store::content_hash(bytes),
        identity: String::new(),
        players: first.map_or_else(Default::default, |p| [p.names.o.clone(), p.names.x.clone()]),
        event: None,
        place: None,
        date: None,
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
    if let Contents::Record(record) = &file.contents {
        with_header(&mut m, record);
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

fn new_decision(
    shown: &str,
    d: &FileDecision,
    keep: &impl Fn(&FileDecision) -> bool,
) -> NewDecision {
    let entry = keep(d).then(|| entry(shown, d));
    NewDecision {
        game: d.game,
        number: d.number,
        player: if d.player == Player::O { 'O' } else { 'X' },
        name: d.position.names.of(d.player).to_owned(),
        kind: decision_kind(d).map_or_else(|| d.played.clone(), |k| k.name().to_owned()),
        dice: d.dice,
        played: d.played.clone(),
        entry,
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
