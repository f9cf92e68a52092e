//! A game stated in a spec file runs at the speed of the catalog entry and of the same game built
//! with the Rust API: rules are compiled once per table, not interpreted per cell.
//!
//! `cargo bench -p grundy-compute --bench spec`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use grundy_compute::{FillRequest, NoProgress, Runtime, ThreadCount, Threads};
use grundy_core::{lookup, parse_spec, Axis, Game, Rule, StepSet, TableShape};
use std::hint::black_box;

/// kiki as a user might write it: a jump by 1 instead of steps.
const KIKI_SPEC: &str = r#"
name = "my-kiki"
axes = [{ name = "n", min = 1 }, { name = "m", min = 1 }]
[[rules]]
kind = "jump"
directions = [[-1, 0], [0, -1], [-1, -1]]
steps = [1]
"#;

/// prime-steps as a user might write it: one rule per direction.
const PRIME_STEPS_SPEC: &str = r#"
name = "my-prime-steps"
axes = [{ name = "n", min = 1 }, { name = "m", min = 1 }]
[[rules]]
kind = "jump"
directions = [[-1, 0]]
steps = "primes"
[[rules]]
kind = "jump"
directions = [[0, -1]]
steps = "primes"
[[rules]]
kind = "jump"
directions = [[-1, -1]]
steps = "primes"
"#;

fn rust_api(steps: StepSet) -> Game {
    let axes = vec![Axis::new("n", 1), Axis::new("m", 1)];
    let directions = vec![vec![-1, 0], vec![0, -1], vec![-1, -1]];
    Game::new("api", "", axes, vec![Rule::Jump { directions, steps }]).unwrap()
}

fn spec_against_catalog(c: &mut Criterion) {
    let workloads = [
        ("kiki", &[1000i64, 1000][..], KIKI_SPEC, StepSet::list(vec![1]).unwrap()),
        ("prime-steps", &[400, 400][..], PRIME_STEPS_SPEC, StepSet::primes()),
    ];
    for (name, max, spec, steps) in workloads {
        let mut group = c.benchmark_group(format!("stated/{name}"));
        group.sample_size(10);
        let games = [
            ("catalog", lookup(name).unwrap()),
            ("spec-file", parse_spec(spec, "bench.toml").unwrap()),
            ("rust-api", rust_api(steps)),
        ];
        for (label, game) in &games {
            let shape = TableShape::new(game, max, "bench").unwrap();
            let threads = Threads::new(Some(ThreadCount::new(1).unwrap())).unwrap();
            let fill = FillRequest {
                runtime: Runtime::new(threads, Default::default()),
                ..FillRequest::new(game, &shape)
            }
            .table(&grundy_compute::memory::Besides::NOTHING)
            .unwrap();
            group.bench_function(BenchmarkId::from_parameter(label), |b| {
                b.iter(|| black_box(fill.fill(&NoProgress).unwrap()))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, spec_against_catalog);
criterion_main!(benches);
