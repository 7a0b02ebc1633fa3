//! The formulas on the worked examples of gnubg's "Equities explained"
//! (`shared/seeds/gnubg-equities-and-ids.txt`): the NEMG table, the 3-0 to
//! 7 live take points, Janowski's money take point, the cube efficiency.

use bgedit_core::codec::met_xml;
use bgedit_core::domain::equity::{self, Score};
use bgedit_core::domain::met::Met;
use bgedit_core::domain::race;
use bgedit_core::domain::{Board, Player};

fn woolsey() -> Met {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/met/woolsey.xml"
    );
    met_xml::load_file(std::path::Path::new(path)).unwrap()
}

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

/// "Suppose the score is 3-1 to 5 with the cube on 2: MWC(l)=0% and
/// MWC(w)=50%": 0% → −1, 25% → 0, 50% → +1, 75% → +2, 100% → +3.
#[test]
fn the_nemg_table_at_3_1_to_5_on_a_2_cube() {
    let met = met_xml::default_met();
    // The player with 1 point (O) against 3 (X), cube on 2.
    let s = Score {
        score: [1, 3],
        match_to: 5,
        cube: 2,
        crawford: false,
    };
    let o = equity::player_mwc(&met, &s, 0);
    assert_eq!(o.win[0].mwc, 0.5, "MWC(w): 2-away, 2-away");
    assert_eq!(o.lose[0].mwc, 0.0, "MWC(l): X wins the match");
    for (mwc, nemg) in [
        (0.0, -1.0),
        (0.25, 0.0),
        (0.5, 1.0),
        (0.75, 2.0),
        (1.0, 3.0),
    ] {
        assert_eq!(equity::nemg(mwc, o.win[0].mwc, o.lose[0].mwc), Some(nemg));
    }
    assert_eq!(o.win[0].nemg, Some(1.0));
    assert_eq!(o.lose[0].nemg, Some(-1.0));
}

/// "W=(0.454 + 0.103 + 0.001)/0.454=1.229 and L=(0.556+0.106+0.003)/0.556
/// = 1.196", and Janowski's TP = (L − 0.5)/(W + L + 0.5).
#[test]
fn janowskis_take_point_on_the_documents_position() {
    let p = [0.454f32, 0.103, 0.001, 0.106, 0.003];
    let w = (p[0] + p[1] + p[2]) / p[0];
    assert!(close(w, 1.229, 0.0005), "{w}");
    // The document writes 0.556 for 1 − 0.454 (= 0.546); with its own
    // figures L is 1.196, with 0.546 it is 1.200.
    let l_doc = (0.556f32 + p[3] + p[4]) / 0.556;
    assert!(close(l_doc, 1.196, 0.0005), "{l_doc}");
    let l = (1.0 - p[0] + p[3] + p[4]) / (1.0 - p[0]);
    assert!(close(l, 1.1996, 0.0005), "{l}");
    let l = l_doc;
    let tp = equity::janowski_take_point(w, l);
    assert!(close(tp, (1.196 - 0.5) / (1.229 + 1.196 + 0.5), 0.0005));
    // Gammonless: the well-known 20% live and 25% dead take points.
    assert_eq!(equity::janowski_take_point(1.0, 1.0), 0.2);
    let money = equity::money_points(false, false, [[0.0; 2]; 2]);
    assert_eq!(money[0][0], [0.25, 0.2]);
}

/// 3-0 to 7, Woolsey's table, the document's evaluation from Black's side
/// (Black = X on roll at 0, White = O at 3): the live take points at the
/// 1-cube are Black 24.5% and White 27.3%, i.e. the live cash points White
/// 75.5% and Black 72.7% ("(72.7%,36%)" in the figure).
#[test]
fn the_live_take_points_at_3_0_to_7() {
    let met = woolsey();
    let probs = [0.454f32, 0.103, 0.001, 0.106, 0.003];
    let s = Score {
        score: [3, 0],
        match_to: 7,
        cube: 1,
        crawford: false,
    };
    let cash = equity::live_cash_points(&met, &s, &probs, 1);
    let (tp_black, tp_white) = (1.0 - cash[0], 1.0 - cash[1]);
    assert!(
        close(tp_black, 0.245, 0.005),
        "Black's take point {tp_black}"
    );
    assert!(
        close(tp_white, 0.273, 0.005),
        "White's take point {tp_white}"
    );
    // "If White cashes 1 point he has MWC(-3,-7)=76% and if Black cashes he
    // has MWC(-4,-6)=36%."
    let white = equity::player_mwc(&met, &s, 0);
    let black = equity::player_mwc(&met, &s, 1);
    assert!(close(white.win[0].mwc, 0.76, 0.005));
    assert!(close(black.win[0].mwc, 0.36, 0.005));
}

/// "A pip count of 40 gives x=0.6 and 120 gives x=0.7", linear between,
/// 0.68 in contact.
#[test]
fn cube_efficiency_interpolates_the_race_by_the_rollers_pips() {
    let race_with = |pips_on_roll: u8| {
        // X: checkers on its 10 point (no contact with O's ace point).
        let mut x = [0u8; 25];
        x[9] = pips_on_roll / 10;
        let mut o = [0u8; 25];
        o[0] = 2;
        Board::from_sides(o, x).unwrap()
    };
    assert_eq!(race::cube_efficiency(&race_with(40), Player::X), Some(0.6));
    let mid = race::cube_efficiency(&race_with(80), Player::X).unwrap();
    assert!(close(mid, 0.65, 1e-6), "{mid}");
    assert_eq!(race::cube_efficiency(&race_with(150), Player::X), Some(0.7));
    assert_eq!(
        race::cube_efficiency(&Board::starting(), Player::X),
        Some(0.68)
    );
}
