//! The numbers panel's part of the reducer: scrolling, and loading a MET
//! file (through the runtime, which reads it) or going back to the
//! built-in one. Pure.

use super::state::{MetHandle, NumbersAction};
use crate::effect::Effect;
use crate::model::{Model, Status};
use crate::panels::Panel;
use crate::transition::{done, refuse};

pub(crate) fn update(mut model: Model, action: NumbersAction) -> (Model, Vec<Effect>) {
    match action {
        NumbersAction::Scroll(rows) => {
            // Up to its least panel's last page; the view keeps the last
            // page full on taller ones.
            let lines = super::text::of(&model.position, &model.numbers);
            let most = lines
                .len()
                .saturating_sub(usize::from(Panel::Numbers.min_rows()));
            model.numbers.scroll = model
                .numbers
                .scroll
                .saturating_add_signed(rows)
                .min(u16::try_from(most).unwrap_or(u16::MAX));
            done(model)
        }
        NumbersAction::LoadMet(path) if path.trim().is_empty() => {
            model.numbers.met = MetHandle::built_in();
            let name = &model.numbers.met.0.name;
            model.status = Status::success(format!("MET: {name} (built in)"));
            done(model)
        }
        NumbersAction::LoadMet(path) => {
            model.status = Status::info(format!("Reading the MET file {path}…"));
            (model, vec![Effect::LoadMet(path)])
        }
        NumbersAction::MetLoaded(Ok(met)) => {
            model.status = Status::success(format!("MET: {} ({})", met.0.name, met.0.source));
            if !model.panels.is_on(Panel::Numbers) {
                model.panels.toggle(Panel::Numbers);
            }
            model.numbers.met = met;
            done(model)
        }
        NumbersAction::MetLoaded(Err(e)) => refuse(model, format!("MET not loaded: {e}")),
    }
}
