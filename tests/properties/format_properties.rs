//! The exchange formats over many generated positions: each round-trips
//! every state it can hold, what it cannot hold is said by
//! `codec::conversion_losses` (when nothing is said, nothing is lost), and
//! no reader panics on arbitrary or half-formed input.

use crate::common;

use bgedit_core::codec::{self, IdFormat, fibs, header, sgf, snowie, xg_text};
use bgedit_core::domain::{GameState, MatchState, Names, Position, Resignation};
use common::strategies;
use proptest::prelude::*;

/// Names as players type them; `]` and `\` test SGF's escapes.
fn names() -> impl Strategy<Value = Names> {
    let name = "[A-Za-z0-9_\\]\\\\.-]([A-Za-z0-9 _\\]\\\\.-]{0,14}[A-Za-z0-9_.-])?";
    (name, name).prop_map(|(o, x)| Names { o, x })
}

fn named_position() -> impl Strategy<Value = Position> {
    (strategies::position(), names()).prop_map(|(p, names)| Position { names, ..p })
}

/// The part of a state every exchange format but FIBS loses the same way:
/// no offer, no resignation, a game in play, the roller deciding.
fn in_play(s: &mut MatchState) {
    s.double_offered = false;
    s.resignation = Resignation::None;
    s.game_state = GameState::Playing;
    s.turn = s.on_roll;
}

fn write(p: &Position, f: IdFormat) -> String {
    codec::to_string_as(p, f)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn sgf_round_trips_what_it_holds(p in named_position()) {
        let back = sgf::read(&write(&p, IdFormat::Sgf)).unwrap();
        let mut want = p.clone();
        in_play(&mut want.state);
        if !want.state.is_money() {
            want.state.jacoby = false;
        }
        prop_assert_eq!(&back, &want);
        let losses = codec::conversion_losses(&p, IdFormat::GnubgId, IdFormat::Sgf);
        prop_assert_eq!(losses.is_empty(), back == p, "{:?}", losses);
    }

    #[test]
    fn snowie_round_trips_what_it_holds(p in named_position()) {
        let back = snowie::read(&write(&p, IdFormat::Snowie)).unwrap();
        let mut want = p.clone();
        in_play(&mut want.state);
        if !want.state.is_money() {
            want.state.jacoby = false;
        }
        prop_assert_eq!(&back, &want);
        let losses = codec::conversion_losses(&p, IdFormat::GnubgId, IdFormat::Snowie);
        prop_assert_eq!(losses.is_empty(), back == p, "{:?}", losses);
    }

    #[test]
    fn fibs_round_trips_what_it_holds(p in named_position()) {
        let back = fibs::read(&write(&p, IdFormat::Fibs)).unwrap();
        let mut want = p.clone();
        let s = &mut want.state;
        s.resignation = Resignation::None;
        s.game_state = GameState::Playing;
        if s.double_offered {
            s.on_roll = s.turn.opponent();
        } else {
            s.turn = s.on_roll;
        }
        s.jacoby = s.is_money();
        let at_last_point = s.match_length > 0
            && s.score.iter().any(|&v| v + 1 == s.match_length);
        s.crawford &= at_last_point;
        if s.match_length == 9999 {
            s.match_length = 0;
            s.crawford = false;
            s.jacoby = true;
        }
        prop_assert_eq!(&back, &want);
        let losses = codec::conversion_losses(&p, IdFormat::GnubgId, IdFormat::Fibs);
        prop_assert_eq!(losses.is_empty(), back == p, "{:?}", losses);
    }

    #[test]
    fn header_lines_and_xg_text_read_back(p in named_position()) {
        let mut s = String::new();
        header::write(&p, &mut s);
        let back = codec::parse_any(&s, &p).unwrap();
        prop_assert_eq!(back.format, IdFormat::GnubgId);
        prop_assert_eq!(&back.position, &p);

        let text = write(&p, IdFormat::XgText);
        let back = xg_text::read(&text, &Names::default()).unwrap();
        prop_assert_eq!(&back.names, &p.names);
        prop_assert_eq!(&back.board, &p.board);
        let direct = codec::parse_any(&write(&p, IdFormat::Xgid), &p).unwrap().position;
        prop_assert_eq!(&back.state, &direct.state);
    }

    #[test]
    fn every_exchange_format_is_recognised_by_parse_any(p in named_position()) {
        for (format, expected) in [
            (IdFormat::Sgf, IdFormat::Sgf),
            (IdFormat::Fibs, IdFormat::Fibs),
            (IdFormat::Snowie, IdFormat::Snowie),
            (IdFormat::XgText, IdFormat::XgText),
        ] {
            let text = write(&p, format);
            let got = codec::parse_any(&text, &Position::default()).unwrap();
            prop_assert_eq!(got.format, expected, "{}", text);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn readers_never_panic_on_arbitrary_text(s in "\\PC{0,200}") {
        let _ = sgf::read(&s);
        let _ = fibs::read(&s);
        let _ = snowie::read(&s);
        let _ = xg_text::read(&s, &Names::default());
        let _ = codec::parse_any(&s, &Position::default());
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Half-formed SGF: real property names and point letters, any values,
    /// unbalanced brackets and escapes.
    #[test]
    fn sgf_reader_never_panics_on_sgf_like_text(
        nodes in prop::collection::vec(
            ("(AE|AW|AB|PL|CV|CP|DI|MI|RU|RE|PW|PB|B|W|XX)",
             prop::collection::vec("[a-z:0-9\\\\\\]BWcwbn+R]{0,10}", 0..6)),
            0..16),
        close in any::<bool>(),
        open_variations in 0usize..3,
    ) {
        let mut text = "(".repeat(open_variations + 1);
        for (name, values) in nodes {
            text.push(';');
            text.push_str(&name);
            for v in values {
                text.push('[');
                text.push_str(&v);
                text.push(']');
            }
        }
        if close {
            text.push_str(&")".repeat(open_variations + 1));
        }
        let _ = sgf::read(&text);
        for game in 0..3 {
            let _ = sgf::read_at(&text, sgf::Selection { game: Some(game), moves: Some(game * 7) });
        }
    }

    /// FIBS and Snowie lines with the right number of fields, any numbers.
    #[test]
    fn fibs_and_snowie_readers_never_panic_on_any_numbers(
        fields in prop::collection::vec(-70000i64..70000, 53),
        small in prop::collection::vec(-20i64..20, 53),
        pick in prop::collection::vec(any::<bool>(), 53),
    ) {
        let numbers: Vec<String> = (0..53)
            .map(|i| if pick[i] { small[i] } else { fields[i] }.to_string())
            .collect();
        let line = format!("board:a:b:{}", numbers[3..53].join(":"));
        let _ = fibs::read(&line);
        let mut snow: Vec<String> = numbers[..40].to_vec();
        snow[5] = "a".into();
        snow[6] = "b".into();
        let _ = snowie::read(&(snow.join(";") + ";"));
    }
}
