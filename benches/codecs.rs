//! Speed of the core: reading and writing IDs, drawing gnubg's board text,
//! and whole `convert`/`show` batches streamed through memory, all on
//! varied random positions from a fixed seed (`examples/random_ids.rs`:
//! bars, stacks, borne-off checkers, every match state, both players on
//! roll), never one ID repeated.
//!
//! Targets (issue 6): `bgedit convert` at least 3,000,000 IDs a second and
//! `bgedit show` at least 1,500,000 boards a second on one core.

#[path = "../examples/random_ids.rs"]
#[allow(dead_code)]
mod random_ids;

use bgedit::cli::{BatchOptions, Job, run_batch};
use bgedit_core::codec::text_board;
use bgedit_core::codec::{IdFormat, gnubg_id, parse_any, xgid};
use bgedit_core::domain::{Names, Position};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const SEED: u64 = 2026;
/// Positions each codec bench cycles through.
const SAMPLES: usize = 4096;

fn ids(n: usize) -> String {
    random_ids::random_lines(n, SEED)
}

fn codecs(c: &mut Criterion) {
    let base = Position::default();
    let mut rng = random_ids::Rng::new(SEED);
    let (mut gnubgs, mut xgids) = (Vec::new(), Vec::new());
    for _ in 0..SAMPLES {
        let mut g = String::new();
        random_ids::push_random_id(&mut rng, false, &mut g);
        gnubgs.push(g);
        let mut x = String::new();
        random_ids::push_random_id(&mut rng, true, &mut x);
        xgids.push(x);
    }
    let positions: Vec<Position> = gnubgs
        .iter()
        .map(|g| parse_any(g, &base).unwrap().position)
        .collect();
    let mut i = 0;
    let mut next = || {
        i = (i + 1) % SAMPLES;
        i
    };
    c.bench_function("decode GNUBG ID", |b| {
        b.iter(|| parse_any(black_box(&gnubgs[next()]), &base).unwrap())
    });
    c.bench_function("decode XGID", |b| {
        b.iter(|| parse_any(black_box(&xgids[next()]), &base).unwrap())
    });
    let mut out = String::with_capacity(64);
    c.bench_function("encode GNUBG ID", |b| {
        b.iter(|| {
            let p = &positions[next()];
            out.clear();
            gnubg_id::encode_into(black_box(&p.board), black_box(&p.state), &mut out);
        })
    });
    c.bench_function("encode XGID", |b| {
        b.iter(|| {
            let p = &positions[next()];
            out.clear();
            xgid::encode_into(black_box(&p.board), black_box(&p.state), &mut out);
        })
    });
    let mut text = String::with_capacity(2048);
    c.bench_function("board text", |b| {
        b.iter(|| {
            text.clear();
            text_board::write_board(&mut text, black_box(&positions[next()]));
        })
    });
}

fn batches(c: &mut Criterion) {
    const LINES: usize = 10_000;
    let input = ids(LINES);
    let mut group = c.benchmark_group("batch");
    group.throughput(Throughput::Elements(LINES as u64));
    for (name, job) in [
        ("convert --to gnubg", Job::Convert(IdFormat::GnubgId)),
        ("convert --to xgid", Job::Convert(IdFormat::Xgid)),
        ("show", Job::Show),
    ] {
        let opts = BatchOptions {
            job,
            names: Names::default(),
            quiet: true,
        };
        let mut out = Vec::with_capacity(LINES * 1200);
        group.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                run_batch(&opts, &[], input.as_bytes(), &mut out, std::io::sink()).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, codecs, batches);
criterion_main!(benches);
