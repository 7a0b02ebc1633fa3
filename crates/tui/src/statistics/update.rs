//! The statistics view's part of the reducer: pure. It reads the match
//! panel's verdicts; it changes only its scroll and the mode.

use super::state::StatisticsAction;
use crate::effect::Effect;
use crate::library::state::LibMode;
use crate::match_review::state::Verdict;
use crate::model::{Mode, Model, Status};
use crate::transition::{done, refuse};
use bgedit_library::player_stats::PlayerStats;
use bgedit_library::store::LibraryFailure;

pub(crate) fn update(mut model: Model, action: StatisticsAction) -> (Model, Vec<Effect>) {
    match action {
        StatisticsAction::Open => open(model),
        StatisticsAction::Player(result) => player(model, result),
        StatisticsAction::Scroll(by) => {
            model.statistics.scroll = model.statistics.scroll.saturating_add_signed(by);
            done(model)
        }
        // Opened from the library: back to its list.
        StatisticsAction::Close if model.statistics.player.take().is_some() => {
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
