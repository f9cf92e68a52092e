//! Analysing 2000×2000 tables, rows, columns and diagonals included, and long heap sequences.
//!
//! `cargo bench -p grundy-catalog --bench patterns`

use criterion::{criterion_group, criterion_main, Criterion};
use grundy_compute::{FillRequest, NoProgress};
use grundy_core::{lookup, GrundyTable, Table, TableShape};
use grundy_laws::conjecture::{check, ClaimKind, Conjecture};
use grundy_laws::{analyze, periodicity::find_period};
use std::hint::black_box;

fn table(name: &str, max: &[i64]) -> GrundyTable {
    let game = lookup(name).unwrap();
    let shape = TableShape::new(&game, max, "bench").unwrap();
    FillRequest::new(&game, &shape)
        .table(&grundy_compute::memory::Besides::NOTHING)
        .unwrap()
        .fill(&NoProgress)
        .unwrap()
}

fn boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("analyze");
    group.sample_size(10);
    for (name, max) in
        [("kiki", [2000, 2000]), ("wythoff", [1999, 1999]), ("cutting", [2001, 2001])]
    {
        let described = Table::of_game(lookup(name).unwrap(), table(name, &max));
        group.bench_function(format!("{name}-2000x2000"), |b| {
            b.iter(|| black_box(analyze(&described).unwrap()))
        });
    }
    let kayles: Vec<u32> = table("kayles", &[100_000]).cells().to_u32_vec();
    group.bench_function("kayles-sequence-100001", |b| b.iter(|| black_box(find_period(&kayles))));
    group.finish();
}

fn checks(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    let kiki_table = Table::of_game(lookup("kiki").unwrap(), table("kiki", &[4000, 4000]));
    let claims = [
        ("p-set", ClaimKind::PSet, "n % 2 == 1 && m % 2 == 1"),
        ("holds", ClaimKind::Holds, "g <= 3 && (g == 0) == (n % 2 == 1 && m % 2 == 1)"),
    ];
    for (label, kind, text) in claims {
        let conjecture = Conjecture::parse(kind, text, &["n", "m"]).unwrap();
        group.bench_function(format!("kiki-4000x4000-{label}"), |b| {
            b.iter(|| black_box(check(&kiki_table, &conjecture, None, 10).unwrap()))
        });
    }
    group.finish();
}

/// Issue 30: a sequence of 10^6 values against the whole shipped index (read and windowed
/// once, outside the timing), for a match (Kayles), values no game has, and the P-positions
/// of Dawson's Kayles with other values.
fn identify(c: &mut Criterion) {
    use grundy_catalog::identify::{Index, Sequence, DEFAULT_SHIFT};
    let index = Index::builtin();
    let values = |name: &str| table(name, &[999_999]).cells().to_u32_vec();
    let kayles = values("kayles");
    let scrambled: Vec<u32> =
        (0..1_000_000u32).map(|n| n.wrapping_mul(2_654_435_761) % 50).collect();
    let raised: Vec<u32> =
        values("dawsons-kayles").into_iter().map(|v| if v == 0 { 0 } else { v + 1 }).collect();
    index.identify(&Sequence::of(0, vec![0; 100]), DEFAULT_SHIFT);
    let mut group = c.benchmark_group("identify 10^6 values");
    group.sample_size(10);
    for (name, values) in [("kayles", kayles), ("no game", scrambled), ("p-positions only", raised)]
    {
        let query = Sequence::of(0, values);
        group.bench_function(name, |b| b.iter(|| index.identify(&query, DEFAULT_SHIFT)));
    }
    group.finish();
}

criterion_group!(benches, boards, checks, identify);
criterion_main!(benches);
