//! Speed of legal move generation (issue 7): every one of the 21 rolls for
//! several varied middle-game positions. Target: under 5 µs per roll.
//!
//! The positions are the first middle games (no checker on the bar) of the
//! gnubg move fixtures, which a fixed seed generated: varied, never one
//! position repeated.

use bgedit_core::codec::parse_any;
use bgedit_core::domain::moves::legal_moves;
use bgedit_core::domain::{Player, Position};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const POSITIONS: usize = 8;

fn middle_games() -> Vec<(bgedit_core::domain::Board, Player)> {
    include_str!("../tests/fixtures/gnubg_moves.jsonl")
        .lines()
        .filter(|l| l.contains("\"style\": \"mid\""))
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            let p = parse_any(v["gnubg_id"].as_str()?, &Position::default())
                .ok()?
                .position;
            let bar = p.board.side(p.state.on_roll)[24];
            (bar == 0).then_some((p.board, p.state.on_roll))
        })
        .take(POSITIONS)
        .collect()
}

fn rolls() -> Vec<[u8; 2]> {
    (1..=6u8)
        .flat_map(|a| (1..=a).map(move |b| [a, b]))
        .collect()
}

fn moves(c: &mut Criterion) {
    let positions = middle_games();
    assert_eq!(positions.len(), POSITIONS);
    let rolls = rolls();
    assert_eq!(rolls.len(), 21);
    let mut group = c.benchmark_group("legal moves");
    group.throughput(Throughput::Elements((POSITIONS * rolls.len()) as u64));
    group.bench_function("21 rolls x 8 middle games", |b| {
        b.iter(|| {
            let mut total = 0;
            for (board, on_roll) in &positions {
                for &dice in &rolls {
                    total += legal_moves(black_box(board), *on_roll, dice).len();
                }
            }
            total
        })
    });
    group.bench_function("21 rolls x 8 middle games, with notation", |b| {
        b.iter(|| {
            let mut total = 0;
            for (board, on_roll) in &positions {
                for &dice in &rolls {
                    for m in legal_moves(black_box(board), *on_roll, dice) {
                        total += m.notation().len();
                    }
                }
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, moves);
criterion_main!(benches);
