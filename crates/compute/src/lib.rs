//! Filling Grundy tables: a plain reference fill and a parallel anti-diagonal wave fill.
//!
//! - [`fill_reference`] walks the table in row-major order and spells out each cell's options with
//!   [`Game::options`]: slow, obviously right, the oracle for everything else.
//! - [`fill`] with [`Engine::Waves`] compiles the rules into flat move tables and computes each
//!   anti-diagonal wave (cells with equal index sum) in parallel with rayon.
//!
//! # Determinism
//! Every engine returns a bit-identical table for every thread count: a cell's value depends only
//! on earlier waves, and each wave is written back in a fixed order.
//!
//! ```
//! use grundy_compute::{fill, Engine, FillConfig, NoProgress};
//! use grundy_core::{lookup, TableShape};
//!
//! let nim = lookup("nim").unwrap();
//! let shape = TableShape::new(&nim, &[7, 7], "7x7").unwrap();
//! let table = fill(&nim, &shape, &FillConfig::default(), &NoProgress).unwrap();
//! assert_eq!(table.get(&[5, 3]).unwrap().value(), 5 ^ 3);
//! ```
#![warn(missing_docs)]

mod compiled;
mod reference;
mod wave;

pub use reference::fill_reference;

use grundy_core::{Game, GrundyTable, TableShape};
use std::fmt;

/// Which engine fills the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// Row-major, options spelt out per cell; single-threaded.
    Reference,
    /// Compiled move tables, anti-diagonal waves in parallel.
    #[default]
    Waves,
}

/// How to fill a table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FillConfig {
    /// The engine.
    pub engine: Engine,
    /// Worker threads; `None` uses rayon's global pool (one thread per core).
    pub threads: Option<usize>,
}

/// Receives progress reports from a fill. Implementations must be cheap: `advance` is called
/// once per wave.
pub trait Progress: Sync {
    /// `cells` more cells are final.
    fn advance(&self, cells: u64);
}

/// A [`Progress`] that ignores every report.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn advance(&self, _cells: u64) {}
}

/// Why a fill could not run.
#[derive(Debug)]
#[non_exhaustive]
pub enum FillError {
    /// The thread pool could not be built.
    ThreadPool(String),
}

impl fmt::Display for FillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FillError::ThreadPool(reason) => write!(f, "cannot start the worker threads: {reason}"),
        }
    }
}

impl std::error::Error for FillError {}

/// Fills the Grundy table of `game` over `shape` as `config` says.
///
/// The caller checks [`TableShape::value_bytes`] against the memory it is willing to use before
/// calling: the table is allocated here.
///
/// # Panics
/// If `shape` was made for a game with other axes.
pub fn fill(
    game: &Game,
    shape: &TableShape,
    config: &FillConfig,
    progress: &dyn Progress,
) -> Result<GrundyTable, FillError> {
    assert_eq!(game.axes(), shape.axes(), "the shape belongs to another game");
    match config.engine {
        Engine::Reference => {
            let table = fill_reference(game, shape);
            progress.advance(table.as_slice().len() as u64);
            Ok(table)
        }
        Engine::Waves => match config.threads {
            None => Ok(wave::fill_waves(game, shape, progress)),
            Some(threads) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| FillError::ThreadPool(e.to_string()))?;
                Ok(pool.install(|| wave::fill_waves(game, shape, progress)))
            }
        },
    }
}
