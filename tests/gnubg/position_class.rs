//! gnubg's position class reimplemented in the core
//! (`bgedit_core::domain::position_class`) against gnubg 1.07's own
//! `ClassifyPosition`, asked in this run through its Python
//! (`gnubg.classifypos`, tests/fixtures/gnubg_classes.py): every committed
//! fixture position, 1,000 random positions of a fixed seed, and 1,000
//! random races and bear-offs (where the databases decide the class).

use crate::common;
use crate::common::random::{Rng, position};
use bgedit_core::codec::parse_any;
use bgedit_core::domain::position_class::{PositionClass, class_of};
use bgedit_core::domain::{Board, Player, Position};
use std::path::Path;
use std::process::{Command, Stdio};

/// gnubg's class numbers of `boards`, in order.
fn gnubg_classes(boards: &[Board]) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gnubg_classes");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("boards.jsonl");
    let text: String = boards
        .iter()
        .map(|b| {
            let (o, x) = (b.side(Player::O).to_vec(), b.side(Player::X).to_vec());
            format!("{}\n", serde_json::to_string(&(o, x)).unwrap())
        })
        .collect();
    std::fs::write(&file, text).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gnubg_classes.py");
    let out = Command::new(common::gnubg())
        .args(["-t", "-q", "-r", "-p"])
        .arg(script)
        .env("BGEDIT_BOARDS", &file)
        .stdin(Stdio::null())
        .output()
        .expect("gnubg starts");
    assert!(out.status.success(), "gnubg_classes.py failed");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("class "))
        .map(|n| n.trim().parse().unwrap())
        .collect()
}

/// A race or bear-off: each side's checkers (up to 15, the rest off) on
/// its own points up to `reach`, so the two never meet.
fn race(rng: &mut Rng) -> Board {
    loop {
        let mut sides = [[0u8; 25]; 2];
        for side in &mut sides {
            let far = if rng.below(2) == 0 { 6 } else { 11 };
            let reach = 1 + rng.below(far) as usize;
            for _ in 0..rng.below(16) {
                side[rng.below(reach as u64) as usize] += 1;
            }
        }
        if let Ok(b) = Board::from_sides(sides[0], sides[1]) {
            return b;
        }
    }
}

fn fixture_boards() -> Vec<Board> {
    common::fixtures()
        .iter()
        .filter_map(|f| parse_any(&f.input, &Position::default()).ok())
        .map(|r| r.position.board)
        .collect()
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn classes_are_gnubgs() {
    let mut boards = fixture_boards();
    let fixtures = boards.len();
    let mut rng = Rng::new(42);
    boards.extend((0..1000).map(|_| position(&mut rng).board));
    boards.extend((0..1000).map(|_| race(&mut rng)));
    let gnubg = gnubg_classes(&boards);
    assert_eq!(gnubg.len(), boards.len(), "gnubg classified every board");
    let mut seen = std::collections::BTreeSet::new();
    for (b, want) in boards.iter().zip(&gnubg) {
        let ours = class_of(b);
        assert_eq!(
            ours.gnubg_code(),
            *want,
            "{ours} for O {:?} X {:?}",
            b.side(Player::O),
            b.side(Player::X)
        );
        seen.insert(ours);
    }
    // Every class gnubg 1.07 as installed gives was reached (it has no
    // larger bear-off databases, so those two never are).
    for c in PositionClass::ALL {
        let larger = matches!(c, PositionClass::BearoffTs | PositionClass::BearoffOs);
        assert_eq!(
            seen.contains(&c),
            !larger,
            "{c} among {fixtures} fixtures and 2,000 random"
        );
    }
}
