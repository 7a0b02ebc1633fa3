//! gnubg's equity scale at a decision: match winning chances turned into
//! normalised equities and back. Below the answers (which bound equities
//! with it) and the match analysis (which judges with it).

use bgedit_core::domain::{MatchState, Player};

/// A score past the match equity table's reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a player is more than {0} away")]
pub struct TooFarAway(pub i64);

/// gnubg's equity scale at a decision (eval.c `eq2mwc`, `mwc2eq`): the
/// roller's match winning chances on winning and on losing the cube's
/// points, from gnubg's default table (Kazaross-XG2, bgedit's own, built as
/// gnubg builds it). Single precision, as gnubg.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scale {
    pub(crate) win: f32,
    pub(crate) lose: f32,
}

impl Scale {
    /// None for money, where equities need no scale; an error past the
    /// table's 64-away.
    pub(crate) fn of(state: &MatchState) -> Result<Option<Scale>, TooFarAway> {
        if state.is_money() {
            return Ok(None);
        }
        let away = |p: Player| i64::from(state.match_length) - i64::from(state.score_of(p));
        let most = bgedit_core::domain::met::MAX_AWAY as i64;
        if Player::BOTH.iter().any(|&p| away(p) > most) {
            return Err(TooFarAway(most));
        }
        let met = bgedit_core::codec::met_xml::shared_default_met();
        let roller = state.on_roll.index();
        let at = |who| {
            met.after(
                state.score,
                state.match_length,
                roller,
                state.cube_value(),
                who,
                state.crawford,
            )
        };
        Ok(Some(Scale {
            win: at(roller),
            lose: at(1 - roller),
        }))
    }

    pub fn to_equity(self, mwc: f32) -> f32 {
        (2.0 * mwc - (self.win + self.lose)) / (self.win - self.lose)
    }

    pub(crate) fn to_mwc(self, equity: f32) -> f32 {
        0.5 * (equity * (self.win - self.lose) + (self.win + self.lose))
    }

    /// The cubeless equity gnubg gives at a match score (eval.c's
    /// `eval2mwc` then `mwc2eq`): each result's match winning chances (a
    /// single game, a gammon, a backgammon, won or lost at the cube's
    /// value) weighed by its chance, on this scale. `probs` are the
    /// roller's, gnubg's order (win, win gammon, win backgammon, lose
    /// gammon, lose backgammon; gammons include backgammons).
    pub(crate) fn cubeless_equity(self, state: &MatchState, probs: &[f64; 5]) -> f64 {
        let met = bgedit_core::codec::met_xml::shared_default_met();
        let roller = state.on_roll.index();
        let cube = state.cube_value();
        let at = |who: usize, times: u32| {
            f64::from(met.after(
                state.score,
                state.match_length,
                roller,
                cube * times,
                who,
                state.crawford,
            ))
        };
        let [w, wg, wbg, lg, lbg] = *probs;
        let (me, them) = (roller, 1 - roller);
        let mwc = (w - wg) * at(me, 1)
            + (wg - wbg) * at(me, 2)
            + wbg * at(me, 3)
            + (1.0 - w - lg) * at(them, 1)
            + (lg - lbg) * at(them, 2)
            + lbg * at(them, 3);
        let (win, lose) = (f64::from(self.win), f64::from(self.lose));
        (2.0 * mwc - (win + lose)) / (win - lose)
    }

    /// The normalised equities of losing the match (MWC 0) and of winning
    /// it (MWC 1): every equity gnubg gives at this score and cube is
    /// between them.
    pub(crate) fn equity_range(self) -> (f64, f64) {
        (
            f64::from(self.to_equity(0.0)),
            f64::from(self.to_equity(1.0)),
        )
    }
}

/// gnubg's cubeless equity of `probs` (the roller's) at `state`'s score:
/// its normalised match equity in match play, the money formula in money
/// play; none past the table. The unit bgedit gives both engines'
/// cubeless equities in.
#[cfg(feature = "internals")]
pub fn cubeless_equity(state: &MatchState, probs: &[f64; 5]) -> Option<f64> {
    match Scale::of(state).ok()? {
        Some(scale) => Some(scale.cubeless_equity(state, probs)),
        None => {
            let [w, wg, wbg, lg, lbg] = *probs;
            Some(2.0 * w - 1.0 + wg - lg + wbg - lbg)
        }
    }
}
