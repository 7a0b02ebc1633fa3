//! The copy menu (`F`) and the picture key (`I`): through the reducer, on
//! ratatui's TestBackend, and in the real binary in a pseudo-terminal.

use bgedit_tui::action::{Action, CopyAction, CopyTarget, PictureSaved};
use bgedit_tui::copy_menu::state::{ClipboardError, PictureError};
use bgedit_tui::effect::Effect;
use bgedit_tui::model::{Mode, Model, Tone};
use bgedit_tui::reducer::update;
use bgedit_tui::snapshot::Snapshot;
use bgedit_tui::ui::theme::Theme;
use bgedit_tui::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::Duration;

use crate::common;

use crate::common::keys::{keys, press};
use common::pty::{NO_DISPLAY, Options, Session};

const PTY: Options = Options {
    timeout: Duration::from_secs(15),
    key_delay: Duration::from_millis(20),
    exit_grace: Duration::ZERO,
    unset: NO_DISPLAY,
    ..Options::DEFAULT
};

#[test]
fn f_opens_the_menu_and_a_letter_copies_that_format() {
    let (m, _) = press(Model::default(), 'F');
    assert_eq!(m.mode, Mode::CopyMenu);
    let (m, effects) = press(m, 'w');
    assert_eq!(m.mode, Mode::Normal);
    assert_eq!(
        effects,
        vec![Effect::Copy {
            target: CopyTarget::Snowie,
            text: "0;1;0;1;1;Black;White;0;0;0;1;0;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;0;0;".into(),
        }]
    );
    for (letter, target, start) in [
        ('s', CopyTarget::Sgf, "(;FF[4]GM[6]"),
        ('f', CopyTarget::Fibs, "board:Black:White:0:0:0:0:-2:"),
        (
            'h',
            CopyTarget::Header,
            " GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n",
        ),
        ('p', CopyTarget::PositionId, "4HPwATDgc/ABMA"),
        ('m', CopyTarget::MatchId, "cAkAAAAAAAAA"),
        ('t', CopyTarget::XgText, "XGID=-b----E-C---eE---c-e----B-"),
    ] {
        let (m, _) = press(Model::default(), 'F');
        let (_, effects) = press(m, letter);
        match &effects[..] {
            [Effect::Copy { target: t, text }] => {
                assert_eq!(*t, target);
                assert!(text.starts_with(start), "{letter}: {text}");
            }
            other => panic!("{letter}: {other:?}"),
        }
    }
}

#[test]
fn another_key_closes_the_menu_and_changes_nothing() {
    let (m, _) = press(Model::default(), 'F');
    let before = m.position.clone();
    let (m, effects) = press(m, 'Z');
    assert_eq!(m.mode, Mode::Normal);
    assert!(effects.is_empty());
    assert_eq!(m.position, before);
}

#[test]
fn the_menu_typed_as_keys_copies_and_esc_closes_it() {
    let (m, effects) = keys(Model::default(), "Fx");
    assert_eq!(m.mode, Mode::Normal);
    assert!(
        matches!(
            &effects[..],
            [Effect::Copy {
                target: CopyTarget::Xgid,
                ..
            }]
        ),
        "{effects:?}"
    );
    let (m, effects) = keys(m, "F<esc>");
    assert_eq!(m.mode, Mode::Normal);
    assert!(effects.is_empty(), "{effects:?}");
}

#[test]
fn i_asks_for_the_picture_and_reports_where_it_went() {
    let (m, effects) = press(Model::default(), 'I');
    assert_eq!(effects, vec![Effect::SavePicture(m.position.clone())]);
    let (m, _) = update(
        m,
        Action::Copy(CopyAction::PictureSaved(Ok(PictureSaved {
            path: "/tmp/p.png".into(),
            copied: Err(ClipboardError::Read {
                reason: "no display".into(),
            }),
        }))),
    );
    assert_eq!(m.status.tone, Tone::Success);
    assert!(m.status.text.contains("/tmp/p.png"), "{}", m.status.text);
    assert!(
        m.status
            .text
            .contains("not copied: the clipboard could not be read: no display")
    );
    let (m, _) = update(
        m,
        Action::Copy(CopyAction::PictureSaved(Err(PictureError::Write {
            path: "/tmp/p.png".into(),
            reason: "disk full".into(),
        }))),
    );
    assert_eq!(m.status.tone, Tone::Error);
    // The menu's letter does the same.
    let (m, _) = press(m, 'F');
    let (_, effects) = press(m, 'i');
    assert!(matches!(effects[..], [Effect::SavePicture(_)]));
}

#[test]
fn the_menu_overlay_lists_every_format() {
    let (m, _) = press(Model::default(), 'F');
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let snapshot = Snapshot::of(&m);
    terminal
        .draw(|f| view::draw(f, &snapshot, &Theme::plain()))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let text: String = (0..buffer.area.height)
        .map(|y| {
            let line: String = (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect();
            line.trim_end().to_owned() + "\n"
        })
        .collect();
    insta::assert_snapshot!("copy_menu_80x24", text);
}

/// The real binary: `F` then `f` copies the FIBS line by OSC 52 (no
/// display), and `I` saves a PNG in BGEDIT_PICTURE_DIR and says so.
#[test]
fn in_the_terminal_the_menu_copies_and_i_saves_a_png() {
    let dir = common::pty::state_dir("bgedit-copy", "menu");
    let pictures = dir.join("pictures");
    let mut s = Session::start_with(
        &PTY,
        &["--new"],
        &dir,
        100,
        30,
        &[(
            "BGEDIT_PICTURE_DIR",
            pictures.to_str().expect("a UTF-8 temporary path"),
        )],
    );
    s.wait_for("Position ID");
    s.send("F");
    s.wait_for("FIBS board line");
    s.send("f");
    s.wait_for("FIBS board line sent to the terminal's clipboard (OSC 52");
    let fibs = "board:Black:White:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
    let expected = bgedit_tui::io::clipboard::osc52(fibs);
    assert!(
        s.raw_text().contains(&expected),
        "no OSC 52 sequence with the FIBS line"
    );
    s.send("I");
    let shown = s.wait_for("Picture saved to");
    let png = dir
        .join("pictures")
        .join("bgedit-4HPwATDgc_ABMA_cAkAAAAAAAAA.png");
    // The whole message (with "not copied: ...") is cut to the line's width
    // here; the H log keeps it.
    assert!(shown.contains("Picture saved to /"), "{shown}");
    let bytes = std::fs::read(&png).expect("the picture file");
    assert_eq!(&bytes[1..4], b"PNG");
    // A pasted SGF (several lines, bracketed paste) is read as a position.
    s.send(
        "\x1b[200~(;FF[4]GM[6]MI[length:7][game:0][ws:2][bs:1]PW[alice]PB[bob]RU[Crawford]\n;PL[W]AE[a:y]AW[f][f]AB[s]\n;CV[2]\n;CP[b])\x1b[201~",
    );
    let shown = s.wait_for("SGF read");
    assert!(shown.contains("O alice / X bob"), "{shown}");
    s.send("q");
    s.wait_exit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_menu_letter_closes_the_menu_even_with_nothing_to_copy() {
    // `a` (the analysis) with no analysis yet: refused, and the menu closed,
    // so the next key is the board's again, not another menu letter.
    let (m, _) = press(Model::default(), 'F');
    let (m, effects) = press(m, 'a');
    assert!(effects.is_empty());
    assert_eq!(m.mode, Mode::Normal);
    assert_eq!(m.status.tone, Tone::Error);
}
