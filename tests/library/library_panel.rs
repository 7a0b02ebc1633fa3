//! The library panel through the reducer, with the real worker thread and a
//! real SQLite file: each effect is performed and its answer fed back, as
//! the runtime does.

use crate::common;

use bgedit_core::codec::{IdFormat, parse_any, to_string_as};
use bgedit_core::domain::Position;
use bgedit_engine::match_analysis::{QuizAnswer, grade};
use bgedit_engine::{EngineKind, Process};
use bgedit_library::{Library, NewEntry, Source};
use bgedit_tui::action::{Action, BoardAction};
use bgedit_tui::effect::Effect;
use bgedit_tui::library::state::PAGE;
use bgedit_tui::library::state::{
    LibAction, LibMode, LineAction, ListAction, NoteAction, QuizAction, WorkerAnswer,
};
use bgedit_tui::library::worker::Worker;
use bgedit_tui::model::{Mode, Model, Tone};
use bgedit_tui::reducer::update;
use bgedit_tui::snapshot::Snapshot;
use bgedit_tui::ui::theme::Theme;
use bgedit_tui::view;
use common::{live, random};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::Duration;

pub(crate) struct Harness {
    pub(crate) model: Model,
    worker: Worker,
    /// gnubg for the quiz's grades, started when first asked.
    engine: Option<Process>,
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
}

impl Harness {
    /// The panel on the library at `path` as it is.
    pub(crate) fn on(path: &std::path::Path) -> Harness {
        Harness {
            model: Model::default(),
            worker: Worker::start(Some(path.to_owned())),
            engine: None,
            _dir: tempfile::tempdir().unwrap(),
            path: path.to_owned(),
        }
    }

    fn new(entries: Vec<NewEntry>) -> Harness {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        Library::open(&path).unwrap().add_all(&entries).unwrap();
        Harness {
            model: Model::default(),
            worker: Worker::start(Some(path.clone())),
            engine: None,
            _dir: dir,
            path,
        }
    }

    /// Applies `action`, then every library answer it leads to.
    pub(crate) fn act(&mut self, action: Action) -> &Model {
        let mut queue = vec![action];
        while let Some(a) = queue.pop() {
            let (next, effects) = update(std::mem::take(&mut self.model), a);
            self.model = next;
            for e in effects {
                match e {
                    Effect::Library(r) => self.worker.send(r),
                    // The quiz's grades from the real gnubg, as the
                    // runtime's engine link gives them.
                    Effect::GradeQuiz {
                        serial,
                        position,
                        answer,
                        plies,
                        engine: bgedit_engine::EngineKind::Gnubg,
                    } => {
                        let engine = self.engine.get_or_insert_with(|| {
                            Process::new(
                                EngineKind::Gnubg,
                                bgedit_engine::EngineKind::Gnubg
                                    .locate(None)
                                    .expect("gnubg"),
                            )
                        });
                        let result = grade(engine, &position, &answer, plies).map(Box::new);
                        queue.push(Action::Library(LibAction::Quiz(QuizAction::Graded {
                            serial,
                            result,
                        })));
                    }
                    _ => {}
                }
            }
            if queue.is_empty() && self.worker.pending > 0 {
                let answer = self
                    .worker
                    .answers
                    .recv_timeout(Duration::from_secs(10))
                    .expect("the worker answers");
                self.worker.pending -= 1;
                queue.push(answer);
            }
        }
        &self.model
    }

    pub(crate) fn lib(&mut self, a: impl Into<LibAction>) -> &Model {
        self.act(Action::Library(a.into()))
    }

    pub(crate) fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.lib(LineAction::Char(c));
        }
    }
}

fn entry(id: &str, title: &str, tags: &[&str], cols: &[&str], note: &str) -> NewEntry {
    let mut e = NewEntry::new(
        parse_any(id, &Position::default()).unwrap().position,
        Source::Typed,
    );
    e.title = title.into();
    e.tags = tags.iter().map(|s| s.to_string()).collect();
    e.collections = cols.iter().map(|s| s.to_string()).collect();
    e.note = note.into();
    e
}

fn three() -> Vec<NewEntry> {
    vec![
        entry(
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "Opening",
            &["start"],
            &["quiz"],
            "Roll.",
        ),
        entry(
            "4NvBA0DGzooBBg:QYkqASAAIAAA",
            "Manual",
            &["blitz"],
            &["quiz"],
            "Attack!",
        ),
        entry(
            "XGID=-CCBBBB------------bbbbcc-:2:0:1:00:0:0:0:0:10",
            "Race",
            &["race"],
            &[],
            "",
        ),
    ]
}

/// A large library is counted only as far as the list can scroll before
/// it asks again ("1100+ entries"); scrolling on counts further, to the
/// exact end.
#[test]
fn a_large_library_is_counted_as_far_as_the_list_scrolls() {
    let entries: Vec<NewEntry> = random::distinct(12, 2_500)
        .into_iter()
        .map(|p| NewEntry::new(p, Source::Typed))
        .collect();
    let mut h = Harness::new(entries);
    let m = h.lib(ListAction::Open);
    let ahead = PAGE + bgedit_tui::library::worker::COUNT_AHEAD;
    assert_eq!((m.library.total, m.library.total_exact), (ahead, false));
    let header = Snapshot::of(m).library.unwrap().header;
    assert!(
        header.starts_with(&format!("Library · {ahead}+ entries")),
        "{header}"
    );
    let mut steps = 0;
    while h.model.library.selected + 1 < h.model.library.total {
        h.lib(ListAction::PageDown);
        assert!(h.model.library.rows.len() as u64 <= PAGE);
        steps += 1;
        assert!(steps < 1_000, "scrolling ends");
    }
    let m = &h.model;
    assert_eq!((m.library.total, m.library.total_exact), (2_500, true));
    assert_eq!(
        m.library.selected_row().unwrap().id,
        1,
        "the oldest entry, last"
    );
}

#[test]
fn the_panel_holds_one_page_however_far_it_scrolls() {
    let entries: Vec<NewEntry> = random::distinct(11, 1000)
        .into_iter()
        .map(|p| NewEntry::new(p, Source::Typed))
        .collect();
    let mut h = Harness::new(entries);
    let m = h.lib(ListAction::Open);
    assert_eq!(m.mode, Mode::Library(LibMode::List));
    assert_eq!(m.library.total, 1000);
    assert_eq!(m.library.rows.len() as u64, PAGE);
    assert_eq!(m.library.selected_row().unwrap().id, 1000);
    for _ in 0..60 {
        h.lib(ListAction::PageDown);
        assert!(h.model.library.rows.len() as u64 <= PAGE);
    }
    let m = &h.model;
    assert_eq!(m.library.selected, 600);
    let row = m.library.selected_row().unwrap().clone();
    assert_eq!(row.id, 400);
    // The board previews the highlighted entry.
    let lib = Library::open(&h.path).unwrap();
    assert_eq!(row.position, lib.get(400).unwrap().position);
    assert_eq!(m.library.preview(), Some(&row.position));
    let snap = Snapshot::of(m);
    assert_eq!(
        snap.ids[2].1,
        to_string_as(&row.position, IdFormat::GnubgId)
    );
    // j/k inside the page ask nothing of the database.
    let (_, effects) = update(
        h.model.clone(),
        Action::Library(LibAction::List(ListAction::Move(1))),
    );
    assert!(effects.is_empty());
    h.lib(ListAction::Move(10_000));
    assert_eq!(h.model.library.selected, 999);
    assert_eq!(h.model.library.selected_row().unwrap().id, 1);
}

#[test]
fn filtering_as_you_type_and_a_bad_filter_keeps_the_last_results() {
    let mut h = Harness::new(three());
    h.lib(ListAction::Open);
    h.lib(ListAction::StartFilter);
    h.type_text("tag:blitz");
    assert_eq!(h.model.library.total, 1);
    assert_eq!(h.model.library.rows[0].title, "Manual");
    h.lib(LineAction::Paste(" cube>=x".into()));
    assert_eq!(h.model.library.total, 1, "the last good results stay");
    assert_eq!(h.model.library.rows[0].title, "Manual");
    let err = h.model.library.filter_error.clone().unwrap();
    assert!(err.contains("`x` is not a whole number"), "{err}");
    for _ in 0..8 {
        h.lib(LineAction::Backspace);
    }
    assert!(h.model.library.filter_error.is_none());
    h.lib(LineAction::Cancel);
    assert_eq!(h.model.library.total, 3);
    assert_eq!(h.model.mode, Mode::Library(LibMode::List));
}

#[test]
fn loading_is_undoable_and_edits_can_be_saved_back() {
    let mut h = Harness::new(three());
    let before = h.model.position.clone();
    h.lib(ListAction::Open);
    h.lib(ListAction::Move(1)); // Manual
    h.lib(ListAction::Load);
    assert_eq!(h.model.mode, Mode::Normal);
    assert_eq!(
        to_string_as(&h.model.position, IdFormat::GnubgId),
        "4NvBA0DGzooBBg:QYkqASAAIAAA"
    );
    assert_eq!(h.model.library.loaded, Some(2));
    h.act(Action::Undo);
    assert_eq!(h.model.position, before);
    h.act(Action::Redo);
    // Edit the position, then save it back to entry 2.
    h.act(Action::Board(BoardAction::SetMatchLength(11)));
    h.lib(ListAction::Open);
    h.lib(ListAction::SaveBack);
    assert_eq!(h.model.status.text, "Entry 2: position saved");
    let lib = Library::open(&h.path).unwrap();
    assert_eq!(lib.get(2).unwrap().position.state.match_length, 11);
}

#[test]
fn note_tags_and_collections_are_edited_and_kept() {
    let mut h = Harness::new(three());
    h.lib(ListAction::Open);
    h.lib(ListAction::EditNote); // Race (newest first)
    assert_eq!(h.model.mode, Mode::Library(LibMode::Note));
    for c in "two\nlines".chars() {
        let key = match c {
            '\n' => ratatui::crossterm::event::KeyCode::Enter,
            c => ratatui::crossterm::event::KeyCode::Char(c),
        };
        let ev = ratatui::crossterm::event::KeyEvent::from(key);
        h.lib(NoteAction::Key(ev.into()));
    }
    h.lib(NoteAction::Done);
    assert_eq!(h.model.status.text, "Entry 3: note saved");
    h.lib(ListAction::EditTags);
    assert_eq!(h.model.library.input.text, "race");
    h.type_text(" endgame");
    h.lib(LineAction::Submit);
    h.lib(ListAction::EditCollections);
    h.type_text("drills");
    h.lib(LineAction::Submit);
    let e = Library::open(&h.path).unwrap().get(3).unwrap();
    assert_eq!(e.note, "two\nlines");
    assert_eq!(e.tags, ["endgame", "race"]);
    assert_eq!(e.collections, ["drills"]);
    // A paste's control characters become spaces: two tags.
    h.lib(ListAction::EditTags);
    h.lib(LineAction::Clear);
    h.lib(LineAction::Paste("a\tb".into()));
    h.lib(LineAction::Submit);
    assert_eq!(h.model.status.tone, Tone::Success, "{:?}", h.model.status);
    let e = Library::open(&h.path).unwrap().get(3).unwrap();
    assert_eq!(e.tags, ["a", "b"]);
}

#[test]
fn delete_asks_first_and_can_be_undone() {
    let mut h = Harness::new(three());
    h.lib(ListAction::Open);
    h.lib(ListAction::AskDelete);
    h.lib(LineAction::Char('n'));
    assert_eq!(h.model.library.total, 3);
    assert_eq!(h.model.status.text, "Kept");
    h.lib(ListAction::AskDelete);
    h.lib(LineAction::Char('y'));
    assert_eq!(h.model.library.total, 2);
    assert!(h.model.status.text.contains("deleted · u brings it back"));
    h.lib(ListAction::UndoDelete);
    assert_eq!(h.model.library.total, 3);
    let e = Library::open(&h.path).unwrap().get(3).unwrap();
    assert_eq!(e.title, "Race");
    assert_eq!(e.tags, ["race"]);
}

#[test]
fn review_steps_through_a_collection_and_schedules_it() {
    let mut h = Harness::new(three());
    h.act(Action::Library(LibAction::List(ListAction::StartReview)));
    h.type_text("quiz");
    h.lib(LineAction::Submit);
    assert_eq!(h.model.mode, Mode::Library(LibMode::Review));
    let r = h.model.library.review.clone().unwrap();
    assert_eq!(r.queue.len(), 2);
    // The card shows the position without its note until revealed.
    let snap = Snapshot::of(&h.model);
    let body = snap.library.unwrap().body.unwrap().join("\n");
    assert!(
        !body.contains("Roll.") && !body.contains("Attack!"),
        "{body}"
    );
    h.lib(QuizAction::Reveal);
    let snap = Snapshot::of(&h.model);
    let body = snap.library.unwrap().body.unwrap().join("\n");
    assert!(body.contains("Roll.") || body.contains("Attack!"), "{body}");
    h.lib(QuizAction::Mark(true));
    h.lib(QuizAction::Mark(false));
    assert!(h.model.library.review.is_none());
    assert!(h.model.status.text.contains("1 known, 1 not yet"));
    let lib = Library::open(&h.path).unwrap();
    for id in [1, 2] {
        let s = lib.get(id).unwrap().schedule;
        assert_eq!(s.reviews, 1);
        assert!(s.due > bgedit_library::store::now());
    }
    // Nothing is due now.
    h.act(Action::Library(LibAction::List(ListAction::StartReview)));
    h.type_text("quiz");
    h.lib(LineAction::Submit);
    assert!(
        h.model
            .status
            .text
            .contains("nothing in the collection quiz is due")
    );
}

#[test]
fn adding_asks_title_and_tags_and_says_when_it_is_there_already() {
    let mut h = Harness::new(three());
    h.lib(ListAction::StartAdd);
    // Entry 1 holds the start with a title: it is said before anything is
    // typed, and only tags are asked.
    assert_eq!(
        h.model.mode,
        Mode::Library(LibMode::Ask(bgedit_tui::library::state::Ask::AddTags))
    );
    let text = screen(&h.model, 100, 30);
    assert!(
        text.contains("Already in the library as entry 1 (Opening): tags to add"),
        "{text}"
    );
    h.type_text("opening start");
    h.lib(LineAction::Submit);
    assert_eq!(h.model.mode, Mode::Normal);
    assert!(
        h.model
            .status
            .text
            .starts_with("This position is already in the library as entry 1"),
        "{}",
        h.model.status.text
    );
    h.act(Action::Board(BoardAction::SetMatchLength(7)));
    h.lib(ListAction::StartAdd);
    h.type_text("Seven");
    h.lib(LineAction::Submit);
    h.lib(LineAction::Submit);
    assert_eq!(h.model.status.text, "Added to the library as entry 4");
    assert_eq!(
        Library::open(&h.path).unwrap().get(4).unwrap().title,
        "Seven"
    );
}

/// An entry without a title is asked for one, saying which entry it is,
/// and keeps the title typed.
#[test]
fn an_untitled_entry_is_named_and_given_the_title_typed() {
    let mut h = Harness::new(vec![entry("4HPwATDgc/ABMA:cAkAAAAAAAAA", "", &[], &[], "")]);
    h.lib(ListAction::StartAdd);
    let text = screen(&h.model, 100, 30);
    assert!(
        text.contains("Entry 1 holds this position, untitled: its title"),
        "{text}"
    );
    h.type_text("The start");
    h.lib(LineAction::Submit);
    h.lib(LineAction::Submit);
    assert!(
        h.model
            .status
            .text
            .contains("already in the library as entry 1"),
        "{}",
        h.model.status.text
    );
    assert_eq!(
        Library::open(&h.path).unwrap().get(1).unwrap().title,
        "The start"
    );
}

/// A pasted position is stored as `pasted` (a paste, or an ID typed into
/// the input line); once edited by keys it is `typed`.
#[test]
fn a_pasted_position_is_kept_as_pasted_and_an_edited_one_as_typed() {
    let mut h = Harness::new(Vec::new());
    let add = |h: &mut Harness, title: &str| {
        h.lib(ListAction::StartAdd);
        h.type_text(title);
        h.lib(LineAction::Submit);
        h.lib(LineAction::Submit);
    };
    h.act(Action::Pasted(Ok("4NvBA0DGzooBBg:QYkqASAAIAAA".into())));
    add(&mut h, "from the clipboard");
    assert_eq!(h.model.status.text, "Added to the library as entry 1");
    h.act(Action::Board(BoardAction::SetMatchLength(5)));
    add(&mut h, "edited");
    assert_eq!(h.model.status.text, "Added to the library as entry 2");
    h.act(Action::Import(
        "XGID=-CCBBBB------------bbbbcc-:2:0:1:00:0:0:0:0:10".into(),
    ));
    add(&mut h, "typed in the ID line");
    let lib = Library::open(&h.path).unwrap();
    let sources: Vec<Source> = (1..=3).map(|id| lib.get(id).unwrap().source).collect();
    assert_eq!(sources, [Source::Pasted, Source::Typed, Source::Pasted]);
}

fn screen(model: &Model, width: u16, height: u16) -> String {
    let snap = Snapshot::of(model);
    let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
    term.draw(|f| view::draw(f, &snap, &Theme::plain()))
        .unwrap();
    term.backend()
        .buffer()
        .content()
        .chunks(usize::from(width))
        .map(|row| row.iter().map(|c| c.symbol()).collect::<String>() + "\n")
        .collect()
}

/// The panel takes its slot under the board: at 80×24 the IDs' rows, the
/// list only; on a wide screen the details beside the list.
#[test]
fn the_panel_draws_the_list_in_its_slot_and_the_details_when_wide() {
    let mut h = Harness::new(three());
    h.lib(ListAction::Open);
    let text = screen(&h.model, 80, 24);
    if std::env::var_os("SHOW_SCREENS").is_some() {
        eprintln!("{text}");
    }
    assert!(text.contains(" Library · 3 entries"), "{text}");
    assert!(text.contains(">3 Race"), "{text}");
    assert!(text.contains(" 2 Manual"), "{text}");
    // O 2, X 4 of 9 with X on roll: X 5-away first; then the roll, tags,
    // collections and the note's first line, each column as wide as its
    // widest cell (no error column: none of them has one).
    assert!(
        text.contains(" 2 Manual  9pt 5a-7a X 52   blitz quiz Attack!"),
        "{text}"
    );
    assert!(text.contains("j/k move"), "{text}");
    assert!(
        !text.contains("Position ID"),
        "the list takes the IDs' rows: {text}"
    );
    // The match panel beside the board is the previewed entry's.
    assert!(text.contains("Cube     4, centred"), "{text}");
    let wide = screen(&h.model, 140, 40);
    if std::env::var_os("SHOW_SCREENS").is_some() {
        eprintln!("{wide}");
    }
    assert!(wide.contains("Position ID"), "{wide}");
    assert!(wide.contains(">3 Race"), "{wide}");
    assert!(wide.contains("Entry 3"), "{wide}");
    assert!(wide.contains("Kind    race"), "{wide}");
}

/// The panel's screens, reviewed: focused at 80×24 (the list in the IDs'
/// rows), on the side at 100×30 (the board has the keys, the IDs are the
/// editor's), and wide with the details beside the list.
#[test]
fn the_panel_screens() {
    let mut h = Harness::new(three());
    h.lib(ListAction::Open);
    insta::assert_snapshot!("library_focused_80x24", screen(&h.model, 80, 24));
    insta::assert_snapshot!("library_wide_140x40", screen(&h.model, 140, 40));
    h.lib(ListAction::Leave);
    insta::assert_snapshot!("library_beside_the_board_100x30", screen(&h.model, 100, 30));
    // A review in the same slot: the card, then the note revealed.
    h.act(Action::Library(LibAction::List(ListAction::StartReview)));
    h.type_text("quiz");
    h.lib(LineAction::Submit);
    insta::assert_snapshot!("library_review_80x24", screen(&h.model, 80, 24));
    h.lib(QuizAction::Reveal);
    insta::assert_snapshot!("library_review_revealed_80x24", screen(&h.model, 80, 24));
}

/// Esc gives the keys back to the board and leaves the list on screen; `L`
/// gives them to the list again, and `L` in the list closes it.
#[test]
fn esc_leaves_the_panel_on_screen_and_l_focuses_or_closes_it() {
    let mut h = Harness::new(three());
    let start = to_string_as(&h.model.position, IdFormat::GnubgId);
    h.lib(ListAction::Open);
    let focused = screen(&h.model, 100, 30);
    assert!(
        !focused.contains(&start),
        "the board previews entry 3: {focused}"
    );
    h.act(Action::Library(LibAction::List(ListAction::Leave)));
    assert_eq!(h.model.mode, Mode::Normal);
    let text = screen(&h.model, 100, 30);
    assert!(
        text.contains("Library · 3 entries · L: to the list"),
        "{text}"
    );
    assert!(text.contains("·3 Race"), "{text}");
    assert!(
        text.contains(&start),
        "the board is the editor's again: {text}"
    );
    // The board has the keys: an edit changes the editor's position.
    h.act(Action::Board(BoardAction::SetMatchLength(7)));
    assert_eq!(h.model.position.state.match_length, 7);
    assert!(h.model.library.open);
    // `+` from the board asks about the board's position and comes back to it.
    h.lib(ListAction::StartAdd);
    h.lib(LineAction::Submit);
    h.lib(LineAction::Submit);
    assert_eq!(h.model.mode, Mode::Normal);
    assert_eq!(h.model.status.text, "Added to the library as entry 4");
    assert_eq!(h.model.library.total, 4, "the list on screen shows it");
    // `L` from the board: the list has the keys again.
    let key =
        ratatui::crossterm::event::KeyEvent::from(ratatui::crossterm::event::KeyCode::Char('L'));
    let action = bgedit_tui::keymap::resolve_key(&key, &h.model.mode).unwrap();
    h.act(action);
    assert_eq!(h.model.mode, Mode::Library(LibMode::List));
    let action = bgedit_tui::keymap::resolve_key(&key, &h.model.mode).unwrap();
    h.act(action);
    assert_eq!(h.model.mode, Mode::Normal);
    assert!(!h.model.library.open);
    let text = screen(&h.model, 100, 30);
    assert!(!text.contains("Library ·"), "{text}");
}

/// Every panel shows the entry under the cursor or says it does not: the
/// board, IDs and numbers follow the highlighted entry; the analysis,
/// which is of the editor's own position, says so instead of showing it.
#[test]
fn the_analysis_does_not_pass_for_the_previewed_entry() {
    let mut h = Harness::new(three());
    h.lib(ListAction::Open);
    let wide = screen(&h.model, 160, 50);
    assert!(wide.contains("Pips     O 45  X 45"), "the entry's: {wide}");
    assert!(
        wide.contains("Analysis · not shown: the board is the library's entry"),
        "{wide}"
    );
    assert!(
        wide.contains("Enter loads the entry onto the board"),
        "{wide}"
    );
    // Loaded, the entry is the board's position: its analysis is asked for.
    h.lib(ListAction::Load);
    let loaded = screen(&h.model, 160, 50);
    assert!(!loaded.contains("not shown: the board"), "{loaded}");
    assert!(loaded.contains("Analysis · "), "{loaded}");
}

/// Notes come from files others wrote (titles with control characters are
/// refused when stored): their control characters are shown as escapes in the list and the details,
/// never drawn into the terminal (a title-setting OSC, a BEL).
#[test]
fn control_characters_in_an_entry_never_reach_the_screen() {
    let mut h = Harness::new(vec![entry(
        "4HPwATDgc/ABMA:cAkAAAAAAAAA",
        "evil",
        &[],
        &[],
        "\u{1b}]52;c;aGk=\u{7}clear\u{1b}[2J",
    )]);
    h.lib(ListAction::Open);
    for (w, rows) in [(80, 24), (140, 40)] {
        let text = screen(&h.model, w, rows);
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{text:?}"
        );
        assert!(text.contains("\\x1b]5"), "{text}");
    }
}

/// Fault 6: a file that is not a library (or is damaged) is not shown as an
/// empty library: the panel says why it cannot be listed, naming the file.
#[test]
fn a_foreign_file_is_shown_as_the_reason_not_as_an_empty_list() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("library.sqlite");
    std::fs::write(&path, vec![b'x'; 4096]).unwrap();
    let mut h = Harness {
        model: Model::default(),
        worker: Worker::start(Some(path.clone())),
        engine: None,
        _dir: dir,
        path: path.clone(),
    };
    h.lib(ListAction::Open);
    let text = screen(&h.model, 100, 30);
    assert!(text.contains("Library · cannot be listed"), "{text}");
    assert!(
        !text.contains("0+ entries") && !text.contains("0 entries"),
        "{text}"
    );
    assert!(text.contains("is not a bgedit library"), "{text}");
    assert!(text.contains("library.sqlite"), "{text}");
    assert_eq!(std::fs::read(&h.path).unwrap(), vec![b'x'; 4096]);
}

/// The quiz with the real gnubg: the question without the note, a typed
/// move graded as gnubg ranks it, a cube answer, the note revealed with the
/// grade, and FSRS scheduling by the grade (very bad: again in a minute;
/// correct: good, in ten).
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_quiz_grades_answers_with_gnubg_and_schedules_by_the_grade() {
    common::gnubg();
    let mut h = Harness::new(vec![
        entry(
            "4HPwATDgc/ABMA:cAkFAAAAAAAE",
            "Opening 21",
            &[],
            &["drill"],
            "Split or build?",
        ),
        entry(
            "dwcAANwdAAAAAA:cAkAAAAAAAAE",
            "Bear-off cube",
            &[],
            &["drill"],
            "Count the shots.",
        ),
    ]);
    h.act(Action::Library(LibAction::List(ListAction::StartReview)));
    h.type_text("drill");
    h.lib(LineAction::Submit);
    let text = screen(&h.model, 100, 30);
    assert!(text.contains("X to play 21: your move?"), "{text}");
    assert!(
        !text.contains("Split or build?") && !text.contains("Opening 21"),
        "{text}"
    );
    h.lib(QuizAction::AskMove);
    // Tab completes from the legal moves, as on the board's move line.
    h.type_text("13/1");
    h.lib(QuizAction::Complete);
    assert_eq!(h.model.library.input.text, "13/10");
    h.lib(QuizAction::Complete);
    assert!(
        h.model.library.input.text.starts_with("13/11 "),
        "{}",
        h.model.library.input.text
    );
    h.lib(LineAction::Clear);
    h.type_text("8/7 8/6");
    h.lib(LineAction::Submit);
    let text = screen(&h.model, 100, 30);
    // gnubg's own error for it, asked here (-0.295 when written): far past
    // "very bad" (0.12) on any machine.
    let hint = live::hint_list("4HPwATDgc/ABMA:cAkFAAAAAAAE", 0);
    let worst = hint.iter().find(|(m, _)| m == "8/7 8/6").unwrap().1;
    let want = hint[0].1 - worst;
    assert!(want > 0.2, "{hint:?}");
    let shown = live::number_after(&text, "very bad (-").unwrap_or_else(|| panic!("{text}"));
    assert!(
        (shown - want).abs() < live::SHOWN_ERROR,
        "{shown} against gnubg's {want}"
    );
    let rest = format!("): your 8/7 8/6 · gnubg: {}, yours 15 of 15", hint[0].0);
    assert!(text.contains(&rest), "{text}");
    assert!(text.contains(&format!(" 1. {}", hint[0].0)), "{text}");
    assert!(
        text.contains("Split or build?"),
        "the note with the grade: {text}"
    );
    // One answer a question.
    h.lib(QuizAction::Answer(QuizAnswer::Double));
    assert!(h.model.status.text.contains("answered already"));
    let asked = bgedit_library::store::now();
    h.lib(QuizAction::Next);
    let text = screen(&h.model, 100, 30);
    assert!(text.contains("X on roll: double or no double?"), "{text}");
    h.lib(QuizAction::Answer(QuizAnswer::Double));
    // The runtime's clock: answered in 1.2 s.
    h.lib(QuizAction::AnswerTime(1200));
    let text = screen(&h.model, 100, 30);
    assert!(text.contains("correct: double is gnubg's best"), "{text}");
    // Having doubled, what should the opponent do? gnubg's figures come
    // with the response.
    assert!(
        text.contains("and the opponent: t take or p pass?"),
        "{text}"
    );
    assert!(!text.contains("double/take"), "{text}");
    h.lib(QuizAction::Answer(QuizAnswer::Take));
    let text = screen(&h.model, 100, 30);
    assert!(text.contains("and the response: take, correct"), "{text}");
    // gnubg's double/take here (+0.723 when written), asked now.
    let cube = live::assert_shows_double_take(&text, "dwcAANwdAAAAAA:cAkAAAAAAAAE");
    assert_eq!(cube.action, "Double, take");
    h.lib(QuizAction::Next);
    assert!(h.model.library.review.is_none());
    assert!(
        h.model
            .status
            .text
            .contains("1 known, 1 not yet; nothing more is due"),
        "{}",
        h.model.status.text
    );
    let lib = Library::open(&h.path).unwrap();
    let (again, easy) = (lib.get(1).unwrap().schedule, lib.get(2).unwrap().schedule);
    assert_eq!((again.state, again.reviews), (1, 1));
    // gnubg's best at once: Easy, straight to review, days away.
    assert_eq!((easy.state, easy.reviews), (2, 1));
    let after = |s: &bgedit_library::review::Schedule| s.due - asked;
    assert!((55..=65).contains(&after(&again)), "{again:?}");
    assert!(after(&easy) >= 86_400, "{easy:?}");
    // gnubg's analyses were kept: the next quiz is graded without gnubg
    // (a gnubg that cannot start would fail any request).
    assert!(lib.quiz_analysis(1).unwrap().is_some());
    let queue = lib.due("drill", asked + 3600, 10).unwrap();
    assert_eq!(queue.len(), 1);
    h.engine = Some(Process::new(EngineKind::Gnubg, "/nonexistent/gnubg".into()));
    // A quiz at 1-ply does not take the kept 0-ply analysis: gnubg is asked.
    let mut deeper = h.model.clone();
    deeper.library.quiz_plies = 1;
    let deeper = bgedit_tui::reducer::update(
        deeper,
        Action::Library(LibAction::Worker(WorkerAnswer::DueList(Ok((
            "drill".to_owned(),
            queue.clone(),
        ))))),
    )
    .0;
    let mut deeper = deeper;
    deeper.library.review.as_mut().unwrap().stored = lib.quiz_analysis(1).unwrap();
    let (_, effects) = bgedit_tui::reducer::update(
        deeper,
        Action::Library(LibAction::Quiz(QuizAction::Answer(QuizAnswer::Move(
            "24/21".into(),
        )))),
    );
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::GradeQuiz { plies: 1, .. })),
        "{effects:?}"
    );
    h.lib(WorkerAnswer::DueList(Ok(("drill".to_owned(), queue))));
    h.lib(QuizAction::AskMove);
    h.type_text("24/21");
    h.lib(LineAction::Submit);
    let text = screen(&h.model, 100, 30);
    // From the kept analysis: gnubg's error for 24/21 here (-0.015 when
    // written), second of its list.
    assert_eq!(hint[1].0, "24/21");
    let shown = live::number_after(&text, "correct (-").unwrap_or_else(|| panic!("{text}"));
    assert!(
        (shown - (hint[0].1 - hint[1].1)).abs() < live::SHOWN_ERROR,
        "{shown} against gnubg's {hint:?}"
    );
    let rest = format!("): your 24/21 · gnubg: {}, yours 2 of 15", hint[0].0);
    assert!(text.contains(&rest), "{text}");
    // The statistics in the panel: the first quiz's two answers.
    h.lib(ListAction::Close);
    h.lib(ListAction::Open);
    h.lib(QuizAction::ToggleStats);
    let text = screen(&h.model, 100, 30);
    assert!(text.contains("Quiz statistics"), "{text}");
    // The mean error of 8/7 8/6 (gnubg's error `want` above) and of the
    // double (none) in thousandths (147.5 when written): gnubg's error is
    // within 0.001 of the one graded, 0.5 mEMG in the mean of two, and the
    // mean is shown to a tenth.
    let stats = "drill: 2 answers, 2 graded, 1 correct (50%), ";
    let mean = live::number_after(&text, stats).unwrap_or_else(|| panic!("{text}"));
    assert!((mean - want * 1000.0 / 2.0).abs() < 0.6, "{text}");
    assert!(text.contains(&format!("{stats}{mean:.1} mEMG")), "{text}");
    // The trend as a sparkline where the panel has the rows.
    let tall = screen(&h.model, 100, 50);
    assert!(tall.contains("Trend: mean mEMG a week"), "{tall}");
    h.lib(QuizAction::ToggleStats);
    assert!(screen(&h.model, 100, 30).contains("Library · 2 entries"));
}

/// The quiz's move played on the board: `e` puts the question there, the
/// board's own move line (or picking up and dropping) plays it, and the
/// move reached is the answer, graded by gnubg; `L` comes back unanswered.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_quiz_answer_can_be_played_on_the_board() {
    common::gnubg();
    let mut h = Harness::new(vec![entry(
        "4HPwATDgc/ABMA:cAkFAAAAAAAE",
        "Opening 21",
        &[],
        &["drill"],
        "",
    )]);
    h.act(Action::Library(LibAction::List(ListAction::StartReview)));
    h.type_text("drill");
    h.lib(LineAction::Submit);
    let key = |c: char| {
        ratatui::crossterm::event::KeyEvent::from(ratatui::crossterm::event::KeyCode::Char(c))
    };
    // e: on the board; L: back to the quiz, nothing answered.
    let e = bgedit_tui::keymap::resolve_key(&key('e'), &h.model.mode).unwrap();
    h.act(e);
    assert_eq!(h.model.mode, Mode::Normal);
    assert_eq!(
        to_string_as(&h.model.position, IdFormat::GnubgId),
        "4HPwATDgc/ABMA:cAkFAAAAAAAE"
    );
    let back = bgedit_tui::keymap::resolve_key(&key('L'), &h.model.mode).unwrap();
    h.act(back);
    assert_eq!(h.model.mode, Mode::Library(LibMode::Review));
    assert!(h.model.library.review.as_ref().unwrap().answer.is_none());
    // Again, and the board's move line plays 13/11 24/23.
    let e = bgedit_tui::keymap::resolve_key(&key('e'), &h.model.mode).unwrap();
    h.act(e);
    let m = bgedit_tui::keymap::resolve_key(&key('M'), &h.model.mode).unwrap();
    h.act(m);
    for c in "13/11 24/23".chars() {
        h.act(Action::Prompt(bgedit_tui::action::PromptAction::Char(c)));
    }
    h.act(Action::Prompt(bgedit_tui::action::PromptAction::Submit));
    assert_eq!(h.model.mode, Mode::Library(LibMode::Review));
    let text = screen(&h.model, 100, 30);
    assert!(
        text.contains("correct: 24/23 13/11 is gnubg's best"),
        "{text}"
    );
}

/// Picking up and dropping checkers answers too: 6/5 with the cursor, then
/// 13/11 by going to the points.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_quiz_answer_can_be_picked_up_and_dropped() {
    use ratatui::crossterm::event::{KeyCode, KeyEvent};
    common::gnubg();
    let mut h = Harness::new(vec![entry(
        "4HPwATDgc/ABMA:cAkFAAAAAAAE",
        "Opening 21",
        &[],
        &["drill"],
        "",
    )]);
    h.act(Action::Library(LibAction::List(ListAction::StartReview)));
    h.type_text("drill");
    h.lib(LineAction::Submit);
    let press = |h: &mut Harness, code: KeyCode| {
        if let Some(a) = bgedit_tui::keymap::resolve_key(&KeyEvent::from(code), &h.model.mode) {
            h.act(a);
        }
    };
    press(&mut h, KeyCode::Char('e'));
    // The cursor starts on X's 6 point: pick up, one to the right, drop.
    press(&mut h, KeyCode::Char(' '));
    press(&mut h, KeyCode::Right);
    press(&mut h, KeyCode::Char(' '));
    assert_eq!(h.model.mode, Mode::Normal, "half a move is no answer yet");
    for (point, then) in [("13", ' '), ("11", ' ')] {
        press(&mut h, KeyCode::Char('g'));
        for c in point.chars() {
            press(&mut h, KeyCode::Char(c));
        }
        press(&mut h, KeyCode::Enter);
        press(&mut h, KeyCode::Char(then));
    }
    assert_eq!(
        h.model.mode,
        Mode::Library(LibMode::Review),
        "{}",
        h.model.status.text
    );
    let text = screen(&h.model, 100, 30);
    assert!(
        text.contains("your 13/11 6/5 · gnubg: 24/23 13/11"),
        "{text}"
    );
}

/// The quiz's move line refuses a typo and an illegal move as every input
/// line refuses: the line stays open with the text and the reason, the
/// question stays unanswered, and nothing is graded.
#[test]
fn the_quiz_move_line_stays_open_on_a_typo_or_an_illegal_move() {
    let mut h = Harness::new(vec![entry(
        "4HPwATDgc/ABMA:cAkFAAAAAAAE",
        "Opening 21",
        &[],
        &["drill"],
        "",
    )]);
    h.act(Action::Library(LibAction::List(ListAction::StartReview)));
    h.type_text("drill");
    h.lib(LineAction::Submit);
    // A checker question: its keys, not the cube's; the analysis panel
    // says where the analysis comes, not that Enter loads the entry.
    let text = screen(&h.model, 200, 60);
    assert!(text.contains("m your move"), "{text}");
    for cube in [
        "d double",
        "r no double",
        "t take",
        "d / r",
        "t / p / b",
        "Enter next",
    ] {
        assert!(!text.contains(cube), "{cube}:\n{text}");
    }
    assert!(
        text.contains("the quiz's question is not answered yet"),
        "{text}"
    );
    assert!(!text.contains("Enter loads the entry"), "{text}");
    for typed in ["foo", "6/1 6/1"] {
        h.lib(QuizAction::AskMove);
        h.type_text(typed);
        let (model, effects) = update(
            h.model.clone(),
            Action::Library(LibAction::Line(LineAction::Submit)),
        );
        assert!(effects.is_empty(), "{typed}: {effects:?}");
        assert_eq!(
            model.mode,
            Mode::Library(LibMode::Ask(bgedit_tui::library::state::Ask::QuizMove)),
            "{typed}"
        );
        assert_eq!(model.library.input.text, typed);
        assert_eq!(model.status.tone, Tone::Error, "{typed}");
        assert!(
            model.status.text.contains(&format!("{typed:?}")),
            "{}",
            model.status.text
        );
        let r = model.library.review.as_ref().unwrap();
        assert!(r.answer.is_none() && r.revealed.is_none(), "{typed}");
        let text = screen(&model, 100, 30);
        assert!(text.contains("Your move"), "{text}");
        h.model = model;
        h.lib(LineAction::Clear);
        h.lib(LineAction::Cancel);
    }
    // Still the question, unanswered.
    let text = screen(&h.model, 100, 30);
    assert!(text.contains("X to play 21: your move?"), "{text}");
    assert!(h.model.library.review.as_ref().unwrap().answer.is_none());
}

/// A cube question answered "double" asks what the opponent should do
/// without showing the engine's verdict on it: its proper action and the
/// double/take and double/pass figures come with the response.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_cube_quiz_asks_for_the_response_before_showing_the_answer() {
    common::gnubg();
    let mut h = Harness::new(vec![entry(
        "dwcAANwdAAAAAA:cAkAAAAAAAAE",
        "Bear-off cube",
        &[],
        &["drill"],
        "",
    )]);
    // The question is the editor's own position too: the analysis panel,
    // on, must not give the answer away, and says when it will show.
    h.model.position = parse_any("dwcAANwdAAAAAA:cAkAAAAAAAAE", &Position::default())
        .unwrap()
        .position;
    h.act(Action::Library(LibAction::List(ListAction::StartReview)));
    h.type_text("drill");
    h.lib(LineAction::Submit);
    h.lib(QuizAction::Answer(QuizAnswer::Double));
    for (w, rows) in [(100, 30), (200, 60)] {
        let text = screen(&h.model, w, rows);
        assert!(
            text.contains("and the opponent: t take or p pass?"),
            "{text}"
        );
        for spoiler in ["double/take", "double/pass", "Proper cube", "gnubg 0-ply"] {
            assert!(
                !text.contains(spoiler),
                "{spoiler} before the response:\n{text}"
            );
        }
        if w == 200 {
            assert!(text.contains("the quiz's question"), "{text}");
            assert!(!text.contains("Enter loads the entry"), "{text}");
        }
    }
    h.lib(QuizAction::Answer(QuizAnswer::Take));
    let text = screen(&h.model, 100, 30);
    assert!(text.contains("and the response: take, correct"), "{text}");
    // gnubg's double/take here (+0.723 when written), asked now.
    let cube = live::assert_shows_double_take(&text, "dwcAANwdAAAAAA:cAkAAAAAAAAE");
    assert_eq!(cube.action, "Double, take");
}

/// `*` keeps every mistake of the match in one request, and the library's
/// answer is one message: how many were added and how many were there.
/// A file opened in the panel is kept in the library as it opens (its
/// decisions become entries, so the editor's analysis can be kept as it
/// arrives): `*` then finds the mistakes there and puts them in the
/// collection.
#[test]
fn keeping_a_matchs_mistakes_says_it_once() {
    use bgedit_tui::match_review::{open, state::ReviewAction};
    let mut h = Harness::new(Vec::new());
    let path = format!(
        "{}/tests/fixtures/xg/hsbt_paris_7pt.xg",
        env!("CARGO_MANIFEST_DIR")
    );
    let loaded = open::load(&path).unwrap();
    h.act(Action::Review(ReviewAction::Opened(Ok(Box::new(loaded)))));
    let mistakes = h.model.review.open.as_ref().unwrap().file_mistakes().len();
    assert!(mistakes > 2, "{mistakes}");
    let attached = Library::open(&h.path).unwrap().listed_matches().unwrap();
    assert_eq!(attached.len(), 1, "the file opened is kept in the library");
    let collection = bgedit_library::filter::parse("col:hsbt_paris_7pt").unwrap();
    let path = h.path.clone();
    let in_collection = || Library::open(&path).unwrap().count(&collection).unwrap();
    assert_eq!(in_collection(), 0);
    h.act(Action::Review(ReviewAction::KeepMistakes));
    assert_eq!(
        h.model.status.text,
        format!("Added 0 entries to the collection hsbt_paris_7pt, {mistakes} already there")
    );
    assert_eq!(in_collection(), mistakes as u64);
    // The list shows each mistake's error in a column of its own, beside
    // its roll and the move played.
    h.lib(ListAction::Open);
    h.lib(ListAction::StartFilter);
    h.type_text("col:hsbt_paris_7pt");
    h.lib(LineAction::Submit);
    assert_eq!(h.model.library.total, mistakes as u64);
    let text = screen(&h.model, 140, 40);
    assert!(
        text.lines()
            .any(|l| l.contains(" X 43   -0.066 ") && l.contains("played: bar/22 6/2")),
        "{text}"
    );
    h.lib(ListAction::Leave);
    h.act(Action::Review(ReviewAction::Focus));
    let logged = h.model.log.newest_first().count();
    h.act(Action::Review(ReviewAction::KeepMistakes));
    assert_eq!(
        h.model.status.text,
        format!("Added 0 entries to the collection hsbt_paris_7pt, {mistakes} already there")
    );
    // One keep, one answer (and its "Keeping …" before it).
    let now = h.model.log.newest_first().count();
    assert!(now - logged <= 2, "{} messages", now - logged);
}

/// The library opened from the match panel: `Esc` steps back one level at
/// a time (the statistics to the list, the list to the match panel, not the
/// board), and `S` there does not throw the match's position away.
#[test]
fn esc_from_the_library_returns_to_the_match_panel_and_s_keeps_the_match() {
    use bgedit_tui::match_review::{open, state::ReviewAction};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let key = |c: char| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
    let mut h = Harness::new(three());
    let path = format!(
        "{}/tests/fixtures/analysis/m5_noisy.mat",
        env!("CARGO_MANIFEST_DIR")
    );
    h.act(Action::Review(ReviewAction::Opened(Ok(Box::new(
        open::load(&path).unwrap(),
    )))));
    assert_eq!(h.model.mode, Mode::Review);
    let keys = |h: &mut Harness, k: KeyEvent| {
        let a = bgedit_tui::keymap::resolve_key(&k, &h.model.mode).expect("a key");
        h.act(a);
    };
    let decision = h.model.position.clone();
    keys(&mut h, key('L'));
    assert_eq!(h.model.mode, Mode::Library(LibMode::List));
    keys(&mut h, key('S'));
    assert!(h.model.library.stats.is_some());
    keys(&mut h, esc);
    assert!(h.model.library.stats.is_none());
    assert_eq!(h.model.mode, Mode::Library(LibMode::List));
    keys(&mut h, esc);
    assert_eq!(h.model.mode, Mode::Review, "{}", h.model.status.text);
    assert!(h.model.status.text.starts_with("Back to the match"));
    keys(&mut h, key('S'));
    assert_eq!(h.model.position, decision);
    assert!(h.model.review.open.as_ref().unwrap().on_board);
    assert_eq!(h.model.status.tone, Tone::Error);
}
