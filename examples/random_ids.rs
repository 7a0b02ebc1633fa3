//! Prints N random valid positions, one ID a line, from a fixed seed: the
//! input of `benches/stream_million.sh` and the criterion batch benches.
//!
//! ```sh
//! cargo run --release --example random_ids -- 1000000 [mix|gnubg|xgid] [SEED]
//! ```
//!
//! Positions are varied the way real ones are: checkers on the bar, stacks
//! up to 15, borne-off checkers, both players on roll, money and matches of
//! every length with every score, Crawford, cubes from 1 to 4096 and every
//! owner, dice or none, doubles and resignations on offer, every game state.
//! `mix` (the default) writes three GNUBG IDs for every XGID, since an XGID
//! cannot hold a resignation or a game state.

use bgedit_core::codec::{gnubg_id, xgid};
use bgedit_core::domain::{
    Board, CubeOwner, GameState, MatchState, Player, Resignation, validation::check_match,
};
use std::io::{self, BufWriter, Write};

/// SplitMix64: tiny, fast, and the same numbers on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A random legal board: some checkers borne off, some on the bar, the rest
/// spread over the points, sometimes piled on one point.
pub fn random_board(rng: &mut Rng) -> Board {
    let mut sides = [[0u8; 25]; 2];
    for player in Player::BOTH {
        let off = if rng.chance(60) {
            0
        } else {
            rng.below(16) as u8
        };
        let mut to_place = 15 - off;
        let pile = rng.chance(20).then(|| rng.below(24) as usize);
        let mut tries = 0;
        while to_place > 0 && tries < 1000 {
            tries += 1;
            let i = match (pile, rng.below(20)) {
                (Some(p), 0..=11) => p,
                (_, 0) => 24,
                _ => rng.below(24) as usize,
            };
            // The same physical point seen from the other side.
            let other = player.opponent().index();
            if i < 24 && sides[other][23 - i] > 0 {
                continue;
            }
            sides[player.index()][i] += 1;
            to_place -= 1;
        }
    }
    Board::from_sides(sides[0], sides[1]).expect("placed without clashes")
}

/// A random legal match state.
pub fn random_state(rng: &mut Rng) -> MatchState {
    loop {
        let on_roll = Player::from_index(rng.below(2) as usize);
        let match_length = if rng.chance(30) {
            0
        } else {
            1 + rng.below(25) as u16
        };
        let score = if match_length == 0 {
            [0, 0]
        } else {
            [
                rng.below(u64::from(match_length)) as u16,
                rng.below(u64::from(match_length)) as u16,
            ]
        };
        let one_away = match_length > 0 && score.iter().any(|&s| s + 1 == match_length);
        let crawford = one_away && rng.chance(50);
        let cube_log2 = if crawford || rng.chance(40) {
            0
        } else {
            rng.below(13) as u8
        };
        let cube_owner = match (cube_log2, rng.below(3)) {
            (0, _) | (_, 0) => CubeOwner::Centred,
            (_, 1) => CubeOwner::Owned(Player::O),
            _ => CubeOwner::Owned(Player::X),
        };
        let double_offered = !crawford && rng.chance(10);
        let dice = (!double_offered && rng.chance(70)).then(|| {
            let a = 1 + rng.below(6) as u8;
            let b = 1 + rng.below(6) as u8;
            [a.max(b), a.min(b)]
        });
        let resignation = if rng.chance(8) {
            Resignation::ALL[1 + rng.below(3) as usize]
        } else {
            Resignation::None
        };
        let game_state = if rng.chance(90) {
            GameState::Playing
        } else {
            GameState::ALL[rng.below(5) as usize]
        };
        let mut state = MatchState {
            cube_log2,
            cube_owner,
            on_roll,
            turn: on_roll,
            double_offered,
            resignation,
            game_state,
            dice,
            match_length,
            score,
            crawford,
            jacoby: rng.chance(50),
            beavers: true,
            max_cube_log2: bgedit_core::domain::match_state::DEFAULT_MAX_CUBE_LOG2,
        };
        state.turn = state.expected_turn();
        if check_match(&state).is_ok() {
            return state;
        }
    }
}

/// Appends one random position's ID to `out`: an XGID when `as_xgid`
/// (without what an XGID cannot hold), else a GNUBG ID.
pub fn push_random_id(rng: &mut Rng, as_xgid: bool, out: &mut String) {
    let board = random_board(rng);
    let mut state = random_state(rng);
    if as_xgid {
        state.resignation = Resignation::None;
        state.game_state = GameState::Playing;
        state.turn = state.expected_turn();
        xgid::encode_into(&board, &state, out);
    } else {
        gnubg_id::encode_into(&board, &state, out);
    }
}

/// `n` lines of random IDs, three GNUBG IDs to an XGID.
pub fn random_lines(n: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut s = String::with_capacity(n * 40);
    for i in 0..n {
        push_random_id(&mut rng, i % 4 == 3, &mut s);
        s.push('\n');
    }
    s
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let format = args.get(1).map_or("mix", String::as_str);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2026);
    let mut rng = Rng::new(seed);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut line = String::with_capacity(64);
    for i in 0..n {
        line.clear();
        let as_xgid = match format {
            "gnubg" => false,
            "xgid" => true,
            _ => i % 4 == 3,
        };
        push_random_id(&mut rng, as_xgid, &mut line);
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    out.flush()
}
