//! The live views' part of the reducer. Pure: asking is an effect
//! (`Effect::Sensitivity`) the runtime performs before it draws the next
//! frame when the engine is in-process, so a key that changes the board
//! changes the views in the same frame.

use super::state::{Live, SensitivityAction, Shown};
use crate::effect::Effect;
use crate::model::{Model, Status};
use crate::panels::Panel;
use crate::transition::done;

pub(crate) fn update(mut model: Model, action: SensitivityAction) -> (Model, Vec<Effect>) {
    match action {
        SensitivityAction::Toggle => {
            let s = &mut model.sensitivity;
            s.on = !s.on;
            if !s.on {
                model.status = Status::info("Live views off: the analysis is back");
                return done(model);
            }
            // Drawn in the analysis panel's place: on a small screen that
            // panel is shown only while its toggle is on.
            if !model.panels.is_on(Panel::Analysis) {
                model.panels.toggle(Panel::Analysis);
            }
            let s = &model.sensitivity;
            model.status = Status::info(match &s.live {
                Live::Unavailable(why) => format!("Live views: no in-process engine ({why})"),
                _ => "Live views on: by score and cube (~ closes)".to_owned(),
            });
            let effects = position_changed(&mut model);
            (model, effects)
        }
        SensitivityAction::EngineReady(live) => {
            model.sensitivity.live = live;
            let effects = position_changed(&mut model);
            (model, effects)
        }
        SensitivityAction::Computed {
            serial,
            tables,
            micros,
        } => {
            if serial == model.sensitivity.serial {
                model.sensitivity.shown = Some(Shown {
                    serial,
                    tables: *tables,
                    micros,
                });
            }
            done(model)
        }
    }
}

/// After a change of position (and when the views are turned on or the
/// engine is loaded): the views ask about the board while they are on;
/// the first time, the engine is loaded.
pub(crate) fn position_changed(model: &mut Model) -> Vec<Effect> {
    let s = &mut model.sensitivity;
    if !s.on {
        return Vec::new();
    }
    // An answer describes the position it came from.
    s.shown = None;
    match s.live {
        Live::Unknown => {
            s.live = Live::Loading;
            vec![Effect::LoadLiveEngine]
        }
        Live::Ready(_) => {
            s.serial += 1;
            vec![Effect::Sensitivity {
                serial: s.serial,
                position: Box::new(model.position.clone()),
            }]
        }
        Live::Loading | Live::Unavailable(_) => Vec::new(),
    }
}
