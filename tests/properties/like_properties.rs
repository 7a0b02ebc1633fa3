//! `library like` on its index answers exactly as a brute-force scan of
//! every entry: the same entries, distances and order, ties included, on
//! random libraries built to hold many near and equal shapes.

use crate::common::random::{self, Rng};
use bgedit_core::domain::{Board, Player, Position};
use bgedit_library::store::{Library, NewEntry, Source};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// The distance as docs/library.md words it, written apart from the
/// store's: each side's cumulative counts, 1-point to the bar, from the
/// side on roll, L1.
fn distance(a: &Position, b: &Position) -> u32 {
    let counts = |p: &Position| {
        let mut all = Vec::new();
        for side in [p.state.on_roll, p.state.on_roll.opponent()] {
            let mut sum = 0i32;
            for &n in p.board.side(side) {
                sum += i32::from(n);
                all.push(sum);
            }
        }
        all
    };
    counts(a)
        .iter()
        .zip(counts(b))
        .map(|(x, y)| (x - y).unsigned_abs())
        .sum()
}

fn cube_kind(p: &Position) -> bool {
    p.state.dice.is_none()
}

/// `p` with one checker of a side moved 1–3 pips on (or borne off), if
/// that is a legal board.
fn nudged(p: &Position, rng: &mut Rng) -> Option<Position> {
    let player = Player::from_index(rng.below(2) as usize);
    let mut own = *p.board.side(player);
    let occupied: Vec<usize> = (0..25).filter(|&i| own[i] > 0).collect();
    let from = *occupied.get(rng.below(occupied.len().max(1) as u64) as usize)?;
    own[from] -= 1;
    if let Some(to) = from.checked_sub(1 + rng.below(3) as usize) {
        own[to] += 1;
    }
    let other = *p.board.side(player.opponent());
    let board = match player {
        Player::O => Board::from_sides(own, other),
        Player::X => Board::from_sides(other, own),
    }
    .ok()?;
    Some(Position { board, ..p.clone() })
}

/// A library's positions: a few random bases, each with variations one to
/// three checkers moved, under other dice and cubes (equal shapes, other
/// kinds: ties), now and then with the other player on roll.
fn library_positions(seed: u64, bases: usize, variants: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..bases {
        let base = random::position(&mut rng);
        out.push(base.clone());
        for _ in 0..variants {
            let mut p = base.clone();
            for _ in 0..rng.below(4) {
                p = nudged(&p, &mut rng).unwrap_or(p);
            }
            p.state.dice = match rng.below(3) {
                0 => None,
                _ => Some([1 + rng.below(6) as u8; 2]),
            };
            p.state.cube_log2 = rng.below(3) as u8;
            if rng.below(8) == 0 {
                p.state.on_roll = p.state.on_roll.opponent();
                p.state.turn = p.state.on_roll;
            }
            out.push(p);
        }
    }
    out
}

/// The k-th distance up to which the index alone is checked.
const NEAR: u32 = 48;

/// One random library and query: the answer against the scan and the
/// hand-made one; whether the index alone was checked too.
#[allow(clippy::too_many_arguments)]
fn check(
    seed: u64,
    bases: usize,
    variants: usize,
    query_at: usize,
    fresh: bool,
    limit: usize,
    same_kind: bool,
) -> Result<bool, TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(&dir.path().join("l.sqlite")).unwrap();
    let positions = library_positions(seed, bases, variants);
    let added = lib
        .add_all(
            &positions
                .iter()
                .map(|p| NewEntry::new(p.clone(), Source::Typed))
                .collect::<Vec<_>>(),
        )
        .unwrap();
    let picked = &positions[query_at % positions.len()];
    let query = if fresh {
        nudged(picked, &mut Rng::new(seed ^ 1)).unwrap_or_else(|| picked.clone())
    } else {
        picked.clone()
    };
    // By hand: each entry once (a position added twice is one entry),
    // the query's own entry left out.
    let mut expected: Vec<(u32, bool, i64)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (p, a) in positions.iter().zip(&added) {
        if !seen.insert(a.id()) || *p == query {
            continue;
        }
        if same_kind && cube_kind(p) != cube_kind(&query) {
            continue;
        }
        expected.push((
            distance(&query, p),
            cube_kind(p) != cube_kind(&query),
            a.id(),
        ));
    }
    expected.sort();
    expected.truncate(limit);
    let expected: Vec<(u32, i64)> = expected.into_iter().map(|(d, _, id)| (d, id)).collect();
    let found = lib.like(&query, limit, same_kind).unwrap();
    let got: Vec<(u32, i64)> = found.positions.iter().map(|l| (l.distance, l.id)).collect();
    prop_assert_eq!(&got, &expected, "scanned: {}", found.scanned);
    let scan = lib.like_by_scan(&query, limit, same_kind).unwrap();
    prop_assert_eq!(&scan.positions, &found.positions);
    // The index alone, never a scan, however many cells it looks up,
    // wherever the k-th nearest is near enough for a debug build to
    // walk the cells to it (a limit past what there is, or a k-th far
    // away, would walk most of the grid's 49⁴ cells).
    if expected.len() == limit && expected.last().is_some_and(|&(d, _)| d <= NEAR) {
        let by_index = lib
            .like_within(&query, limit, same_kind, usize::MAX)
            .unwrap();
        prop_assert!(!by_index.scanned);
        prop_assert!(by_index.rows <= positions.len());
        prop_assert_eq!(&by_index.positions, &found.positions);
        return Ok(true);
    }
    Ok(false)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_index_answers_as_a_scan(
        seed in any::<u64>(),
        bases in 1usize..6,
        variants in 0usize..60,
        query_at in any::<usize>(),
        fresh in any::<bool>(),
        limit in 1usize..20,
        same_kind in any::<bool>(),
    ) {
        check(seed, bases, variants, query_at, fresh, limit, same_kind)?;
    }
}

/// The cases the property draws from take the index alone more often than
/// not (else it would test the scan against itself): 40 of them, from a
/// fixed seed.
#[test]
fn most_cases_use_the_index_alone() {
    let mut rng = Rng::new(99);
    let mut alone = 0;
    for _ in 0..40 {
        let args = (
            rng.next(),
            1 + rng.below(5) as usize,
            10 + rng.below(50) as usize,
            rng.next() as usize,
            rng.below(2) == 0,
            1 + rng.below(19) as usize,
            rng.below(2) == 0,
        );
        let (seed, bases, variants, at, fresh, limit, same) = args;
        alone += usize::from(check(seed, bases, variants, at, fresh, limit, same).unwrap());
    }
    assert!(alone >= 20, "{alone} of 40 on the index alone");
}
