//! The exchange formats against gnubg 1.07 itself
//! (`tests/fixtures/gnubg_formats.jsonl`, made by
//! `tests/fixtures/gen_gnubg_formats.py`): bgedit reads the SGF, Snowie text
//! and FIBS board line gnubg wrote to the IDs gnubg reads from them, and
//! writes gnubg's FIBS and Snowie text byte for byte.

use bgedit_core::codec::{self, IdFormat, fibs, gnubg_id, sgf, snowie};
use bgedit_core::domain::{Names, Position};
use serde::Deserialize;

#[derive(Deserialize, Debug)]
struct Row {
    kind: String,
    input: String,
    names: [String; 2],
    ids: String,
    sgf: String,
    snowie: Option<String>,
    fibs: Option<String>,
    sgf_ids: Option<String>,
    snowie_ids: Option<String>,
}

fn rows() -> Vec<Row> {
    let text = include_str!("../fixtures/gnubg_formats.jsonl");
    text.lines()
        .map(|l| serde_json::from_str(l).expect("fixture line"))
        .collect()
}

fn ids(p: &Position) -> String {
    gnubg_id::encode(&p.board, &p.state)
}

fn check_all(name: &str, rows: &[&Row], check: impl Fn(&Row) -> Result<(), String>) -> usize {
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|r| check(r).err().map(|e| format!("{} {}: {e}", r.kind, r.ids)))
        .collect();
    assert!(
        failures.is_empty(),
        "{name}: {} of {} differ from gnubg:\n{}",
        failures.len(),
        rows.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    rows.len()
}

fn given(r: &Row) -> Position {
    let mut p = codec::parse_any(&r.ids, &Position::default())
        .unwrap()
        .position;
    p.names = Names {
        o: r.names[0].clone(),
        x: r.names[1].clone(),
    };
    p
}

#[test]
fn there_are_enough_fixtures() {
    let all = rows();
    assert!(all.iter().filter(|r| r.kind == "position").count() >= 200);
    assert!(all.iter().filter(|r| r.kind == "match").count() >= 5);
}

#[test]
fn gnubgs_sgf_reads_to_the_ids_gnubg_reads() {
    let all = rows();
    let with_ids: Vec<&Row> = all
        .iter()
        .filter(|r| r.kind == "position" && r.sgf_ids.is_some())
        .collect();
    let n = check_all("SGF", &with_ids, |r| {
        let p = codec::parse_any(&r.sgf, &Position::default()).map_err(|e| e.to_string())?;
        if p.format != IdFormat::Sgf {
            return Err(format!("read as {}", p.format.name()));
        }
        let got = ids(&p.position);
        let want = r.sgf_ids.as_deref().unwrap();
        if got != want {
            return Err(format!("bgedit {got}, gnubg {want}"));
        }
        Ok(())
    });
    assert!(n >= 200, "{n}");
}

#[test]
fn gnubgs_sgf_carries_the_names() {
    let all = rows();
    let positions: Vec<&Row> = all.iter().filter(|r| r.kind == "position").collect();
    check_all("SGF names", &positions, |r| {
        let p = sgf::read(&r.sgf).map_err(|e| e.to_string())?;
        if [p.names.o.as_str(), p.names.x.as_str()] != [r.names[0].as_str(), r.names[1].as_str()] {
            return Err(format!("names {:?}", p.names));
        }
        Ok(())
    });
}

#[test]
fn gnubgs_snowie_text_reads_to_the_ids_gnubg_reads() {
    let all = rows();
    let with: Vec<&Row> = all.iter().filter(|r| r.snowie_ids.is_some()).collect();
    let n = check_all("Snowie", &with, |r| {
        let text = r.snowie.as_deref().unwrap();
        let p = codec::parse_any(text, &Position::default()).map_err(|e| e.to_string())?;
        if p.format != IdFormat::Snowie {
            return Err(format!("read as {}", p.format.name()));
        }
        let got = ids(&p.position);
        let want = r.snowie_ids.as_deref().unwrap();
        if got != want {
            return Err(format!("bgedit {got}, gnubg {want}"));
        }
        Ok(())
    });
    assert!(n >= 200, "{n}");
}

#[test]
fn bgedit_writes_gnubgs_snowie_text() {
    let all = rows();
    let with: Vec<&Row> = all.iter().filter(|r| r.snowie.is_some()).collect();
    check_all("Snowie writer", &with, |r| {
        let mut p = given(r);
        // gnubg writes its global Jacoby setting (on), not the position's.
        p.state.jacoby = true;
        let mut s = String::new();
        snowie::write(&p, &mut s);
        let want = r.snowie.as_deref().unwrap().trim_end();
        if s != want {
            return Err(format!("\n bgedit {s}\n gnubg  {want}"));
        }
        Ok(())
    });
}

#[test]
fn gnubgs_fibs_board_reads_to_the_same_position() {
    let all = rows();
    let with: Vec<&Row> = all.iter().filter(|r| r.fibs.is_some()).collect();
    let n = check_all("FIBS", &with, |r| {
        let line = r.fibs.as_deref().unwrap();
        let p = codec::parse_any(line, &Position::default()).map_err(|e| e.to_string())?;
        if p.format != IdFormat::Fibs {
            return Err(format!("read as {}", p.format.name()));
        }
        let mut want = given(r);
        // A FIBS board has no Jacoby setting: bgedit reads gnubg's default.
        want.state.jacoby = want.state.is_money();
        if p.position != want {
            return Err(format!("bgedit {}, gnubg {}", ids(&p.position), ids(&want)));
        }
        Ok(())
    });
    assert!(n >= 200, "{n}");
}

#[test]
fn bgedit_writes_gnubgs_fibs_board() {
    let all = rows();
    let with: Vec<&Row> = all.iter().filter(|r| r.fibs.is_some()).collect();
    check_all("FIBS writer", &with, |r| {
        let mut s = String::new();
        fibs::write(&given(r), &mut s);
        let want = r.fibs.as_deref().unwrap();
        if s != want {
            return Err(format!("\n bgedit {s}\n gnubg  {want}"));
        }
        Ok(())
    });
}

#[test]
fn bgedits_sgf_reads_back_like_gnubgs() {
    let all = rows();
    let positions: Vec<&Row> = all.iter().filter(|r| r.kind == "position").collect();
    check_all("SGF writer", &positions, |r| {
        let theirs = sgf::read(&r.sgf).map_err(|e| e.to_string())?;
        let mut s = String::new();
        sgf::write(&theirs, &mut s);
        let ours = sgf::read(&s).map_err(|e| e.to_string())?;
        if ours != theirs {
            return Err(format!("\n{s}"));
        }
        Ok(())
    });
}

#[test]
fn whole_matches_read_to_the_position_gnubg_ends_on() {
    // gnubg's Match ID at the end of a match has the final score, at or over
    // the match length, which no Match ID bgedit writes can hold: the board
    // and the end of the game are compared, and the score is the one the
    // last game started with.
    let all = rows();
    let matches: Vec<&Row> = all.iter().filter(|r| r.kind == "match").collect();
    check_all("match", &matches, |r| {
        let p = sgf::read(&r.sgf).map_err(|e| e.to_string())?;
        let want = r.sgf_ids.as_deref().unwrap_or(&r.ids);
        let got = ids(&p);
        if got[..14] != want[..14] {
            return Err(format!("bgedit {got}, gnubg {want}"));
        }
        if p.state.game_state == bgedit_core::domain::GameState::Playing {
            return Err("the game is still being played".into());
        }
        Ok(())
    });
}

#[test]
fn any_game_and_move_of_a_match_can_be_chosen() {
    let all = rows();
    let long = all
        .iter()
        .filter(|r| r.kind == "match")
        .max_by_key(|r| r.sgf.matches("(;").count())
        .unwrap();
    let first = sgf::read_at(
        &long.sgf,
        sgf::Selection {
            game: Some(1),
            moves: Some(0),
        },
    )
    .unwrap();
    assert_eq!(first.game, 1);
    assert_eq!(first.position.board, bgedit_core::domain::Board::starting());
    assert!(first.games >= 2, "{}", first.games);
    let too_far = sgf::read_at(
        &long.sgf,
        sgf::Selection {
            game: Some(first.games + 1),
            moves: None,
        },
    )
    .unwrap_err();
    assert!(too_far.to_string().contains("the file has"), "{too_far}");
    let _ = long.input.len();
}
