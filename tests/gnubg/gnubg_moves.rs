//! bgedit's legal moves against gnubg 1.07's own lists: for every position
//! in tests/fixtures/gnubg_moves.jsonl (made by gen_gnubg_moves.py), the set
//! of move strings must be gnubg's exactly, and each move played must give
//! the GNUBG ID gnubg gave after `move`.

use bgedit_core::codec::{gnubg_id, parse_any};
use bgedit_core::domain::moves::{apply, check_move, legal_moves};
use bgedit_core::domain::notation::parse;
use bgedit_core::domain::{GameState, Position};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Case {
    gnubg_id: String,
    style: String,
    dice: [u8; 2],
    moves: Vec<GnubgMove>,
}

#[derive(Deserialize)]
struct GnubgMove {
    #[serde(rename = "move")]
    notation: String,
    gnubg_id: String,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../fixtures/gnubg_moves.jsonl");
    text.lines()
        .map(|l| serde_json::from_str(l).expect("fixture line is JSON"))
        .collect()
}

fn position(id: &str) -> Position {
    parse_any(id, &Position::default())
        .unwrap_or_else(|e| panic!("{id}: {e}"))
        .position
}

#[test]
fn fixtures_are_many_and_varied() {
    let cases = cases();
    assert!(cases.len() >= 300);
    let count = |f: &dyn Fn(&Case) -> bool| cases.iter().filter(|c| f(c)).count();
    assert!(count(&|c| c.moves.is_empty()) >= 10, "blocked rolls");
    assert!(count(&|c| c.dice[0] == c.dice[1]) >= 50, "doubles");
    assert!(count(&|c| c.moves.iter().any(|m| m.notation.contains("off"))) >= 50);
    assert!(count(&|c| c.moves.iter().any(|m| m.notation.starts_with("bar/"))) >= 50);
    assert!(count(&|c| c.moves.iter().any(|m| m.notation.contains('*'))) >= 50);
    assert!(count(&|c| c.style == "mid") >= 50);
}

#[test]
fn legal_moves_are_gnubgs_exactly() {
    let mut failures = Vec::new();
    for case in cases() {
        let p = position(&case.gnubg_id);
        assert_eq!(p.state.dice, Some(case.dice), "{}", case.gnubg_id);
        let ours: BTreeMap<String, String> = legal_moves(&p.board, p.state.on_roll, case.dice)
            .iter()
            .map(|m| {
                let after = apply(&p, m);
                (m.notation(), gnubg_id::encode(&after.board, &after.state))
            })
            .collect();
        let theirs: BTreeMap<String, String> = case
            .moves
            .iter()
            .map(|m| {
                let after = position(&m.gnubg_id);
                if after.state.score != p.state.score {
                    // The last checker borne off: gnubg scored the game and
                    // set up the next one. bgedit keeps the final board.
                    let won = p.state.on_roll;
                    assert!(after.state.score_of(won) > p.state.score_of(won));
                    let ours = legal_moves(&p.board, won, case.dice)
                        .into_iter()
                        .find(|l| l.notation() == m.notation)
                        .map(|l| apply(&p, &l))
                        .unwrap_or_else(|| panic!("{}: no {}", case.gnubg_id, m.notation));
                    assert_eq!(ours.state.game_state, GameState::Over);
                    assert_eq!(ours.board.borne_off(won), 15);
                    return (
                        m.notation.clone(),
                        gnubg_id::encode(&ours.board, &ours.state),
                    );
                }
                (m.notation.clone(), m.gnubg_id.clone())
            })
            .collect();
        if ours != theirs {
            let only_ours: Vec<_> = ours
                .iter()
                .filter(|(k, v)| theirs.get(*k) != Some(v))
                .collect();
            let only_theirs: Vec<_> = theirs
                .iter()
                .filter(|(k, v)| ours.get(*k) != Some(v))
                .collect();
            failures.push(format!(
                "{} ({}) dice {:?}: only bgedit {:?}; only gnubg {:?}",
                case.gnubg_id, case.style, case.dice, only_ours, only_theirs
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} positions differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn gnubgs_notation_reads_back_as_the_same_move() {
    for case in cases() {
        let p = position(&case.gnubg_id);
        for m in &case.moves {
            let typed = parse(&m.notation).unwrap_or_else(|e| panic!("{}: {e}", m.notation));
            let legal = check_move(&p, &typed)
                .unwrap_or_else(|e| panic!("{} {}: {e}", case.gnubg_id, m.notation));
            assert_eq!(legal.notation(), m.notation, "{}", case.gnubg_id);
        }
    }
}
