//! Speed of the exchange formats and the pictures, over the 230 varied
//! positions of gnubg's format fixtures (each iteration reads or writes all
//! of them), and one picture drawn as SVG and as PNG.

use bgedit_core::codec::{IdFormat, fibs, sgf, snowie, to_string_as};
use bgedit_core::domain::Position;
use bgedit_picture::{Options, Theme, png, svg};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::Deserialize;
use std::hint::black_box;

#[derive(Deserialize)]
struct Row {
    kind: String,
    sgf: String,
    snowie: Option<String>,
    fibs: Option<String>,
}

fn formats(c: &mut Criterion) {
    let rows: Vec<Row> = include_str!("../tests/fixtures/gnubg_formats.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &Row| r.kind == "position")
        .collect();
    let positions: Vec<Position> = rows.iter().map(|r| sgf::read(&r.sgf).unwrap()).collect();
    let n = rows.len() as u64;
    let mut g = c.benchmark_group("formats");
    g.throughput(Throughput::Elements(n));
    g.bench_function("read SGF", |b| {
        b.iter(|| {
            rows.iter()
                .map(|r| sgf::read(black_box(&r.sgf)).unwrap().state.cube_log2)
                .sum::<u8>()
        })
    });
    g.bench_function("read FIBS", |b| {
        b.iter(|| {
            rows.iter()
                .map(|r| {
                    fibs::read(black_box(r.fibs.as_deref().unwrap()))
                        .unwrap()
                        .state
                        .cube_log2
                })
                .sum::<u8>()
        })
    });
    g.bench_function("read Snowie", |b| {
        b.iter(|| {
            rows.iter()
                .map(|r| {
                    snowie::read(black_box(r.snowie.as_deref().unwrap()))
                        .unwrap()
                        .state
                        .cube_log2
                })
                .sum::<u8>()
        })
    });
    for (name, format) in [
        ("write SGF", IdFormat::Sgf),
        ("write FIBS", IdFormat::Fibs),
        ("write Snowie", IdFormat::Snowie),
        ("write XG text", IdFormat::XgText),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| to_string_as(black_box(p), format).len())
                    .sum::<usize>()
            })
        });
    }
    g.finish();

    let p = &positions[1];
    let options = Options::natural(Theme::Light, true);
    c.bench_function("picture SVG", |b| {
        b.iter(|| svg::render(black_box(p), &options).len())
    });
    let mut g = c.benchmark_group("picture");
    g.sample_size(10);
    g.bench_function("PNG 720x610", |b| {
        b.iter(|| png::render(black_box(p), &options).unwrap().len())
    });
    g.finish();
}

criterion_group!(benches, formats);
criterion_main!(benches);
