//! Reading a match for the panel: a file (on the runtime's thread) or a
//! pasted text, replayed into the decisions and games the panel walks.

use super::state::{GameLine, Loaded, OpenError};
use bgedit_core::codec::match_file;

/// Reads and replays a match file for the panel (the runtime calls this on
/// a thread of its own).
pub fn load(path: &str) -> Result<Loaded, OpenError> {
    let file = match_file::read_path(std::path::Path::new(path)).map_err(|reason| OpenError {
        path: path.to_owned(),
        reason: reason.to_string(),
    })?;
    Ok(loaded(path, file, None))
}

/// The name a pasted match goes by: its decisions kept in the library say
/// `pasted match game N move M`, and `*` keeps them in `pasted-match`.
pub(crate) const PASTED: &str = "pasted match";

/// A whole match pasted into the editor (a `.mat` text, an SGF match, or
/// gnubg's match text with several positions), read as a file would be;
/// `None` when the text is no match or holds one position only (then it is
/// a position, read as IDs and diagrams are).
pub(crate) fn pasted(text: &str) -> Option<Loaded> {
    // Terminals send a pasted block's line breaks as carriage returns:
    // the readers see `\n`, as from the file.
    let unified;
    let text = if text.contains('\r') {
        unified = bgedit_core::codec::unified_line_ends(text);
        unified.as_str()
    } else {
        text
    };
    match_file::detect(text.as_bytes())?;
    let file = match_file::read_bytes(text.as_bytes()).ok()?;
    let loaded = loaded(PASTED, file, Some(text.into()));
    (loaded.replayed.decisions().len() > 1).then_some(loaded)
}

pub(crate) fn loaded(
    path: &str,
    file: match_file::MatchFile,
    pasted: Option<std::sync::Arc<str>>,
) -> Loaded {
    let replayed = bgedit_engine::match_analysis::ReplayedMatch::of(&file);
    let problems = replayed
        .problems()
        .iter()
        .map(|p| match_file::describe(path, p))
        .collect();
    let games = match &file.contents {
        match_file::Contents::Record(record) => record
            .games
            .iter()
            .map(|g| GameLine {
                number: g.number,
                score: g.score,
                winner: g.result.as_ref().map(|r| r.winner),
                points: g.result.as_ref().map_or(0, |r| r.points),
            })
            .collect(),
        match_file::Contents::Blocks(_) => {
            let mut games: Vec<GameLine> = Vec::new();
            for d in replayed.decisions() {
                if games.last().is_none_or(|g| g.number != d.game) {
                    games.push(GameLine {
                        number: d.game,
                        score: d.position.state.score,
                        winner: None,
                        points: 0,
                    });
                }
            }
            games
        }
    };
    Loaded {
        path: path.to_owned(),
        format: file.format.name().to_owned(),
        replayed: std::sync::Arc::new(replayed),
        games,
        problems,
        pasted,
    }
}
