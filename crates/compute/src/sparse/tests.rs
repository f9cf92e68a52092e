use super::*;
use crate::reference::fill_reference;
use grundy_core::lookup;

/// Heaps 0..=n of `name` with two workers pipelining every heap (however cheap) on a pool
/// of `threads`, in units of `unit` heaps; and the cost of the heaps the second worker
/// finished.
fn pipelined(name: &str, n: usize, threads: usize, unit: usize) -> (GrundyTable, u64) {
    let game = lookup(name).unwrap();
    let shape = TableShape::new(&game, &[n as i64], "test").unwrap();
    let moves = HeapMoves::new(&game, &shape).unwrap();
    let mut store = SparseStore::new(&moves, &shape);
    let count = crate::threads::ThreadCount::new(threads).unwrap();
    let pool = crate::threads::Threads::new(Some(count)).unwrap();
    pool.install(|| {
        for lo in (0..=n).step_by(unit) {
            store.expensive = true;
            let hi = (lo + unit).min(n + 1);
            let unit = Unit { lo: [lo, 0, 0], hi: [hi, 1, 1], lower_only: false };
            store.fill_wave(&moves, &[unit], Executor::Rayon);
        }
    });
    let second = store.workers.get(1).map_or(0, |w| w.cost);
    (store.into_table(), second)
}

// Issue 14: the pipelined workers give the reference's values whatever the heaps cost,
// the units' lengths and the pool, through a widening from u8 to u16 cells (0.7…7 with
// 300 digits has values up to 700) and on Grundy's game (which splits without taking).
#[test]
fn pipelined_workers_give_the_reference_values() {
    let sevens = format!("octal:0.{}", "7".repeat(300));
    let games = ["octal:0.16", "octal:0.376", "octal:4.07", "octal:0.6", "grundys-game"];
    for name in games.iter().copied().chain([sevens.as_str()]) {
        let game = lookup(name).unwrap();
        let n = 700;
        let shape = TableShape::new(&game, &[n as i64], "test").unwrap();
        let reference = fill_reference(&game, &shape);
        for (threads, unit) in [(2, 1), (2, 7), (2, 1024), (3, 97), (8, 1024)] {
            let (values, _) = pipelined(name, n, threads, unit);
            assert!(values == reference, "{name}: {threads} threads, units of {unit}");
        }
    }
}

// Issue 14: long runs with both workers busy, against one worker alone.
#[test]
fn pipelined_workers_share_long_runs_and_agree_with_one_worker() {
    for (name, n) in [("octal:0.376", 60_000), ("grundys-game", 60_000), ("octal:0.16", 200_000)] {
        let (values, second) = pipelined(name, n, 2, 1 << 16);
        let game = lookup(name).unwrap();
        let shape = TableShape::new(&game, &[n as i64], "test").unwrap();
        let moves = HeapMoves::new(&game, &shape).unwrap();
        let mut alone = SparseStore::new(&moves, &shape);
        let unit = Unit { lo: [0, 0, 0], hi: [n + 1, 1, 1], lower_only: false };
        alone.fill_wave(&moves, &[unit], Executor::Sequential);
        assert!(values == alone.into_table(), "{name} to {n}");
        assert!(second > 0, "{name}: the second worker finished no heap");
    }
}

/// The pairs read to fill heaps 0..=n of `name` with one worker (its cost counter: pairs
/// read, the rare list's counted twice). The values are the tiles' (`tests/sparse.rs`).
fn cost_alone(name: &str, n: usize) -> u64 {
    let game = lookup(name).unwrap();
    let shape = TableShape::new(&game, &[n as i64], "test").unwrap();
    let moves = HeapMoves::new(&game, &shape).unwrap();
    let mut store = SparseStore::new(&moves, &shape);
    let unit = Unit { lo: [0, 0, 0], hi: [n + 1, 1, 1], lower_only: false };
    store.fill_wave(&moves, &[unit], Executor::Sequential);
    store.workers[0].cost
}

// Issue 50: `compute dawsons-kayles --search-all` was quadratic (a third of its heaps are
// rare under every mask), and Kayles' scans read a whole break when the candidate came from
// the other. Through their periodic tails both read a bounded number of pairs a heap:
// four times the heaps, about four times the pairs (it was sixteen).
#[test]
fn periodic_games_are_searched_in_linear_time() {
    for name in ["dawsons-kayles", "kayles", "octal:0.51"] {
        let (small, large) = (cost_alone(name, 1 << 13), cost_alone(name, 1 << 15));
        assert!(large < 5 * small, "{name}: {small} pairs to 2^13, {large} to 2^15");
    }
}

#[test]
fn the_best_mask_makes_the_fewest_positions_rare() {
    // Extended values 2·v + parity: v in {2, 3} at both parities, v = 0 twice.
    let mut histogram = vec![0u64; 8];
    for e in [4, 5, 6, 7, 4, 6, 0, 0] {
        histogram[e] += 1;
    }
    let (mask, rare_class) = best_mask(&histogram, Some(1));
    let rare = |m: u64, class: u32| {
        (0..8u64)
            .filter(|e| (e & m).count_ones() % 2 == class)
            .map(|e| histogram[e as usize])
            .sum::<u64>()
    };
    let fewest = (1..8).map(|m| rare(m, (m % 2) as u32)).min().unwrap();
    assert_eq!(rare(mask, rare_class), fewest);
    assert_eq!(fewest, 2, "mask {mask:b}: only the two zeros are rare");
    assert_eq!(best_mask(&[5], Some(1)), (0, 0), "nothing to gain: every position stays rare");
    // Nine positions of value 0 at odd heaps, one of value 1 at an even heap. Reading the
    // heap parity and value bit 0 (mask 3) puts both in class 1, so none is rare; breaks of
    // both parities allow even masks only, and value bit 0 alone (mask 2) leaves nine.
    assert_eq!(best_mask(&[0, 9, 1, 0], Some(0)), (3, 0));
    assert_eq!(best_mask(&[0, 9, 1, 0], None), (2, 0));
}
