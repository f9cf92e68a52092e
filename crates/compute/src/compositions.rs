//! Every composition of the engine's parts that exists — kernel (moves with line summaries,
//! without, read through the mirror) × plan (tiles of several sides, mirrored tiles, single
//! cells, rows) × store (dense, ring) × executor (sequential, rayon on 1, 2 and 8 threads) —
//! against the reference fill, on every catalog game.

use crate::executor::Executor;
use crate::kernel::{Slides, StencilKernel};
use crate::plan::{Halves, Plan};
use crate::progress::{Control, NoProgress};
use crate::reference::fill_reference;
use crate::store::{DenseStore, RingStore};
use grundy_core::game::catalog;
use grundy_core::{lookup, GrundyTable, Nimber, TableShape};

/// The kernels there are for `shape`, named, each with whether it must run on a mirrored plan.
fn kernels(
    game: &grundy_core::Game,
    shape: &TableShape,
) -> Vec<(&'static str, StencilKernel, bool)> {
    let lines = StencilKernel::new(game, shape, Slides::Summarised);
    let mut kernels = vec![
        ("without lines", StencilKernel::new(game, shape, Slides::Walked), false),
        ("with lines", lines.clone(), false),
    ];
    if lines.compiled().halves(shape) == Halves::Mirrored {
        kernels.push(("through the mirror", lines.transposing_columns(), true));
    }
    kernels
}

/// The plans there are for `shape` and `kernel`, named.
fn plans(shape: &TableShape, kernel: &StencilKernel, halves: Halves) -> Vec<(String, Plan)> {
    let lens = shape.lens();
    let reads = kernel.reads();
    let mut plans = Vec::new();
    for side in [None, Some(1), Some(3), Some(7), Some(100)] {
        let plan = Plan::tiles(lens.clone(), reads.clone(), side, halves);
        plans.push((format!("tiles {:?}", plan.tile_sides()), plan));
    }
    if halves == Halves::Whole {
        plans.push(("cells".to_string(), Plan::cells(lens.clone(), reads.clone())));
        if lens.len() == 2 && reads.halo[0].is_some_and(|back| back < lens[0]) {
            plans.push(("rows".to_string(), Plan::rows(lens, reads)));
        }
    }
    plans
}

fn run_dense(
    shape: &TableShape,
    plan: &Plan,
    kernel: &StencilKernel,
    executor: Executor,
) -> GrundyTable {
    let mut store = DenseStore::new(shape, plan);
    let mark =
        executor.run(plan, 0, kernel, &mut store, &NoProgress, &mut |_, _| Control::Continue);
    assert!(mark.is_complete());
    store.into_table()
}

fn run_ring(
    shape: &TableShape,
    plan: &Plan,
    kernel: &StencilKernel,
    executor: Executor,
) -> GrundyTable {
    let mut store = RingStore::new(plan);
    let mut values = Vec::new();
    executor.run(plan, 0, kernel, &mut store, &NoProgress, &mut |store, mark| {
        values.extend(store.row(mark.done - 1).iter().map(|&v| Nimber(v)));
        Control::Continue
    });
    GrundyTable::from_nimbers(shape.clone(), &values)
}

#[test]
fn every_composition_agrees_with_the_reference() {
    let mut compositions = 0;
    let families = ["subtraction:2,5", "octal:0.6", "octal:4.07", "octal:0.137"];
    let specs = catalog().into_iter().map(|e| e.name).filter(|name| !name.contains(':'));
    // Loopy games have no wave fill (the retrograde kernel's tests check them).
    let mut games: Vec<_> = specs
        .chain(families.map(String::from))
        .map(|name| lookup(&name).unwrap())
        .filter(|game| !game.is_loopy())
        .collect();
    // Games of fixed steps only run the row loop of `StencilKernel::fill_row` and the sweep of
    // `StencilKernel::fill_sliced` (kiki is one): steps several rows up and columns back, along
    // the row, symmetric or not, on rows longer than the row loop's chunks of 256 cells, in
    // tables taller than a sweep's 64 rows.
    for (name, offsets) in [
        ("stencil-uneven", "[[0, -1], [0, -3], [-1, -2], [-2, 0], [-1, -1], [-2, -5]]"),
        ("stencil-even", "[[0, -2], [-2, 0], [-1, -1], [0, -1], [-1, 0]]"),
    ] {
        let spec = format!(
            "name = \"{name}\"\ndescription = \"t\"\n\
             axes = [{{ name = \"x\", min = 0 }}, {{ name = \"y\", min = 0 }}]\n\
             [[rules]]\nkind = \"step\"\noffsets = {offsets}\n"
        );
        games.push(grundy_core::parse_spec(&spec, name).unwrap());
    }
    // Misère play enters at one place (`Play::value`); every composition must carry it. Games
    // whose moves leave sums have no misère table (the request refuses them).
    let misere: Vec<_> = games
        .iter()
        .filter(|game| !game.options_are_sums())
        .map(|game| game.clone().with_play(grundy_core::Play::Misere))
        .collect();
    games.extend(misere);
    for game in games {
        let name = format!("{} ({})", game.name(), game.play());
        let sizes: Vec<Vec<i64>> = match game.dims() {
            1 => vec![vec![300]],
            // 150 rows: strips of 64 swept in units of 100 rows and of 64.
            2 if name.starts_with("stencil") => vec![vec![29, 29], vec![9, 600], vec![150, 140]],
            2 => vec![vec![29, 29], vec![31, 23]],
            _ => vec![vec![8, 7, 9]],
        };
        for max in sizes {
            let shape = TableShape::new(&game, &max, "test").unwrap();
            let reference = fill_reference(&game, &shape);
            for (kernel_name, kernel, mirrored) in kernels(&game, &shape) {
                let halves_options: &[Halves] = if mirrored {
                    &[Halves::Mirrored]
                } else if kernel.compiled().halves(&shape) == Halves::Mirrored {
                    &[Halves::Whole, Halves::Mirrored]
                } else {
                    &[Halves::Whole]
                };
                for &halves in halves_options {
                    for (plan_name, plan) in plans(&shape, &kernel, halves) {
                        for threads in [1, 2, 8] {
                            let count = crate::threads::ThreadCount::new(threads).unwrap();
                            let pool = crate::threads::Threads::new(Some(count)).unwrap();
                            for executor in [Executor::Sequential, Executor::Rayon] {
                                let what = format!(
                                    "{} {max:?}: kernel {kernel_name}, plan {plan_name}, \
                                     {executor:?} on {threads} threads",
                                    name
                                );
                                let dense =
                                    pool.install(|| run_dense(&shape, &plan, &kernel, executor));
                                assert!(dense == reference, "{what}, dense store");
                                compositions += 1;
                                if plan_name == "rows" {
                                    let ring =
                                        pool.install(|| run_ring(&shape, &plan, &kernel, executor));
                                    assert!(ring == reference, "{what}, ring store");
                                    compositions += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(compositions > 500, "only {compositions} compositions ran");
}
