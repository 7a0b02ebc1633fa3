//! Numbers at the score over many generated positions: never a panic, MWCs
//! are chances, winning more never lowers them, and the two players'
//! chances add up to one.

use crate::common;

use bgedit_core::codec::met_xml;
use bgedit_core::domain::numbers::{self, GameNumbers};
use bgedit_tui::numbers::text as numbers_text;
use common::strategies;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn numbers_are_sane_for_any_position(
        position in strategies::position(),
        w in 0.0f32..1.0, g in 0.0f32..0.5, b in 0.0f32..0.1,
    ) {
        let met = met_xml::shared_default_met();
        let probs = [w, g * w, b * g * w, g * (1.0 - w), b * g * (1.0 - w)];
        for eval in [None, Some(&probs)] {
            let n = numbers::compute(&position, &met, eval);
            let _ = numbers_text::lines(&n);
            if let GameNumbers::Match(m) = &n.game {
                let sum = m.mwc[0].now.mwc + m.mwc[1].now.mwc;
                prop_assert!((sum - 1.0).abs() < 1e-5, "{sum}");
                for p in &m.mwc {
                    prop_assert!((0.0..=1.0).contains(&p.now.mwc));
                    prop_assert!(p.win[0].mwc >= p.now.mwc - 1e-6);
                    prop_assert!(p.lose[0].mwc <= p.now.mwc + 1e-6);
                    for k in 0..2 {
                        prop_assert!(p.win[k + 1].mwc >= p.win[k].mwc - 1e-6);
                        prop_assert!(p.lose[k + 1].mwc <= p.lose[k].mwc + 1e-6);
                    }
                }
            }
            for v in &n.gammon_values {
                prop_assert!(v.gammon >= 0.0 && v.backgammon >= v.gammon - 1e-6);
            }
        }
    }
}
