//! Speed of the core: reading and writing IDs, drawing gnubg's board text,
//! and whole `convert`/`show` batches streamed through memory.
//!
//! Targets (issue 2): `bgedit convert` at least 1,000,000 IDs a second and
//! `bgedit show` at least 500,000 boards a second on one core.

use bgedit::cli::{BatchOptions, Job, run_batch};
use bgedit::codec::{IdFormat, gnubg_id, parse_any, xgid};
use bgedit::domain::{Names, Position};
use bgedit::text_board;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const GNUBG: &str = "4NvBA0DGzooBBg:QYkqASAAIAAA";
const XGID: &str = "XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10";

fn ids(n: usize) -> String {
    // A mix of real positions from the gnubg fixtures' kinds of input.
    let samples = [
        GNUBG,
        "4HPwATDgc/ABMA:cAkAAAAAAAAA",
        XGID,
        "GNUBG ID: 2x0AAOi2AQAAAA:cAkAAAAAAAAA",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10",
    ];
    let mut s = String::with_capacity(n * 40);
    for i in 0..n {
        s.push_str(samples[i % samples.len()]);
        s.push('\n');
    }
    s
}

fn codecs(c: &mut Criterion) {
    let base = Position::default();
    let p = parse_any(GNUBG, &base).unwrap().position;
    c.bench_function("decode GNUBG ID", |b| {
        b.iter(|| parse_any(black_box(GNUBG), &base).unwrap())
    });
    c.bench_function("decode XGID", |b| {
        b.iter(|| parse_any(black_box(XGID), &base).unwrap())
    });
    let mut out = String::with_capacity(64);
    c.bench_function("encode GNUBG ID", |b| {
        b.iter(|| {
            out.clear();
            gnubg_id::encode_into(black_box(&p.board), black_box(&p.state), &mut out);
        })
    });
    c.bench_function("encode XGID", |b| {
        b.iter(|| {
            out.clear();
            xgid::encode_into(black_box(&p.board), black_box(&p.state), &mut out);
        })
    });
    let mut text = String::with_capacity(2048);
    c.bench_function("board text", |b| {
        b.iter(|| {
            text.clear();
            text_board::write_board(&mut text, black_box(&p));
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
