//! Match files checked against gnubg 1.07 itself: every decision of every
//! game gnubg played against itself (tests/fixtures/match_core, written by
//! gen_gnubg_match_core.sh), read from its SGF through bgedit's replay,
//! gives the GNUBG ID gnubg's own `export match text` shows at that
//! decision. Plus the round trip of random legal games through SGF, and the
//! `match`, `convert --file` and `library import` commands end to end.

use crate::common;

use bgedit_core::codec::match_file::{self, Contents, FileDecision};
use bgedit_core::codec::{gnubg_id, sgf};
use bgedit_core::domain::match_record::{
    Action, ActionKind, Ending, GameRecord, GameResult, MatchFormat, MatchHeader, MatchRecord,
};
use bgedit_core::domain::moves::legal_moves;
use bgedit_core::domain::replay::{game_start, replay_game};
use bgedit_core::domain::{GameState, Player};
use common::random::Rng;
use common::run::{bgedit, text};
use std::path::Path;

const DIR: &str = "tests/fixtures/match_core";
const MATCHES: [&str; 3] = ["match3", "match7", "money"];

fn read(path: &str) -> match_file::MatchFile {
    match_file::read_path(Path::new(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The decisions of gnubg's text export of a match: one file per game.
fn text_decisions(name: &str) -> Vec<FileDecision> {
    let mut out = Vec::new();
    for n in 1.. {
        let path = if n == 1 {
            format!("{DIR}/{name}.txt")
        } else {
            format!("{DIR}/{name}_{n:03}.txt")
        };
        if !Path::new(&path).exists() {
            break;
        }
        let file = read(&path);
        assert_eq!(file.format, MatchFormat::MatchText);
        let (d, problems) = match_file::decisions(&file);
        assert!(problems.is_empty(), "{path}: {problems:?}");
        out.extend(d);
    }
    out
}

fn id(d: &FileDecision) -> String {
    gnubg_id::encode(&d.position.board, &d.position.state)
}

#[test]
fn every_sgf_decision_is_the_position_gnubg_shows() {
    let mut checked = 0;
    for name in MATCHES {
        let sgf_file = read(&format!("{DIR}/{name}.sgf"));
        let (ours, problems) = match_file::decisions(&sgf_file);
        assert!(problems.is_empty(), "{name}: {problems:?}");
        let gnubg = text_decisions(name);
        assert_eq!(ours.len(), gnubg.len(), "{name}: decisions");
        for (o, g) in ours.iter().zip(&gnubg) {
            let at = format!("{name} game {} move {}", g.game, g.number);
            assert_eq!(
                (o.game, o.player, o.dice),
                (g.game, g.player, g.dice),
                "{at}"
            );
            assert_eq!(o.played, g.played, "{at}");
            // gnubg's text export marks the opening roll of each game "no
            // game started" (the game record is not yet begun when the
            // first move is exported); the game is in play there.
            let mut expected = g.position.clone();
            if g.number == 1 && expected.state.game_state == GameState::NoGame {
                expected.state.game_state = GameState::Playing;
            }
            assert_eq!(
                id(o),
                gnubg_id::encode(&expected.board, &expected.state),
                "{at}"
            );
            assert_eq!(o.position.names, g.position.names, "{at}");
            checked += 1;
        }
    }
    assert!(checked > 400, "{checked} decisions checked");
}

#[test]
fn stored_analysis_is_read_with_gnubgs_notation() {
    let file = read(&format!("{DIR}/match3.sgf"));
    let (decisions, _) = match_file::decisions(&file);
    let analysed: Vec<_> = decisions
        .iter()
        .filter_map(|d| match &d.analysis {
            Some(bgedit_core::domain::match_record::FileAnalysis::Moves { moves }) => {
                Some((d, moves))
            }
            _ => None,
        })
        .collect();
    assert!(analysed.len() > 20);
    for (d, moves) in analysed {
        // gnubg's players play their own first choice at 0-ply.
        assert_eq!(
            moves[0].notation, d.played,
            "game {} move {}",
            d.game, d.number
        );
        assert!(moves.windows(2).all(|w| w[0].equity >= w[1].equity));
        assert_eq!(moves[0].depth, "gnubg 0-ply");
    }
    // gnubg's text export of the same match, game 1 move 12 and 45 (the
    // doubles): "Double, take +0.618", "No double +0.594"; "+1.517",
    // "+0.761". The SGF holds match winning chances; bgedit shows gnubg's
    // equities.
    for (number, nd, dt) in [(12, 0.594, 0.618), (45, 0.761, 1.517)] {
        let d = decisions
            .iter()
            .find(|d| d.game == 1 && d.number == number)
            .unwrap();
        assert_eq!(d.played, "double");
        let Some(bgedit_core::domain::match_record::FileAnalysis::Cube {
            no_double,
            double_take,
            double_pass,
            ..
        }) = d.analysis
        else {
            panic!("move {number}: no cube analysis")
        };
        assert!((no_double - nd).abs() < 0.0006, "{no_double}");
        assert!((double_take - dt).abs() < 0.0006, "{double_take}");
        assert_eq!(double_pass, 1.0);
    }
}

#[test]
fn truncated_replays_are_games_in_play() {
    let file = read(&format!("{DIR}/match3.sgf"));
    let Contents::Record(record) = &file.contents else {
        panic!("SGF is a record")
    };
    for (g, game) in record.games.iter().enumerate() {
        let plays = game.actions.len();
        for m in 0..plays {
            let p = match_file::position_at(
                &file,
                sgf::Selection {
                    game: Some(g + 1),
                    moves: Some(m),
                },
            )
            .unwrap();
            assert_eq!(
                p.state.game_state,
                GameState::Playing,
                "game {} move {m}",
                g + 1
            );
        }
        let end = match_file::position_at(
            &file,
            sgf::Selection {
                game: Some(g + 1),
                moves: None,
            },
        )
        .unwrap();
        assert_ne!(
            end.state.game_state,
            GameState::Playing,
            "game {} end",
            g + 1
        );
    }
}

/// A random legal game: random rolls and legal moves, doubles taken or
/// dropped now and then, a resignation sometimes.
fn random_game(rng: &mut Rng, header: &MatchHeader, number: usize, score: [u16; 2]) -> GameRecord {
    let mut game = GameRecord {
        number,
        score,
        ..GameRecord::default()
    };
    let mut player = if rng.below(2) == 0 {
        Player::O
    } else {
        Player::X
    };
    // The position is replayed from the record itself at each step, so the
    // game is legal by the replay's own rules.
    for _ in 0..200 {
        let replay = replay_game(header, &game).unwrap();
        let now = replay.end;
        if now.state.game_state != GameState::Playing {
            return game;
        }
        let cube_free = now.state.cube_owner == bgedit_core::domain::CubeOwner::Centred
            || now.state.cube_owner == bgedit_core::domain::CubeOwner::Owned(player);
        if cube_free && now.state.cube_log2 < 4 && rng.below(12) == 0 {
            game.actions.push(Action::new(player, ActionKind::Double));
            let answer = match rng.below(4) {
                0 => ActionKind::Drop,
                1 if header.length == 0 => {
                    // A beaver, then the doubler takes the redouble.
                    game.actions
                        .push(Action::new(player.opponent(), ActionKind::Beaver));
                    game.actions.push(Action::new(player, ActionKind::Take));
                    continue;
                }
                _ => ActionKind::Take,
            };
            let dropped = answer == ActionKind::Drop;
            game.actions.push(Action::new(player.opponent(), answer));
            if dropped {
                game.result = Some(GameResult {
                    winner: player,
                    points: now.state.cube_value(),
                    ending: Some(Ending::Dropped),
                });
                return game;
            }
        }
        if rng.below(40) == 0 {
            // A resignation offered and rejected.
            game.actions.push(Action::new(
                player,
                ActionKind::Resign(bgedit_core::domain::Resignation::Gammon),
            ));
            game.actions
                .push(Action::new(player.opponent(), ActionKind::RejectResign));
        }
        if rng.below(150) == 0 {
            game.result = Some(GameResult {
                winner: player.opponent(),
                points: now.state.cube_value(),
                ending: Some(Ending::Resigned),
            });
            return game;
        }
        let dice = [rng.below(6) as u8 + 1, rng.below(6) as u8 + 1];
        let moves = legal_moves(&now.board, player, dice);
        let steps = if moves.is_empty() {
            Vec::new()
        } else {
            moves[rng.below(moves.len() as u64) as usize]
                .steps()
                .to_vec()
        };
        game.actions
            .push(Action::new(player, ActionKind::Move { dice, steps }));
        player = player.opponent();
    }
    game
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..Default::default() })]

    /// A random legal match (money or 7 points, doubles taken and dropped,
    /// resignations), replayed, written as SGF and read back, gives the
    /// same position before every action and at the end of every game.
    #[test]
    fn random_games_survive_sgf_round_trips(seed in proptest::prelude::any::<u64>()) {
        let mut rng = Rng::new(seed);
        let money = seed % 3 == 0;
        let header = MatchHeader {
            length: if money { 0 } else { 7 },
            crawford: !money,
            jacoby: money,
            beavers: true,
            ..MatchHeader::default()
        };
        let games: Vec<GameRecord> = (1..=3)
            .map(|n| random_game(&mut rng, &header, n, [n as u16 - 1, 0]))
            .collect();
        let record = MatchRecord {
            format: MatchFormat::Sgf,
            header: header.clone(),
            games,
        };
        let mut text = String::new();
        sgf::write_match(&record, &mut text);
        let (back, problems) = sgf::read_match(&text).unwrap();
        proptest::prop_assert!(problems.is_empty(), "{:?}", problems);
        proptest::prop_assert_eq!(back.games.len(), record.games.len());
        for (a, b) in record.games.iter().zip(&back.games) {
            let ra = replay_game(&header, a).unwrap();
            let rb = replay_game(&back.header, b).unwrap();
            proptest::prop_assert_eq!(&ra.before, &rb.before);
            proptest::prop_assert_eq!(&ra.end, &rb.end);
            proptest::prop_assert_eq!(
                game_start(&header, a).state.score,
                game_start(&back.header, b).state.score
            );
        }
    }
}

#[test]
fn gnubgs_matches_written_back_read_the_same() {
    for name in MATCHES {
        let text = std::fs::read_to_string(format!("{DIR}/{name}.sgf")).unwrap();
        let (record, _) = sgf::read_match(&text).unwrap();
        let mut once = String::new();
        sgf::write_match(&record, &mut once);
        let (again, problems) = sgf::read_match(&once).unwrap();
        assert!(problems.is_empty(), "{name}: {problems:?}");
        for (a, b) in record.games.iter().zip(&again.games) {
            let (ra, rb) = (
                replay_game(&record.header, a).unwrap(),
                replay_game(&again.header, b).unwrap(),
            );
            assert_eq!(ra.before, rb.before, "{name} game {}", a.number);
            assert_eq!(ra.end, rb.end, "{name} game {}", a.number);
        }
        let mut twice = String::new();
        sgf::write_match(&again, &mut twice);
        assert_eq!(once, twice, "{name}");
    }
}

#[test]
fn match_command_lists_every_decision() {
    let out = bgedit(&["match", &format!("{DIR}/match3.sgf")], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let first = stdout.lines().next().unwrap();
    let fields: Vec<&str> = first.split('\t').collect();
    assert_eq!(fields.len(), 7, "{first}");
    assert_eq!(fields[0], "1");
    assert_eq!(fields[1], "1");
    assert!(fields[6].starts_with("XGID="));
    let json = bgedit(
        &["match", "--format", "json", &format!("{DIR}/match3.sgf")],
        "",
    );
    let line: serde_json::Value =
        serde_json::from_str(text(&json.stdout).lines().nth(1).unwrap()).unwrap();
    assert_eq!(line["game"], 1);
    assert_eq!(line["move"], 2);
    assert!(line["analysis"]["Moves"]["moves"].is_array());
}

#[test]
fn match_command_names_bad_files_and_goes_on() {
    let dir = std::env::temp_dir().join(format!("bgedit-matches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "hello\n").unwrap();
    // A move from an empty point in game 1; game 2 is fine.
    let bad = dir.join("bad.sgf");
    std::fs::write(
        &bad,
        "(;FF[4]GM[6]MI[length:3]PW[a]PB[b]\n;B[31jgig]\n;W[52xsxv])\n(;FF[4]GM[6]MI[length:3][ws:1]PW[a]PB[b]\n;B[31qtst])\n",
    )
    .unwrap();
    let out = bgedit(
        &["match", junk.to_str().unwrap(), bad.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("junk.txt: not a match file"), "{err}");
    assert!(err.contains("bad.sgf: game 1, move 1"), "{err}");
    // Game 2 is still listed, each line after its file when several.
    assert!(
        text(&out.stdout)
            .lines()
            .any(|l| l.contains("bad.sgf\t2\t1\tX\t31"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn names_with_control_characters_are_refused() {
    let e = sgf::read_match("(;FF[4]GM[6]MI[length:3]PW[a\u{7}b]PB[b])").unwrap_err();
    let m = e.to_string();
    assert!(m.contains("game 1, PW") && m.contains("U+0007"), "{m}");
}

#[test]
fn gibbon_resignations_are_read() {
    let text = "(;FF[4]GM[6]MI[length:3]PW[a]PB[b]RE[W+2R]\n;B[31qtst]\n;W[resign:1]\n;B[reject]\n;W[52xvmh]\n;B[resign:2]\n;W[accept])\n\
                (;FF[4]GM[6]MI[length:3][ws:2]PW[a]PB[b]\n;B[62xrrn])\n(;FF[4]GM[6]MI[length:3]PW[a]PB[b]\n;W[31qt)\n";
    // The third game's value never closes: the error names game 3.
    let e = sgf::read_match(text).unwrap_err().to_string();
    assert!(e.contains("game 3"), "{e}");
    let ok = &text[..text.rfind("(;").unwrap()];
    let (record, problems) = sgf::read_match(ok).unwrap();
    assert!(problems.is_empty());
    let r = replay_game(&record.header, &record.games[0]).unwrap();
    assert_eq!(r.end.state.game_state, GameState::Resigned);
    // After an accepted resignation gnubg leaves the turn with the resigner
    // (checked on its own matches: tests/selfplay_fixtures.rs).
    assert_eq!(r.end.state.turn, Player::X);
    assert_eq!(
        r.before[2].state.resignation,
        bgedit_core::domain::Resignation::Single
    );
    assert_eq!(record.games.len(), 2);
}

#[test]
fn library_imports_a_match_text_one_entry_per_block() {
    let dir = std::env::temp_dir().join(format!("bgedit-matchlib-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lib = dir.join("lib.db");
    let file = format!("{DIR}/match3.txt");
    let blocks = text_decisions("match3")
        .iter()
        .filter(|d| d.game == 1)
        .count();
    let out = bgedit(
        &[
            "library",
            "--library",
            lib.to_str().unwrap(),
            "import",
            &file,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains(&format!("{} added", blocks)) || said.contains("already there"),
        "{said}"
    );
    assert!(said.contains(" 0 failed"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_huge_match_file_is_refused_from_its_size() {
    let dir = std::env::temp_dir().join(format!("bgedit-hugematch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let huge = dir.join("huge.sgf");
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&huge).unwrap();
        f.write_all(b"(;FF[4]GM[6]MI[length:3]C[").unwrap();
        // Sparse: 360 MB on paper, nothing on disk.
        f.set_len(360 << 20).unwrap();
    }
    let lib = dir.join("lib.db");
    let out = bgedit(
        &[
            "library",
            "--library",
            lib.to_str().unwrap(),
            "import",
            huge.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("huge.sgf") && err.contains("a match file is read up to"),
        "{err}"
    );
    let out = bgedit(&["match", huge.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_reads_every_match_format_through_the_replay() {
    // Game 2, after 3 moves: the SGF (replayed) and gnubg's text export of
    // game 2 (its fourth block) are one position.
    let at = |file: &str| {
        let out = bgedit(
            &[
                "convert", "--to", "gnubg", "--file", file, "--game", "2", "--move", "3",
            ],
            "",
        );
        assert!(out.status.success(), "{file}: {}", text(&out.stderr));
        text(&out.stdout).trim().to_owned()
    };
    let from_sgf = at(&format!("{DIR}/match3.sgf"));
    let from_text = at(&format!("{DIR}/match3_002.txt"));
    assert_eq!(from_sgf, from_text);
    let gnubg = text_decisions("match3")
        .into_iter()
        .filter(|d| d.game == 2)
        .nth(3)
        .unwrap();
    let mut expected = gnubg.position.clone();
    expected.state.dice = None;
    assert_eq!(from_sgf, gnubg_id::encode(&expected.board, &expected.state));
}

#[test]
fn damaged_match_files_never_panic() {
    // Bytes of gnubg's files changed, cut and repeated at random: every
    // reader answers (a match or an error) without panicking.
    let sources: Vec<Vec<u8>> = ["match3.sgf", "money.sgf", "match3_002.txt"]
        .iter()
        .map(|f| std::fs::read(format!("{DIR}/{f}")).unwrap())
        .collect();
    let mut rng = Rng::new(99);
    let mut read = 0;
    for round in 0..150 {
        let src = &sources[round % sources.len()];
        let mut bytes = src.clone();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(bytes.len() as u64) as usize;
            match rng.below(3) {
                0 => bytes[at] = b"[]();:BW0123456789abcyz\n\\ "[rng.below(26) as usize],
                1 => {
                    bytes.truncate(at.max(1));
                }
                _ => {
                    let piece = bytes[at..(at + 40).min(bytes.len())].to_vec();
                    bytes.splice(at..at, piece);
                }
            }
        }
        if let Ok(file) = match_file::read_bytes(&bytes) {
            read += 1;
            let (decisions, _) = match_file::decisions(&file);
            for d in &decisions {
                let _ = id(d);
            }
            let _ = match_file::position_at(
                &file,
                sgf::Selection {
                    game: Some(1),
                    moves: Some(3),
                },
            );
        }
    }
    assert!(read > 20, "only {read} damaged files read at all");
}

#[test]
fn gnubgs_match_text_read_as_a_match_replays_to_its_own_blocks() {
    for name in MATCHES {
        let mut blocks = Vec::new();
        for n in 1.. {
            let path = if n == 1 {
                format!("{DIR}/{name}.txt")
            } else {
                format!("{DIR}/{name}_{n:03}.txt")
            };
            let Ok(text) = std::fs::read_to_string(&path) else {
                break;
            };
            blocks.extend(bgedit_core::codec::match_text::blocks(&text).0);
        }
        let (record, problems) = bgedit_core::codec::match_text::to_record(&blocks);
        assert!(problems.is_empty(), "{name}: {problems:?}");
        let mut positions = Vec::new();
        for game in &record.games {
            positions.extend(replay_game(&record.header, game).unwrap().before);
        }
        assert_eq!(positions.len(), blocks.len(), "{name}");
        for (ours, block) in positions.iter().zip(&blocks) {
            let mut expected = block.position.clone();
            if expected.state.game_state == GameState::NoGame {
                expected.state.game_state = GameState::Playing;
            }
            assert_eq!(
                gnubg_id::encode(&ours.board, &ours.state),
                gnubg_id::encode(&expected.board, &expected.state),
                "{name} game {} line {}",
                block.game,
                block.line
            );
        }
    }
}

#[test]
fn set_up_nodes_inside_a_game_and_illegal_moves_end_where_gnubg_ends() {
    // gnubg 1.07: `load match` of this file, `show board`:
    // VwAAwAJIAAAAAA:QQmgABAAEAAE. The set-up node replaces the board in
    // mid-game; both moves after it are not legal for their dice (gnubg
    // applies them); CV/CP set the cube.
    let text = "(;FF[4]GM[6]CA[UTF-8]AP[test]MI[length:5][game:0][ws:1][bs:2]PW[alice]PB[bob]RU[Crawford]\n;B[31qtst]\n;W[52xvmh]\n;AE[a:y]AW[a][a][b][c][y]AB[x][x][w][r][r]PL[B]\n;B[64rlrn]\n;CV[2]CP[w]\n;W[21ycca])\n";
    let end = sgf::read(text).unwrap();
    assert_eq!(
        gnubg_id::encode(&end.board, &end.state),
        "VwAAwAJIAAAAAA:QQmgABAAEAAE"
    );
    let file = match_file::read_bytes(text.as_bytes()).unwrap();
    let (decisions, problems) = match_file::decisions(&file);
    assert_eq!(decisions.len(), 4);
    let at: Vec<_> = problems.iter().map(|p| (p.game, p.action)).collect();
    assert_eq!(at, [(Some(1), Some(3)), (Some(1), Some(4))]);
}

/// Found by the fuzz target: `AE[y]` clears both bars, and writing it back
/// must not double it on every round trip.
#[test]
fn a_bar_cleared_by_a_set_up_is_written_once() {
    let text =
        "(;FF[4]GM[6]MI[length:3]PW[a]PB[b]\n;PL[B]AE[a:y]AW[f][f][y]AB[w][w]\n;B[31qtst])\n";
    let (record, _) = sgf::read_match(text).unwrap();
    let mut once = String::new();
    sgf::write_match(&record, &mut once);
    let (again, _) = sgf::read_match(&once).unwrap();
    let mut twice = String::new();
    sgf::write_match(&again, &mut twice);
    assert_eq!(once, twice);
    assert_eq!(once.matches("[y]").count(), twice.matches("[y]").count());
}

/// Small match files, each written for one case where bgedit read a real
/// match file differently from gnubg (tests/fixtures/readings/), with
/// gnubg's own walk of each (`<file>.gnubg.jsonl`, gen_readings.py).
const READINGS: &str = "tests/fixtures/readings";
const READING_FILES: [&str; 4] = [
    "space_before_node.sgf",
    "winner_column.mat",
    "xg_roll_then_resign.mat",
    "fibs_roll_then_resign.mat",
];

/// gnubg's walk of a file: per record, its game, kind and the GNUBG ID
/// gnubg shows after it.
fn gnubg_walk(text: &str) -> Vec<(usize, String, String)> {
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["game"].as_u64().unwrap() as usize,
                v["kind"].as_str().unwrap().to_owned(),
                v["after"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// bgedit's `--game G --move M` of the file at `path` against gnubg's walk:
/// after M plays is the position gnubg shows after the last record before
/// the next play (a roll recorded alone is a set-up, not a play). gnubg's
/// one resignation record is bgedit's offer and acceptance in a `.mat`
/// (two plays), and one play after the last move in an SGF that writes it
/// only as the result. Returns the positions compared and the mismatches.
fn walk_mismatches(path: &Path, walk: &[(usize, String, String)]) -> (usize, Vec<String>) {
    let file = read(path.to_str().unwrap());
    let mut expected: Vec<(usize, usize, &str)> = Vec::new();
    let mut plays = (0, 0);
    for (game, kind, after) in walk {
        if plays.0 != *game {
            plays = (*game, 0);
        }
        if kind != "set" {
            plays.1 += if kind == "resign" && file.format == MatchFormat::Mat {
                2
            } else {
                1
            };
        }
        expected.retain(|e| (e.0, e.1) != plays);
        expected.push((plays.0, plays.1, after));
    }
    let mut wrong = Vec::new();
    for &(game, moves, want) in &expected {
        let selection = sgf::Selection {
            game: Some(game),
            moves: Some(moves),
        };
        let got =
            match_file::position_at(&file, selection).map(|p| gnubg_id::encode(&p.board, &p.state));
        if got.as_deref() != Ok(want) {
            wrong.push(format!(
                "{} game {game} --move {moves}: gnubg {want}, bgedit {got:?}",
                path.display()
            ));
        }
    }
    (expected.len(), wrong)
}

/// Each small file reads as gnubg reads it: `(` and `;` apart is SGF; a
/// `.mat` resignation in the winner's column after the loser's move keeps
/// the winner on roll; a roll with no move before a resignation (FIBS
/// `32:`, XG `32: ????`) keeps its dice at the resignation; and the last
/// move of an SGF game its result resigns is still in play.
#[test]
fn small_files_read_as_gnubg_walks_them() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for name in READING_FILES {
        let path = Path::new(READINGS).join(name);
        let walk = std::fs::read_to_string(format!("{}.gnubg.jsonl", path.display())).unwrap();
        let (n, w) = walk_mismatches(&path, &gnubg_walk(&walk));
        checked += n;
        wrong.extend(w);
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert_eq!(checked, 16);
}

/// The same walks from the gnubg installed here, asked now: gnubg still
/// reads each file as its committed walk says.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn small_files_read_as_the_live_gnubg_walks_them() {
    let gnubg = common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let script = std::fs::canonicalize(Path::new(READINGS).join("walk_gnubg.py")).unwrap();
    for name in READING_FILES {
        let path = std::fs::canonicalize(Path::new(READINGS).join(name)).unwrap();
        let dst = dir.path().join(format!("{name}.jsonl"));
        let out = std::process::Command::new(&gnubg)
            .args(["-t", "-q", "-r", "-p"])
            .arg(&script)
            .env("READING_SRC", &path)
            .env("READING_DST", &dst)
            .output()
            .unwrap();
        let live = std::fs::read_to_string(&dst)
            .unwrap_or_else(|e| panic!("{name}: gnubg wrote no walk ({e}): {}", text(&out.stderr)));
        let committed = std::fs::read_to_string(format!("{}.gnubg.jsonl", path.display())).unwrap();
        assert_eq!(gnubg_walk(&live), gnubg_walk(&committed), "{name}");
        let (_, wrong) = walk_mismatches(&path, &gnubg_walk(&live));
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
}

/// The real binary on an SGF written `(` newline `;`: read as a match, and
/// `--move 3`, the last move of a game its result resigns, is gnubg's
/// position after that move, the game still in play; `--move 4` (and no
/// `--move`) the resignation, its point won.
#[test]
fn bgedit_reads_an_sgf_with_space_after_the_paren_and_its_last_move_in_play() {
    let path = format!("{READINGS}/space_before_node.sgf");
    let out = bgedit(&["match", &path], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).lines().count(),
        3,
        "{}",
        text(&out.stdout)
    );
    let at = |moves: &str| {
        let mut args = vec!["convert", "--file", &path, "--game", "1", "--to", "gnubg"];
        if !moves.is_empty() {
            args.extend(["--move", moves]);
        }
        let out = bgedit(&args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout).trim().to_owned()
    };
    assert_eq!(at("3"), "sGfwAQXg88gBMA:cAlgAAAAAAAE");
    assert_eq!(at("4"), "sGfwAQXg88gBMA:cCtgAAAACAAE");
    assert_eq!(at(""), "sGfwAQXg88gBMA:cCtgAAAACAAE");
}

/// gnubg's own SGFs of matches with resignations (tests/fixtures/selfplay,
/// stepped through by gnubg): at the last move of every game a resignation
/// ends, `--move M` is the position gnubg shows after that move.
#[test]
fn the_last_move_before_a_resignation_in_gnubgs_sgf_is_in_play() {
    let dir = Path::new("tests/fixtures/selfplay");
    let mut checked = 0;
    let mut wrong = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path
            .to_str()
            .and_then(|p| p.strip_suffix(".positions.jsonl"))
        else {
            continue;
        };
        let file = read(&format!("{name}.sgf"));
        let lines: Vec<serde_json::Value> = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for (i, line) in lines.iter().enumerate() {
            let resigns = lines
                .get(i + 1)
                .is_some_and(|next| next["kind"] == "resign" && next["game"] == line["game"]);
            if line.get("end").is_some() || !resigns {
                continue;
            }
            let game = line["game"].as_u64().unwrap() as usize;
            let moves = line["action"].as_u64().unwrap() as usize;
            let selection = sgf::Selection {
                game: Some(game),
                moves: Some(moves),
            };
            let p = match_file::position_at(&file, selection).unwrap();
            let got = gnubg_id::encode(&p.board, &p.state);
            if got != line["after"].as_str().unwrap() {
                wrong.push(format!(
                    "{name} game {game} --move {moves}: gnubg {}, bgedit {got}",
                    line["after"]
                ));
            }
            checked += 1;
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(checked >= 8, "{checked}");
}

/// `bgedit ARGS` that must end within `secs` seconds: killed and failed
/// otherwise, so a reader that blocks cannot hang the suite.
/// Output goes to files, so that a large one cannot fill a pipe.
fn bgedit_within(args: &[&str], secs: u64) -> std::process::Output {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let (out, err) = (dir.path().join("out"), dir.path().join("err"));
    let mut child = common::run::command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("bgedit {args:?} did not end within {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::process::Output {
        status: child.wait().unwrap(),
        stdout: std::fs::read(out).unwrap(),
        stderr: std::fs::read(err).unwrap(),
    }
}

/// A FIFO with no writer blocked every file reader for ever, and
/// `library import /dev/zero` read without bound: each reader refuses what
/// is not a regular file, by name, before reading it.
#[test]
fn a_fifo_or_a_device_is_refused_by_every_file_reader() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.mat");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    let lib = dir.path().join("lib.sqlite");
    let lib = lib.to_str().unwrap();
    for (path, kind) in [
        (fifo.to_str().unwrap(), "a FIFO"),
        ("/dev/zero", "a device"),
    ] {
        let commands: [&[&str]; 4] = [
            &["match", path],
            &["convert", "--file", path, "--to", "gnubg"],
            &["library", "--library", lib, "import", path],
            &["analyse", "--file", path, "--gnubg", "/bin/true"],
        ];
        for args in commands {
            let out = bgedit_within(args, 30);
            let err = text(&out.stderr);
            assert!(!out.status.success(), "{args:?}: {err}");
            assert!(
                err.contains(path) && err.contains(&format!("not a regular file ({kind})")),
                "{args:?}: {err}"
            );
        }
    }
}

/// gnubg's analysis in an SGF holding `nan`, `inf` or `1e999` was read and
/// stored without a word (`library show` printed "NaN"): such a candidate
/// or cube analysis is dropped and named with its game and move.
#[test]
fn analysis_numbers_that_are_not_finite_are_dropped_and_named() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/analysis/m5_noisy.sgf");
    let original = std::fs::read_to_string(path).unwrap();
    let bad = original.replacen(
        "[lppq E ver 3 0.907353 0.046333 0.004751 0.063343 0.003280 0.953860",
        "[lppq E ver 3 0.907353 0.046333 0.004751 0.063343 0.003280 nan",
        1,
    );
    let da = "0.002675 0.472637]";
    assert!(bad.contains(da));
    let bad = bad.replacen(da, "0.002675 1e999]", 1);
    let file = match_file::read_bytes(bad.as_bytes()).unwrap();
    let (decisions, problems) = match_file::decisions(&file);
    let finite = |a: &bgedit_core::domain::match_record::FileAnalysis| {
        format!("{a:?}")
            .split(|c: char| !(c.is_alphanumeric() || c == '.'))
            .all(|w| w != "NaN" && w != "inf")
    };
    for d in &decisions {
        assert!(d.analysis.as_ref().is_none_or(finite), "{d:?}");
        assert!(d.cube_analysis.as_ref().is_none_or(finite), "{d:?}");
    }
    let said: Vec<String> = problems
        .iter()
        .map(|p| match_file::describe("m.sgf", p))
        .collect();
    assert!(
        said.iter()
            .any(|s| s.starts_with("m.sgf: game 1, move 1: ") && s.contains("1 candidate(s)")),
        "{said:#?}"
    );
    assert_eq!(
        said.iter().filter(|s| s.contains("not finite")).count(),
        2,
        "{said:#?}"
    );
    // The library says so and stores no NaN.
    let dir = tempfile::tempdir().unwrap();
    let sgf = dir.path().join("m.sgf");
    std::fs::write(&sgf, &bad).unwrap();
    let lib = dir.path().join("lib.sqlite");
    let (sgf, lib) = (sgf.to_str().unwrap(), lib.to_str().unwrap());
    let out = bgedit(&["library", "--library", lib, "import", sgf], "");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("game 1, move 1: the file's analysis holds"),
        "{err}"
    );
    let shown = bgedit(&["library", "--library", lib, "show", "1"], "");
    assert!(
        !text(&shown.stdout).contains("NaN"),
        "{}",
        text(&shown.stdout)
    );
}

/// 400,000 games of one unreadable move each: a problem each, and a
/// position each (a game with no moves is its start). Each problem's game
/// was looked up in the list of games and each position inserted into the
/// list (quadratic: minutes). Linear, it takes seconds; the bound is
/// generous.
#[test]
fn many_games_with_a_problem_each_are_listed_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.sgf");
    let game = "(;FF[4]GM[6]MI[length:0];B[3zz])\n";
    std::fs::write(&path, game.repeat(400_000)).unwrap();
    let out = bgedit_within(&["match", path.to_str().unwrap()], 60);
    assert_eq!(out.status.code(), Some(1));
    let listed = text(&out.stdout);
    let said = text(&out.stderr);
    assert_eq!(listed.lines().count(), 400_000);
    assert!(listed.lines().last().unwrap().starts_with("400000\t0\t"));
    assert_eq!(said.lines().count(), 400_000);
    let last = said.lines().last().unwrap();
    assert!(
        last.contains("many.sgf: game 400000, move 1: X's move '3zz'"),
        "{last}"
    );
}

/// An SGF match longer than 64 points was listed, then `analyse --file`
/// failed every decision with gnubg's "no current position available": it
/// is refused when read, as .mat and XG files are.
#[test]
fn an_sgf_match_past_64_points_is_refused_when_read() {
    let game = |length: u32| {
        format!("(;FF[4]GM[6]MI[length:{length}][game:0][ws:0][bs:0]PW[a]PB[b];B[41lppq])\n")
    };
    let long = match_file::read_bytes(game(65).as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        long.contains("match length 65") && long.contains("1 to 64 points"),
        "{long}"
    );
    assert!(match_file::read_bytes(game(64).as_bytes()).is_ok());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.sgf");
    std::fs::write(&path, game(100)).unwrap();
    let path = path.to_str().unwrap();
    for args in [
        &["match", path][..],
        &["analyse", "--file", path, "--gnubg", "/bin/true"][..],
    ] {
        let out = bgedit(args, "");
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            err.contains("long.sgf: SGF: match length 100"),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
