//! Varied random positions from a fixed seed, for the library's tests and
//! benchmarks: checkers spread over the points and bars, money and match
//! play, cubes, dice. No dependency, so benches can include it too.

#![allow(dead_code)]

use bgedit_core::domain::{Board, CubeOwner, MatchState, Player, Position};

/// xorshift64*: small, fast, and the same sequence on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A legal random position.
pub fn position(rng: &mut Rng) -> Position {
    loop {
        // Physical points 1–24 as X counts them; who holds each.
        let mut owner: [Option<Player>; 25] = [None; 25];
        let mut o = [0u8; 25];
        let mut x = [0u8; 25];
        for (player, side) in [(Player::X, &mut x), (Player::O, &mut o)] {
            let checkers = 5 + rng.below(11) as u8;
            for _ in 0..checkers {
                if rng.below(30) == 0 {
                    side[24] += 1;
                    continue;
                }
                let point = 1 + rng.below(24) as usize;
                if owner[point].is_some_and(|p| p != player) {
                    continue;
                }
                owner[point] = Some(player);
                let own = match player {
                    Player::X => point,
                    Player::O => 25 - point,
                };
                side[own - 1] += 1;
            }
        }
        let Ok(board) = Board::from_sides(o, x) else {
            continue;
        };
        let mut state = MatchState::default();
        let lengths = [0u16, 0, 0, 3, 5, 7, 9, 11, 13];
        state.match_length = lengths[rng.below(lengths.len() as u64) as usize];
        if state.match_length > 0 {
            let l = u64::from(state.match_length);
            state.score = [rng.below(l) as u16, rng.below(l) as u16];
        }
        state.cube_log2 = rng.below(4) as u8;
        state.cube_owner = if state.cube_log2 == 0 {
            CubeOwner::Centred
        } else {
            CubeOwner::Owned(Player::from_index(rng.below(2) as usize))
        };
        state.on_roll = Player::from_index(rng.below(2) as usize);
        state.turn = state.on_roll;
        if rng.below(3) > 0 {
            state.dice = Some([1 + rng.below(6) as u8, 1 + rng.below(6) as u8]);
            let [a, b] = state.dice.unwrap();
            state.dice = Some(if a >= b { [a, b] } else { [b, a] });
        }
        let position = Position {
            board,
            state,
            names: Default::default(),
        };
        if position.validate().is_ok() {
            return position;
        }
    }
}

/// `n` distinct positions from `seed`.
pub fn distinct(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = position(&mut rng);
        if seen.insert(bgedit_core::codec::to_string_as(
            &p,
            bgedit_core::codec::IdFormat::GnubgId,
        )) {
            out.push(p);
        }
    }
    out
}
