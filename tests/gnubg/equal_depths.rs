//! Verdicts compared at one depth and in one unit (issue 43): a move gnubg's
//! move filter left at 0-ply is priced at the depth asked before two
//! engines are compared, and both engines' cubeless equities are in
//! gnubg's unit. Each checked against gnubg asked in the same run.

use crate::common;
use bgedit_core::codec::{self, IdFormat};
use bgedit_core::domain::Position;
use serde_json::Value;

/// The position: at 2-ply gnubg's `hint` leaves Sage's pick
/// `8/3* 6/3` in its move filter's 0-ply tail.
const FILTERED: &str = "tm2CADLm28wAAA:EYGuAAAAAAAE";

/// gnubg's `hint` at 2-ply with the move filter of 2-ply opened to every
/// move: each move at 2-ply.
fn wide_hint(id: &str) -> Vec<(String, f64)> {
    let text = common::live::gnubg_says(&format!(
        "set player 0 human\nset player 1 human\n\
         set evaluation chequerplay evaluation plies 2\n\
         set evaluation cubedecision evaluation plies 2\n\
         set evaluation movefilter 2 0 1000 0 0.0\n\
         set gnubgid {id}\nhint 1000\n"
    ));
    let moves = common::live::hint_moves(&text);
    assert!(!moves.is_empty(), "{text}");
    moves
}

#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn a_pick_outside_gnubgs_move_filter_is_compared_at_the_depth_asked() {
    common::gnubg();
    common::sage_python();
    // gnubg's own 2-ply list leaves the move at 0-ply on this machine.
    let plain = common::live::hint(FILTERED, 2, false);
    assert!(
        plain
            .lines()
            .any(|l| l.contains("Cubeful 0-ply") && l.contains("8/3* 6/3")),
        "{plain}"
    );
    let out = common::run::bgedit(
        &[
            "analyse", "--engine", "both", "--plies", "2", "--format", "json", FILTERED,
        ],
        "",
    );
    assert!(out.status.success(), "{}", common::run::text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &v["disagree"];
    assert_eq!(d["on"], "move", "{v}");
    let sage_pick = d["sage"].as_str().unwrap();
    let gnubg_pick = d["gnubg"].as_str().unwrap();
    assert_eq!(sage_pick, "8/3* 6/3", "{v}");
    // gnubg's price of Sage's pick is its 2-ply number, as gnubg gives it
    // with the filter opened.
    let listed = v["gnubg"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == sage_pick)
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(listed["plies"], 2, "{v}");
    let wide = wide_hint(FILTERED);
    let eq = |name: &str| wide.iter().find(|(m, _)| m == name).unwrap().1;
    let shown = listed["equity"].as_f64().unwrap();
    assert!(
        (shown - eq(sage_pick)).abs() < common::live::SHOWN_EQUITY,
        "{shown} against gnubg's {wide:?}"
    );
    let gap = d["gnubg_gap"].as_f64().unwrap();
    let want = eq(gnubg_pick) - eq(sage_pick);
    assert!(
        (gap - want).abs() < common::live::SHOWN_ERROR,
        "gap {gap}, gnubg with the filter opened {want}"
    );
    assert_eq!(d["gnubg_gap_plies"], Value::Null, "{v}");
    // The text shows the list as long as asked, the gap in words.
    let out = common::run::bgedit(
        &["analyse", "--engine", "both", "--plies", "2", FILTERED],
        "",
    );
    let text = common::run::text(&out.stdout);
    assert!(
        text.contains(&format!("(Sage's pick costs {gap:.3} by gnubg)")),
        "{text}"
    );
    assert!(!text.contains("0-ply only"), "{text}");
}

/// The probabilities of a JSON answer, as five numbers.
fn probs(v: &Value) -> [f64; 5] {
    let p: Vec<f64> = v["probs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    p.try_into().unwrap()
}

/// The 3-point match of the issue, before the roll and with the double
/// made: gnubg's cubeless equity is its normalised match equity, and
/// Sage's is given in the same unit (its chances through the same table),
/// not the money formula Sage itself gives.
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn both_engines_cubeless_equities_are_in_gnubgs_unit() {
    common::gnubg();
    common::sage_python();
    let id = "gzP4AQqwzwoMCg:cAlgAAAAAAAE";
    let mut position = codec::parse_any(id, &Position::default()).unwrap().position;
    assert!(!position.state.is_money());
    let before = position.clone();
    position.state.double_offered = true;
    position.state.turn = position.state.expected_turn();
    let offered = codec::to_string_as(&position, IdFormat::GnubgId);
    for (id, p, key, double) in [
        (id, &before, "cube", false),
        (&offered[..], &position, "take", true),
    ] {
        let out = common::run::bgedit(
            &[
                "analyse", "--engine", "both", "--plies", "2", "--format", "json", id,
            ],
            "",
        );
        assert!(out.status.success(), "{}", common::run::text(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let (g, s) = (&v["gnubg"][key], &v["sage"][key]);
        assert_eq!(g["cubeless_unit"], "normalised match equity", "{v}");
        assert_eq!(s["cubeless_unit"], "normalised match equity", "{v}");
        // gnubg's own number, asked now.
        let hint = common::live::hint_cube(id, 2, double);
        let gnubg = g["cubeless"].as_f64().unwrap();
        assert!(
            (gnubg - hint.cubeless).abs() < common::live::SHOWN_EQUITY,
            "{gnubg} against gnubg's {hint:?}"
        );
        // The conversion holds gnubg's chances to gnubg's number (a take's
        // from the doubler's side, negated, as gnubg gives it) ...
        let unit = |probs: [f64; 5]| {
            let [w, wg, wbg, lg, lbg] = probs;
            let mut state = p.state.clone();
            state.double_offered = false;
            match double {
                false => bgedit_engine::internals::cubeless_equity(&state, &probs).unwrap(),
                true => {
                    -bgedit_engine::internals::cubeless_equity(&state, &[1.0 - w, lg, lbg, wg, wbg])
                        .unwrap()
                }
            }
        };
        assert!((unit(probs(g)) - gnubg).abs() < 1e-4, "{g}");
        // ... and gives Sage's, which is not the money formula.
        let sage = s["cubeless"].as_f64().unwrap();
        assert!((unit(probs(s)) - sage).abs() < 1e-9, "{s}");
        let [w, wg, wbg, lg, lbg] = probs(s);
        let money = 2.0 * w - 1.0 + wg - lg + wbg - lbg;
        assert!((money - sage).abs() > 0.01, "{money} {sage}");
    }
    let out = common::run::bgedit(&["analyse", "--engine", "both", "--plies", "2", id], "");
    let text = common::run::text(&out.stdout);
    assert!(
        text.contains("Cubeless equities: normalised match equity"),
        "{text}"
    );
}
