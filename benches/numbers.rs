//! The numbers at the score for one position: everything the numbers panel
//! shows (MWCs and NEMG, take points, gammon values, market window, race
//! counts) and its text lines, on 1,000 random positions and scores from a
//! fixed seed, with and without an evaluation.

use bgedit_core::codec::met_xml;
use bgedit_core::domain::numbers;
use bgedit_core::domain::{Board, CubeOwner, Player, Position};
use bgedit_tui::numbers::text as numbers_text;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// xorshift64*: a fixed, dependency-free stream of numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_position(rng: &mut Rng) -> Position {
    loop {
        let mut sides = [[0u8; 25]; 2];
        for side in &mut sides {
            for _ in 0..(1 + rng.below(15)) {
                side[rng.below(25) as usize] += 1;
            }
        }
        let Ok(board) = Board::from_sides(sides[0], sides[1]) else {
            continue;
        };
        let mut p = Position {
            board,
            ..Position::default()
        };
        let s = &mut p.state;
        s.on_roll = if rng.below(2) == 0 {
            Player::O
        } else {
            Player::X
        };
        s.turn = s.on_roll;
        if rng.below(5) > 0 {
            s.match_length = 1 + rng.below(25) as u16;
            s.score = [
                rng.below(u64::from(s.match_length)) as u16,
                rng.below(u64::from(s.match_length)) as u16,
            ];
        }
        s.cube_log2 = rng.below(4) as u8;
        s.cube_owner = match rng.below(3) {
            0 => CubeOwner::Centred,
            1 => CubeOwner::Owned(Player::O),
            _ => CubeOwner::Owned(Player::X),
        };
        return p;
    }
}

fn numbers_for_a_position(c: &mut Criterion) {
    let met = met_xml::default_met();
    let mut rng = Rng(0x5eed_0009);
    let positions: Vec<Position> = (0..1000).map(|_| random_position(&mut rng)).collect();
    let eval = [0.55f32, 0.15, 0.01, 0.12, 0.005];
    for (name, probs) in [("no evaluation", None), ("with evaluation", Some(&eval))] {
        let mut i = 0usize;
        c.bench_function(&format!("numbers + panel lines, {name}"), |b| {
            b.iter(|| {
                let p = &positions[i % positions.len()];
                i += 1;
                let n = numbers::compute(p, &met, probs);
                black_box(numbers_text::lines(&n))
            })
        });
    }
    c.bench_function("load and extend the built-in MET", |b| {
        b.iter(|| black_box(met_xml::default_met()))
    });
}

criterion_group!(benches, numbers_for_a_position);
criterion_main!(benches);
