//! The match panel's part of the reducer: pure. Reading the file, listing a
//! directory and analysing the match leave as effects; their answers come
//! back as [`ReviewAction`]s.

use super::state::{Loaded, OpenMatch, ReviewAction, Step, Verdict};
use crate::effect::Effect;
use crate::model::{Mode, Model, Status};
use crate::panels::Panel;
use crate::prompt::state::{Prompt, PromptKind};
use crate::transition::{done, refuse};
use bgedit_core::codec::match_file::FileDecision;
use bgedit_core::domain::Player;
use bgedit_engine::Analysis;
use bgedit_engine::match_analysis::{Failed, Judged};
use bgedit_engine::text::{self, Units};
use bgedit_library::NewEntry;
use bgedit_library::match_import;
use bgedit_library::store::Decision;

pub(crate) fn update(mut model: Model, action: ReviewAction) -> (Model, Vec<Effect>) {
    match action {
        ReviewAction::AskPath => {
            let start = model
                .review
                .open
                .as_ref()
                .and_then(|m| std::path::Path::new(&m.path).parent())
                .map(|dir| dir.display().to_string())
                .filter(|d| !d.is_empty())
                .map(|d| format!("{d}/"))
                .unwrap_or_default();
            model.mode = Mode::Prompt(Prompt::with_value(PromptKind::MatchFile, &start));
            done(model)
        }
        ReviewAction::Complete => match &model.mode {
            Mode::Prompt(p) if matches!(p.kind, PromptKind::MatchFile | PromptKind::SgfFile) => {
                let typed = p.line.text.clone();
                (model, vec![Effect::ListDirectory(typed)])
            }
            _ => done(model),
        },
        ReviewAction::Completed { typed, entries } => completed(model, typed, entries),
        ReviewAction::Open(path) => {
            let path = path.trim().to_owned();
            if path.is_empty() {
                return refuse(model, "no file named: type the path of a match file");
            }
            model.mode = Mode::Normal;
            model.status = Status::info(format!("Reading {path}…"));
            (model, vec![Effect::OpenMatch(path)])
        }
        ReviewAction::Opened(Err(e)) => refuse(model, e.to_string()),
        ReviewAction::Opened(Ok(loaded)) => opened(model, *loaded),
        ReviewAction::OpenedStored(Err(why)) => refuse(model, why.to_string()),
        ReviewAction::OpenedStored(Ok(stored)) => opened_stored(model, *stored),
        ReviewAction::Attached(serial, result) => super::stored::attached(model, serial, result),
        ReviewAction::Kept(Ok(())) => done(model),
        ReviewAction::Kept(Err(why)) => super::stored::not_kept(model, why),
        ReviewAction::Walk(step) => walk(model, step),
        ReviewAction::CycleView => cycle_view(model),
        ReviewAction::CycleWho => {
            let Some(m) = model.review.open.as_mut() else {
                return no_match(model);
            };
            m.who = match m.who {
                None => Some(Player::O),
                Some(Player::O) => Some(Player::X),
                Some(Player::X) => None,
            };
            let whose = match m.who {
                None => "both players'".to_owned(),
                Some(p) => {
                    let name = m.decisions()[0].position.names.of(p).to_owned();
                    format!("{name}'s ({p})")
                }
            };
            model.status = Status::info(format!("n and N look for {whose} mistakes"));
            done(model)
        }
        ReviewAction::AskThreshold => {
            let Some(m) = model.review.open.as_ref() else {
                return no_match(model);
            };
            let now = format!("{:.3}", m.threshold);
            model.mode = Mode::Prompt(Prompt::with_value(PromptKind::MistakeThreshold, &now));
            done(model)
        }
        ReviewAction::SetThreshold(milli) => {
            let Some(m) = model.review.open.as_mut() else {
                return no_match(model);
            };
            m.threshold = f64::from(milli) / 1000.0;
            let (t, n) = (m.threshold, m.mistakes().len());
            model.mode = Mode::Review;
            model.status = Status::success(format!(
                "Mistakes: errors beyond {t:.3} · {n} so far (n walks them, * keeps them)"
            ));
            done(model)
        }
        ReviewAction::Focus => {
            let Some(m) = model.review.open.as_ref() else {
                return no_match(model);
            };
            let at = m.cursor;
            model.mode = Mode::Review;
            if !model.panels.is_on(Panel::Match) {
                model.panels.toggle(Panel::Match);
            }
            show(model, at, "Back to the match")
        }
        ReviewAction::ToBoard => {
            model.mode = Mode::Normal;
            model.status = Status::info("The keys are the board's · v goes back to the match");
            done(model)
        }
        ReviewAction::Close => close(model),
        ReviewAction::Analyse => analyse(model),
        ReviewAction::Keep => keep(model),
        ReviewAction::KeepMistakes => keep_mistakes(model),
        ReviewAction::StartRefused => refuse(
            model,
            "S (the starting position) would leave the match: Esc gives the keys to the board first",
        ),
        ReviewAction::Judged(serial, i, plies, outcome) => judged(model, serial, i, plies, outcome),
        ReviewAction::Luck(serial, luck) => {
            if serial == model.review.serial
                && let Some(m) = model.review.open.as_mut()
            {
                m.luck = Some(luck);
            }
            done(model)
        }
        // The reducer hands it to the statistics feature before this.
        ReviewAction::Statistics => done(model),
        ReviewAction::AnalysisEnded(serial) => analysis_ended(model, serial),
        ReviewAction::AskSaveSgf => ask_save_sgf(model),
        ReviewAction::SaveSgf(out) => save_sgf(model, out, false),
        ReviewAction::SgfExists(out) => ask_replace(model, out),
        ReviewAction::ReplaceSgf(yes) => replace_sgf(model, yes),
        ReviewAction::SgfSaved(result) => {
            model.status = match result {
                Ok(out) => Status::success(format!(
                    "Saved the match with its analysis as {} (gnubg's load match reads it)",
                    bgedit_core::quote::printable(&out)
                )),
                Err(e) => Status::error(format!("could not save the match: {e}")),
            };
            done(model)
        }
    }
}

/// `W`: the file to save to, offered beside the match (`NAME.analysed.sgf`),
/// once the panel holds its verdicts (all of them: a save mid-analysis
/// would mix depths in one file).
fn ask_save_sgf(mut model: Model) -> (Model, Vec<Effect>) {
    let Some(m) = model.review.open.as_ref() else {
        return no_match(model);
    };
    if m.analysing {
        return refuse(model, "the analysis is running: save once it has ended");
    }
    if !m.verdicts.iter().any(|v| matches!(v, Verdict::Judged(_))) {
        return refuse(model, "no verdict to save yet: E analyses the match");
    }
    let path = std::path::Path::new(&m.path);
    let stem = match &m.pasted {
        // In the working directory, a name without a blank.
        Some(_) => "pasted-match".into(),
        None => path
            .file_stem()
            .map_or_else(|| "match".into(), |s| s.to_string_lossy()),
    };
    let offer = path.with_file_name(format!("{stem}.analysed.sgf"));
    model.mode = Mode::Prompt(Prompt::with_value(
        PromptKind::SgfFile,
        &offer.display().to_string(),
    ));
    done(model)
}

/// The file to save to exists: whether to write over it is asked (y/n),
/// the name kept for the answer.
fn ask_replace(mut model: Model, out: String) -> (Model, Vec<Effect>) {
    if model.review.open.is_none() {
        return no_match(model);
    }
    model.status = Status::info(format!(
        "{} exists (an analysis saved earlier?): y replaces it, n keeps it",
        bgedit_core::quote::printable(&out)
    ));
    model.review.replacing = Some(out);
    model.mode = Mode::Prompt(Prompt::new(PromptKind::ReplaceSgf));
    done(model)
}

/// The answer to [`ask_replace`]: the file written over, or its name
/// offered again to change.
fn replace_sgf(mut model: Model, yes: bool) -> (Model, Vec<Effect>) {
    let Some(out) = model.review.replacing.take() else {
        model.mode = Mode::Review;
        return done(model);
    };
    if yes {
        return save_sgf(model, out, true);
    }
    model.mode = Mode::Prompt(Prompt::with_value(PromptKind::SgfFile, &out));
    model.status = Status::info(format!(
        "{} kept: give another name (Esc cancels)",
        bgedit_core::quote::printable(&out)
    ));
    done(model)
}

/// Asks the runtime to write the match with the panel's verdicts and luck;
/// a file already there is written over only when `replace`.
fn save_sgf(mut model: Model, out: String, replace: bool) -> (Model, Vec<Effect>) {
    let Some(m) = model.review.open.as_ref() else {
        return no_match(model);
    };
    if out.trim().is_empty() {
        return refuse(model, "give the file to save the match to");
    }
    let judged: Vec<_> = m
        .verdicts
        .iter()
        .filter_map(|v| match v {
            Verdict::Judged(list) => Some(list.iter().cloned()),
            _ => None,
        })
        .flatten()
        .collect();
    let effect = Effect::SaveSgf {
        source: m.path.clone(),
        pasted: m.pasted.clone(),
        out: out.trim().to_owned(),
        judged,
        luck: m.luck.clone(),
        decisions: m.decisions().len(),
        replace,
    };
    model.mode = Mode::Review;
    model.status = Status::info("Saving the match as SGF…");
    (model, vec![effect])
}

/// The directory listed for Tab: the path typed completed as far as the
/// names agree, and the names that match, on the status line.
fn completed(
    mut model: Model,
    typed: String,
    entries: Vec<(String, bool)>,
) -> (Model, Vec<Effect>) {
    let Mode::Prompt(p) = &mut model.mode else {
        return done(model);
    };
    if !matches!(p.kind, PromptKind::MatchFile | PromptKind::SgfFile) || p.line.text != typed {
        return done(model);
    }
    let (text, names) = complete(&typed, &entries);
    p.line.text = text;
    p.line.cursor = p.line.text.chars().count();
    model.status = match names.len() {
        0 => Status::error(format!("no file starts with {typed:?}")),
        1 => Status::info(""),
        n => Status::info(format!(
            "{n} match: {}{}",
            names.iter().take(8).cloned().collect::<Vec<_>>().join("  "),
            if n > 8 { "  …" } else { "" }
        )),
    };
    done(model)
}

/// Closes the match (stopping its analysis) and its panel.
fn close(mut model: Model) -> (Model, Vec<Effect>) {
    let Some(m) = model.review.open.take() else {
        return no_match(model);
    };
    model.mode = Mode::Normal;
    if model.panels.is_on(Panel::Match) {
        model.panels.toggle(Panel::Match);
    }
    model.analysis.played_after = None;
    model.analysis.played_action = None;
    model.status = Status::info(format!("Closed {}", m.file_name()));
    let effects = if m.analysing {
        vec![Effect::StopMatchAnalysis]
    } else {
        Vec::new()
    };
    (model, effects)
}

/// A verdict of the background analysis at `plies`, for decision `i`.
/// Verdicts come pass by pass (0-ply first, then deeper), each pass in
/// match order; a deeper verdict replaces the quicker one, and a deeper
/// one that failed leaves the quicker one standing.
fn judged(
    mut model: Model,
    serial: u64,
    i: usize,
    plies: u8,
    outcome: Result<Vec<Judged>, Failed>,
) -> (Model, Vec<Effect>) {
    if serial != model.review.serial {
        return done(model);
    }
    if let Some(m) = model.review.open.as_mut()
        && i < m.verdicts.len()
    {
        if plies != m.pass {
            m.pass = plies;
            m.done = 0;
        }
        match outcome {
            Ok(list) => {
                // Kept in the library as it arrives, when the match is
                // the library's.
                let kept = super::stored::keep(m, i, plies, &list);
                m.verdicts[i] = Verdict::Judged(list);
                m.depths[i] = Some(plies);
                m.done += 1;
                return (model, kept.into_iter().collect());
            }
            Err(_) if matches!(m.verdicts[i], Verdict::Judged(_)) => m.deeper_failed += 1,
            Err(f) => {
                m.verdicts[i] = Verdict::Failed(f);
                m.depths[i] = Some(plies);
            }
        }
        m.done += 1;
    }
    done(model)
}

/// The background analysis is over: what it found, and what it could
/// not judge.
fn analysis_ended(mut model: Model, serial: u64) -> (Model, Vec<Effect>) {
    if serial != model.review.serial {
        return done(model);
    }
    let Some(m) = model.review.open.as_mut() else {
        return done(model);
    };
    m.analysing = false;
    let refresh = super::stored::refresh(m);
    let failures: Vec<&str> = m
        .verdicts
        .iter()
        .filter_map(|v| match v {
            Verdict::Failed(f) => Some(f.why.as_str()),
            _ => None,
        })
        .collect();
    let mistakes = m.mistakes().len();
    let depth = m.depth_words();
    let deeper_failed = match m.deeper_failed {
        0 => String::new(),
        n => format!(" ({n} kept at a quicker depth: the deeper analysis failed)"),
    };
    model.status = if let Some(first) = failures.first() {
        Status::error(format!(
            "Match analysed at {depth}: {mistakes} mistakes; {} could not judge {} ({first})",
            m.judge.name(),
            match failures.len() {
                1 => "1 decision".to_owned(),
                n => format!("{n} decisions"),
            }
        ))
    } else if m.deeper_failed > 0 {
        Status::error(format!(
            "Match analysed at {depth}: {mistakes} mistakes{deeper_failed}"
        ))
    } else {
        Status::success(format!(
            "Match analysed at {depth}: {mistakes} mistakes · n/N walk them, * keeps them, s: statistics"
        ))
    };
    (model, refresh.into_iter().collect())
}

fn no_match(model: Model) -> (Model, Vec<Effect>) {
    refuse(model, "no match is open: ^O opens a match file")
}

/// The completion of `typed` from the names in its directory: the one name
/// (a directory gets its slash), or the longest prefix the names share;
/// and the names that fit.
pub(crate) fn complete(typed: &str, entries: &[(String, bool)]) -> (String, Vec<String>) {
    let (dir, stem) = match typed.rfind('/') {
        Some(i) => typed.split_at(i + 1),
        None => ("", typed),
    };
    let mut fits: Vec<&(String, bool)> = entries
        .iter()
        .filter(|(n, _)| n.starts_with(stem) && (stem.starts_with('.') || !n.starts_with('.')))
        .collect();
    fits.sort();
    let names: Vec<String> = fits
        .iter()
        .map(|(n, d)| if *d { format!("{n}/") } else { n.clone() })
        .collect();
    match names.as_slice() {
        [] => (typed.to_owned(), names),
        [one] => (format!("{dir}{one}"), names),
        many => {
            let first = &many[0];
            let mut len = first.len();
            for n in &many[1..] {
                len = len.min(
                    first
                        .char_indices()
                        .zip(n.chars())
                        .take_while(|((_, a), b)| a == b)
                        .last()
                        .map_or(0, |((i, a), _)| i + a.len_utf8()),
                );
            }
            (format!("{dir}{}", &first[..len]), names)
        }
    }
}

/// `f`: the board's points counted for O, then X, then (as gnubg prints
/// it) the player on roll.
fn cycle_view(mut model: Model) -> (Model, Vec<Effect>) {
    model.view_from = match model.view_from {
        None => Some(Player::O),
        Some(Player::O) => Some(Player::X),
        Some(Player::X) => None,
    };
    model.status = Status::info(match model.view_from {
        Some(p) => format!("The board from {p}'s side (f: the other)"),
        None => "The board from the side of the player on roll, as gnubg prints it".to_owned(),
    });
    done(model)
}

/// A match of the library opened from the match list: opened without an
/// analysis, then given the verdicts the library holds.
fn opened_stored(model: Model, stored: super::state::Stored) -> (Model, Vec<Effect>) {
    let super::state::Stored {
        loaded,
        match_id,
        kept,
    } = stored;
    let (model, effects) = open_loaded(model, loaded, false);
    super::stored::opened_stored(model, effects, match_id, kept)
}

/// A file read for the panel: opened, its analysis started, and the
/// library asked whether it holds the match (and its verdicts).
fn opened(model: Model, loaded: Loaded) -> (Model, Vec<Effect>) {
    let path = loaded.pasted.is_none().then(|| loaded.path.clone());
    let (model, mut effects) = open_loaded(model, loaded, true);
    if let Some(path) = path
        && model.review.open.is_some()
    {
        effects.push(Effect::Library(crate::library::state::Request::Attach {
            serial: model.review.serial,
            path,
        }));
    }
    (model, effects)
}

/// Opens `loaded` in the panel; its analysis starts when `analyse` and
/// the file carries none of its own.
fn open_loaded(mut model: Model, loaded: Loaded, analyse: bool) -> (Model, Vec<Effect>) {
    if loaded.replayed.decisions().is_empty() {
        let why = loaded.problems.first().cloned().unwrap_or_default();
        return refuse(
            model,
            format!("{}: no decisions to show {why}", loaded.path)
                .trim_end()
                .to_owned(),
        );
    }
    let mut effects = Vec::new();
    if model.review.open.as_ref().is_some_and(|m| m.analysing) {
        effects.push(Effect::StopMatchAnalysis);
    }
    model.review.serial += 1;
    let serial = model.review.serial;
    let replayed = std::sync::Arc::clone(&loaded.replayed);
    let problems = loaded.problems.len();
    let games = loaded.games.len();
    let mut m = OpenMatch::new(loaded);
    // A file's own analysis is what its owner chose to keep: shown as it
    // is, and the engine asked only with `E`.
    let engine = judge_of(&model);
    m.judge = engine;
    let carries = m.carries_analysis() || !analyse;
    m.analysing = !carries;
    let summary = format!(
        "Opened {} ({}): {}, {}{} · {}",
        m.file_name(),
        m.format,
        bgedit_core::words::count_s(games, "game"),
        bgedit_core::words::count_s(m.decisions().len(), "decision"),
        if problems > 0 {
            format!(", {problems} problems (H shows them)")
        } else {
            String::new()
        },
        if carries {
            format!("the file's own analysis (E: {}'s)", engine.name())
        } else {
            "analysing in the background".to_owned()
        }
    );
    let problems_text = m.problems.clone();
    model.review.open = Some(Box::new(m));
    model.mode = Mode::Review;
    if !model.panels.is_on(Panel::Match) {
        model.panels.toggle(Panel::Match);
    }
    for p in problems_text {
        model.log.push(&Status::error(p));
    }
    let (mut model, mut more) = show(model, 0, "");
    model.status = Status::success(summary);
    effects.append(&mut more);
    if !carries {
        // Quick 0-ply verdicts for the whole match first (seconds: the
        // mistakes show and `n` walks them at once), then the panel's
        // deeper depth replacing them decision by decision (about 50 s of
        // gnubg per 7-point match and core at 2-ply).
        let target = model.analysis.deep_plies;
        if let Some(m) = model.review.open.as_mut() {
            m.judge = engine;
            m.target = target;
            m.pass = 0;
        }
        effects.push(Effect::AnalyseMatch {
            serial,
            replayed,
            engine,
            passes: if target == 0 {
                vec![0]
            } else {
                vec![0, target]
            },
        });
    }
    (model, effects)
}

/// The engine that analyses a match: the analysis panel's lead engine.
fn judge_of(model: &Model) -> bgedit_engine::EngineKind {
    model.analysis.engines.lead()
}

/// `E`: the analysis panel's lead engine analyses the match at the
/// panel's deeper depth, or at the file's own depth when that is deeper: a
/// file's analysis (gnubg's SGF at 2-ply, XG's) is never replaced by a
/// shallower one. What is on show stays until each new verdict comes.
fn analyse(mut model: Model) -> (Model, Vec<Effect>) {
    let engine = judge_of(&model);
    let wanted = model.analysis.deep_plies;
    let Some(m) = model.review.open.as_mut() else {
        return no_match(model);
    };
    if m.analysing {
        let who = m.judge.name();
        return refuse(model, format!("{who} is analysing the match already"));
    }
    let file = m.file_plies();
    let target = wanted.max(file.unwrap_or(0));
    let file_words = m
        .decisions()
        .iter()
        .filter_map(|d| d.analysis.as_ref())
        .map(|a| a.depth().to_owned())
        .max_by_key(|d| super::state::gnubg_plies(d))
        .unwrap_or_default();
    if target > bgedit_engine::request::MAX_PLIES {
        return refuse(
            model,
            format!(
                "the file's own analysis ({file_words}) is deeper than the {}-ply the editor analyses at: kept as it is",
                bgedit_engine::request::MAX_PLIES
            ),
        );
    }
    // Verdicts of this engine already as deep as the target, every one.
    let judged_deep = m.judge == engine
        && m.verdicts
            .iter()
            .zip(&m.depths)
            .all(|(v, d)| matches!(v, Verdict::Judged(_)) && d.is_some_and(|d| d >= target));
    if judged_deep {
        return refuse(
            model,
            format!(
                "{} has analysed the whole match at {target}-ply already",
                engine.name()
            ),
        );
    }
    // Another engine's verdicts go; this engine's stay until the deeper
    // ones replace them.
    if m.judge != engine {
        m.verdicts = vec![Verdict::Waiting; m.decisions().len()];
        m.depths = vec![None; m.decisions().len()];
    }
    let quick_first = file.is_none() && m.depths.iter().all(Option::is_none);
    let passes = if quick_first && target > 0 {
        vec![0, target]
    } else {
        vec![target]
    };
    m.judge = engine;
    m.analysing = true;
    m.done = 0;
    m.target = target;
    m.pass = passes[0];
    m.deeper_failed = 0;
    m.luck = None;
    let replayed = std::sync::Arc::clone(&m.replayed);
    model.review.serial += 1;
    let serial = model.review.serial;
    let why = match file {
        Some(f) if f > wanted => {
            format!(" (the file's own analysis is {file_words}: never replaced by a shallower one)")
        }
        Some(_) => format!(" (the file's own analysis, {file_words}, is shown until then)"),
        None => String::new(),
    };
    model.status = Status::info(format!(
        "{} analyses the match at {target}-ply in the background{why}",
        engine.name()
    ));
    (
        model,
        vec![Effect::AnalyseMatch {
            serial,
            replayed,
            engine,
            passes,
        }],
    )
}

/// The decision under the cursor moves to `at`; the board shows its
/// position (not an edit: undo does not walk the match).
fn show(mut model: Model, at: usize, message: &str) -> (Model, Vec<Effect>) {
    let Some(m) = model.review.open.as_mut() else {
        return no_match(model);
    };
    // The replay, not the match, is borrowed: the cursor moves.
    let Some(d) = m.replayed.decisions().get(at) else {
        return done(model);
    };
    m.cursor = at;
    m.on_board = true;
    let position = d.position.clone();
    let after = played_after(d);
    let where_ = format!("game {} move {}", d.game, d.number);
    model.analysis.played_after = after;
    model.analysis.played_action =
        (d.dice.is_none() && !d.played.is_empty()).then(|| d.played.clone());
    model.status = if message.is_empty() {
        Status::info(where_)
    } else {
        Status::info(format!("{message} · {where_}"))
    };
    if model.position != position {
        model.position = position;
        model.numbers.last_evaluation = None;
        model.play = Default::default();
    }
    done(model)
}

/// The Position ID after the move played, as the analysis lists key their
/// moves, for a checker play.
fn played_after(d: &FileDecision) -> Option<String> {
    d.dice?;
    let typed = bgedit_core::domain::notation::parse(&d.played).ok()?;
    let legal = bgedit_core::domain::moves::check_move(&d.position, &typed).ok()?;
    let next = bgedit_core::domain::moves::apply(&d.position, &legal);
    Some(bgedit_core::codec::position_id::encode(
        &next.board,
        d.position.state.on_roll.opponent(),
    ))
}

/// An edit changed the board while it showed a decision: the match stays
/// open, the board is the user's.
pub(crate) fn left(model: &mut Model) {
    if let Some(m) = model.review.open.as_mut()
        && m.on_board
    {
        m.on_board = false;
        model.analysis.played_after = None;
        model.analysis.played_action = None;
        if model.mode == Mode::Review {
            model.mode = Mode::Normal;
        }
        let note = " · left the match (v goes back)";
        if !model.status.text.ends_with(note) {
            model.status.text.push_str(note);
        }
    }
}

fn walk(model: Model, step: Step) -> (Model, Vec<Effect>) {
    let Some(m) = model.review.open.as_ref() else {
        return no_match(model);
    };
    let n = m.decisions().len();
    let at = m.cursor;
    let game = m.decisions()[at].game;
    let target = match step {
        Step::Next => (at + 1 < n).then_some(at + 1),
        Step::Previous => at.checked_sub(1),
        Step::First => Some(0),
        Step::Last => Some(n - 1),
        Step::NextGame => (at..n).find(|&i| m.decisions()[i].game != game),
        Step::PreviousGame => {
            // The start of this game, or of the one before when already there.
            let start = (0..=at)
                .rev()
                .take_while(|&i| m.decisions()[i].game == game)
                .last();
            match start {
                Some(s) if s < at => Some(s),
                Some(s) => s.checked_sub(1).map(|p| {
                    let g = m.decisions()[p].game;
                    (0..=p)
                        .rev()
                        .take_while(|&i| m.decisions()[i].game == g)
                        .last()
                        .unwrap_or(p)
                }),
                None => None,
            }
        }
        Step::NextMistake => (at + 1..n).find(|&i| m.is_mistake(i)),
        Step::PreviousMistake => (0..at).rev().find(|&i| m.is_mistake(i)),
    };
    match target {
        Some(i) => {
            let message = match step {
                Step::NextMistake | Step::PreviousMistake => {
                    let e = m.error(i).unwrap_or(0.0);
                    format!("Mistake: {}", bgedit_core::domain::skill::given_away(e))
                }
                _ => String::new(),
            };
            show(model, i, &message)
        }
        None => {
            let why = match step {
                Step::NextMistake | Step::PreviousMistake if m.analysing => {
                    "no mistake that way yet (the analysis is still running)"
                }
                Step::NextMistake | Step::PreviousMistake => "no more mistakes that way",
                Step::NextGame | Step::PreviousGame => "no more games that way",
                _ => "no more decisions that way",
            };
            refuse(model, why)
        }
    }
}

/// The library entry for a judged decision: its source, player, played
/// move, gnubg's analysis and the error.
fn entry(m: &OpenMatch, d: &FileDecision, j: Option<&Judged>) -> NewEntry {
    let mut e = match_import::entry(m.file_name(), d);
    if let Some(j) = j {
        e.position = j.position.clone();
        let best = if j.best != j.played && j.judgement.error > 0.0 {
            format!(" · gnubg: {}", j.best)
        } else {
            String::new()
        };
        e.note = format!("played: {}{best}", j.played);
        let depth = match &j.analysis {
            Analysis::Over { .. } => String::new(),
            a => a.plies().map_or(String::new(), |p| format!("{p}-ply")),
        };
        e.analysis = Some(bgedit_library::Analysis {
            text: text::render(&j.analysis, Units::Equity, 10),
            depth,
        });
        e.decision = Some(Decision::new(
            j.name.clone(),
            match j.judgement.kind {
                bgedit_core::domain::match_stats::DecisionKind::Checker => {
                    bgedit_library::filter::DecisionKind::Checker
                }
                bgedit_core::domain::match_stats::DecisionKind::Cube => {
                    bgedit_library::filter::DecisionKind::Cube
                }
                bgedit_core::domain::match_stats::DecisionKind::Take => {
                    bgedit_library::filter::DecisionKind::Take
                }
            },
            j.played.clone(),
            Some(j.judgement.error),
        ));
    }
    e
}

fn keep(mut model: Model) -> (Model, Vec<Effect>) {
    let Some(m) = model.review.open.as_ref() else {
        return no_match(model);
    };
    if !m.on_board {
        return refuse(
            model,
            "the board is not the match's decision now: v goes back to it",
        );
    }
    let Some(d) = m.current() else {
        return no_match(model);
    };
    // The worse of a roll's two decisions (the cube before it, the play).
    let j = m
        .judged()
        .iter()
        .max_by(|a, b| a.judgement.error.total_cmp(&b.judgement.error));
    let e = entry(m, d, j);
    model.status = Status::info(format!(
        "Keeping game {} move {} in the library…",
        d.game, d.number
    ));
    (
        model,
        vec![Effect::Library(crate::library::state::Request::Add(
            Box::new(e),
        ))],
    )
}

fn keep_mistakes(mut model: Model) -> (Model, Vec<Effect>) {
    let Some(m) = model.review.open.as_ref() else {
        return no_match(model);
    };
    let collection = collection_name(m.file_name());
    // gnubg's verdicts, and the file's own analysis where gnubg has none.
    let judged = m.mistakes().into_iter().map(|(d, j)| entry(m, d, Some(j)));
    let from_file = m.file_mistakes().into_iter().map(|d| entry(m, d, None));
    let entries: Vec<bgedit_library::NewEntry> = judged
        .chain(from_file)
        .map(|mut e| {
            e.collections = vec![collection.clone()];
            e
        })
        .collect();
    if entries.is_empty() {
        let why = if m.analysing {
            "no mistakes judged yet: the analysis is still running"
        } else {
            "no mistakes in this match at the threshold"
        };
        return refuse(model, why);
    }
    let n = entries.len();
    let more = if m.analysing {
        " (so far: the analysis is still running)"
    } else {
        ""
    };
    model.status = Status::info(format!(
        "Keeping {n} mistakes in the collection {collection}{more}…"
    ));
    // One request, one answer: one message for them all.
    let request = crate::library::state::Request::AddMany {
        entries,
        collection,
    };
    (model, vec![Effect::Library(request)])
}

/// A collection name from a file name: its stem, in the library's words
/// (no spaces).
pub fn collection_name(file: &str) -> String {
    let stem = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(file);
    let name: String = stem
        .chars()
        .map(|c| {
            if c.is_whitespace() || c == ',' {
                '-'
            } else {
                c
            }
        })
        .collect();
    if name.is_empty() {
        "match".to_owned()
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::BoardAction;

    fn entries(names: &[(&str, bool)]) -> Vec<(String, bool)> {
        names.iter().map(|(n, d)| (n.to_string(), *d)).collect()
    }

    #[test]
    fn tab_completes_one_name_or_the_shared_prefix() {
        let e = entries(&[
            ("m7_noisy.sgf", false),
            ("m7_driven.mat", false),
            ("mats", true),
        ]);
        assert_eq!(complete("dir/m7_n", &e).0, "dir/m7_noisy.sgf");
        assert_eq!(complete("dir/m7", &e).0, "dir/m7_");
        assert_eq!(complete("dir/mats", &e).0, "dir/mats/");
        let (text, names) = complete("x", &e);
        assert_eq!((text.as_str(), names.len()), ("x", 0));
        // Hidden files only when asked for.
        let e = entries(&[(".hidden", false), ("seen", false)]);
        assert_eq!(complete("", &e).0, "seen");
        assert_eq!(complete(".", &e).0, ".hidden");
    }

    use crate::action::Action;
    use crate::reducer;
    use bgedit_core::domain::match_stats::DecisionKind;

    fn opened() -> Model {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/selfplay/m7_driven.mat"
        );
        let loaded = super::super::open::load(path).unwrap();
        let (model, effects) = reducer::update(
            Model::default(),
            Action::Review(ReviewAction::Opened(Ok(Box::new(loaded)))),
        );
        assert!(
            effects
                .iter()
                .any(|e| matches!(e, Effect::AnalyseMatch { serial: 1, .. })),
            "{effects:?}"
        );
        model
    }

    /// With the analysis panel on the second engine alone, the match is
    /// analysed by it, and the panel and the refusals say so.
    #[test]
    fn the_panels_engine_analyses_the_match() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/selfplay/m7_driven.mat"
        );
        let loaded = super::super::open::load(path).unwrap();
        let (model, _) = reducer::update(
            Model::default(),
            Action::Analysis(crate::action::AnalysisAction::CycleEngine),
        );
        // `z` goes from the reference engine to the next one alone.
        let other = model.analysis.engines.lead();
        assert!(!other.is_reference());
        assert_eq!(model.analysis.engines, bgedit_engine::Choice::only(other));
        let (model, effects) = reducer::update(
            model,
            Action::Review(ReviewAction::Opened(Ok(Box::new(loaded)))),
        );
        assert!(
            effects
                .iter()
                .any(|e| matches!(e, Effect::AnalyseMatch { engine, .. } if *engine == other)),
            "{effects:?}"
        );
        let m = model.review.open.as_ref().unwrap();
        assert_eq!(m.judge, other);
        let header = super::super::view::of(m).header;
        let analysing = format!("{} analysing 0/", other.name());
        assert!(header.contains(&analysing), "{header}");
        let (model, _) = reducer::update(model, Action::Review(ReviewAction::Analyse));
        assert_eq!(
            model.status.text,
            format!("{} is analysing the match already", other.name())
        );
    }

    /// A whole match pasted (the `.mat` text, gnubg's match text with its
    /// analysis) opens in the panel as its file does; one position's block
    /// is still a position.
    #[test]
    fn a_pasted_match_opens_in_the_panel_and_one_block_is_a_position() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/");
        for file in ["selfplay/m7_driven.mat", "match_core/match3.txt"] {
            let text = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
            let from_file = super::super::open::load(&format!("{dir}{file}")).unwrap();
            let (model, effects) =
                reducer::update(Model::default(), Action::Pasted(Ok(text.clone())));
            let m = model.review.open.as_ref().expect("the match is open");
            assert_eq!(m.path, super::super::open::PASTED);
            assert_eq!(m.decisions(), from_file.replayed.decisions(), "{file}");
            // gnubg's match text carries gnubg's analysis, shown as it is
            // (E asks the engine); the .mat carries none and is analysed.
            let carries = file.ends_with(".txt");
            assert_eq!(m.carries_analysis(), carries, "{file}");
            assert_eq!(
                effects
                    .iter()
                    .any(|e| matches!(e, Effect::AnalyseMatch { .. })),
                !carries,
                "{file}: {effects:?}"
            );
            assert_eq!(model.mode, Mode::Review, "{file}: {}", model.status.text);
            // Pasted while the match panel has the keys: the new match.
            let key_mode = crate::keymap::resolve_paste(text, &Mode::Review);
            assert!(matches!(key_mode, Some(Action::Import(_))), "{file}");
        }
        // Terminals send a paste's line breaks as carriage returns.
        let sgf = std::fs::read_to_string(format!("{dir}analysis/m5_noisy.sgf")).unwrap();
        let plain = super::super::open::pasted(&sgf).expect("read");
        let loaded = super::super::open::pasted(&sgf.replace('\n', "\r")).expect("read with CRs");
        assert_eq!(
            loaded.replayed.decisions().len(),
            plain.replayed.decisions().len(),
            "{:?}",
            loaded.problems
        );
        let n = loaded.replayed.decisions().len();
        assert!(n > 50, "{n}");
        let one = "Position ID: 4HPwATDgc/ABMA\nMatch ID   : cAkAAAAAAAAA\n";
        let (model, _) = reducer::update(Model::default(), Action::Pasted(Ok(one.into())));
        assert!(model.review.open.is_none());
        assert_eq!(model.status.text, "GNUBG ID read");
    }

    /// A file with its own analysis opens with it and asks gnubg nothing;
    /// `*` keeps the file's mistakes; `E` asks gnubg, once.
    #[test]
    fn a_files_own_analysis_is_kept_until_e_asks_gnubg() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/analysis/m5_noisy.sgf"
        );
        let loaded = super::super::open::load(path).unwrap();
        let (model, effects) = reducer::update(
            Model::default(),
            Action::Review(ReviewAction::Opened(Ok(Box::new(loaded)))),
        );
        assert!(
            !effects
                .iter()
                .any(|e| matches!(e, Effect::AnalyseMatch { .. })),
            "{effects:?}"
        );
        let m = model.review.open.as_ref().unwrap();
        assert!(m.carries_analysis() && !m.analysing);
        // The file's 0-ply analysis has one mistake beyond 0.06: X's double
        // at game 2 move 19.
        assert_eq!(m.file_mistakes().len(), 1);
        assert!(
            super::super::view::of(m)
                .header
                .contains("file's analysis: 1 mistake · E: gnubg's"),
            "{}",
            super::super::view::of(m).header
        );
        let (model, kept) = reducer::update(model, Action::Review(ReviewAction::KeepMistakes));
        assert_eq!(kept.len(), 1, "{kept:?}");
        let (model, asked) = reducer::update(model, Action::Review(ReviewAction::Analyse));
        assert!(
            asked
                .iter()
                .any(|e| matches!(e, Effect::AnalyseMatch { serial: 2, .. })),
            "{asked:?}"
        );
        assert!(model.review.open.as_ref().unwrap().analysing);
        let (model, again) = reducer::update(model, Action::Review(ReviewAction::Analyse));
        assert!(again.is_empty());
        assert!(model.status.text.contains("analysing the match already"));
    }

    fn judged(m: &OpenMatch, i: usize, error: f64) -> Judged {
        let d = &m.decisions()[i];
        let mut j = Judged::unjudged(
            d,
            DecisionKind::Checker,
            d.position.clone(),
            d.played.clone(),
        );
        j.best = "24/13".into();
        j.judgement.error = error;
        j.judgement.counted = true;
        j
    }

    /// The open input line cleared, `text` typed and submitted.
    fn answer(model: Model, text: &str) -> Model {
        use crate::action::PromptAction;
        let mut model = reducer::update(model, Action::Prompt(PromptAction::Clear)).0;
        for c in text.chars() {
            model = reducer::update(model, Action::Prompt(PromptAction::Char(c))).0;
        }
        reducer::update(model, Action::Prompt(PromptAction::Submit)).0
    }

    fn step(model: Model, action: ReviewAction) -> Model {
        reducer::update(model, Action::Review(action)).0
    }

    #[test]
    fn walking_shows_each_decision_and_mistakes_as_they_are_judged() {
        let model = opened();
        assert_eq!(model.mode, Mode::Review);
        let m = model.review.open.as_ref().unwrap();
        assert_eq!(model.position, m.decisions()[0].position);
        let model = step(model, ReviewAction::Walk(Step::Next));
        let m = model.review.open.as_ref().unwrap();
        assert_eq!((m.cursor, &model.position), (1, &m.decisions()[1].position));
        // The next game starts where the game number changes.
        let model = step(model, ReviewAction::Walk(Step::NextGame));
        let m = model.review.open.as_ref().unwrap();
        assert_eq!(m.decisions()[m.cursor].game, 2);
        assert_eq!(m.decisions()[m.cursor - 1].game, 1);
        // No mistake known yet; then one is judged (and a stale one dropped).
        let model = step(model, ReviewAction::Walk(Step::First));
        let refused = step(model.clone(), ReviewAction::Walk(Step::NextMistake));
        assert_eq!(refused.review.open.as_ref().unwrap().cursor, 0);
        let m = model.review.open.as_ref().unwrap();
        let (bad, small) = (judged(m, 5, 0.2), judged(m, 3, 0.05));
        let model = step(model, ReviewAction::Judged(1, 3, 0, Ok(vec![small])));
        let model = step(model, ReviewAction::Judged(1, 5, 0, Ok(vec![bad.clone()])));
        let model = step(model, ReviewAction::Judged(0, 7, 0, Ok(vec![bad])));
        let model = step(model, ReviewAction::Walk(Step::NextMistake));
        let m = model.review.open.as_ref().unwrap();
        assert_eq!(m.cursor, 5, "0.05 is below gnubg's bad (0.06)");
        assert_eq!(m.done, 2);
        assert!(
            model.status.text.contains("Mistake: -0.200"),
            "{:?}",
            model.status
        );
        // An edit leaves the match; v brings the decision back.
        let model = reducer::update(model, Action::Board(BoardAction::StartingPosition)).0;
        let m = model.review.open.as_ref().unwrap();
        assert!(!m.on_board);
        assert_eq!(model.mode, Mode::Normal);
        assert_ne!(model.position, m.decisions()[5].position);
        let model = step(model, ReviewAction::Focus);
        let m = model.review.open.as_ref().unwrap();
        assert!(m.on_board);
        assert_eq!(model.position, m.decisions()[5].position);
        // Only O's mistakes: decision 5 is X's or O's; p cycles to each.
        let whose = m.decisions()[5].player;
        let mut model = step(model, ReviewAction::Walk(Step::First));
        for _ in 0..3 {
            model = step(model, ReviewAction::CycleWho);
            let m = model.review.open.as_ref().unwrap();
            let found = step(model.clone(), ReviewAction::Walk(Step::NextMistake));
            let at = found.review.open.as_ref().unwrap().cursor;
            let expected = if m.who.is_none_or(|p| p == whose) {
                5
            } else {
                0
            };
            assert_eq!(at, expected, "{:?}", m.who);
        }
    }

    #[test]
    fn keeping_every_mistake_asks_the_library_once_for_all_in_one_collection() {
        let model = opened();
        let m = model.review.open.as_ref().unwrap();
        let (a, b) = (judged(m, 2, 0.3), judged(m, 4, 0.1));
        let model = step(model, ReviewAction::Judged(1, 2, 0, Ok(vec![a])));
        let model = step(model, ReviewAction::Judged(1, 4, 0, Ok(vec![b])));
        let (_, effects) = reducer::update(model, Action::Review(ReviewAction::KeepMistakes));
        let [Effect::Library(crate::library::state::Request::AddMany { entries: adds, .. })] =
            &effects[..]
        else {
            panic!("one request for them all: {effects:?}")
        };
        assert_eq!(adds.len(), 2);
        assert!(adds.iter().all(|e| e.collections == ["m7_driven"]));
        assert_eq!(adds[0].decision.as_ref().unwrap().error(), Some(0.3));
        assert!(
            matches!(&adds[0].source, bgedit_library::Source::Imported(s) if s.ends_with("game 1 move 3")),
            "{:?}",
            adds[0].source
        );
    }

    #[test]
    fn the_mistake_threshold_is_the_players() {
        let model = opened();
        let model = step(model, ReviewAction::AskThreshold);
        assert!(matches!(&model.mode, Mode::Prompt(p) if p.line.text == "0.060"));
        let model = answer(model, "0.2");
        assert_eq!(model.mode, Mode::Review);
        let m = model.review.open.as_ref().unwrap();
        assert_eq!(m.threshold, 0.2);
        // Judged at 0.15: a mistake at gnubg's bad, not beyond 0.2.
        let j = judged(m, 4, 0.15);
        let model = step(model, ReviewAction::Judged(1, 4, 0, Ok(vec![j])));
        let model = step(model, ReviewAction::Walk(Step::NextMistake));
        assert_eq!(model.review.open.as_ref().unwrap().cursor, 0);
        // A threshold that is not an equity is refused, the old one kept.
        let model = step(model, ReviewAction::AskThreshold);
        let model = answer(model, "lots");
        assert!(
            model.status.text.contains("is not an equity"),
            "{:?}",
            model.status
        );
        assert_eq!(model.review.open.as_ref().unwrap().threshold, 0.2);
    }

    #[test]
    fn the_analysis_panel_says_what_cube_action_was_played() {
        let mut model = opened();
        let m = model.review.open.as_ref().unwrap();
        let at = m
            .decisions()
            .iter()
            .position(|d| d.played == "double")
            .unwrap();
        let mut effects = Vec::new();
        for _ in 0..at {
            (model, effects) =
                reducer::update(model, Action::Review(ReviewAction::Walk(Step::Next)));
        }
        let id = effects
            .iter()
            .find_map(|e| match e {
                Effect::Analyse(_, r) => Some(r.id),
                _ => None,
            })
            .expect("the new position is analysed");
        let cube = Analysis::Cube {
            plies: 0,
            action: "No double, take".into(),
            no_double: 0.3,
            double_take: 0.1,
            double_pass: 1.0,
            optimal: Some(0.3),
            no_double_mwc: None,
            double_take_mwc: None,
            double_pass_mwc: None,
            probs: [0.6, 0.2, 0.01, 0.1, 0.004],
            cubeless: 0.3,
            rollout: None,
        };
        let model = reducer::update(
            model,
            Action::Analysis(crate::action::AnalysisAction::Answer(
                bgedit_engine::EngineKind::reference(),
                id,
                Ok(cube),
                None,
            )),
        )
        .0;
        let text = crate::analysis::panel_text(&model);
        assert!(
            text.notes
                .iter()
                .any(|n| n == "Played in the match: double"),
            "{text:?}"
        );
    }

    #[test]
    fn collections_are_named_after_the_file() {
        assert_eq!(collection_name("last night.mat"), "last-night");
        assert_eq!(collection_name("m7.sgf"), "m7");
    }
}
