//! What players paste, read as one table: bare IDs, labelled IDs, gnubg's
//! header lines, whole `show board` blocks, eXtreme Gammon's text exports
//! (English and French), IDs inside sentences, texts with two IDs. Each row
//! says which format is read, the position read (as its GNUBG ID), and the
//! note said, if any.

use crate::common;

use bgedit_core::codec::{IdFormat, parse_any, to_string_as};
use bgedit_core::domain::Position;
use common::MANUAL_SHOW_BOARD as SHOW_BOARD;

const MANUAL: &str = "4NvBA0DGzooBBg:QYkqASAAIAAA";
const MANUAL_XGID: &str = "XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10";
const START: &str = "4HPwATDgc/ABMA:cAkAAAAAAAAA";

/// eXtreme Gammon 2.10's "copy position as text", English.
const XG_ENGLISH: &str = "\
XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10

X:bob   O:alice
Score is X:4 O:2 9 pt.(s) match.
 +13-14-15-16-17-18------19-20-21-22-23-24-+
 | X           O  O | O | O     X          |
 | X           O  O |   | O     X          |
 |             O    |   | O                |
 |                  |   | O                |
 |                  |   | O                |
 |                  |BAR|                  |
 |                  |   |                  |
 | O                |   |                  |
 | O                |   | X                |
 | O           X    |   | X  X        X    |
 | O     X  X  X    |   | X  X        X    |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+
Pip count  X: 135  O: 145 X-O: 4-2/9
Cube: 2, O own cube
X to play 52

    1. XG Roller++  13/8 6/4                     eq:+0.188
      Player:   56.12% (G:14.25% B:0.61%)
      Opponent: 43.88% (G:9.02% B:0.35%)

    2. XG Roller++  13/11 13/8                   eq:+0.171 (-0.017)
      Player:   55.70% (G:14.51% B:0.63%)
      Opponent: 44.30% (G:9.37% B:0.37%)


eXtreme Gammon Version: 2.10, MET: Kazaross XG2
";

/// The same export from XG in French.
const XG_FRENCH: &str = "\
XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10

X:bob   O:alice
Score : X:4 O:2 match en 9 pt(s).
 +13-14-15-16-17-18------19-20-21-22-23-24-+
 | X           O  O | O | O     X          |
 | X           O  O |   | O     X          |
 |             O    |   | O                |
 |                  |   | O                |
 |                  |   | O                |
 |                  |BAR|                  |
 |                  |   |                  |
 | O                |   |                  |
 | O                |   | X                |
 | O           X    |   | X  X        X    |
 | O     X  X  X    |   | X  X        X    |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+
Compte de pips  X: 135  O: 145 X-O: 4-2/9
Videau : 2, O possède le videau
X à jouer 52

    1. XG Roller++  13/8 6/4                     éq:+0.188
      Joueur:      56.12% (G:14.25% B:0.61%)
      Adversaire:  43.88% (G:9.02% B:0.35%)

eXtreme Gammon Version : 2.10, MET : Kazaross XG2
";

/// (what, pasted text, format read, the position read as a GNUBG ID, or as
/// an XGID when an XGID was read, note).
fn table() -> Vec<(
    &'static str,
    String,
    IdFormat,
    &'static str,
    Option<&'static str>,
)> {
    let two = "two IDs found; read the first";
    vec![
        ("bare GNUBG ID", MANUAL.into(), IdFormat::GnubgId, MANUAL, None),
        (
            "gnubg's two IDs with a space, as printed",
            "4NvBA0DGzooBBg QYkqASAAIAAA".into(),
            IdFormat::GnubgId,
            MANUAL,
            None,
        ),
        (
            "the two IDs, Match ID first",
            "QYkqASAAIAAA 4NvBA0DGzooBBg".into(),
            IdFormat::GnubgId,
            MANUAL,
            None,
        ),
        (
            "bare Position ID",
            "4HPwATDgc/ABMA".into(),
            IdFormat::PositionId,
            START,
            None,
        ),
        (
            "bare Match ID",
            "cAkAAAAAAAAA".into(),
            IdFormat::MatchId,
            START,
            None,
        ),
        (
            "labelled GNUBG ID",
            format!("GNUBG ID: {MANUAL}"),
            IdFormat::GnubgId,
            MANUAL,
            None,
        ),
        (
            "labelled Position ID",
            "Position ID: 4HPwATDgc/ABMA".into(),
            IdFormat::PositionId,
            START,
            None,
        ),
        (
            "labelled Match ID",
            "Match ID: cAkAAAAAAAAA".into(),
            IdFormat::MatchId,
            START,
            None,
        ),
        (
            "gnubg's header lines",
            " GNU Backgammon  Position ID: 4NvBA0DGzooBBg\n                 Match ID   : QYkqASAAIAAA".into(),
            IdFormat::GnubgId,
            MANUAL,
            None,
        ),
        (
            "header lines with CRLF",
            "Position ID: 4NvBA0DGzooBBg\r\nMatch ID   : QYkqASAAIAAA\r\n".into(),
            IdFormat::GnubgId,
            MANUAL,
            None,
        ),
        (
            "a whole show board block",
            SHOW_BOARD.into(),
            IdFormat::GnubgId,
            MANUAL,
            None,
        ),
        (
            "a show board block with a blank line and a prompt around it",
            format!("(alice) show board\n{SHOW_BOARD}\n(alice) "),
            IdFormat::GnubgId,
            MANUAL,
            None,
        ),
        (
            "bare XGID with prefix",
            MANUAL_XGID.into(),
            IdFormat::Xgid,
            MANUAL_XGID,
            None,
        ),
        (
            "bare XGID without prefix",
            MANUAL_XGID[5..].into(),
            IdFormat::Xgid,
            MANUAL_XGID,
            None,
        ),
        (
            "XGID followed by other text",
            format!("{MANUAL_XGID} X to play 52"),
            IdFormat::Xgid,
            MANUAL_XGID,
            None,
        ),
        (
            "XGID inside a sentence",
            format!("What would you play here ({MANUAL_XGID}), 9-point match?"),
            IdFormat::Xgid,
            MANUAL_XGID,
            None,
        ),
        (
            "bare XGID board in a sentence",
            format!("Position {}. Your play?", &MANUAL_XGID[5..]),
            IdFormat::Xgid,
            MANUAL_XGID,
            None,
        ),
        (
            "XG text export, English",
            XG_ENGLISH.into(),
            IdFormat::XgText,
            MANUAL_XGID,
            None,
        ),
        (
            "XG text export, French",
            XG_FRENCH.into(),
            IdFormat::XgText,
            MANUAL_XGID,
            None,
        ),
        (
            "GNUBG ID inside a sentence",
            format!("I had this one last night: {MANUAL}. Thoughts?"),
            IdFormat::GnubgId,
            MANUAL,
            None,
        ),
        (
            "two GNUBG IDs",
            format!("{START} then {MANUAL}"),
            IdFormat::GnubgId,
            START,
            Some(two),
        ),
        (
            "an XGID then a GNUBG ID",
            format!("{MANUAL_XGID}\n{START}"),
            IdFormat::Xgid,
            MANUAL_XGID,
            Some(two),
        ),
        (
            "a show board block then an XGID",
            format!("{SHOW_BOARD}XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10\n"),
            IdFormat::GnubgId,
            MANUAL,
            Some(two),
        ),
    ]
}

#[test]
fn every_real_paste_is_read() {
    for (what, text, format, gnubg, note) in table() {
        let imported = parse_any(&text, &Position::default())
            .unwrap_or_else(|e| panic!("{what}: refused: {e}\n{text}"));
        assert_eq!(imported.format, format, "{what}");
        // An XGID is compared as an XGID: a GNUBG ID would add the Jacoby
        // bit gnubg sets for match XGIDs.
        let written = match format {
            IdFormat::Xgid | IdFormat::XgText => IdFormat::Xgid,
            _ => IdFormat::GnubgId,
        };
        assert_eq!(to_string_as(&imported.position, written), gnubg, "{what}");
        match note {
            None => assert_eq!(imported.note, None, "{what}"),
            Some(start) => {
                let said = imported.note.unwrap_or_default();
                assert!(said.starts_with(start), "{what}: {said}");
            }
        }
    }
}

#[test]
fn the_note_names_which_id_was_read() {
    let imported = parse_any(&format!("{MANUAL_XGID} or {START}"), &Position::default()).unwrap();
    assert_eq!(
        imported.note.as_deref(),
        Some("two IDs found; read the first (XGID a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2…)")
    );
}

/// What is refused, and the message naming the wrong part.
#[test]
fn near_misses_name_the_part_that_is_wrong() {
    let cases = [
        (
            "4NvBA0DGzooBBg:QYkqASAAIAAAA",
            "Match ID: 13 characters; a Match ID has 12",
        ),
        (
            "4NvBA0DGzooBB:QYkqASAAIAAA",
            "Position ID: 13 characters; a Position ID has 14",
        ),
        (
            "4HPwATDgc/ABM",
            "Position ID: 13 characters; a Position ID has 14",
        ),
        (
            "GNUBG ID: 4HPwATDgc/ABM",
            "Position ID: 13 characters; a Position ID has 14",
        ),
        (
            "Position ID: 4HPwATDgc/ABM\n +13-14-15-16-17-18------19-20-21-22-23-24-+",
            "Position ID: 13 characters; a Position ID has 14",
        ),
        (
            "4HPwATDgc/ABMA:cAkAAAAAAAA",
            "Match ID: 11 characters; a Match ID has 12",
        ),
        (
            "XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9",
            "XGID: 9 fields; an XGID has 10 (board:cube:cube owner:turn:dice:X score:O score:rules:match length:max cube)",
        ),
        (
            "nonsense",
            "not an ID: 'nonsense' is not a Position ID (14 characters), a Match ID (12) or an XGID",
        ),
        ("GNUBG ID:", "not an ID: no Position ID or Match ID found"),
    ];
    for (text, message) in cases {
        let e = parse_any(text, &Position::default()).unwrap_err();
        assert_eq!(e.to_string(), message, "{text}");
    }
    let long = "word ".repeat(100_000);
    let e = parse_any(&long, &Position::default())
        .unwrap_err()
        .to_string();
    assert!(e.len() < 200, "a long text gives a short message: {e}");
}

/// XG's export carries the players' names: both languages give them.
#[test]
fn xg_exports_give_the_names() {
    for text in [XG_ENGLISH, XG_FRENCH] {
        let p = parse_any(text, &Position::default()).unwrap().position;
        assert_eq!((p.names.x.as_str(), p.names.o.as_str()), ("bob", "alice"));
    }
}
