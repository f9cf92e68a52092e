//! Reference fill against the wave fill on 1 and 2 threads, side by side, per engine path.
//!
//! `cargo bench -p grundy-compute --bench fill`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use grundy_compute::{Engine, FillRequest, NoProgress, Runtime, ThreadCount, Threads};
use grundy_core::{lookup, parse_spec, Game, TableShape};
use std::hint::black_box;

/// (game, size): one workload per rule kind the engine compiles.
const WORKLOADS: &[(&str, &[i64])] = &[
    ("kiki", &[400, 400]),            // steps
    ("prime-steps", &[200, 200]),     // jumps over an unbounded set
    ("wythoff", &[150, 150]),         // slides
    ("cutting", &[80, 80]),           // splits
    ("octal:0.77", &[1500]),          // take-and-break
    ("subtraction:1,3,4", &[20_000]), // 1-D jumps
];

fn engines(c: &mut Criterion) {
    for &(name, max) in WORKLOADS {
        let game = lookup(name).unwrap();
        let shape = TableShape::new(&game, max, "bench").unwrap();
        let mut group = c.benchmark_group(format!("fill/{name}"));
        group.sample_size(10);
        let configs = [
            ("reference", Engine::Reference, 1),
            ("waves-1", Engine::Waves, 1),
            ("waves-2", Engine::Waves, 2),
            ("tiles-1", Engine::Tiles, 1),
            ("tiles-2", Engine::Tiles, 2),
        ];
        for (label, engine, threads) in configs {
            let fill = request(&game, &shape, engine, threads);
            group.bench_with_input(BenchmarkId::from_parameter(label), &fill, |b, fill| {
                b.iter(|| black_box(fill.fill(&NoProgress).unwrap()))
            });
        }
        group.finish();
    }
}

/// Heap games whose values pass 255, so the tiled engine widens its cells mid-fill: one-heap Nim
/// (a slide, read as one contiguous run) and Lasker's Nim (a slide and a split). A whole heap game
/// as one tile once made these cubic (issue 11: Nim to 8000 took 23 s); tiles and waves
/// side by side keep an eye on it.
fn wide_heap_values(c: &mut Criterion) {
    let axes = "axes = [{ name = \"n\", min = 0 }]";
    let games = [
        ("nim-one-heap", format!("name = \"nim1\"\ndescription = \"\"\n{axes}\n[[rules]]\nkind = \"slide\"\ndirections = [[-1]]\n"), 8000),
        ("laskers-nim", format!("name = \"lasker\"\ndescription = \"\"\n{axes}\n[[rules]]\nkind = \"slide\"\ndirections = [[-1]]\n[[rules]]\nkind = \"split\"\naxis = \"n\"\nmin-piece = 1\n"), 3000),
    ];
    for (name, spec, size) in games {
        let game = parse_spec(&spec, name).unwrap();
        let shape = TableShape::new(&game, &[size], "bench").unwrap();
        let mut group = c.benchmark_group(format!("wide-values/{name}-{size}"));
        group.sample_size(10);
        for (label, engine) in [("waves-1", Engine::Waves), ("tiles-1", Engine::Tiles)] {
            let fill = request(&game, &shape, engine, 1);
            group.bench_function(label, |b| b.iter(|| black_box(fill.fill(&NoProgress).unwrap())));
        }
        group.finish();
    }
}

/// The in-memory fill of `game` over `shape` with `engine` on a pool of `threads`, prepared once
/// (the game compiled, the pool started) outside the timed loop.
fn request<'g>(
    game: &'g Game,
    shape: &'g TableShape,
    engine: Engine,
    threads: usize,
) -> grundy_compute::TableFill<'g> {
    let threads = Threads::new(Some(ThreadCount::new(threads).unwrap())).unwrap();
    FillRequest {
        engine,
        runtime: Runtime::new(threads, Default::default()),
        ..FillRequest::new(game, shape)
    }
    .table(&grundy_compute::memory::Besides::NOTHING)
    .unwrap()
}

criterion_group!(benches, engines, wide_heap_values);
criterion_main!(benches);
