//! The study library's figures (issue 11), on varied random positions from a
//! fixed seed:
//!
//! - import 100,000 positions: ≤ 5 s (timed once, printed);
//! - a filtered search over 100,000 as the panel runs it (the count as far
//!   as the list scrolls before asking again, and the first page): ≤ 30 ms;
//! - the panel opens on a 100,000-entry library: ≤ 20 ms (reducer → worker
//!   thread → SQLite → answer → reducer);
//! - a key in the panel to a drawn frame: ≤ 1 ms;
//! - memory flat in the library's size (resident memory printed after
//!   scrolling through 10,000 and 100,000 entries).
//!
//! `cargo bench --bench library -- --warm-up-time 1 --measurement-time 2`

#[path = "../tests/common/random.rs"]
mod random;

use bgedit::cli::library::import_text;
use bgedit_core::codec::{IdFormat, to_string_as};
use bgedit_library::filter;
use bgedit_library::{EntryEdit, Library};
use bgedit_tui::action::Action;
use bgedit_tui::effect::Effect;
use bgedit_tui::library::state::PAGE;
use bgedit_tui::library::state::{LibAction, ListAction};
use bgedit_tui::library::worker::{COUNT_AHEAD, Worker};
use bgedit_tui::model::Model;
use bgedit_tui::reducer::update;
use bgedit_tui::snapshot::Snapshot;
use bgedit_tui::ui::theme::Theme;
use bgedit_tui::view;
use criterion::Criterion;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

fn ids_text(seed: u64, n: usize) -> String {
    let mut s = String::with_capacity(n * 30);
    for p in random::distinct(seed, n) {
        s.push_str(&to_string_as(&p, IdFormat::GnubgId));
        s.push('\n');
    }
    s
}

/// Imports `n` random positions into a new library at `path`; returns the
/// time the import took.
fn build(path: &Path, n: usize) -> Duration {
    let text = ids_text(42, n);
    let mut lib = Library::open(path).unwrap();
    let start = Instant::now();
    // Lines that cannot be read are said on standard error as they come.
    let report = import_text(&mut lib, "bench", &text, |_| {}, &mut Default::default()).unwrap();
    let took = start.elapsed();
    assert_eq!(report.added as usize, n, "{report:?}");
    // Tags and collections on every 50th entry, for the tag/col filters.
    for id in (1..=n as i64).step_by(50) {
        lib.update(
            id,
            &EntryEdit {
                tags: Some(vec!["blitz".into()]),
                collections: Some(vec!["quiz".into()]),
                ..EntryEdit::default()
            },
        )
        .unwrap();
    }
    took
}

/// Applies an action and every library answer it leads to.
fn act(model: Model, action: Action, worker: &mut Worker) -> Model {
    let mut model = model;
    let mut queue = vec![action];
    while let Some(a) = queue.pop() {
        let (next, effects) = update(model, a);
        model = next;
        for e in effects {
            if let Effect::Library(r) = e {
                worker.send(r);
            }
        }
        if queue.is_empty() && worker.pending > 0 {
            queue.push(worker.answers.recv().unwrap());
            worker.pending -= 1;
        }
    }
    model
}

fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Opens the panel and scrolls from the first entry to the last, a page at
/// a time; returns the most rows held and how much the resident memory grew
/// while scrolling.
fn scroll_through(path: &Path) -> (usize, i64) {
    let before = resident_kib() as i64;
    let mut worker = Worker::start(Some(path.to_owned()));
    let mut model = act(
        Model::default(),
        Action::Library(LibAction::List(ListAction::Open)),
        &mut worker,
    );
    let mut most = 0;
    while model.library.selected + 1 < model.library.total {
        model = act(
            model,
            Action::Library(LibAction::List(ListAction::PageDown)),
            &mut worker,
        );
        most = most.max(model.library.rows.len());
    }
    (most, resident_kib() as i64 - before)
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    let dir = tempfile::tempdir().unwrap();

    let small = dir.path().join("10k.sqlite");
    build(&small, 10_000);
    let (rows_small, rss_small) = scroll_through(&small);
    let path = dir.path().join("100k.sqlite");
    let took = build(&path, 100_000);
    eprintln!("import of 100,000 positions: {:.2} s", took.as_secs_f64());
    let (rows_big, rss_big) = scroll_through(&path);
    eprintln!(
        "scrolled through 10,000: at most {rows_small} rows held, resident memory +{rss_small} KiB; \
         through 100,000: at most {rows_big} rows, +{rss_big} KiB"
    );

    let lib = Library::open(&path).unwrap();
    // What the panel runs for each key of a filter: the first page, and the
    // count as far as the list can scroll before it asks again.
    let mut group = c.benchmark_group("library search over 100k (first page + count up to 1,100)");
    for q in [
        "race",
        "contact pips<100",
        "cube>=4 match",
        "diff>20",
        "bar crawford",
        "tag:blitz",
        "col:quiz money",
        // Text on the trigram index: a rare ID fragment, a common one, a tag
        // word, text with a structured filter; then 1–2 characters (a scan).
        "4HPw",
        "AAAA",
        "blitz",
        "AAAA race",
        "Qw",
        "Qw race",
    ] {
        let query = filter::parse(q).unwrap();
        group.bench_function(q, |b| {
            b.iter(|| {
                let (n, _, page) = lib
                    .search_page(
                        &query,
                        bgedit_library::store::Order::Newest,
                        0,
                        PAGE,
                        COUNT_AHEAD,
                    )
                    .unwrap();
                black_box((n, page.len()))
            })
        });
    }
    group.finish();

    let mut worker = Worker::start(Some(path.clone()));
    c.bench_function("panel opens on 100k", |b| {
        b.iter(|| {
            let m = act(
                Model::default(),
                Action::Library(LibAction::List(ListAction::Open)),
                &mut worker,
            );
            black_box(m.library.rows.len())
        })
    });

    let mut model = act(
        Model::default(),
        Action::Library(LibAction::List(ListAction::Open)),
        &mut worker,
    );
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    let theme = Theme::plain();
    let mut down = true;
    c.bench_function("panel key to frame (j/k, 100k)", |b| {
        b.iter(|| {
            let delta = if down { 1 } else { -1 };
            down = !down;
            let (next, effects) = update(
                std::mem::take(&mut model),
                Action::Library(LibAction::List(ListAction::Move(delta))),
            );
            assert!(effects.is_empty());
            model = next;
            let snap = Snapshot::of(&model);
            terminal.draw(|f| view::draw(f, &snap, &theme)).unwrap();
        })
    });
    c.final_summary();
}
