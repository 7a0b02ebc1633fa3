//! The copy keys and the menu's part of the reducer: what each does to
//! the model, the copy or picture the runtime is asked for, and the texts
//! copied. Pure.

use super::state::{CopyAction, CopyRoute, CopyTarget};
use crate::analysis;
use crate::effect::Effect;
use crate::messages::Status;
use crate::model::{Mode, Model};
use crate::transition::{done, refuse};
use bgedit_core::codec::text_board;
use bgedit_core::codec::{self, IdFormat, xgid};
use bgedit_core::domain::{MatchState, Position};

/// The copy keys and the menu: what each does to the model, and the copy or
/// picture the runtime is asked for.
pub(crate) fn update(mut model: Model, action: CopyAction) -> (Model, Vec<Effect>) {
    match action {
        // Every menu letter closes the menu, whether or not it copies: the
        // next key must not be read as a menu letter again.
        CopyAction::Text(CopyTarget::Analysis) => {
            model.mode = Mode::Normal;
            match analysis::copy_text(&model) {
                Some(text) => {
                    model.status = Status::info("Copying the analysis…");
                    let target = CopyTarget::Analysis;
                    (model, vec![Effect::Copy { target, text }])
                }
                None => refuse(model, "no analysis to copy yet".to_owned()),
            }
        }
        CopyAction::Text(target) => {
            let text = text(target, &model.position);
            model.mode = Mode::Normal;
            model.status = Status::info(format!("Copying the {}…", target.name()));
            (model, vec![Effect::Copy { target, text }])
        }
        CopyAction::Copied(target, result) => {
            // Say what the copied ID cannot hold, as `convert` does.
            // The Jacoby bit is on by default; only one the user gave (in a
            // Match ID) can be lost by a match XGID.
            let mut position = model.position.clone();
            if !model.jacoby_from_match_id && !position.state.is_money() {
                position.state.jacoby = false;
            }
            let losses = losses(target, &position);
            let note = losses
                .first()
                .map(|n| format!(" · note: {n}"))
                .unwrap_or_default();
            let what = capitalised(target.name());
            model.status = match result {
                Ok(CopyRoute::System) => {
                    Status::success(format!("{what} copied to the clipboard{note}"))
                }
                Ok(CopyRoute::Osc52 { under_tmux: false }) => Status::success(format!(
                    "{what} sent to the terminal's clipboard (OSC 52; no system clipboard here). \
                     If it does not arrive, your terminal does not allow OSC 52{note}"
                )),
                // tmux's default (`set-clipboard external`) drops what an
                // application sends: nothing arrives, and only this says why.
                Ok(CopyRoute::Osc52 { under_tmux: true }) => Status::success(format!(
                    "{what} sent to the terminal's clipboard (OSC 52; no system clipboard here). \
                     Under tmux it arrives only with `set -g set-clipboard on` in ~/.tmux.conf{note}"
                )),
                Err(e) => Status::error(format!("could not copy the {}: {e}", target.name())),
            };
            done(model)
        }
        CopyAction::OpenMenu => {
            model.mode = Mode::CopyMenu;
            model.status = Status::info("Copy: press a letter, any other key closes");
            done(model)
        }
        CopyAction::CloseMenu => {
            model.mode = Mode::Normal;
            model.status = Status::info("Copy menu closed");
            done(model)
        }
        CopyAction::Picture => {
            model.mode = Mode::Normal;
            model.status = Status::info("Drawing the picture…");
            let position = model.position.clone();
            (model, vec![Effect::SavePicture(position)])
        }
        CopyAction::PictureSaved(Ok(saved)) => {
            model.status = match saved.copied {
                Ok(()) => Status::success(format!(
                    "Picture saved to {} and copied to the clipboard as an image",
                    saved.path
                )),
                Err(why) => Status::success(format!(
                    "Picture saved to {} (not copied: {why})",
                    saved.path
                )),
            };
            done(model)
        }
        CopyAction::PictureSaved(Err(e)) => {
            refuse(model, format!("could not save the picture: {e}"))
        }
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn format_of(target: CopyTarget) -> Option<IdFormat> {
    match target {
        CopyTarget::GnubgId => Some(IdFormat::GnubgId),
        CopyTarget::Xgid => Some(IdFormat::Xgid),
        CopyTarget::PositionId => Some(IdFormat::PositionId),
        CopyTarget::MatchId => Some(IdFormat::MatchId),
        CopyTarget::Header => Some(IdFormat::Header),
        CopyTarget::XgText => Some(IdFormat::XgText),
        CopyTarget::Sgf => Some(IdFormat::Sgf),
        CopyTarget::Fibs => Some(IdFormat::Fibs),
        CopyTarget::Snowie => Some(IdFormat::Snowie),
        CopyTarget::BoardText | CopyTarget::Analysis => None,
    }
}

/// The text a copy puts on the clipboard, for the targets that are the
/// position (the analysis's text is the analysis panel's: `analysis.rs`).
pub fn text(target: CopyTarget, position: &Position) -> String {
    match format_of(target) {
        Some(format) => codec::to_string_as(position, format),
        None => text_board::render(position),
    }
}

/// What the copied text cannot hold, one sentence each.
pub(crate) fn losses(target: CopyTarget, position: &Position) -> Vec<String> {
    let state: &MatchState = &position.state;
    match target {
        CopyTarget::Xgid | CopyTarget::XgText => xgid::dropped_by_xgid(state),
        CopyTarget::GnubgId | CopyTarget::MatchId | CopyTarget::Header => {
            xgid::dropped_by_gnubg_id(state)
        }
        CopyTarget::BoardText | CopyTarget::PositionId | CopyTarget::Analysis => Vec::new(),
        other => format_of(other)
            .map(|to| codec::conversion_losses(position, IdFormat::Json, to))
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_the_formats() {
        let p = Position::default();
        assert_eq!(text(CopyTarget::PositionId, &p), "4HPwATDgc/ABMA");
        assert!(text(CopyTarget::Sgf, &p).starts_with("(;FF[4]"));
        assert!(text(CopyTarget::Fibs, &p).starts_with("board:Black:White:0:0:0:"));
    }
}
