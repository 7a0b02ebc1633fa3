//! The binary's exchange formats and pictures, run as a user runs them:
//! `convert --to sgf|fibs|snowie|xgtext|header`, `convert --file`, with
//! `--game` and `--move`, and `image`.

use crate::common;

use common::run::{bgedit, text};

const MANUAL: &str = "4NvBA0DGzooBBg:QYkqASAAIAAA";
const FIBS: &str = "board:bob:alice:9:4:2:-1:0:2:0:0:2:3:0:2:1:1:0:-4:2:0:0:0:-3:-2:-5:0:2:0:0:0:0:1:5:2:5:2:2:0:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

#[test]
fn fibs_is_gnubgs_raw_board_and_reads_back() {
    let out = bgedit(
        &[
            "convert", "--to", "fibs", "--name-o", "alice", "--name-x", "bob", MANUAL,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{FIBS}\n"));
    // Streamed back, the names come from the line, not the defaults.
    let out = bgedit(&["convert", "--to", "xgtext"], &format!("{FIBS}\n"));
    let s = text(&out.stdout);
    assert!(s.contains("X:bob   O:alice"), "{s}");
    assert!(
        s.contains("XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10"),
        "{s}"
    );
}

#[test]
fn snowie_and_header_convert_both_ways() {
    let out = bgedit(&["convert", "--to", "snowie", MANUAL], "");
    let snowie = text(&out.stdout);
    assert_eq!(
        snowie,
        "9;0;0;0;1;Black;White;0;4;2;2;-1;-1;0;2;0;0;2;3;0;2;1;1;0;-4;2;0;0;0;-3;-2;-5;0;2;0;0;0;0;5;2;\n"
    );
    let out = bgedit(&["convert", "--to", "header", snowie.trim()], "");
    assert_eq!(
        text(&out.stdout),
        " GNU Backgammon  Position ID: 4NvBA0DGzooBBg\n                 Match ID   : QYkqASAAIAAE\n"
    );
    // The note says what Snowie could not hold.
    assert!(out.status.success());
}

#[test]
fn an_sgf_file_converts_and_a_match_gives_any_game_and_move() {
    let dir = std::env::temp_dir().join(format!("bgedit_cli_formats_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("m.sgf");
    // X plays 31 (8/5 6/5), O answers 64 (24/18/14).
    std::fs::write(
        &path,
        "(;FF[4]GM[6]MI[length:5][game:0][ws:0][bs:0]PW[alice]PB[bob]RU[Crawford]\n;B[31qtst]\n;W[64xrrn])\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let all = bgedit(&["convert", "--to", "gnubg", "--file", p], "");
    assert!(all.status.success(), "{}", text(&all.stderr));
    let first = bgedit(
        &[
            "convert", "--to", "gnubg", "--file", p, "--game", "1", "--move", "1",
        ],
        "",
    );
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert_ne!(all.stdout, first.stdout);
    let start = bgedit(
        &[
            "convert", "--to", "xgid", "--file", p, "--game", "1", "--move", "0",
        ],
        "",
    );
    assert!(text(&start.stdout).starts_with("XGID=-b----E-C---eE---c-e----B-"));
    let bad = bgedit(
        &["convert", "--to", "gnubg", "--file", p, "--game", "3"],
        "",
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        text(&bad.stderr).contains("game 3: the file has 1 game"),
        "{}",
        text(&bad.stderr)
    );
    // `-` is all of standard input as one text; SGF out is several lines.
    let sgf = bgedit(
        &["convert", "--to", "sgf", "--file", "-"],
        "4HPwATDgc/ABMA:cAkAAAAAAAAA",
    );
    let s = text(&sgf.stdout);
    assert!(s.starts_with("(;FF[4]GM[6]"), "{s}");
    assert!(s.contains("PW[White]PB[Black]"), "{s}");
    let missing = bgedit(
        &["convert", "--to", "gnubg", "--file", "/nonexistent/x.sgf"],
        "",
    );
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).starts_with("file /nonexistent/x.sgf: cannot read it"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn image_writes_svg_to_stdout_and_png_to_a_file() {
    let out = bgedit(&["image", "--ids", MANUAL], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = text(&out.stdout);
    assert!(svg.starts_with("<svg "), "{}", &svg[..40]);
    assert!(svg.contains("GNUBG ID 4NvBA0DGzooBBg:QYkqASAAIAAA"));
    let dir = std::env::temp_dir().join(format!("bgedit_cli_image_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("board.png");
    let out = bgedit(
        &[
            "image",
            "--size",
            "400x300",
            "-o",
            png.to_str().unwrap(),
            MANUAL,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // Width and height from the IHDR chunk.
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 400);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 300);
    let bad = bgedit(&["image", "--size", "10x10", MANUAL], "");
    assert_eq!(bad.status.code(), Some(1));
    assert!(text(&bad.stderr).contains("width 10 is outside"));
    let bad = bgedit(&["image", "nonsense"], "");
    assert_eq!(bad.status.code(), Some(1));
    // The format follows the name: no SVG written under a .jpg name.
    let jpg = dir.join("board.jpg");
    let bad = bgedit(&["image", "-o", jpg.to_str().unwrap(), MANUAL], "");
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        text(&bad.stderr).contains("not .jpg"),
        "{}",
        text(&bad.stderr)
    );
    assert!(!jpg.exists());
    let svg = dir.join("board.svg");
    let bad = bgedit(
        &[
            "image",
            "--format",
            "png",
            "-o",
            svg.to_str().unwrap(),
            MANUAL,
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(text(&bad.stderr).contains("the name says SVG but --format says PNG"));
    std::fs::remove_dir_all(&dir).ok();
}

/// XG's text export with its top player on roll (the XGID's turn −1): XG
/// calls the player on roll `X` throughout (names, score, pips, board).
const XG_TOP_ON_ROLL: &str = "\
XGID=-b----E-C---eE---c-e----B-:0:0:-1:63:4:3:0:5:10

X:Player 2   O:Player 1
Score is X:3 O:4 5 pt.(s) match.
 +12-11-10--9--8--7-------6--5--4--3--2--1-+
 | O           X    |   | X              O |
 | O           X    |   | X              O |
 | O           X    |   | X                |
 | O                |   | X                |
 | O                |   | X                |
^|                  |BAR|                  |
 | X                |   | O                |
 | X                |   | O                |
 | X           O    |   | O                |
 | X           O    |   | O              X |
 | X           O    |   | O              X |
 +13-14-15-16-17-18------19-20-21-22-23-24-+
Pip count  X: 167  O: 167 X-O: 3-4/5
Cube: 1
X to play 63

eXtreme Gammon Version: 2.10, MET: Kazaross XG2
";

/// XG's text with its top player on roll converts to XG's text with the
/// same names, score and roller, reads back to the same position and names,
/// and `library import` keeps the names.
#[test]
fn an_xg_text_with_the_top_player_on_roll_keeps_names_and_score() {
    let read =
        bgedit_core::codec::parse_any(XG_TOP_ON_ROLL, &bgedit_core::domain::Position::default())
            .unwrap()
            .position;
    use bgedit_core::domain::Player;
    assert_eq!(read.state.on_roll, Player::O);
    assert_eq!(read.names.of(Player::O), "Player 2", "the roller's name");
    assert_eq!(read.names.of(Player::X), "Player 1");
    assert_eq!(
        (
            read.state.score_of(Player::O),
            read.state.score_of(Player::X)
        ),
        (3, 4)
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("xg.txt");
    std::fs::write(&file, XG_TOP_ON_ROLL).unwrap();
    let out = bgedit(
        &[
            "convert",
            "--to",
            "xgtext",
            "--file",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = text(&out.stdout);
    for line in [
        "X:Player 2   O:Player 1",
        "Score is X:3 O:4 5 pt.(s) match.",
        "Pip count  X: 167  O: 167 X-O: 3-4/5",
        "X to play 63",
    ] {
        assert!(written.contains(line), "{line}:\n{written}");
    }
    // XG's board, letter for letter.
    let board = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.contains('|') || l.starts_with(" +"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(board(&written), board(XG_TOP_ON_ROLL));
    let back = bgedit_core::codec::parse_any(&written, &bgedit_core::domain::Position::default())
        .unwrap()
        .position;
    assert_eq!(back, read);
    // The library keeps the names.
    let library = dir.path().join("lib.sqlite");
    let lib = library.to_str().unwrap();
    let out = bgedit(
        &[
            "library",
            "--library",
            lib,
            "import",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let entry = bgedit_library::Library::open(&library)
        .unwrap()
        .get(1)
        .unwrap();
    assert_eq!(entry.position, read);
}
