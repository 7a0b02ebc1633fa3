//! bgedit against gnubg 1.07 itself: every fixture is gnubg's own `show
//! board` text for a position it was given, and bgedit must print the same
//! bytes, and read and write the same IDs.

use crate::common;

use bgedit_core::codec::text_board;
use bgedit_core::codec::{gnubg_id, parse_any, xgid};
use bgedit_core::domain::{Player, Position};
use common::{Fixture, fixtures};

fn diff(expected: &str, got: &str) -> String {
    let mut out = String::new();
    for (i, (e, g)) in expected.lines().zip(got.lines()).enumerate() {
        if e != g {
            out += &format!("line {}:\n  gnubg : {e:?}\n  bgedit: {g:?}\n", i + 1);
        }
    }
    out
}

/// Ok when bgedit wrote what gnubg printed.
fn same(ours: String, gnubg: String) -> Result<(), String> {
    if ours == gnubg {
        Ok(())
    } else {
        Err(format!("bgedit {ours}, gnubg {gnubg}"))
    }
}

fn check_all(name: &str, cases: &[Fixture], check: impl Fn(&Fixture) -> Result<(), String>) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|f| {
            check(f)
                .err()
                .map(|e| format!("{} {}:\n{e}", f.kind, f.input))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{name}: {} of {} fixtures differ from gnubg; first ones:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn there_are_enough_fixtures_of_every_kind() {
    let all = fixtures();
    assert!(all.len() >= 900, "{}", all.len());
    for kind in ["ids", "double", "resign", "xgid"] {
        assert!(
            all.iter().filter(|f| f.kind == kind).count() >= 30,
            "{kind}"
        );
    }
    let boards: Vec<Position> = all
        .iter()
        .map(|f| {
            let (p, m) = f.printed_ids();
            parse_any(&format!("{p}:{m}"), &Position::default())
                .unwrap()
                .position
        })
        .collect();
    // The corners the issue asks for are all covered.
    let any = |pred: &dyn Fn(&Position) -> bool| boards.iter().any(pred);
    assert!(any(
        &|p| p.board.side(Player::X)[24] > 0 && p.board.side(Player::O)[24] > 0
    ));
    assert!(any(&|p| p.board.side(Player::O).iter().any(|&n| n >= 10)));
    assert!(any(&|p| p.board.side(Player::X).contains(&15)));
    assert!(any(&|p| p.board.borne_off(Player::O) == 15));
    assert!(any(&|p| p.state.crawford));
    assert!(any(&|p| p.state.double_offered));
    assert!(any(
        &|p| p.state.on_roll == Player::O && p.state.dice.is_some()
    ));
    assert!(any(
        &|p| p.state.on_roll == Player::X && p.state.dice.is_none()
    ));
    assert!(any(&|p| p.state.match_length == 1));
    assert!(any(&|p| p.state.is_money() && !p.state.jacoby));
}

/// gnubg's board text, from the IDs gnubg printed, byte for byte.
#[test]
fn board_text_matches_gnubg_byte_for_byte() {
    check_all("board text", &fixtures(), |f| {
        let (p, m) = f.printed_ids();
        let printed = format!("{p}:{m}");
        let mut position = parse_any(&printed, &Position::default())
            .map_err(|e| e.to_string())?
            .position;
        if f.kind == "ids" {
            // Where gnubg took the given ID as it was, draw from that ID: it
            // may hold the dice smaller first, which gnubg shows as given
            // ("Rolled 25") but writes back larger first.
            let given = parse_any(&f.input, &Position::default())
                .map_err(|e| e.to_string())?
                .position;
            if gnubg_id::encode(&given.board, &given.state) == printed {
                position = given;
            }
        }
        position.names = f.names();
        if f.kind == "xgid" {
            // gnubg swaps the players (names too) when O is on roll in an XGID.
            let (_, state) = xgid::decode(&f.input).map_err(|e| e.to_string())?;
            if state.on_roll == Player::O {
                position.names = position.names.swapped();
            }
        }
        let ours = text_board::render(&position);
        if ours == f.board {
            Ok(())
        } else {
            Err(diff(&f.board, &ours))
        }
    });
}

/// Reading the IDs gnubg printed and writing them again gives them back, every
/// bit (the Jacoby bit in match play too).
#[test]
fn gnubgs_own_ids_round_trip_exactly() {
    check_all("round trip", &fixtures(), |f| {
        let (p, m) = f.printed_ids();
        let id = format!("{p}:{m}");
        let position = parse_any(&id, &Position::default())
            .map_err(|e| e.to_string())?
            .position;
        let back = gnubg_id::encode(&position.board, &position.state);
        same(back, id)
    });
}

/// What bgedit makes of an ID given to gnubg is what gnubg makes of it, for
/// every case where gnubg took the ID as it was.
#[test]
fn ids_given_to_gnubg_read_the_same_in_bgedit() {
    let all = fixtures();
    let taken: Vec<_> = all
        .into_iter()
        .filter(|f| {
            f.kind == "ids"
                && f.messages.iter().all(|m| {
                    m.starts_with("The dice have been set")
                        || m.starts_with("The cube has been set")
                })
        })
        .collect();
    assert!(taken.len() >= 400, "{}", taken.len());
    check_all("ids", &taken, |f| {
        let (p, m) = f.printed_ids();
        let ours = parse_any(&f.input, &Position::default())
            .map_err(|e| e.to_string())?
            .position;
        let back = gnubg_id::encode(&ours.board, &ours.state);
        same(back, format!("{p}:{m}"))
    });
}

/// bgedit's XGID reading agrees with gnubg's `set xgid`: the same GNUBG ID,
/// after mirroring where gnubg swapped the players.
#[test]
fn xgid_conversion_matches_gnubg_set_xgid() {
    let cases: Vec<_> = fixtures()
        .into_iter()
        .filter(|f| f.kind == "xgid")
        .collect();
    check_all("xgid", &cases, |f| {
        let (p, m) = f.printed_ids();
        let (board, state) = xgid::decode(&f.input).map_err(|e| e.to_string())?;
        let mut position = Position {
            board,
            state,
            ..Position::default()
        };
        if position.state.on_roll == Player::O {
            position = position.mirrored();
        }
        let ours = gnubg_id::encode(&position.board, &position.state);
        same(ours, format!("{p}:{m}"))
    });
}
