//! `library like` on a million positions (issue 42): the index against a
//! scan of every entry, in the same run.
//!
//! - the library: 1,000,000 distinct random legal positions from a fixed
//!   seed (`tests/common/random.rs`: 5–15 checkers a side spread over the
//!   points and the bar, money and match, cubes, dice or none), imported
//!   as `library import` does; the import's time, and the index built on
//!   that library again as the migration builds it for an existing file;
//!   the file's size with and without the index; and 100,000 imported
//!   with the index and without it, taking turns;
//! - 100 queries: 50 fresh random positions (another seed) and 50 of the
//!   library's own entries, 10 nearest each, then 10 more with
//!   `--same-kind`; each query's time by the index and by a scan, their
//!   median and worst, and the cells and index entries the index read;
//!   every answer checked equal to the scan's.
//!
//! `cargo bench --bench like` (10 minutes and more: the import is most
//! of it); `LIKE_BENCH_N=100000` for a smaller library;
//! `LIKE_BENCH_IMPORT_ONLY=1` for the import's figures alone.

#[path = "../tests/common/random.rs"]
mod random;

use bgedit::cli::library::import_text;
use bgedit_core::codec::{IdFormat, to_string_as};
use bgedit_core::domain::Position;
use bgedit_library::Library;
use bgedit_library::schema::LATEST;
use std::path::Path;
use std::time::{Duration, Instant};

const SEED: u64 = 20261128;
const QUERY_SEED: u64 = 4242;

fn import(path: &Path, positions: &[Position]) -> Duration {
    let mut lib = Library::open(path).unwrap();
    let started = Instant::now();
    for chunk in positions.chunks(100_000) {
        let mut text = String::with_capacity(chunk.len() * 30);
        for p in chunk {
            text.push_str(&to_string_as(p, IdFormat::GnubgId));
            text.push('\n');
        }
        let report =
            import_text(&mut lib, "bench", &text, |_| {}, &mut Default::default()).unwrap();
        assert_eq!(report.added as usize, chunk.len(), "{report:?}");
    }
    started.elapsed()
}

/// The index dropped (columns and all), the file vacuumed: its size then.
fn without_index(path: &Path) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(
        "DROP INDEX entries_like; ALTER TABLE entries DROP COLUMN like_shape; \
         ALTER TABLE entries DROP COLUMN like_kind; ALTER TABLE entries DROP COLUMN like_cell; \
         PRAGMA wal_checkpoint(TRUNCATE); VACUUM;",
    )
    .unwrap();
    conn.pragma_update(None, "user_version", LATEST - 1)
        .unwrap();
}

fn size(path: &Path) -> u64 {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE); VACUUM;")
        .unwrap();
    std::fs::metadata(path).unwrap().len()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Median and worst of some times, in ms.
fn spread(times: &mut [Duration]) -> (f64, f64) {
    times.sort();
    (ms(times[times.len() / 2]), ms(times[times.len() - 1]))
}

fn queries(lib: &Library, queries: &[Position], same_kind: bool, label: &str) {
    let (mut by_index, mut by_scan) = (Vec::new(), Vec::new());
    let (mut cells, mut rows) = (Vec::new(), Vec::new());
    for q in queries {
        let t = Instant::now();
        let found = lib.like(q, 10, same_kind).unwrap();
        by_index.push(t.elapsed());
        let t = Instant::now();
        let scanned = lib.like_by_scan(q, 10, same_kind).unwrap();
        by_scan.push(t.elapsed());
        assert_eq!(
            found.positions,
            scanned.positions,
            "{}",
            to_string_as(q, IdFormat::GnubgId)
        );
        cells.push(found.cells);
        rows.push(found.rows);
    }
    let (i_med, i_worst) = spread(&mut by_index);
    let (s_med, s_worst) = spread(&mut by_scan);
    cells.sort();
    rows.sort();
    println!(
        "{label}: {} queries, 10 nearest: index median {i_med:.1} ms, worst {i_worst:.1} ms \
         (cells looked up: median {}, most {}; index entries read: median {}, most {}); \
         scan median {s_med:.1} ms, worst {s_worst:.1} ms; answers equal",
        queries.len(),
        cells[cells.len() / 2],
        cells[cells.len() - 1],
        rows[rows.len() / 2],
        rows[rows.len() - 1],
    );
}

fn main() {
    let n: usize = std::env::var("LIKE_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("like.sqlite");
    let t = Instant::now();
    let positions = random::distinct(SEED, n);
    println!(
        "generated {n} positions in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    // What the index adds to an import: 100,000 into a new library with
    // it, and into one whose index was dropped first (the columns are
    // still written with each row), taking turns.
    let part = &positions[..n.min(100_000)];
    for round in 0..2 {
        let with = dir.path().join(format!("with{round}.sqlite"));
        let t_with = import(&with, part);
        let without = dir.path().join(format!("without{round}.sqlite"));
        drop(Library::open(&without).unwrap());
        rusqlite::Connection::open(&without)
            .unwrap()
            .execute_batch("DROP INDEX entries_like")
            .unwrap();
        let t_without = import(&without, part);
        println!(
            "import of {} positions, round {round}: {:.2} s with the index, {:.2} s without",
            part.len(),
            t_with.as_secs_f64(),
            t_without.as_secs_f64()
        );
        for file in [with, without] {
            std::fs::remove_file(&file).unwrap();
        }
    }
    if std::env::var_os("LIKE_BENCH_IMPORT_ONLY").is_some() {
        return;
    }
    let took = import(&path, &positions);
    println!(
        "imported {n} positions with the index in {:.1} s",
        took.as_secs_f64()
    );
    let with = size(&path);
    without_index(&path);
    let bare = size(&path);
    let t = Instant::now();
    drop(Library::open(&path).unwrap());
    let build = t.elapsed();
    println!(
        "the index built on the {n} entries (the migration) in {:.1} s; file {:.1} MB with it, \
         {:.1} MB without: {:.1} MB, {:.0} bytes an entry",
        build.as_secs_f64(),
        with as f64 / 1e6,
        bare as f64 / 1e6,
        (with - bare) as f64 / 1e6,
        (with - bare) as f64 / n as f64
    );
    let lib = Library::open(&path).unwrap();
    let mut rng = random::Rng::new(QUERY_SEED);
    let fresh: Vec<Position> = (0..50).map(|_| random::position(&mut rng)).collect();
    let own: Vec<Position> = (0..50)
        .map(|_| positions[rng.below(n as u64) as usize].clone())
        .collect();
    // Warm the page cache as a second query in a session finds it.
    lib.like_by_scan(&fresh[0], 10, false).unwrap();
    queries(&lib, &fresh, false, "fresh random positions");
    queries(&lib, &own, false, "the library's own entries");
    queries(&lib, &fresh[..10], true, "fresh, --same-kind");
}
