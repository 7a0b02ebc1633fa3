//! What the match panel holds: the open match (its decisions, as the
//! domain's replay gives them), the decision under the cursor, and gnubg's
//! judgement of each decision as the background analysis brings them.

use bgedit_core::codec::match_file::FileDecision;
use bgedit_core::domain::Player;
use bgedit_core::domain::skill;
use bgedit_engine::match_analysis::{Failed, Judged, ReplayedMatch};
use std::sync::Arc;

/// One game of the match, as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    pub number: usize,
    /// O's and X's score before the game.
    pub score: [u16; 2],
    pub winner: Option<Player>,
    pub points: u32,
}

/// A match file read and replayed, ready to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub path: String,
    pub format: String,
    /// The match replayed: its decisions, and what an engine reads of it.
    /// Shared with the analysis's thread.
    pub replayed: Arc<ReplayedMatch>,
    pub games: Vec<GameLine>,
    /// What was not right in the file (the rest is still there).
    pub problems: Vec<String>,
    /// The text of a pasted match (none for a file, read again from its
    /// path when saved).
    pub pasted: Option<std::sync::Arc<str>>,
}

/// A match's luck as gnubg rates it, held in the model.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchLuckOf(pub Box<bgedit_engine::luck::MatchLuck>);

// Every number comes from gnubg's checked answers (finite): equality is
// total, as the model's must be.
impl Eq for MatchLuckOf {}

/// gnubg's judgement of one decision of the file: none yet, its
/// judgements (none for a decision gnubg does not judge), or the failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Waiting,
    Judged(Vec<Judged>),
    Failed(Failed),
}

/// The open match.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenMatch {
    pub path: String,
    pub format: String,
    /// The match replayed (its decisions are [`OpenMatch::decisions`]),
    /// shared with the analysis's thread.
    pub replayed: Arc<ReplayedMatch>,
    pub games: Vec<GameLine>,
    pub problems: Vec<String>,
    /// The text of a pasted match: what `W` saves from.
    pub pasted: Option<std::sync::Arc<str>>,
    /// The library's match this is (its verdicts are kept there as they
    /// arrive), once the library has said so.
    pub library: Option<i64>,
    /// The decision under the cursor.
    pub cursor: usize,
    /// By decision, in step with `decisions`.
    pub verdicts: Vec<Verdict>,
    /// The depth of each verdict (gnubg's plies), in step with `verdicts`:
    /// the quick 0-ply verdicts until the deeper ones replace them.
    pub depths: Vec<Option<u8>>,
    /// The depth the analysis goes to: the analysis panel's deeper depth
    /// when it started (or the file's own, when that is deeper).
    pub target: u8,
    /// The depth of the pass running now (0 first, then `target`).
    pub pass: u8,
    /// Decisions whose deeper verdict failed: their quicker one is kept.
    pub deeper_failed: usize,
    /// gnubg's luck of the dice, rated in the last pass (whole games with
    /// gnubg only), for the statistics view's luck rows.
    pub luck: Option<MatchLuckOf>,
    /// Decisions judged (or failed) so far.
    pub done: usize,
    /// The background analysis is running.
    pub analysing: bool,
    /// The engine whose verdicts these are (or will be): the analysis
    /// panel's lead engine as the analysis started.
    pub judge: bgedit_engine::EngineKind,
    /// The board shows the decision under the cursor (an edit leaves the
    /// match; `v` comes back).
    pub on_board: bool,
    /// Whose mistakes `n`/`N` look for: both players, or one.
    pub who: Option<Player>,
    /// The error from which a decision is a mistake (gnubg 1.07's "bad").
    pub threshold: f64,
}

// The threshold is one of gnubg's (finite): equality is total.
impl Eq for OpenMatch {}

impl OpenMatch {
    pub fn new(loaded: Loaded) -> OpenMatch {
        let n = loaded.replayed.decisions().len();
        OpenMatch {
            path: loaded.path,
            format: loaded.format,
            replayed: loaded.replayed,
            games: loaded.games,
            problems: loaded.problems,
            pasted: loaded.pasted,
            library: None,
            cursor: 0,
            verdicts: vec![Verdict::Waiting; n],
            depths: vec![None; n],
            target: 2,
            pass: 0,
            deeper_failed: 0,
            luck: None,
            done: 0,
            analysing: false,
            judge: bgedit_engine::EngineKind::reference(),
            on_board: true,
            who: None,
            threshold: skill::BAD,
        }
    }

    /// Every decision, in match order.
    pub fn decisions(&self) -> &[FileDecision] {
        self.replayed.decisions()
    }

    pub fn current(&self) -> Option<&FileDecision> {
        self.decisions().get(self.cursor)
    }

    /// The largest error of decision `i` (its cube and its checker play
    /// together count as one decision of the list): gnubg's, or until it
    /// comes (or without gnubg) the file's own analysis's.
    pub(crate) fn error(&self, i: usize) -> Option<f64> {
        match self.verdicts.get(i)? {
            Verdict::Judged(list) => list
                .iter()
                .map(|j| j.judgement.error)
                .fold(None, |a: Option<f64>, e| Some(a.map_or(e, |a| a.max(e)))),
            _ => file_view(self.decisions().get(i)?).map(|f| f.error),
        }
    }

    /// Decision `i` is a mistake of the players looked at.
    pub(crate) fn is_mistake(&self, i: usize) -> bool {
        let Some(d) = self.decisions().get(i) else {
            return false;
        };
        self.who.is_none_or(|p| p == d.player) && self.error(i).is_some_and(|e| e > self.threshold)
    }

    /// The judgements of the decision under the cursor.
    pub(crate) fn judged(&self) -> &[Judged] {
        match self.verdicts.get(self.cursor) {
            Some(Verdict::Judged(list)) => list,
            _ => &[],
        }
    }

    /// The file came with its own analysis (a gnubg SGF after `analyse
    /// match`, an XG file): shown as it is, gnubg asked only on request.
    pub(crate) fn carries_analysis(&self) -> bool {
        self.decisions().iter().any(|d| file_view(d).is_some())
    }

    /// The mistakes of the file's own analysis where gnubg has given no
    /// verdict, in match order.
    pub fn file_mistakes(&self) -> Vec<&FileDecision> {
        (0..self.decisions().len())
            .filter(|&i| !matches!(self.verdicts[i], Verdict::Judged(_)) && self.is_mistake(i))
            .map(|i| &self.decisions()[i])
            .collect()
    }

    /// Every mistake's judgement, in match order.
    pub(crate) fn mistakes(&self) -> Vec<(&FileDecision, &Judged)> {
        let mut out = Vec::new();
        for (i, d) in self.decisions().iter().enumerate() {
            if let Some(Verdict::Judged(list)) = self.verdicts.get(i) {
                for j in list {
                    if self.who.is_none_or(|p| p == d.player) && j.judgement.error > self.threshold
                    {
                        out.push((d, j));
                    }
                }
            }
        }
        out
    }

    /// The deepest depth of the file's own analysis, in gnubg's plies
    /// (`None` when the file carries none); see [`gnubg_plies`].
    pub fn file_plies(&self) -> Option<u8> {
        self.decisions()
            .iter()
            .filter_map(|d| d.analysis.as_ref())
            .map(|a| gnubg_plies(a.depth()))
            .max()
    }

    /// How many verdicts each depth has, shallowest first.
    pub(crate) fn depth_counts(&self) -> Vec<(u8, usize)> {
        let mut counts = std::collections::BTreeMap::new();
        for (v, d) in self.verdicts.iter().zip(&self.depths) {
            if let (Verdict::Judged(_), Some(d)) = (v, d) {
                *counts.entry(*d).or_insert(0) += 1;
            }
        }
        counts.into_iter().collect()
    }

    /// The depths of the verdicts on show: `2-ply`, or `0-ply 40, 2-ply
    /// 32` while the deeper ones are still coming (or where they failed).
    pub(crate) fn depth_words(&self) -> String {
        match self.depth_counts().as_slice() {
            [] => "no verdict".to_owned(),
            [(p, _)] => format!("{p}-ply"),
            many => many
                .iter()
                .map(|(p, n)| format!("{p}-ply {n}"))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The file's name, for sources and collections.
    pub(crate) fn file_name(&self) -> &str {
        std::path::Path::new(&self.path)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&self.path)
    }
}

/// The match panel's state in the model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReviewState {
    pub open: Option<Box<OpenMatch>>,
    /// Numbers each opened match: answers for an older one are dropped.
    pub serial: u64,
    /// A file to open once the editor runs (`bgedit FILE`).
    pub pending: Option<String>,
    /// The file `W` would save to that exists already: asked whether to
    /// replace it (a deeper analysis saved earlier may be there).
    pub replacing: Option<String>,
}

/// Where a walking key goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Next,
    Previous,
    NextGame,
    PreviousGame,
    NextMistake,
    PreviousMistake,
    First,
    Last,
}

/// Everything that happens to the match panel, with what the background
/// reports.
/// Why a match file could not be opened: the file named, and the reader's
/// own words (where in the file, what is wrong).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct OpenError {
    pub path: String,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewAction {
    /// `^O`: ask for a file.
    AskPath,
    /// Tab in the path prompt: ask the runtime for the directory.
    Complete,
    /// The directory listing for the text typed: (name, is a directory).
    Completed {
        typed: String,
        entries: Vec<(String, bool)>,
    },
    /// Open this file.
    Open(String),
    /// The file read, or why not.
    Opened(Result<Box<Loaded>, OpenError>),
    Walk(Step),
    /// `E`: the engine that judges (the analysis panel's lead engine)
    /// analyses the match (a file with its own analysis is not analysed
    /// again unless asked).
    Analyse,
    /// `p`: whose mistakes (both, O, X).
    CycleWho,
    /// `f`: the board's points counted for O, for X, or (as gnubg prints
    /// it) for the player on roll.
    CycleView,
    /// `t`: ask for the mistake threshold.
    AskThreshold,
    /// The mistake threshold, in thousandths of a point of equity.
    SetThreshold(u32),
    /// `v`: the match panel gets the keys, the board the decision.
    Focus,
    /// `Esc`: the keys go back to the board, the match stays.
    ToBoard,
    /// `q`: close the match.
    Close,
    /// `S` while the panel has the keys: the starting position would throw
    /// the match's decision away, so it is refused with the way to it.
    StartRefused,
    /// `+`: keep the decision under the cursor in the library.
    Keep,
    /// `*`: keep every mistake in a collection named after the match.
    KeepMistakes,
    /// One decision judged: (serial, index, depth in gnubg's plies,
    /// outcome).
    Judged(u64, usize, u8, Result<Vec<Judged>, Failed>),
    /// gnubg's luck of the dice, rated with the last pass: (serial, luck).
    Luck(u64, MatchLuckOf),
    /// `s`: the statistics view of the open match (the reducer hands it to
    /// the statistics feature).
    Statistics,
    /// The background analysis ended.
    AnalysisEnded(u64),
    /// `W`: ask the file to save the match to, with the panel's verdicts,
    /// as gnubg's SGF.
    AskSaveSgf,
    /// Save it to this file (the input line's answer).
    SaveSgf(String),
    /// The file to save to exists: ask before replacing it.
    SgfExists(String),
    /// The answer: replace it (y), or give another name (n).
    ReplaceSgf(bool),
    /// The runtime saved it (the file), or why not.
    SgfSaved(Result<String, bgedit_engine::match_analysis::annotate::SaveSgfError>),
    /// A match of the library opened from the match list, with the
    /// verdicts the library holds (the worker's answer), or why not.
    OpenedStored(Result<Box<Stored>, OpenError>),
    /// The library's match for the file opened (serial), or why there is
    /// none.
    Attached(u64, Result<Box<Attached>, OpenError>),
    /// The library kept the verdicts sent, or why not.
    Kept(Result<(), OpenError>),
}

/// A match the library holds, read for the panel: its kept file replayed,
/// and bgedit's most complete analysis of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    pub loaded: Loaded,
    pub match_id: i64,
    pub kept: Option<bgedit_library::store::KeptAnalysis>,
}

/// A file opened in the editor, found in the library (or imported now),
/// with what the library holds of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attached {
    pub match_id: i64,
    pub imported: bool,
    pub kept: Option<bgedit_library::store::KeptAnalysis>,
}

/// What the file's own analysis says of a decision: its error, its best
/// choice and where it came from (`file 2-ply`, `file XG Roller++`).
pub struct FileView {
    pub error: f64,
    pub best: String,
    pub source: String,
}

pub(crate) fn file_view(d: &bgedit_core::codec::match_file::FileDecision) -> Option<FileView> {
    use bgedit_core::domain::match_record::FileAnalysis;
    let analysis = d.analysis.as_ref()?;
    let error = bgedit_library::match_import::decision_error(d)?;
    let best = match analysis {
        FileAnalysis::Moves { moves } => moves.first()?.notation.clone(),
        FileAnalysis::Cube {
            no_double,
            double_take,
            double_pass,
            ..
        } => {
            let answer = double_take.min(*double_pass);
            match d.played.as_str() {
                "take" | "drop" | "beaver" if double_take <= double_pass => "take".to_owned(),
                "take" | "drop" | "beaver" => "drop".to_owned(),
                _ if answer > *no_double => "double".to_owned(),
                _ => "no double".to_owned(),
            }
        }
    };
    let depth = analysis.depth();
    let source = if depth.is_empty() {
        "file".to_owned()
    } else {
        format!("file {depth}")
    };
    Some(FileView {
        error,
        best,
        source,
    })
}

/// A file analysis's depth (`gnubg 2-ply`, `XG 3-ply`, `XG Roller++`) in
/// gnubg's plies, to compare it with the depth the editor analyses at.
/// XG counts one ply more than gnubg (its 1-ply is gnubg's 0-ply: XG 3-ply
/// is gnubg's 2-ply); XG's rollers, rollouts and book are deeper than any
/// evaluation the editor asks for (`u8::MAX`). A depth not given (`gnubg`,
/// a match text's) counts as 0-ply: nothing is shallower.
pub fn gnubg_plies(depth: &str) -> u8 {
    let plies = |word: &str| {
        word.split_whitespace()
            .find_map(|w| w.strip_suffix("-ply"))
            .and_then(|n| n.parse::<u8>().ok())
    };
    match depth.strip_prefix("XG ") {
        Some(xg) if xg.starts_with("Roller") || xg == "rollout" || xg == "book" => u8::MAX,
        Some(xg) => plies(xg).map_or(u8::MAX, |n| n.saturating_sub(1)),
        None => plies(depth).unwrap_or(0),
    }
}
