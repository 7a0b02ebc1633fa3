//! proptest strategies for legal positions and match states.

use bgedit_core::domain::match_state::larger_first;
use bgedit_core::domain::{Board, CubeOwner, GameState, MatchState, Player, Position, Resignation};
use proptest::prelude::*;

/// Any legal board: each player's 15 checkers go to a random place (24
/// points, bar, or off); O's checkers that land on a point X holds go off.
pub fn board() -> impl Strategy<Value = Board> {
    (
        prop::collection::vec(0u8..=25, 15),
        prop::collection::vec(0u8..=25, 15),
        any::<bool>(),
    )
        .prop_map(|(xs, os, stack)| {
            let mut x = [0u8; 25];
            let mut o = [0u8; 25];
            for (i, slot) in xs.into_iter().enumerate() {
                // Now and then pile everything on one place: stacks to 15.
                let slot = if stack && i > 0 { 5 } else { slot };
                if slot < 25 {
                    x[usize::from(slot)] += 1;
                }
            }
            for slot in os {
                let slot = usize::from(slot);
                if slot == 24 {
                    o[24] += 1;
                } else if slot < 24 && x[23 - slot] == 0 {
                    // O's own point slot+1 is X's point 24-slot.
                    o[slot] += 1;
                }
            }
            Board::from_sides(o, x).expect("legal by construction")
        })
}

fn player() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::O), Just(Player::X)]
}

/// Any state a GNUBG ID holds, with canonical dice (larger first) and the
/// XGID-only fields at their defaults.
pub fn match_state() -> impl Strategy<Value = MatchState> {
    (
        (
            0u8..=15,
            prop_oneof![
                Just(CubeOwner::Centred),
                player().prop_map(CubeOwner::Owned)
            ],
        ),
        (player(), player(), any::<bool>()),
        (0u8..4, 0u8..5),
        prop::option::of((1u8..=6, 1u8..=6)),
        prop_oneof![Just(0u16), 1u16..=25, 26u16..=32767],
        (any::<u16>(), any::<u16>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(
                (cube, owner),
                (on_roll, turn, double),
                (resign, state),
                dice,
                length,
                (s0, s1, crawford, jacoby),
            )| {
                let (score, crawford) = if length == 0 {
                    ([s0 % 64, s1 % 64], false)
                } else {
                    ([s0 % length, s1 % length], crawford)
                };
                MatchState {
                    cube_log2: cube,
                    cube_owner: owner,
                    on_roll,
                    turn,
                    double_offered: double,
                    resignation: Resignation::from_code(resign).unwrap(),
                    game_state: GameState::from_code(state).unwrap(),
                    dice: dice.map(|(a, b)| larger_first(a, b)),
                    match_length: length,
                    score,
                    crawford,
                    jacoby,
                    ..MatchState::default()
                }
            },
        )
}

/// A state an XGID holds exactly: a game in play, no resignation, the
/// decider implied by the roller, no dice with a double, gnubg's Jacoby and
/// beaver conventions for matches.
pub fn xgid_state() -> impl Strategy<Value = MatchState> {
    (match_state(), any::<bool>(), 0u8..=15).prop_map(|(mut s, beavers, max_cube)| {
        s.game_state = GameState::Playing;
        s.resignation = Resignation::None;
        s.turn = if s.double_offered {
            s.on_roll.opponent()
        } else {
            s.on_roll
        };
        if s.double_offered {
            s.dice = None;
        }
        if s.is_money() {
            s.beavers = beavers;
        } else {
            s.jacoby = false;
            s.beavers = false;
        }
        s.max_cube_log2 = max_cube;
        s
    })
}

pub fn position() -> impl Strategy<Value = Position> {
    (board(), match_state()).prop_map(|(board, state)| Position {
        board,
        state,
        ..Position::default()
    })
}
