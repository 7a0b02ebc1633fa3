//! Every action of matches gnubg 1.07 played (against itself, and against a
//! script that drops, beavers and resigns), read from gnubg's SGF and from
//! its Jellyfish export, replays to the position gnubg itself shows after
//! that action (tests/fixtures/gen_gnubg_selfplay.py steps through the
//! loaded SGF with `next`).

use bgedit_core::codec::gnubg_id;
use bgedit_core::codec::match_file::{self, Contents};
use bgedit_core::domain::match_record::ActionKind;
use bgedit_core::domain::replay::replay_game;
use bgedit_core::domain::{GameState, Position, Resignation};
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/selfplay")
}

fn names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("the fixture folder")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".positions.jsonl").map(str::to_owned)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 9, "fixtures missing: {names:?}");
    names
}

fn id(p: &Position) -> String {
    gnubg_id::encode(&p.board, &p.state)
}

/// gnubg's lines for one match: per game, the `after` IDs of its actions and
/// its end line.
fn expected(name: &str) -> Vec<(Vec<(String, String)>, Value)> {
    let text = std::fs::read_to_string(dir().join(format!("{name}.positions.jsonl"))).unwrap();
    let mut games = Vec::new();
    let mut actions = Vec::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v.get("end").is_some() {
            games.push((std::mem::take(&mut actions), v));
        } else {
            actions.push((
                v["kind"].as_str().unwrap().to_owned(),
                v["after"].as_str().unwrap().to_owned(),
            ));
        }
    }
    games
}

/// The positions checked, and the ones that differ from gnubg's.
fn check(name: &str, ext: &str, wrong: &mut Vec<String>) -> usize {
    let path = dir().join(format!("{name}.{ext}"));
    let file = match_file::read_path(&path).unwrap_or_else(|e| panic!("{name}.{ext}: {e}"));
    let Contents::Record(record) = file.contents else {
        panic!("{name}.{ext}: not read as a match");
    };
    let expected = expected(name);
    assert_eq!(record.games.len(), expected.len(), "{name}.{ext}: games");
    let mut checked = 0;
    for (game, (actions, end)) in record.games.iter().zip(&expected) {
        let replay =
            replay_game(&record.header, game).unwrap_or_else(|e| panic!("{name}.{ext}: {e}"));
        let n = game.number;
        // gnubg makes an accepted resignation a record of its own from the
        // result; the files hold it only as the result.
        let (resign, played): (Vec<_>, Vec<_>) =
            actions.iter().partition(|(kind, _)| kind == "resign");
        assert!(
            resign.len() <= 1,
            "{name} game {n}: one resignation at most"
        );
        // A .mat file writes the resignation as its own actions (offer and
        // acceptance, from `Wins N points`); SGF only as the result.
        let resign_actions = game
            .actions
            .iter()
            .rev()
            .take_while(|a| matches!(a.kind, ActionKind::Resign(_) | ActionKind::AcceptResign))
            .count();
        assert_eq!(
            replay.before.len() - resign_actions,
            played.len(),
            "{name}.{ext} game {n}: actions"
        );
        let whole = replay.before.len();
        // bgedit leaves the match-winning game at its starting score (no
        // Match ID holds a finished match); gnubg shows the final score.
        let mut end_ours = replay.end.clone();
        if let Some(result) = game.result {
            let s = &mut end_ours.state;
            let w = result.winner.index();
            if s.match_length > 0 && game.score[w] + result.points as u16 >= s.match_length {
                s.score[w] += result.points as u16;
            }
        }
        for (i, (kind, after)) in played.iter().enumerate() {
            let mut ours = if i + 1 == whole {
                end_ours.clone()
            } else {
                replay.after(i + 1).expect("a position after the action")
            };
            if i + 1 == whole && !resign.is_empty() {
                // The last move before the resignation: `end` has the
                // result on it; gnubg's `next` shows the move alone.
                ours.state.game_state = GameState::Playing;
                ours.state.resignation = Resignation::None;
                ours.state.turn = ours.state.on_roll;
                ours.state.score = game.score;
            }
            if &id(&ours) != after {
                wrong.push(format!(
                    "{name}.{ext} game {n}, action {} ({kind}): {} != gnubg {after}",
                    i + 1,
                    id(&ours)
                ));
            }
            checked += 1;
        }
        if let Some((_, after)) = resign.first() {
            if &id(&end_ours) != after {
                wrong.push(format!(
                    "{name}.{ext} game {n}, resigned: {} != gnubg {after}",
                    id(&end_ours)
                ));
            }
            checked += 1;
        }
        let result = game.result.expect("every fixture game has a result");
        let winner = end["winner"].as_str().unwrap();
        assert_eq!(
            result.winner.symbol().to_string(),
            winner,
            "{name} game {n}"
        );
        assert_eq!(
            u64::from(result.points),
            end["points"].as_u64().unwrap(),
            "{name} game {n}: points"
        );
    }
    checked
}

fn check_all(ext: &str) {
    let mut wrong = Vec::new();
    let checked: usize = names().iter().map(|n| check(n, ext, &mut wrong)).sum();
    assert!(checked > 1000, "{checked} positions checked");
    assert!(
        wrong.is_empty(),
        "{} of {checked} positions differ from gnubg's:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(40)].join("\n")
    );
}

#[test]
fn gnubg_sgf_replays_to_gnubgs_positions() {
    check_all("sgf");
}

#[test]
fn gnubg_mat_export_replays_to_gnubgs_positions() {
    check_all("mat");
}
