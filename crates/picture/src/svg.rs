//! The board as an SVG picture: pure text out of a position, no I/O.
//!
//! Drawn as gnubg draws its board: X's home board at the bottom right, O's
//! at the top right, O's bar checkers in the top half of the bar and X's in
//! the bottom half, each player's borne-off checkers in the tray beside its
//! home board. Point numbers are counted for the player on roll. Everything
//! is laid out on a fixed 720×560 canvas (610 with the IDs) and scaled to
//! the size asked for.

use super::{Options, Theme};
use bgedit_core::codec::{gnubg_id, xgid};
use bgedit_core::domain::{CubeOwner, MatchState, Place, Player, Position};
use std::fmt::Write;

/// Canvas width and height (without and with the ID lines).
pub(crate) const WIDTH: f32 = 720.0;
pub(crate) const HEIGHT: f32 = 560.0;
pub(crate) const HEIGHT_WITH_IDS: f32 = 610.0;

/// The font the text asks for; the PNG renderer bundles it.
pub(crate) const FONT_FAMILY: &str = "DejaVu Sans Mono";

// Board geometry.
const FRAME_X: f32 = 60.0;
const FRAME_Y: f32 = 60.0;
const FRAME_W: f32 = 560.0;
const FRAME_H: f32 = 420.0;
const BORDER: f32 = 10.0;
const POINT_W: f32 = 40.0;
const BAR_W: f32 = 40.0;
const LEFT_X: f32 = FRAME_X + BORDER; // first point of the left half
const BAR_X: f32 = LEFT_X + 6.0 * POINT_W;
const RIGHT_X: f32 = BAR_X + BAR_W;
const TOP_Y: f32 = FRAME_Y + BORDER;
const BOTTOM_Y: f32 = FRAME_Y + FRAME_H - BORDER;
const POINT_H: f32 = 160.0;
const R: f32 = 18.0; // checker radius
const TRAY_X: f32 = FRAME_X + FRAME_W + 10.0;
const TRAY_W: f32 = 40.0;

struct Colours {
    background: &'static str,
    frame: &'static str,
    surface: &'static str,
    point_a: &'static str,
    point_b: &'static str,
    x_fill: &'static str,
    x_text: &'static str,
    o_fill: &'static str,
    o_text: &'static str,
    stroke: &'static str,
    text: &'static str,
    cube: &'static str,
    cube_text: &'static str,
}

const LIGHT: Colours = Colours {
    background: "#f7f3ea",
    frame: "#6b4423",
    surface: "#e9dcc0",
    point_a: "#a4452c",
    point_b: "#3f6e5a",
    x_fill: "#26221f",
    x_text: "#f7f3ea",
    o_fill: "#fbfaf6",
    o_text: "#26221f",
    stroke: "#26221f",
    text: "#26221f",
    cube: "#fbfaf6",
    cube_text: "#26221f",
};

const DARK: Colours = Colours {
    background: "#1c1f24",
    frame: "#0e1013",
    surface: "#2f353d",
    point_a: "#b0563c",
    point_b: "#4f8a72",
    x_fill: "#0b0c0e",
    x_text: "#e8e6e1",
    o_fill: "#e8e6e1",
    o_text: "#1c1f24",
    stroke: "#9aa3ad",
    text: "#e8e6e1",
    cube: "#e8e6e1",
    cube_text: "#1c1f24",
};

fn xml(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
}

fn text(out: &mut String, x: f32, y: f32, size: f32, fill: &str, anchor: &str, body: &str) {
    let _ = write!(
        out,
        r#"<text x="{x}" y="{y}" font-size="{size}" fill="{fill}" text-anchor="{anchor}">"#
    );
    xml(body, out);
    out.push_str("</text>\n");
}

/// x of the centre of a physical point (X's numbering 1–24).
fn point_x(point: u8) -> f32 {
    // Bottom row right to left 1..12, top row left to right 13..24.
    let (column, _) = point_column(point);
    if column < 6 {
        LEFT_X + (column as f32 + 0.5) * POINT_W
    } else {
        RIGHT_X + ((column - 6) as f32 + 0.5) * POINT_W
    }
}

/// Column 0–11 from the left, and whether the point is in the top row.
fn point_column(point: u8) -> (u8, bool) {
    if point <= 12 {
        (12 - point, false)
    } else {
        (point - 13, true)
    }
}

fn checker(out: &mut String, c: &Colours, player: Player, x: f32, y: f32, label: Option<u8>) {
    let (fill, ink) = match player {
        Player::X => (c.x_fill, c.x_text),
        Player::O => (c.o_fill, c.o_text),
    };
    let _ = writeln!(
        out,
        r#"<circle cx="{x}" cy="{y}" r="{R}" fill="{fill}" stroke="{}" stroke-width="1.5"/>"#,
        c.stroke
    );
    let _ = writeln!(
        out,
        r#"<circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="{ink}" stroke-opacity="0.25"/>"#,
        R - 5.0
    );
    if let Some(n) = label {
        text(out, x, y + 6.0, 17.0, ink, "middle", &n.to_string());
    }
}

/// A stack of `n` checkers from `base_y` towards the middle (`down`), at most
/// five drawn, the count written on the last when there are more.
fn stack(out: &mut String, c: &Colours, player: Player, x: f32, base_y: f32, down: bool, n: u8) {
    let shown = n.min(5);
    for i in 0..shown {
        let offset = R + f32::from(i) * 2.0 * R;
        let y = if down {
            base_y + offset
        } else {
            base_y - offset
        };
        let label = (i + 1 == shown && n > 5).then_some(n);
        checker(out, c, player, x, y, label);
    }
}

fn die(out: &mut String, c: &Colours, player: Player, x: f32, y: f32, value: u8) {
    let (fill, ink) = match player {
        Player::X => (c.x_fill, c.x_text),
        Player::O => (c.o_fill, c.o_text),
    };
    let s = 34.0;
    let _ = writeln!(
        out,
        r#"<rect x="{}" y="{}" width="{s}" height="{s}" rx="6" fill="{fill}" stroke="{}" stroke-width="1.5"/>"#,
        x - s / 2.0,
        y - s / 2.0,
        c.stroke
    );
    let d = 9.0;
    let pips: &[(f32, f32)] = match value {
        1 => &[(0.0, 0.0)],
        2 => &[(-1.0, -1.0), (1.0, 1.0)],
        3 => &[(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
        4 => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
        5 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (0.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        _ => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (-1.0, 0.0),
            (1.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
    };
    for (px, py) in pips {
        let _ = writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="3.4" fill="{ink}"/>"#,
            x + px * d,
            y + py * d
        );
    }
}

fn cube(out: &mut String, c: &Colours, x: f32, y: f32, value: u32, note: Option<&str>) {
    let s = 38.0;
    let _ = writeln!(
        out,
        r#"<rect x="{}" y="{}" width="{s}" height="{s}" rx="5" fill="{}" stroke="{}" stroke-width="2"/>"#,
        x - s / 2.0,
        y - s / 2.0,
        c.cube,
        c.stroke
    );
    let size = if value >= 1000 { 12.0 } else { 17.0 };
    text(
        out,
        x,
        y + 6.0,
        size,
        c.cube_text,
        "middle",
        &value.to_string(),
    );
    if let Some(note) = note {
        text(out, x, y + s / 2.0 + 14.0, 12.0, c.text, "middle", note);
    }
}

/// The SVG document for `position`.
pub fn render(position: &Position, options: &Options) -> String {
    let c = match options.theme {
        Theme::Light => &LIGHT,
        Theme::Dark => &DARK,
    };
    let (b, s) = (&position.board, &position.state);
    let height = if options.ids { HEIGHT_WITH_IDS } else { HEIGHT };
    let mut out = String::with_capacity(16 * 1024);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {WIDTH} {height}" font-family="{FONT_FAMILY}" font-weight="bold">"#,
        options.width, options.height
    );
    let _ = writeln!(
        out,
        r#"<rect width="{WIDTH}" height="{height}" fill="{}"/>"#,
        c.background
    );
    frame(&mut out, c);
    for (y0, player) in [(TOP_Y, Player::O), (BOTTOM_Y - 190.0, Player::X)] {
        tray(&mut out, c, y0, player, b.borne_off(player));
    }
    for point in 1..=24u8 {
        board_point(&mut out, c, position, point);
    }
    // Bar: O's checkers in the top half, X's in the bottom half.
    for (player, down) in [(Player::O, false), (Player::X, true)] {
        let n = b.count(player, Place::Bar(player));
        if n > 0 {
            let y = if down {
                MIDDLE_Y + 24.0
            } else {
                MIDDLE_Y - 24.0
            };
            stack(&mut out, c, player, BAR_X + BAR_W / 2.0, y, down, n);
        }
    }
    // Dice: the roller's, on its side of the board (X right, O left).
    if let Some([d1, d2]) = s.dice {
        let cx = half_centre(s.on_roll);
        die(&mut out, c, s.on_roll, cx - 24.0, MIDDLE_Y, d1);
        die(&mut out, c, s.on_roll, cx + 24.0, MIDDLE_Y, d2);
    }
    cube_in_place(&mut out, c, s);
    for (player, y) in [(Player::O, 26.0), (Player::X, HEIGHT - 32.0)] {
        player_line(&mut out, c, position, player, y);
    }
    match_status(&mut out, c, s);
    if options.ids {
        let gnubg = gnubg_id::encode(b, s);
        let x = xgid::encode(b, s);
        text(
            &mut out,
            FRAME_X,
            HEIGHT + 4.0,
            14.0,
            c.text,
            "start",
            &format!("GNUBG ID {gnubg}"),
        );
        text(&mut out, FRAME_X, HEIGHT + 26.0, 14.0, c.text, "start", &x);
    }
    out.push_str("</svg>\n");
    out
}

/// y of the board's middle line, where the dice and a centred cube sit.
const MIDDLE_Y: f32 = (TOP_Y + BOTTOM_Y) / 2.0;

/// x of the middle of `player`'s side of the board (X right, O left).
fn half_centre(player: Player) -> f32 {
    match player {
        Player::X => RIGHT_X + 3.0 * POINT_W,
        Player::O => LEFT_X + 3.0 * POINT_W,
    }
}

/// Frame, playing surface, bar.
fn frame(out: &mut String, c: &Colours) {
    let _ = writeln!(
        out,
        r#"<rect x="{FRAME_X}" y="{FRAME_Y}" width="{FRAME_W}" height="{FRAME_H}" rx="6" fill="{}"/>"#,
        c.frame
    );
    for x0 in [LEFT_X, RIGHT_X] {
        let _ = writeln!(
            out,
            r#"<rect x="{x0}" y="{TOP_Y}" width="{}" height="{}" fill="{}"/>"#,
            6.0 * POINT_W,
            BOTTOM_Y - TOP_Y,
            c.surface
        );
    }
}

/// `player`'s tray from `y0`, with its `off` borne-off checkers stacked from
/// the board's edge, and their count.
fn tray(out: &mut String, c: &Colours, y0: f32, player: Player, off: u8) {
    let _ = writeln!(
        out,
        r#"<rect x="{TRAY_X}" y="{y0}" width="{TRAY_W}" height="190" rx="4" fill="{}" stroke="{}"/>"#,
        c.surface, c.frame
    );
    let fill = match player {
        Player::X => c.x_fill,
        Player::O => c.o_fill,
    };
    for i in 0..off {
        let y = match player {
            Player::O => y0 + 4.0 + f32::from(i) * 11.0,
            Player::X => y0 + 190.0 - 4.0 - 10.0 - f32::from(i) * 11.0,
        };
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{y}" width="{}" height="10" rx="2" fill="{fill}" stroke="{}" stroke-width="1"/>"#,
            TRAY_X + 4.0,
            TRAY_W - 8.0,
            c.stroke
        );
    }
    if off > 0 {
        // Beside the point numbers, clear of the other tray.
        let y = match player {
            Player::O => FRAME_Y - 8.0,
            Player::X => FRAME_Y + FRAME_H + 22.0,
        };
        text(
            out,
            TRAY_X + TRAY_W / 2.0,
            y,
            15.0,
            c.text,
            "middle",
            &format!("{off} off"),
        );
    }
}

/// One point (X's numbering), its number counted for the player on roll,
/// and its checkers.
fn board_point(out: &mut String, c: &Colours, position: &Position, point: u8) {
    let (column, top) = point_column(point);
    let x = point_x(point);
    let fill = if column % 2 == 0 {
        c.point_a
    } else {
        c.point_b
    };
    let (base, tip) = if top {
        (TOP_Y, TOP_Y + POINT_H)
    } else {
        (BOTTOM_Y, BOTTOM_Y - POINT_H)
    };
    let half = POINT_W / 2.0 - 1.0;
    let _ = writeln!(
        out,
        r#"<polygon points="{},{base} {},{base} {x},{tip}" fill="{fill}"/>"#,
        x - half,
        x + half
    );
    let label = Place::Point(point)
        .point_for(position.state.on_roll)
        .unwrap_or(point);
    let label_y = if top {
        FRAME_Y - 8.0
    } else {
        FRAME_Y + FRAME_H + 22.0
    };
    text(out, x, label_y, 15.0, c.text, "middle", &label.to_string());
    if let Some((player, n)) = position.board.occupant(Place::Point(point)) {
        let (y, down) = if top {
            (TOP_Y, true)
        } else {
            (BOTTOM_Y, false)
        };
        stack(out, c, player, x, y, down, n);
    }
}

/// Cube: beside the board, at its owner's side, or offered on the board;
/// none in the Crawford game.
fn cube_in_place(out: &mut String, c: &Colours, s: &MatchState) {
    if s.double_offered {
        let value = s.cube_value().saturating_mul(2);
        cube(
            out,
            c,
            half_centre(s.on_roll),
            MIDDLE_Y,
            value,
            Some("offered"),
        );
    } else if !(s.crawford) {
        let (y, value) = match s.cube_owner {
            CubeOwner::Centred => (MIDDLE_Y, if s.cube_log2 == 0 { 64 } else { s.cube_value() }),
            CubeOwner::Owned(Player::O) => (TOP_Y + 22.0, s.cube_value()),
            CubeOwner::Owned(Player::X) => (BOTTOM_Y - 22.0, s.cube_value()),
        };
        cube(out, c, FRAME_X / 2.0, y, value, None);
    }
}

/// A player's line at `y` (O above the board, X below): name, score, pips,
/// who is on roll.
fn player_line(out: &mut String, c: &Colours, position: &Position, player: Player, y: f32) {
    let s = &position.state;
    let score = if s.is_money() {
        String::new()
    } else {
        format!(" · score {}/{}", s.score_of(player), s.match_length)
    };
    let marker = if s.on_roll == player {
        if s.double_offered {
            " · doubles"
        } else {
            " · on roll"
        }
    } else if s.double_offered {
        " · to take or pass"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        r#"<circle cx="{}" cy="{}" r="9" fill="{}" stroke="{}" stroke-width="1.5"/>"#,
        FRAME_X + 9.0,
        y - 6.0,
        match player {
            Player::X => c.x_fill,
            Player::O => c.o_fill,
        },
        c.stroke
    );
    text(
        out,
        FRAME_X + 26.0,
        y,
        18.0,
        c.text,
        "start",
        &format!(
            "{}{score} · pips {}{marker}",
            position.names.of(player),
            position.board.pip_count(player)
        ),
    );
}

/// The kind of play, bottom right: money, or the match and Crawford.
fn match_status(out: &mut String, c: &Colours, s: &MatchState) {
    let status = if s.is_money() {
        "money game".to_owned()
    } else if s.crawford {
        format!("{}-point match, Crawford game", s.match_length)
    } else {
        format!("{}-point match", s.match_length)
    };
    text(
        out,
        WIDTH - 10.0,
        HEIGHT - 32.0,
        13.0,
        c.text,
        "end",
        &status,
    );
}
