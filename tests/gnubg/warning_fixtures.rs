//! bgedit's warnings against what gnubg 1.07 did with the same states
//! (tests/fixtures/gnubg_warnings.jsonl, made by gen_warning_fixtures.py):
//! each warning appears exactly where gnubg clears, drops or refuses
//! something, and says what gnubg did.

use bgedit_core::codec::parse_any;
use bgedit_core::domain::validation::{Warning, name_warnings};
use bgedit_core::domain::{CubeOwner, MatchState, Position};
use serde_json::Value;

const FIXTURES: &str = include_str!("../fixtures/gnubg_warnings.jsonl");

struct Case {
    kind: String,
    input: String,
    messages: Vec<String>,
    match_id: String,
}

fn cases(kind: &str) -> Vec<Case> {
    let all: Vec<Case> = FIXTURES
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            Case {
                kind: v["kind"].as_str().unwrap().to_owned(),
                input: v["input"].as_str().unwrap().to_owned(),
                messages: v["messages"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap().to_owned())
                    .collect(),
                match_id: v["match_id"].as_str().unwrap().to_owned(),
            }
        })
        .filter(|c| c.kind == kind)
        .collect();
    assert!(all.len() >= 5, "few {kind} fixtures");
    all
}

fn state_of(id: &str) -> MatchState {
    parse_any(id, &Position::default()).unwrap().position.state
}

fn warnings_of(id: &str) -> Vec<Warning> {
    parse_any(id, &Position::default())
        .unwrap()
        .position
        .validate()
        .unwrap()
}

fn said(case: &Case, text: &str) -> bool {
    case.messages.iter().any(|m| m.contains(text))
}

#[test]
fn crawford_in_a_one_point_match_is_warned_where_gnubg_clears_the_flag() {
    for case in cases("crawford_id") {
        let given = state_of(&case.input);
        assert!(given.crawford, "{}", case.input);
        let cleared = !state_of(&case.match_id).crawford;
        let warned = warnings_of(&case.input).contains(&Warning::CrawfordInOnePointMatch);
        assert_eq!(
            warned, cleared,
            "{}: gnubg made it {}",
            case.input, case.match_id
        );
    }
}

#[test]
fn crawford_at_double_match_point_is_what_gnubg_calls_post_crawford() {
    for case in cases("crawford_score") {
        let n: Vec<u16> = case.input.split(' ').map(|s| s.parse().unwrap()).collect();
        let (length, score) = (n[0], [n[1], n[2]]);
        if score != [length - 1, length - 1] {
            continue;
        }
        assert!(said(&case, "post-Crawford play"), "{:?}", case.messages);
        assert!(!state_of(&case.match_id).crawford, "{}", case.match_id);
        let state = MatchState {
            match_length: length,
            score,
            crawford: true,
            ..MatchState::default()
        };
        let p = Position {
            state,
            ..Position::default()
        };
        assert!(
            p.validate()
                .unwrap()
                .contains(&Warning::CrawfordBothOneAway),
            "{}",
            case.input
        );
    }
}

#[test]
fn an_owned_one_cube_is_warned_and_gnubg_keeps_it_as_the_warning_says() {
    for case in cases("cube_id") {
        let given = state_of(&case.input);
        let kept = state_of(&case.match_id);
        assert_eq!(
            (kept.cube_log2, kept.cube_owner),
            (given.cube_log2, given.cube_owner),
            "gnubg changed {}",
            case.input
        );
        let owned_one = given.cube_log2 == 0 && given.cube_owner != CubeOwner::Centred;
        let warned = warnings_of(&case.input)
            .iter()
            .any(|w| matches!(w, Warning::OwnedOneCube(_)));
        assert_eq!(warned, owned_one, "{}", case.input);
    }
}

#[test]
fn dice_without_a_game_are_warned_where_gnubg_drops_them() {
    for case in cases("dice_id") {
        assert!(state_of(&case.input).dice.is_some());
        let dropped = case.match_id.is_empty() || state_of(&case.match_id).dice.is_none();
        let warned = warnings_of(&case.input).contains(&Warning::DiceWithoutGame);
        assert_eq!(warned, dropped, "{}: {:?}", case.input, case.messages);
        if dropped {
            assert!(said(
                &case,
                "There must be a game in progress to set the dice"
            ));
        }
    }
}

#[test]
fn same_names_are_warned_where_gnubg_refuses_the_second() {
    for case in cases("names") {
        let (a, b) = case.input.split_once('\t').unwrap();
        let refused = said(&case, "That name is already in use by the other player");
        assert_eq!(
            name_warnings(a, b) == vec![Warning::SameNames],
            refused,
            "{a} / {b}"
        );
    }
}
