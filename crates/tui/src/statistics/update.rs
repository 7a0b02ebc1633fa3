//! The statistics view's part of the reducer: pure. It reads the match
//! panel's verdicts; it changes only its scroll and the mode.

use super::state::StatisticsAction;
use crate::effect::Effect;
use crate::library::state::{LibMode, Request};
use crate::match_review::state::Verdict;
use crate::model::{Mode, Model, Status};
use crate::transition::{done, refuse};
use bgedit_library::player_stats::PlayerStats;
use bgedit_library::store::LibraryFailure;
use bgedit_library::theme_stats::{By, ThemeStats};

pub(crate) fn update(mut model: Model, action: StatisticsAction) -> (Model, Vec<Effect>) {
    match action {
        StatisticsAction::Open => open(model),
        StatisticsAction::Player(result) => player(model, result),
        StatisticsAction::NextTheme => next_theme(model),
        StatisticsAction::Themes(result) => themes(model, result),
        StatisticsAction::Scroll(by) => {
            model.statistics.scroll = model.statistics.scroll.saturating_add_signed(by);
            done(model)
        }
        // Opened from the library: back to its list.
        StatisticsAction::Close if model.statistics.player.take().is_some() => {
            model.statistics.themes = None;
            model.mode = Mode::Library(LibMode::List);
            model.status = Status::info("Back to the library");
            done(model)
        }
        StatisticsAction::Close => {
            model.mode = if model.review.open.is_some() {
                Mode::Review
            } else {
                Mode::Normal
            };
            model.status = Status::info("Back to the match");
            done(model)
        }
    }
}

/// Opens the view on the open match once it has verdicts (the engine's,
/// at any depth: the view says which).
fn open(mut model: Model) -> (Model, Vec<Effect>) {
    let Some(m) = model.review.open.as_ref() else {
        return refuse(
            model,
            "no match is open: the statistics are a match's (^O opens a match file)",
        );
    };
    // With no engine verdict yet, a file's own analysis is what the view
    // reads (as `stats --player` does).
    if !m.verdicts.iter().any(|v| matches!(v, Verdict::Judged(_))) && !m.carries_analysis() {
        let why = if m.analysing {
            "wait for the first verdicts"
        } else {
            "E analyses the match"
        };
        return refuse(model, format!("no verdict yet for the statistics: {why}"));
    }
    model.statistics.scroll = 0;
    model.mode = Mode::Statistics;
    model.status = Status::info(format!(
        "Statistics of {} · Esc: back to the match",
        m.file_name()
    ));
    done(model)
}

/// Opens the view on a player's statistics across the library's matches,
/// or says why not (the library failed; they played no match in it).
fn player(
    mut model: Model,
    result: Result<Box<PlayerStats>, LibraryFailure>,
) -> (Model, Vec<Effect>) {
    let stats = match result {
        Ok(s) => s,
        Err(e) => return refuse(model, e.message),
    };
    let name = bgedit_core::quote::printable(&stats.player).into_owned();
    if stats.rows.is_empty() {
        return refuse(
            model,
            format!("no match of {name} in the library (library import adds match files)"),
        );
    }
    model.status = Status::info(format!(
        "{name} across {} · Esc: back to the library",
        bgedit_core::words::count(stats.rows.len(), "match", "matches")
    ));
    model.statistics.scroll = 0;
    model.statistics.player = Some(stats);
    model.mode = Mode::Statistics;
    done(model)
}

/// `t`: the player's decisions by the next theme, asked of the library's
/// worker; after the last theme, their matches again.
fn next_theme(mut model: Model) -> (Model, Vec<Effect>) {
    let Some(player) = model.statistics.player.as_ref().map(|p| p.player.clone()) else {
        return refuse(
            model,
            "themes are a player's: P in the library panel opens a player's statistics",
        );
    };
    let next = match model.statistics.themes.as_ref().map(|t| t.by) {
        None => By::Plan,
        Some(By::Plan) => By::Class,
        Some(By::Class) => By::Score,
        Some(By::Score) => By::Kind,
        Some(By::Kind) => {
            model.statistics.themes = None;
            model.statistics.scroll = 0;
            model.status = Status::info("The matches · t: by plan");
            return done(model);
        }
    };
    model.status = Status::info(format!("Grouping by {}…", next.name()));
    let request = Request::PlayerThemes { player, by: next };
    (model, vec![Effect::Library(request)])
}

/// Shows the worker's groups, or says why not.
fn themes(
    mut model: Model,
    result: Result<Box<ThemeStats>, LibraryFailure>,
) -> (Model, Vec<Effect>) {
    let stats = match result {
        Ok(s) => s,
        Err(e) => return refuse(model, e.message),
    };
    if model.mode != Mode::Statistics || model.statistics.player.is_none() {
        // The view was closed meanwhile.
        return done(model);
    }
    model.status = Status::info(format!(
        "By {}, worst first · t: next theme · Esc: back to the library",
        stats.by.name()
    ));
    model.statistics.scroll = 0;
    model.statistics.themes = Some(stats);
    done(model)
}
