//! Helpers shared by the integration tests.
#![allow(dead_code, unreachable_pub)]

use grundy_compute::{fill, fill_reference, Engine, FillConfig, NoProgress};
use grundy_core::{Game, GrundyTable, TableShape};

/// Fills `game` up to `max` with every engine path (reference; waves on 1, 2 and 8 threads),
/// asserts that all the tables are identical, and returns the table.
pub fn fill_all_ways(game: &Game, max: &[i64]) -> GrundyTable {
    let shape = TableShape::new(game, max, "test").unwrap();
    let reference = fill_reference(game, &shape);
    for threads in [1, 2, 8] {
        let config = FillConfig { engine: Engine::Waves, threads: Some(threads) };
        let waves = fill(game, &shape, &config, &NoProgress).unwrap();
        assert!(
            waves == reference,
            "{} up to {max:?}: the wave fill on {threads} threads differs from the reference",
            game.name()
        );
    }
    reference
}

/// Fills `game` up to `max` with the default (wave) engine only.
pub fn fill_waves(game: &Game, max: &[i64]) -> GrundyTable {
    let shape = TableShape::new(game, max, "test").unwrap();
    fill(game, &shape, &FillConfig::default(), &NoProgress).unwrap()
}

/// The values of a 1-D table, as plain integers.
pub fn sequence(table: &GrundyTable) -> Vec<u32> {
    table.as_slice().iter().map(|v| v.value()).collect()
}
