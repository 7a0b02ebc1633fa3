//! Reading and replaying Jellyfish `.mat` matches: 1,000 matches made from
//! the fixtures under tests/fixtures/mat/ (gnubg self-play exports of 1 to
//! 11 points and hand-written site variants, the players renamed in each
//! copy), every decision's position computed and its GNUBG ID written, as
//! `bgedit match` does. The throughput is in positions (decisions).
//! gnubg doing the same work (`import mat`, then stepping every record and
//! asking its GNUBG ID) is timed by benches/mat_gnubg.py; the figures are in
//! docs/matches-mat.md.
//!
//! The `xg` group does the same for XG's binary files: the real matches
//! under tests/fixtures/xg/, read 300 times (archive, inflation, records,
//! XG's analysis named, the replay's check), against gnubg reading XG's own
//! `.mat` export of the same matches (`mat_gnubg.py --xg-exports`); the
//! figures are in docs/matches-xg.md.

use bgedit_core::codec::{IdFormat, match_file, write_as};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

/// The 1,000 files, as bytes (benches/mat_gnubg.py builds the same set).
fn corpus() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mat");
    let mut fixtures: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mat"))
        .collect();
    fixtures.sort();
    // gnubg's Python module crashes on Latin-1 names: both benches read the
    // Latin-1 fixture as UTF-8.
    let texts: Vec<Vec<u8>> = fixtures
        .iter()
        .map(|p| {
            bgedit_core::codec::mat::decode(&std::fs::read(p).unwrap())
                .into_owned()
                .into_bytes()
        })
        .collect();
    (0..1000)
        .map(|i| {
            let text = &texts[i % texts.len()];
            // Vary the names so no two files are the same text.
            let mut out = Vec::with_capacity(text.len() + 64);
            for line in text.split_inclusive(|&b| b == b'\n') {
                if line.contains(&b':') && !line.contains(&b')') && !line.starts_with(b";") {
                    let renamed =
                        String::from_utf8_lossy(line).replacen("gnubg", &format!("player{i}"), 1);
                    out.extend_from_slice(renamed.as_bytes());
                } else {
                    out.extend_from_slice(line);
                }
            }
            out
        })
        .collect()
}

fn decisions_of(files: &[Vec<u8>]) -> usize {
    let mut ids = String::with_capacity(64);
    let mut n = 0;
    for bytes in files {
        let file = match_file::read_bytes(bytes).unwrap();
        let (decisions, _) = match_file::decisions(&file);
        for d in &decisions {
            ids.clear();
            write_as(&d.position, IdFormat::GnubgId, &mut ids);
            black_box(&ids);
        }
        n += decisions.len();
    }
    n
}

fn mat(c: &mut Criterion) {
    let files = corpus();
    let positions = decisions_of(&files);
    eprintln!("mat: 1000 matches, {positions} decisions");
    let mut g = c.benchmark_group("mat");
    g.sample_size(10);
    g.throughput(Throughput::Elements(positions as u64));
    g.bench_function("read and replay 1000 matches", |b| {
        b.iter(|| decisions_of(black_box(&files)))
    });
    // The reading alone (the .mat reader, its board walk included), to
    // show where the time goes.
    g.bench_function("read 1000 matches (no replay)", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| {
                    bgedit_core::codec::mat::read_bytes(black_box(f))
                        .unwrap()
                        .record
                        .games
                        .len()
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

fn xg(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/xg");
    let mut real: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xg"))
        .collect();
    real.sort();
    let real: Vec<Vec<u8>> = real.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let files: Vec<Vec<u8>> = (0..300).map(|i| real[i % real.len()].clone()).collect();
    let positions = decisions_of(&files);
    eprintln!("xg: 300 matches, {positions} decisions");
    let mut g = c.benchmark_group("xg");
    g.sample_size(10);
    g.throughput(Throughput::Elements(positions as u64));
    g.bench_function("read and replay 300 XG matches", |b| {
        b.iter(|| decisions_of(black_box(&files)))
    });
    g.finish();
}

criterion_group!(benches, mat, xg);
criterion_main!(benches);
