//! Round trips and robustness, over many generated positions and strings.

use crate::common;

use bgedit_core::codec::text_board;
use bgedit_core::codec::{self, IdFormat, gnubg_id, match_id, parse_any, position_id, xgid};
use bgedit_core::domain::Position;
use common::strategies;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn gnubg_id_decode_of_encode_is_identity(p in strategies::position()) {
        let id = gnubg_id::encode(&p.board, &p.state);
        let back = parse_any(&id, &Position::default()).unwrap();
        prop_assert_eq!(back.format, IdFormat::GnubgId);
        prop_assert_eq!(back.position, p);
    }

    #[test]
    fn canonical_ids_come_back_unchanged(p in strategies::position()) {
        let pos = position_id::encode(&p.board, p.state.on_roll);
        let mat = match_id::encode(&p.state);
        let state = match_id::decode(&mat).unwrap();
        prop_assert_eq!(match_id::encode(&state), mat.clone());
        let board = position_id::decode(&pos, state.on_roll).unwrap();
        prop_assert_eq!(position_id::encode(&board, state.on_roll), pos);
    }

    /// Any 10-byte key that decodes is canonical: it encodes to the same ID.
    #[test]
    fn every_accepted_position_key_is_canonical(key in prop::array::uniform10(any::<u8>()), roller in any::<bool>()) {
        use base64::Engine;
        let id = base64::engine::general_purpose::STANDARD_NO_PAD.encode(key);
        let on_roll = if roller { bgedit_core::domain::Player::X } else { bgedit_core::domain::Player::O };
        if let Ok(board) = position_id::decode(&id, on_roll) {
            prop_assert_eq!(position_id::encode(&board, on_roll), id);
        }
    }

    /// Any 9-byte key that decodes with the larger die first is canonical.
    #[test]
    fn every_accepted_match_key_is_canonical(key in prop::array::uniform9(any::<u8>())) {
        use base64::Engine;
        let id = base64::engine::general_purpose::STANDARD_NO_PAD.encode(key);
        if let Ok(state) = match_id::decode(&id)
            && state.dice.is_none_or(|[a, b]| a >= b)
        {
            prop_assert_eq!(match_id::encode(&state), id);
        }
    }

    #[test]
    fn xgid_decode_of_encode_is_identity(board in strategies::board(), state in strategies::xgid_state()) {
        let text = xgid::encode(&board, &state);
        let (b, s) = xgid::decode(&text).unwrap();
        prop_assert_eq!(&b, &board);
        prop_assert_eq!(&s, &state);
        prop_assert_eq!(xgid::encode(&b, &s), text);
    }

    /// GNUBG ID → XGID → GNUBG ID gives the same ID when the conversion
    /// says it lost nothing.
    #[test]
    fn gnubg_id_to_xgid_and_back(p in strategies::position()) {
        let losses = codec::conversion_losses(&p, IdFormat::GnubgId, IdFormat::Xgid);
        let x = codec::to_string_as(&p, IdFormat::Xgid);
        let back = parse_any(&x, &Position::default()).unwrap().position;
        prop_assert_eq!(&back.board, &p.board);
        if losses.is_empty() {
            prop_assert_eq!(
                gnubg_id::encode(&back.board, &back.state),
                gnubg_id::encode(&p.board, &p.state)
            );
        }
    }

    /// XGID → GNUBG ID → XGID gives the same XGID when nothing was dropped.
    #[test]
    fn xgid_to_gnubg_id_and_back(board in strategies::board(), state in strategies::xgid_state()) {
        let p = Position { board, state, ..Position::default() };
        let losses = codec::conversion_losses(&p, IdFormat::Xgid, IdFormat::GnubgId);
        let g = codec::to_string_as(&p, IdFormat::GnubgId);
        let back = parse_any(&g, &Position::default()).unwrap().position;
        if losses.is_empty() && p.state.is_money() {
            prop_assert_eq!(codec::to_string_as(&back, IdFormat::Xgid), codec::to_string_as(&p, IdFormat::Xgid));
        }
        prop_assert_eq!(back.board, p.board);
    }

    #[test]
    fn json_round_trips(p in strategies::position()) {
        let text = codec::to_string_as(&p, IdFormat::Json);
        prop_assert_eq!(parse_any(&text, &Position::default()).unwrap().position, p);
    }

    #[test]
    fn board_text_is_always_fifteen_lines(p in strategies::position(), name in "[^\\p{Cc}]{0,40}") {
        let mut p = p;
        p.names.o = name;
        let text = text_board::render(&p);
        prop_assert_eq!(text.lines().count(), 15);
        prop_assert!(text.ends_with('\n'));
    }

    /// No input makes a decoder panic: arbitrary text, and text made of the
    /// characters IDs are made of.
    #[test]
    fn decoders_never_panic_on_any_string(s in ".{0,120}") {
        let _ = parse_any(&s, &Position::default());
        let _ = xgid::decode(&s);
        let _ = match_id::decode(&s);
        let _ = position_id::decode(&s, bgedit_core::domain::Player::X);
        let _ = codec::json::decode(&s);
    }

    #[test]
    fn decoders_never_panic_on_id_like_strings(s in "(XGID=)?[A-Za-z0-9+/:=\\-]{0,60}") {
        let _ = parse_any(&s, &Position::default());
    }

    #[test]
    fn decoders_never_panic_on_damaged_xgids(
        board in strategies::board(),
        state in strategies::xgid_state(),
        at in any::<prop::sample::Index>(),
        ch in any::<char>(),
    ) {
        let mut text: Vec<char> = xgid::encode(&board, &state).chars().collect();
        let i = at.index(text.len());
        text[i] = ch;
        let text: String = text.into_iter().collect();
        let _ = parse_any(&text, &Position::default());
    }
}
