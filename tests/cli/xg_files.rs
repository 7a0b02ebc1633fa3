//! XG's binary match files (`.xg`) against gnubg 1.07 and a second reader.
//!
//! The fixtures are real matches played and analysed in eXtreme Gammon
//! (tests/fixtures/xg/, their source and licence in tests/fixtures/README):
//! two with XG's own `.mat` export of the same match beside them
//! (tests/fixtures/mat/xg_export_*.mat). gnubg imports that export; the
//! `.xg` read by bgedit must give the records gnubg made and, at every
//! decision, the position gnubg's `export match text` shows. XG's analysis
//! in the files is checked against bgsage's own XG reader
//! (tests/fixtures/xg/<name>.bgsage.json, written by gen_xg_fixtures.py).

use crate::mat_files::{assert_reads_as_gnubg_imports, gnubg_id_mismatches};
use bgedit_core::codec::match_file::{self, Contents};
use bgedit_core::codec::xg::{self, XgError};
use bgedit_core::domain::match_record::{FileAnalysis, MatchFormat};
use serde::Deserialize;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Each `.xg` with its companion `.mat` (XG's export of the same match).
const WITH_EXPORT: [(&str, &str); 2] = [
    ("hsbt_paris_7pt.xg", "xg_export_hsbt_paris_7pt"),
    ("charlot_7pt.xg", "xg_export_charlot_7pt"),
];

#[test]
fn xg_files_read_as_gnubg_imports_xgs_own_export() {
    for (xg_name, export) in WITH_EXPORT {
        let bytes = std::fs::read(dir().join("xg").join(xg_name)).unwrap();
        let read = xg::read_bytes(&bytes).unwrap();
        assert_eq!(read.record.format, MatchFormat::Xg);
        assert!(read.problems.is_empty(), "{xg_name}: {:#?}", read.problems);
        let expected = dir().join("mat").join(format!("{export}.gnubg.json"));
        assert_reads_as_gnubg_imports(xg_name, &read.record, &expected, true);
    }
}

#[test]
fn every_xg_decision_has_gnubgs_gnubg_id() {
    let mut checked = 0;
    for (xg_name, export) in WITH_EXPORT {
        let text = dir().join("mat").join(format!("{export}.gnubg-text.txt"));
        let (n, mismatches) = gnubg_id_mismatches(&dir().join("xg").join(xg_name), &text, &[]);
        assert!(mismatches.is_empty(), "{xg_name}: {mismatches:#?}");
        checked += n;
    }
    assert!(checked >= 500, "{checked}");
}

#[test]
fn the_header_says_what_xg_says() {
    let bytes = std::fs::read(dir().join("xg/hsbt_paris_7pt.xg")).unwrap();
    let h = xg::read_bytes(&bytes).unwrap().record.header;
    assert_eq!(h.names.o, "Kévin Unger");
    assert_eq!(h.names.x, "Maxence Job");
    assert_eq!(h.length, 7);
    assert!(h.crawford);
    assert_eq!(h.event.as_deref(), Some("HSBT Paris 2023"));
    assert_eq!(h.round.as_deref(), Some("Tableau Or 2"));
    assert_eq!(
        h.place.as_deref(),
        Some("Paris, Fédération Française de Bridge")
    );
    assert_eq!(h.date.as_deref(), Some("2023-11-26"));
    assert_eq!(h.annotator.as_deref(), Some("Kévin Unger"));
}

/// What bgsage's reader finds in a move record: the board before (the
/// mover's frame), the dice, and XG's candidates (board after, equity).
#[derive(Deserialize)]
struct SageMove {
    game: usize,
    mover: usize,
    board: Vec<i32>,
    dice: [u8; 2],
    candidates: Vec<(Vec<i32>, f64)>,
    cube: Option<[f64; 3]>,
    error: f64,
}

#[test]
fn xgs_analysis_is_what_bgsages_reader_reads() {
    use bgedit_core::domain::board::Board;
    use bgedit_core::domain::match_record::ActionKind;
    use bgedit_core::domain::moves::legal_moves;
    let mut moves_checked = 0;
    let mut cubes_checked = 0;
    let mut errors_checked = 0;
    for name in ["hsbt_paris_7pt", "charlot_7pt", "match_with_comment"] {
        let bytes = std::fs::read(dir().join(format!("xg/{name}.xg"))).unwrap();
        let file = match_file::read_bytes(&bytes).unwrap();
        let Contents::Record(record) = &file.contents else {
            panic!("{name}: not a match")
        };
        let (decisions, problems) = match_file::decisions(&file);
        assert!(problems.is_empty(), "{name}: {problems:#?}");
        let text = std::fs::read_to_string(dir().join(format!("xg/{name}.bgsage.json"))).unwrap();
        let sage: Vec<SageMove> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        // bgsage lists every move record; bgedit's decisions include the
        // cube actions and rolls alone: take the played checker moves.
        let played: Vec<_> = decisions
            .iter()
            .filter(|d| d.dice.is_some() && d.played != "set-up")
            .collect();
        assert_eq!(played.len(), sage.len(), "{name}: moves");
        for (d, s) in played.iter().zip(&sage) {
            let at = format!("{name} game {} move {}", d.game, d.number);
            assert_eq!(d.game, s.game, "{at}");
            assert_eq!(d.player.index(), s.mover, "{at}");
            let cells: [i32; 26] = s.board.clone().try_into().unwrap();
            let board = Board::from_mover_cells(&cells, d.player).unwrap();
            assert_eq!(d.position.board, board, "{at}");
            let mut dice = d.dice.unwrap();
            let mut want = s.dice;
            dice.sort_unstable();
            want.sort_unstable();
            assert_eq!(dice, want, "{at}");
            // XG's candidates, each named by the legal move reaching its
            // board, with XG's equity.
            let legal = legal_moves(&d.position.board, d.player, d.dice.unwrap());
            let want: Vec<(String, f64)> = s
                .candidates
                .iter()
                .filter_map(|(after, eq)| {
                    let cells: [i32; 26] = after.clone().try_into().unwrap();
                    let after = Board::from_mover_cells(&cells, d.player).ok()?;
                    let m = legal.iter().find(|m| m.result == after)?;
                    Some((m.notation(), *eq))
                })
                .collect();
            let got: Vec<(String, f64)> = match &d.analysis {
                Some(FileAnalysis::Moves { moves }) => moves
                    .iter()
                    .map(|m| (m.notation.clone(), m.equity))
                    .collect(),
                _ => Vec::new(),
            };
            assert_eq!(got.len(), want.len(), "{at}");
            for ((gn, ge), (wn, we)) in got.iter().zip(&want) {
                assert_eq!(gn, wn, "{at}");
                assert!((ge - we).abs() < 1e-6, "{at}: {ge} vs {we}");
            }
            moves_checked += got.len();
            // The error bgedit computes from XG's list is XG's own.
            if s.error > -999.0 && !got.is_empty() {
                let e = bgedit_library::match_import::decision_error(d).unwrap();
                // (XG's lists are single precision; its error is not.)
                assert!((e + s.error).abs() < 1e-4, "{at}: {e} vs XG's {}", s.error);
                errors_checked += 1;
            }
            match (&d.cube_analysis, s.cube) {
                (
                    Some(FileAnalysis::Cube {
                        no_double,
                        double_take,
                        double_pass,
                        ..
                    }),
                    Some(w),
                ) => {
                    for (g, w) in [no_double, double_take, double_pass].iter().zip(w) {
                        assert!((**g - w).abs() < 1e-6, "{at}: cube {g} vs {w}");
                    }
                    cubes_checked += 1;
                }
                (None, None) => {}
                (g, w) => panic!("{at}: cube analysis {g:?} vs bgsage's {w:?}"),
            }
        }
        // The played move is always one of the moves bgedit finds legal.
        for game in &record.games {
            for a in &game.actions {
                if let ActionKind::Move { steps, .. } = &a.kind {
                    assert!(steps.len() <= 4, "{name}");
                }
            }
        }
    }
    assert!(moves_checked >= 3000, "{moves_checked}");
    assert!(cubes_checked >= 200, "{cubes_checked}");
    assert!(errors_checked >= 600, "{errors_checked}");
}

/// The real binary reads `.xg` files: `bgedit match` lists every decision
/// with XG's analysis in JSON, and `convert --file --game --move` gives the
/// position gnubg gives.
#[test]
fn bgedit_match_and_convert_read_xg_files() {
    use crate::common::run::{bgedit, text};
    let path = dir().join("xg/hsbt_paris_7pt.xg");
    let path = path.to_str().unwrap();
    let out = bgedit(&["match", "--format", "json", path], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json = text(&out.stdout);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["game"], 1);
    assert_eq!(first["player"], "O");
    assert_eq!(first["played"], "24/23 13/8");
    assert_eq!(first["gnubg_id"], "4HPwATDgc/ABMA:MIHmAAAAAAAE");
    let analysed = json
        .lines()
        .filter(|l| l.contains("XG 3-ply") || l.contains("XG Roller"))
        .count();
    assert!(analysed > 100, "{analysed}");
    let out = bgedit(
        &[
            "convert", "--to", "gnubg", "--file", path, "--game", "1", "--move", "1",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // gnubg's export of the same match, game 1 move 2, without its dice.
    assert_eq!(text(&out.stdout).trim(), "4PPgASjgc/ABMA:cAngAAAAAAAE");
}

#[test]
fn damaged_xg_files_are_errors_naming_what_is_wrong() {
    use crate::common::run::{bgedit, text};
    let bytes = std::fs::read(dir().join("xg/charlot_7pt.xg")).unwrap();
    // A flipped byte in the compressed data: the archive's checksum says so.
    let mut damaged = bytes.clone();
    let at = damaged.len() - 5000;
    damaged[at] ^= 0x55;
    assert!(matches!(
        xg::read_bytes(&damaged),
        Err(XgError::Checksum { .. })
    ));
    // Cut short: the trailer is gone.
    let cut = &bytes[..bytes.len() / 2];
    assert!(xg::read_bytes(cut).is_err());
    // Through the one dispatch, the CLI names the file.
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.xg");
    std::fs::write(&bad, &damaged).unwrap();
    let out = bgedit(&["match", bad.to_str().unwrap()], "");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("bad.xg") && err.contains("damaged"), "{err}");
}

/// XG's comments (RTF in the archive's `temp.xgc`) are the comments of the
/// moves they were written on, as text; `library import` keeps them in
/// the entry's note, and `--errors E` keeps only the decisions XG's own
/// analysis says cost at least E.
#[test]
fn comments_and_errors_reach_the_library() {
    use crate::common::run::{bgedit, text};
    let path = dir().join("xg/match_with_comment.xg");
    let file = match_file::read_bytes(&std::fs::read(&path).unwrap()).unwrap();
    let (decisions, _) = match_file::decisions(&file);
    let commented: Vec<(usize, usize, &str)> = decisions
        .iter()
        .filter_map(|d| Some((d.game, d.number, d.comment.as_deref()?)))
        .collect();
    assert_eq!(
        commented,
        vec![
            (1, 3, "coup assez difficile"),
            (1, 5, "les double 66 sont toujpurs difficiles à trouver")
        ]
    );
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("lib.db");
    let lib = lib.to_str().unwrap();
    let path = path.to_str().unwrap();
    let out = bgedit(&["library", "--library", lib, "import", path], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = bgedit(&["library", "--library", lib, "search", "difficile"], "");
    let found = text(&out.stdout);
    assert_eq!(found.lines().count(), 2, "{found}");
    assert!(found.contains("game 1 move 5"), "{found}");

    let xg = dir().join("xg/hsbt_paris_7pt.xg");
    let file = match_file::read_bytes(&std::fs::read(&xg).unwrap()).unwrap();
    let (decisions, _) = match_file::decisions(&file);
    // Each decision of 0.08 or worse by XG's analysis, and each double
    // XG says was missed by as much (the cube before a roll: an entry of
    // its own).
    let costly = decisions
        .iter()
        .filter(|d| bgedit_library::match_import::decision_error(d).is_some_and(|e| e >= 0.08))
        .count()
        + decisions
            .iter()
            .filter(|d| bgedit_library::match_import::no_double_error(d).is_some_and(|e| e >= 0.08))
            .count();
    assert!(costly >= 10, "{costly}");
    let lib2 = tmp.path().join("lib2.db");
    let lib2 = lib2.to_str().unwrap();
    let out = bgedit(
        &[
            "library",
            "--library",
            lib2,
            "import",
            "--errors",
            "0.08",
            xg.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(&format!("{costly} added")),
        "{}",
        text(&out.stdout)
    );
    let out = bgedit(&["library", "--library", lib2, "search", "error>=0.08"], "");
    assert_eq!(text(&out.stdout).lines().count(), costly);
}
