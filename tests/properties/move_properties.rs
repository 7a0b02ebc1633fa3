//! Properties of the move generator, the notation and free moves, over many
//! generated boards and rolls.

use crate::common;

use bgedit_core::domain::moves::{apply, check_move, free_move, legal_moves};
use bgedit_core::domain::notation::parse;
use bgedit_core::domain::{Board, Player, Position};
use common::strategies;
use proptest::prelude::*;

/// Boards from the shared strategy, and boards where the roller has every
/// checker home (bear-offs), so both kinds of roll are well covered.
fn board() -> impl Strategy<Value = Board> {
    prop_oneof![
        strategies::board(),
        (prop::collection::vec(0u8..7, 15), strategies::board()).prop_map(|(xs, other)| {
            let mut x = [0u8; 25];
            for slot in xs {
                if slot < 6 {
                    x[usize::from(slot)] += 1;
                }
            }
            let mut o = *other.side(Player::O);
            for (i, n) in x.iter().enumerate().take(24) {
                if *n > 0 {
                    o[23 - i] = 0;
                }
            }
            Board::from_sides(o, x).expect("legal by construction")
        }),
    ]
}

fn position() -> impl Strategy<Value = Position> {
    (board(), 1u8..=6, 1u8..=6, any::<bool>()).prop_map(|(board, a, b, x)| {
        let mut p = Position {
            board,
            ..Position::default()
        };
        let on_roll = if x { Player::X } else { Player::O };
        p.state.on_roll = on_roll;
        p.state.turn = on_roll;
        p.state.dice = Some([a.max(b), a.min(b)]);
        p
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn every_move_gives_a_legal_position_with_the_checkers_accounted(p in position()) {
        let dice = p.state.dice.unwrap();
        let mover = p.state.on_roll;
        let moves = legal_moves(&p.board, mover, dice);
        let most = if dice[0] == dice[1] { 4 } else { 2 };
        for m in &moves {
            let after = apply(&p, m);
            prop_assert!(after.validate().is_ok(), "{}", m.notation());
            prop_assert!(m.steps().len() <= most);
            prop_assert!(m.steps().len() == moves[0].steps().len());
            // The opponent's checkers are all still on the board or the bar
            // (hits never take one off); the mover loses only what it bore off.
            let opp = mover.opponent();
            prop_assert_eq!(after.board.on_board(opp), p.board.on_board(opp));
            let off = m.steps().iter().filter(|s| s.to == 0).count() as u32;
            prop_assert_eq!(after.board.on_board(mover) + off, p.board.on_board(mover));
            prop_assert_eq!(after.state.on_roll, opp);
            prop_assert_eq!(after.state.dice, None);
        }
    }

    #[test]
    fn no_two_moves_give_the_same_position(p in position()) {
        let moves = legal_moves(&p.board, p.state.on_roll, p.state.dice.unwrap());
        for (i, a) in moves.iter().enumerate() {
            for b in &moves[i + 1..] {
                prop_assert_ne!(&a.result, &b.result);
            }
        }
    }

    #[test]
    fn a_move_read_back_from_its_notation_is_the_same_move(p in position()) {
        for m in legal_moves(&p.board, p.state.on_roll, p.state.dice.unwrap()) {
            let text = m.notation();
            let typed = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            let back = check_move(&p, &typed)
                .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(&back.result, &m.result);
            prop_assert_eq!(back.notation(), text);
        }
    }

    #[test]
    fn the_notation_reader_never_panics(text in "\\PC{0,40}") {
        let _ = parse(&text);
    }

    #[test]
    fn the_notation_reader_never_panics_on_near_moves(text in "[0-9bo/*() -]{0,30}") {
        let _ = parse(&text);
    }

    #[test]
    fn free_moves_never_leave_an_illegal_board(
        b in board(),
        from in 0u8..=25,
        to in 0u8..=25,
        x in any::<bool>(),
    ) {
        let player = if x { Player::X } else { Player::O };
        if let Ok(typed) = parse(&format!("{from}/{to}"))
            && let Ok(after) = free_move(&b, player, &typed)
        {
            prop_assert!(after.validate().is_ok());
            prop_assert_eq!(
                after.on_board(player.opponent()),
                b.on_board(player.opponent())
            );
        }
    }
}
