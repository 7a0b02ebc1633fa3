//! The match panel and the library: a match opened from the match list
//! with the verdicts the library holds (no engine asked), a file opened
//! in the editor found in the library (or imported into it) so its kept
//! verdicts show at once, and the editor's own verdicts kept there as they
//! arrive, so reopening the match shows them. The library is reached only
//! through the worker's requests.

use super::state::{Attached, OpenMatch, Verdict};
use crate::effect::Effect;
use crate::library::state::Request;
use crate::model::{Mode, Model, Status};
use crate::transition::{done, refuse};
use bgedit_engine::match_analysis::{Judged, kept};
use bgedit_library::match_import::StoredJudgement;
use bgedit_library::store::{KeptAnalysis, Verdict as StoredVerdict};

/// Candidates kept with a verdict: the best few and the one played are
/// what the panel shows.
const KEPT_CANDIDATES: usize = 8;

/// The kept verdicts put on `m`'s decisions; how many decisions got one.
pub(crate) fn restore(m: &mut OpenMatch, kept_analysis: &KeptAnalysis) -> usize {
    let plies = u8::try_from(kept_analysis.plies).ok();
    if let Some(kind) = bgedit_engine::EngineKind::by_key(&kept_analysis.engine) {
        m.judge = kind;
    }
    let mut n = 0;
    for (seq, json) in &kept_analysis.verdicts {
        let Some(d) = m.decisions().get(*seq).cloned() else {
            continue;
        };
        let Ok(list) = serde_json::from_str::<Vec<StoredJudgement>>(json) else {
            continue;
        };
        let judged: Vec<Judged> = list
            .into_iter()
            .map(|s| {
                let analysis = s.analysis.and_then(|v| serde_json::from_value(v).ok());
                kept::restored(&d, s.judgement, &s.best, &s.played, analysis)
            })
            .collect();
        m.verdicts[*seq] = Verdict::Judged(judged);
        m.depths[*seq] = plies;
        n += 1;
    }
    m.done = m
        .verdicts
        .iter()
        .filter(|v| !matches!(v, Verdict::Waiting))
        .count();
    n
}

/// Whether `kept` judges every decision of `m` at the depth the panel
/// would analyse to (or deeper) with the engine it would ask.
fn complete(m: &OpenMatch, kept_analysis: &KeptAnalysis) -> bool {
    kept_analysis.verdicts.len() == m.decisions().len()
        && kept_analysis.engine == m.judge.key()
        && kept_analysis.plies >= i64::from(m.target)
}

/// The match list's match, just opened (`effects`: the opening's), with
/// the library's verdicts `kept` put on it; no engine is asked.
pub(crate) fn opened_stored(
    mut model: Model,
    mut effects: Vec<Effect>,
    match_id: i64,
    kept_analysis: Option<KeptAnalysis>,
) -> (Model, Vec<Effect>) {
    let Some(m) = model.review.open.as_mut() else {
        return (model, effects);
    };
    m.library = Some(match_id);
    let words = match &kept_analysis {
        Some(k) => {
            let n = restore(m, k);
            format!(
                "{} verdicts on {n} of {} decisions (E analyses again)",
                bgedit_engine::stored_depth::words(&k.engine, k.plies),
                m.decisions().len()
            )
        }
        None if m.carries_analysis() => "the file's own analysis (E asks the engine)".to_owned(),
        None => "no verdict kept: E analyses it".to_owned(),
    };
    if m.analysing {
        m.analysing = false;
        effects.push(Effect::StopMatchAnalysis);
    }
    model.mode = Mode::Review;
    model.status = Status::success(format!("Opened match {match_id} from the library: {words}"));
    (model, effects)
}

/// The library's answer for the file just opened: its verdicts shown, and
/// the analysis stopped when they are complete at the depth it would
/// reach; the editor's verdicts are kept from now on.
pub(crate) fn attached(
    mut model: Model,
    serial: u64,
    result: Result<Box<Attached>, super::state::OpenError>,
) -> (Model, Vec<Effect>) {
    if serial != model.review.serial {
        return done(model);
    }
    let a = match result {
        Ok(a) => a,
        // No library (none configured, or it cannot be opened): the match
        // is analysed as before, and said once.
        Err(why) => {
            model.log.push(&Status::info(format!(
                "The match's verdicts are not kept in the library: {why}"
            )));
            return done(model);
        }
    };
    let Some(m) = model.review.open.as_mut() else {
        return done(model);
    };
    m.library = Some(a.match_id);
    let Some(k) = &a.kept else {
        return done(model);
    };
    if !complete(m, k) {
        return done(model);
    }
    restore(m, k);
    let stop = m.analysing;
    m.analysing = false;
    m.pass = m.target;
    model.status = Status::success(format!(
        "The library holds this match's {} verdicts: shown, not asked again (E asks)",
        bgedit_engine::stored_depth::words(&k.engine, k.plies)
    ));
    let effects = if stop {
        vec![Effect::StopMatchAnalysis]
    } else {
        Vec::new()
    };
    (model, effects)
}

/// The request that keeps the verdicts just judged on decision `i` of the
/// open match, at `plies`, if the match is the library's.
pub(crate) fn keep(m: &OpenMatch, i: usize, plies: u8, list: &[Judged]) -> Option<Effect> {
    let match_id = m.library?;
    let stored: Vec<StoredJudgement> = list
        .iter()
        .map(|j| StoredJudgement {
            judgement: j.judgement,
            best: j.best.clone(),
            played: j.played.clone(),
            analysis: serde_json::to_value(cut(&j.analysis, j.played_rank)).ok(),
            equities: j.cube_equities(),
        })
        .collect();
    let engine = m.judge;
    let verdict = StoredVerdict {
        engine: engine.key().to_owned(),
        plies: i64::from(plies),
        depth: format!("{} {}", engine.key(), engine.depth_label(plies)),
        from_file: false,
        error: (!list.is_empty()).then(|| list.iter().map(|j| j.judgement.error).sum()),
        text: serde_json::to_string(&stored).ok()?,
    };
    Some(Effect::Library(Request::KeepVerdicts {
        match_id,
        verdicts: vec![(i, verdict)],
    }))
}

/// An engine's answer cut to its first candidates and the one played
/// (at `played`, its place in the list): what the library keeps.
fn cut(a: &bgedit_engine::Analysis, played: Option<usize>) -> bgedit_engine::Analysis {
    let mut a = a.clone();
    if let bgedit_engine::Analysis::Moves { moves, .. } = &mut a {
        let kept = played
            .filter(|p| *p >= KEPT_CANDIDATES)
            .and_then(|p| moves.get(p).cloned());
        moves.truncate(KEPT_CANDIDATES);
        moves.extend(kept);
    }
    a
}

/// Where the analysis ended: the library's entries follow the verdicts
/// kept (a mistake kept out made an entry, as `library analyse` does).
pub(crate) fn refresh(m: &OpenMatch) -> Option<Effect> {
    Some(Effect::Library(Request::RefreshMistakes {
        match_id: m.library?,
    }))
}

/// The library could not keep a verdict: said, the panel goes on.
pub(crate) fn not_kept(model: Model, why: super::state::OpenError) -> (Model, Vec<Effect>) {
    refuse(
        model,
        format!("the library did not keep the verdicts: {why}"),
    )
}
