//! bgedit's own analysis of a match put into the match model, for a writer
//! that keeps it (gnubg's SGF): each judged decision's engine answer as the
//! file analysis of its action, with gnubg's marks and the luck of each
//! roll beside it. The numbers are the verdicts' own, so gnubg reading the
//! written file finds the errors `analyse --file` printed.

use super::Judged;
use crate::Analysis;
use crate::luck::MatchLuck;
use bgedit_core::codec::sgf::MarksByAction;
use bgedit_core::domain::match_record::{ActionKind, FileAnalysis, MatchRecord, RankedMove};
use bgedit_core::domain::match_stats::DecisionKind;

/// Replaces the record's analysis by the verdicts' (a decision bgedit did
/// not judge is left unanalysed: two engines' numbers are never mixed in
/// one file), and returns the marks and luck by action.
pub(crate) fn annotate(
    record: &mut MatchRecord,
    judged: &[Judged],
    luck: Option<&MatchLuck>,
) -> MarksByAction {
    let mut marks = MarksByAction::new();
    for game in &mut record.games {
        for action in &mut game.actions {
            action.analysis = None;
            action.cube_analysis = None;
        }
    }
    for j in judged {
        let Some(game) = record.games.iter_mut().find(|g| g.number == j.game) else {
            continue;
        };
        // Decision N of a game is its Nth action that is not a set-up.
        let Some(index) = game
            .actions
            .iter()
            .enumerate()
            .filter(|(_, a)| !matches!(a.kind, ActionKind::SetUp(_)))
            .nth(j.number.saturating_sub(1))
            .map(|(i, _)| i)
        else {
            continue;
        };
        let action = &mut game.actions[index];
        let mark = marks.entry((j.game, index)).or_default();
        let skill = Some(j.judgement.skill());
        match (j.kind(), &j.analysis) {
            (DecisionKind::Checker, Analysis::Moves { plies, moves, .. }) => {
                action.analysis = Some(FileAnalysis::Moves {
                    moves: moves
                        .iter()
                        .map(|m| RankedMove {
                            notation: m.notation.clone(),
                            equity: m.equity,
                            probs: Some(m.probs),
                            depth: format!("gnubg {}-ply", m.depth(*plies)),
                        })
                        .collect(),
                });
                mark.skill = skill;
            }
            (DecisionKind::Cube, a @ Analysis::Cube { .. }) => {
                let cube = cube_of(a);
                if matches!(action.kind, ActionKind::Move { .. }) {
                    action.cube_analysis = cube;
                    mark.cube_skill = skill;
                } else {
                    action.analysis = cube;
                    mark.skill = skill;
                }
            }
            // The answer shares the double's cube decision (the writer
            // gives it to the take or drop), as gnubg's records do.
            (DecisionKind::Take, _) => mark.skill = skill,
            _ => {}
        }
    }
    if let Some(luck) = luck {
        add_luck(record, luck, &mut marks);
    }
    marks
}

fn cube_of(a: &Analysis) -> Option<FileAnalysis> {
    let Analysis::Cube {
        plies,
        no_double,
        double_take,
        double_pass,
        probs,
        ..
    } = a
    else {
        return None;
    };
    Some(FileAnalysis::Cube {
        no_double: *no_double,
        double_take: *double_take,
        double_pass: *double_pass,
        probs: Some(*probs),
        depth: format!("gnubg {plies}-ply"),
    })
}

/// Each roll's luck on its move: the rolls of a game, in order, paired
/// with the game's moves by player and dice (a roll gnubg did not rate
/// leaves its move without).
fn add_luck(record: &MatchRecord, luck: &MatchLuck, marks: &mut MarksByAction) {
    let sorted = |d: [u8; 2]| [d[0].max(d[1]), d[0].min(d[1])];
    for game in &record.games {
        let mut rolls = luck
            .rolls
            .iter()
            .filter(|r| r.game == game.number)
            .peekable();
        for (i, action) in game.actions.iter().enumerate() {
            let ActionKind::Move { dice, .. } = action.kind else {
                continue;
            };
            if let Some(r) =
                rolls.next_if(|r| r.player == action.player && sorted(r.dice) == sorted(dice))
            {
                marks.entry((game.number, i)).or_default().luck = Some(r.luck);
            }
        }
    }
}

/// The match `record` written as gnubg's SGF with bgedit's verdicts and
/// luck as gnubg's own analysis properties (`bgedit match --save-sgf
/// --analyse` and the match panel's `W`).
pub fn analysed_sgf(record: &MatchRecord, judged: &[Judged], luck: Option<&MatchLuck>) -> String {
    let mut record = record.clone();
    let marks = annotate(&mut record, judged, luck);
    let mut text = String::new();
    bgedit_core::codec::sgf::write_match_analysed(&record, &marks, &mut text);
    text
}

/// Why the open match could not be saved as SGF. Paths are shown escaped.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SaveSgfError {
    /// The match could not be read again: which (shown), and why.
    #[error("{shown}: {why}")]
    Read {
        shown: String,
        why: std::sync::Arc<bgedit_core::codec::match_file::MatchFileError>,
    },
    #[error(
        "{0}: gnubg's match text holds positions, not the moves of a match: it cannot be saved \
         as a match"
    )]
    NotAMatch(String),
    #[error("{0} has changed since it was opened ({1} decisions, {2} then): open it again")]
    Changed(String, usize, usize),
    /// The SGF could not be written.
    #[error(transparent)]
    Write(std::sync::Arc<bgedit_core::out_file::OutFileError>),
}

// The editor's model holds the answer, and must compare it: an error of
// the system (a file's I/O) compares by what it says, as nothing else of
// it can be compared.
impl PartialEq for SaveSgfError {
    fn eq(&self, other: &Self) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
            && self.to_string() == other.to_string()
    }
}

impl Eq for SaveSgfError {}

/// Where a saved match is read from: its file, again, or the text pasted.
#[derive(Clone, Copy, Debug)]
pub enum SavedFrom<'a> {
    File(&'a std::path::Path),
    Pasted(&'a str),
}

impl<'a> SavedFrom<'a> {
    /// The match panel's match: the text pasted, if it was, else its file.
    pub fn of(path: &'a str, pasted: Option<&'a str>) -> SavedFrom<'a> {
        match pasted {
            Some(text) => SavedFrom::Pasted(text),
            None => SavedFrom::File(std::path::Path::new(path)),
        }
    }
}

/// Reads the match again from `from` (the panel holds its decisions, not
/// its record), checks it is the match the verdicts are of (as many
/// decisions), and writes it to `out` whole with the verdicts, never over
/// its file.
pub fn save_sgf(
    from: SavedFrom<'_>,
    out: &std::path::Path,
    judged: &[Judged],
    luck: Option<&MatchLuck>,
    decisions: usize,
) -> Result<(), SaveSgfError> {
    use bgedit_core::codec::match_file::{self, Contents};
    // `-` is never taken for the file written: a pasted match has none.
    let (source, shown) = match from {
        SavedFrom::File(path) => (
            path,
            bgedit_core::quote::printable(&path.display().to_string()).into_owned(),
        ),
        SavedFrom::Pasted(_) => (std::path::Path::new("-"), "the pasted match".to_owned()),
    };
    let write = |e| SaveSgfError::Write(std::sync::Arc::new(e));
    bgedit_core::out_file::not_the_input(out, source).map_err(write)?;
    let file = match from {
        SavedFrom::File(path) => match_file::read_path(path),
        SavedFrom::Pasted(text) => match_file::read_bytes(text.as_bytes()),
    }
    .map_err(|e| SaveSgfError::Read {
        shown: shown.clone(),
        why: std::sync::Arc::new(e),
    })?;
    let Contents::Record(record) = &file.contents else {
        return Err(SaveSgfError::NotAMatch(shown));
    };
    let now = match_file::decisions(&file).0.len();
    if now != decisions {
        return Err(SaveSgfError::Changed(shown, now, decisions));
    }
    let text = analysed_sgf(record, judged, luck);
    bgedit_core::out_file::write_whole(out, source, text.as_bytes()).map_err(write)
}
