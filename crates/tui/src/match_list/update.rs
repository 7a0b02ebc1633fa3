//! The match list's part of the reducer: pure. The list and the match to
//! open come from the library worker (`Request::Matches`,
//! `Request::OpenStored`); the match opens in the match panel.

use super::state::{MatchListAction, PAGE};
use crate::effect::Effect;
use crate::library::state::{LibMode, Request};
use crate::model::{Mode, Model, Status};
use crate::prompt::state::{Prompt, PromptKind};
use crate::transition::{done, refuse};
use bgedit_library::listing::SortBy;

pub(crate) fn update(mut model: Model, action: MatchListAction) -> (Model, Vec<Effect>) {
    match action {
        MatchListAction::Open => {
            if model.mode != Mode::Matches {
                model.matches.from_library = matches!(model.mode, Mode::Library(_));
            }
            model.mode = Mode::Matches;
            ask(model)
        }
        MatchListAction::Listed(result) => listed(model, result),
        MatchListAction::Move(by) => moved(model, by),
        MatchListAction::Page(by) => moved(model, by.signum() * PAGE),
        MatchListAction::First => moved(model, i64::MIN / 2),
        MatchListAction::Last => moved(model, i64::MAX / 2),
        MatchListAction::CycleSort => {
            let at = SortBy::ALL
                .iter()
                .position(|s| *s == model.matches.sort)
                .unwrap_or(0);
            model.matches.sort = SortBy::ALL[(at + 1) % SortBy::ALL.len()];
            model.matches.cursor = 0;
            ask(model)
        }
        MatchListAction::AskFilter => {
            model.mode = Mode::Prompt(Prompt::with_value(
                PromptKind::MatchFilter,
                &model.matches.filter,
            ));
            done(model)
        }
        MatchListAction::Filter(text) => {
            model.matches.filter = text.trim().to_owned();
            model.matches.cursor = 0;
            model.mode = Mode::Matches;
            ask(model)
        }
        MatchListAction::Enter => enter(model),
        MatchListAction::Close => {
            model.mode = if model.matches.from_library {
                Mode::Library(LibMode::List)
            } else if model.review.open.is_some() {
                Mode::Review
            } else {
                Mode::Normal
            };
            model.status = Status::info("Back from the match list");
            done(model)
        }
    }
}

/// Asks the library for the list as filtered and sorted now.
fn ask(mut model: Model) -> (Model, Vec<Effect>) {
    model.matches.waiting = true;
    model.status = Status::info("Listing the library's matches…");
    let request = Request::Matches {
        filter: model.matches.filter.clone(),
        sort: model.matches.sort,
    };
    (model, vec![Effect::Library(request)])
}

fn listed(
    mut model: Model,
    result: Result<Box<bgedit_library::listing::Listing>, super::state::ListFailure>,
) -> (Model, Vec<Effect>) {
    model.matches.waiting = false;
    let listing = match result {
        Ok(l) => l,
        Err(why) => return refuse(model, why.to_string()),
    };
    let n = listing.lines.len();
    model.matches.cursor = model.matches.cursor.min(n.saturating_sub(1));
    let shown = bgedit_core::words::count(n, "match", "matches");
    model.status = if n == 0 && listing.total == 0 {
        Status::info("No match in the library: bgedit library import FILE… adds them")
    } else {
        Status::info(format!(
            "{shown} of {} by {} · Enter opens · o order · / filter",
            listing.total,
            model.matches.sort.word()
        ))
    };
    model.matches.listing = Some(listing);
    done(model)
}

fn moved(mut model: Model, by: i64) -> (Model, Vec<Effect>) {
    let n = model.matches.listing.as_ref().map_or(0, |l| l.lines.len());
    if n == 0 {
        return done(model);
    }
    let at = (model.matches.cursor as i64).saturating_add(by);
    model.matches.cursor = at.clamp(0, n as i64 - 1) as usize;
    done(model)
}

/// Opens the match under the cursor: the worker reads its kept file and
/// its verdicts.
fn enter(mut model: Model) -> (Model, Vec<Effect>) {
    let Some(line) = model
        .matches
        .listing
        .as_ref()
        .and_then(|l| l.lines.get(model.matches.cursor))
    else {
        return refuse(model, "no match to open: the list is empty");
    };
    let id = line.id;
    model.status = Status::info(format!("Opening match {id} with the library's verdicts…"));
    (model, vec![Effect::Library(Request::OpenStored(id))])
}
