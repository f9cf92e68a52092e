//! Helpers shared by the integration tests.
#![allow(dead_code, unreachable_pub)]

use grundy_compute::{fill, fill_reference, Engine, FillConfig, NoProgress};
use grundy_core::{Axis, Game, GrundyTable, Rule, StepSet, TableShape};

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

/// Grundy's game: split a heap into two unequal non-empty heaps.
pub fn grundys_game() -> Game {
    let split = Rule::Split { axis: 0, min_piece: 1, unequal: true };
    Game::new("grundy", "", vec![Axis::new("n", 0)], vec![split]).unwrap()
}

/// Subtraction game with the squares up to `limit`.
pub fn subtract_a_square(limit: u64) -> Game {
    let squares = (1..).map(|k| k * k).take_while(|&s| s <= limit).collect();
    let jump = Rule::Jump { directions: vec![vec![-1]], steps: StepSet::list(squares).unwrap() };
    Game::new("squares", "", vec![Axis::new("n", 0)], vec![jump]).unwrap()
}

/// Subtraction game with the primes.
pub fn subtract_a_prime() -> Game {
    let jump = Rule::Jump { directions: vec![vec![-1]], steps: StepSet::Primes };
    Game::new("primes", "", vec![Axis::new("n", 0)], vec![jump]).unwrap()
}

/// The values of a 1-D table, as plain integers.
pub fn sequence(table: &GrundyTable) -> Vec<u32> {
    table.as_slice().iter().map(|v| v.value()).collect()
}
