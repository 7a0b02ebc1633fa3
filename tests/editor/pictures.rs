//! Board pictures: the SVG text of characteristic positions as insta
//! snapshots (each was looked at as a PNG before it was accepted), and PNG
//! renderings decoded and checked by size and by pixels: the background,
//! checkers where they stand, and point numbers that really are drawn (the
//! bundled font, no system fonts).

use bgedit_core::codec::parse_any;
use bgedit_core::domain::{Names, Position};
use bgedit_picture::{Options, Theme, png, svg};
use resvg::tiny_skia::Pixmap;

fn position(id: &str) -> Position {
    let base = Position {
        names: Names {
            o: "alice".into(),
            x: "bob".into(),
        },
        ..Position::default()
    };
    parse_any(id, &base).unwrap().position
}

const CASES: [(&str, &str); 7] = [
    ("start", "4HPwATDgc/ABMA:cAkAAAAAAAAA"),
    // X bearing off with 5 off, O with checkers back; X owns a 2-cube.
    (
        "bear_off",
        "XGID=-BBCAB-------------c-b--a-:1:1:1:52:0:0:3:0:10",
    ),
    (
        "stacks_of_15",
        "XGID=-O--------------------o---:0:0:1:63:0:0:3:0:10",
    ),
    (
        "both_bars",
        "XGID=bBBC-B---------------b--aB:0:0:-1:41:3:1:0:7:10",
    ),
    (
        "cube_offered",
        "XGID=-BBC-B----------------bba-:2:0:1:D:3:1:0:7:10",
    ),
    ("match_with_ids", "4NvBA0DGzooBBg:QYkqASAAIAAA"),
    (
        "crawford",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:4:3:1:5:10",
    ),
];

#[test]
fn svg_snapshots() {
    for (name, id) in CASES {
        let p = position(id);
        let ids = name == "match_with_ids";
        let theme = if name == "both_bars" {
            Theme::Dark
        } else {
            Theme::Light
        };
        let text = svg::render(&p, &Options::natural(theme, ids));
        insta::assert_snapshot!(name, text);
    }
}

fn rgba(pixmap: &Pixmap, x: u32, y: u32) -> [u8; 4] {
    let c = pixmap.pixel(x, y).unwrap().demultiply();
    [c.red(), c.green(), c.blue(), c.alpha()]
}

/// Pixels in a box that differ clearly from `background`.
fn inked(pixmap: &Pixmap, x0: u32, y0: u32, x1: u32, y1: u32, background: [u8; 4]) -> usize {
    let mut n = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            let p = rgba(pixmap, x, y);
            let d: i32 = (0..3)
                .map(|i| (i32::from(p[i]) - i32::from(background[i])).abs())
                .sum();
            if d > 150 {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn png_has_the_size_asked_and_the_board_drawn() {
    let p = position("4HPwATDgc/ABMA:cAkAAAAAAAAA");
    let options = Options::natural(Theme::Light, false);
    let bytes = png::render(&p, &options).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let img = Pixmap::decode_png(&bytes).unwrap();
    assert_eq!((img.width(), img.height()), (720, 560));
    let background = rgba(&img, 3, 3);
    assert_eq!(background, [0xf7, 0xf3, 0xea, 255]);
    // X's five checkers on its 6 point (bottom row, seventh column): the
    // centre of the lowest one is X's colour.
    assert_eq!(rgba(&img, 370, 452), [0x26, 0x22, 0x1f, 255]);
    // O's two on X's 1 point (bottom right).
    assert_eq!(rgba(&img, 570, 452), [0xfb, 0xfa, 0xf6, 255]);
    // The point numbers above the board are drawn: ink in the box of "13".
    let ink = inked(&img, 78, 38, 102, 56, background);
    assert!(ink > 20, "only {ink} pixels of text where '13' is");
    // And nothing is drawn in the empty margin far right of the top row.
    assert_eq!(inked(&img, 680, 100, 715, 200, background), 0);
}

#[test]
fn png_scales_to_any_size_and_theme() {
    let p = position("XGID=-O--------------------o---:0:0:1:63:0:0:3:0:10");
    let options = Options {
        width: 360,
        height: 280,
        theme: Theme::Dark,
        ids: false,
    };
    let img = Pixmap::decode_png(&png::render(&p, &options).unwrap()).unwrap();
    assert_eq!((img.width(), img.height()), (360, 280));
    assert_eq!(rgba(&img, 2, 2), [0x1c, 0x1f, 0x24, 255]);
    // The "15" written on X's stack on its 1 point (half scale): light ink
    // on the dark checker.
    let checker = [0x0b, 0x0c, 0x0e, 255];
    assert!(inked(&img, 276, 146, 294, 162, checker) > 5);
    let rgba = png::render_rgba(&p, &options).unwrap();
    assert_eq!(rgba.len(), 360 * 280 * 4);
}
