//! Filling Grundy tables: a plain reference fill and two parallel anti-diagonal engines.
//!
//! - [`fill_reference`] walks the table in row-major order and spells out each cell's options with
//!   [`Game::options`]: slow, obviously right, the oracle for everything else.
//! - [`fill`] with [`Engine::Waves`] compiles the rules into flat move tables and computes each
//!   anti-diagonal wave (cells with equal index sum) in parallel with rayon.
//! - [`fill`] with [`Engine::Tiles`] (the default) runs anti-diagonal waves of tiles in parallel,
//!   keeps line accumulators for slides, stores the narrowest cells that hold the values and
//!   mirrors symmetric games: the fast engine.
//! - [`fill_resumable`] runs the tiled engine so that it can stop between tile-waves and go on
//!   later from the partial table: what checkpoints are made of.
//!
//! # Determinism
//! Every engine returns the same values for every thread count and tile side: a cell's value
//! depends only on earlier (tile-)waves and earlier cells of its own tile, never on timing.
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

pub mod checkpoint;
mod compiled;
mod reference;
mod shared;
mod stream;
mod tiles;
mod wave;

pub use reference::fill_reference;
pub use stream::{stream_rows, streaming_rows, NoStream};

use grundy_core::{CellWidth, Game, GrundyTable, TableShape};
use std::fmt;

/// Which engine fills the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// Row-major, options spelt out per cell; single-threaded.
    Reference,
    /// Compiled move tables, cell anti-diagonal waves in parallel.
    Waves,
    /// Compiled move tables, square tiles in anti-diagonal tile-waves in parallel, line
    /// accumulators for slides: the fast engine.
    #[default]
    Tiles,
}

/// How to fill a table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FillConfig {
    /// The engine.
    pub engine: Engine,
    /// Worker threads; `None` uses rayon's global pool (one thread per core). At most
    /// [`MAX_THREADS_PER_CORE`] per core are started: more only add switching between them.
    pub threads: Option<usize>,
    /// The tile side of [`Engine::Tiles`] (square tiles); `None` picks the tiles for the cache:
    /// 16 × 256 in 2-D (64 × 64 when a symmetric table is mirrored), 16³ in 3-D and 1024 heap
    /// sizes in 1-D. The result does not depend on it.
    pub tile_side: Option<usize>,
}

/// Receives progress reports from a fill, and may cancel it. Implementations must be cheap:
/// `advance` and `cancelled` are called once per wave (per row for the reference fill).
pub trait Progress: Sync {
    /// `cells` more cells are final.
    fn advance(&self, cells: u64);

    /// Whether the fill should stop now, with [`FillError::Cancelled`] (a notebook's interrupt,
    /// a user's stop button). Every engine asks between waves; the default never cancels.
    fn cancelled(&self) -> bool {
        false
    }
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
    ThreadPool(rayon::ThreadPoolBuildError),
    /// A partial table to resume from does not fit the fill.
    Resume(ResumeMismatch),
    /// [`Progress::cancelled`] asked the fill to stop.
    Cancelled,
}

/// How a partial table and its mark differ from the fill that would go on from them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResumeMismatch {
    /// The partial table has another size.
    Size {
        /// The partial table's lengths.
        found: Vec<usize>,
        /// The fill's.
        expected: Vec<usize>,
    },
    /// The mark is for other tiles.
    TileSides {
        /// The mark's tile sides.
        found: [usize; 3],
        /// The fill's.
        expected: [usize; 3],
    },
    /// The mark counts other tile-waves, or more done than there are.
    Waves {
        /// Tile-waves done, by the mark.
        done: usize,
        /// Tile-waves in all, by the mark.
        total: usize,
        /// Tile-waves in all, by the fill.
        expected: usize,
    },
}

impl fmt::Display for FillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FillError::ThreadPool(err) => write!(f, "cannot start the worker threads: {err}"),
            FillError::Cancelled => f.write_str("the fill was cancelled"),
            FillError::Resume(ResumeMismatch::Size { found, expected }) => {
                write!(f, "cannot resume: the partial table has size {found:?}, not {expected:?}")
            }
            FillError::Resume(ResumeMismatch::TileSides { found, expected }) => write!(
                f,
                "cannot resume: the mark is for tiles of sides {found:?}, but this fill uses \
                 tiles of sides {expected:?}"
            ),
            FillError::Resume(ResumeMismatch::Waves { done, total, expected }) => write!(
                f,
                "cannot resume: the mark says {done} of {total} tile-waves done, but this fill \
                 has {expected} tile-waves"
            ),
        }
    }
}

// The thread pool's error is in the message, so it is not also given as a source (a chain
// printed with `{:#}` would show it twice).
impl std::error::Error for FillError {}

/// The widest cells a table of `game` over `shape` can need: its values are bounded by the number
/// of options of a cell. The engines start narrower and widen only when a value needs it, so this
/// is what a caller should budget memory for.
pub fn planned_width(game: &Game, shape: &TableShape) -> CellWidth {
    CellWidth::for_max(compiled::CompiledGame::new(game, shape, true).value_bound())
}

/// The most worker threads started per core. Every wave wakes every thread; far more threads
/// than cores made a fill crawl (`--threads 1024` on 2 cores: the cell-wave fill of Wythoff
/// 2000² had not finished after 500 s; 19.4 s with the cap), while a few per core cost next to
/// nothing and still let the tests run more threads than cores.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The number of threads a fill asked for `threads` starts: at most [`MAX_THREADS_PER_CORE`] per
/// core. Results never depend on it.
pub fn effective_threads(threads: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    threads.clamp(1, MAX_THREADS_PER_CORE * cores)
}

/// Runs `work` on a pool of `threads` threads (see [`effective_threads`]), or on rayon's global
/// pool.
fn on_threads<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> T + Send,
) -> Result<T, FillError> {
    match threads {
        None => Ok(work()),
        Some(threads) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(effective_threads(threads))
                .build()
                .map_err(FillError::ThreadPool)?;
            Ok(pool.install(work))
        }
    }
}

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
        Engine::Reference => reference::fill_reference_with(game, shape, progress),
        Engine::Waves => on_threads(config.threads, || wave::fill_waves(game, shape, progress))?,
        Engine::Tiles => {
            let compiled = compiled::CompiledGame::new(game, shape, true);
            let sides = tiles::tile_sides(&compiled, shape, config.tile_side);
            let waves = tiles::wave_count(&shape.lens(), sides);
            let (table, done) = on_threads(config.threads, || {
                tiles::fill_tiles(&compiled, shape, sides, None, progress, &mut |_, _| {
                    if progress.cancelled() {
                        Control::Stop
                    } else {
                        Control::Continue
                    }
                })
            })?;
            if done < waves {
                return Err(FillError::Cancelled);
            }
            Ok(table)
        }
    }
}

/// What a resumable fill does after a tile-wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Go on with the next tile-wave.
    Continue,
    /// Stop here and return the partial table.
    Stop,
}

/// Where a resumable fill stands: its table is final in the first `done` of `total` tile-waves
/// of tiles with sides `tile_sides`. Together with the table, this is all a fill needs to go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveMark {
    /// Tile-waves whose cells are final.
    pub done: usize,
    /// Tile-waves of the whole table.
    pub total: usize,
    /// The sides of the tiles (1 on the axes a table does not have).
    pub tile_sides: [usize; 3],
}

impl WaveMark {
    /// Whether every tile-wave is final.
    pub fn is_complete(&self) -> bool {
        self.done == self.total
    }
}

/// The tile-waves a resumable fill of `game` over `shape` will run (none done yet): what a
/// checkpoint written by it will record. `config.tile_side` chooses the tiles as in [`fill`],
/// except that heap games are cut into tiles too, so that there is something to resume between.
pub fn plan_waves(game: &Game, shape: &TableShape, config: &FillConfig) -> WaveMark {
    let compiled = compiled::CompiledGame::new(game, shape, true);
    let tile_sides = tiles::tile_sides(&compiled, shape, config.tile_side);
    WaveMark { done: 0, total: tiles::wave_count(&shape.lens(), tile_sides), tile_sides }
}

/// Fills the table of `game` over `shape` with the tiled engine, resumably: after every tile-wave
/// but the last, `after_wave` sees the table (final in the waves the mark counts as done) and may
/// save it, or stop the fill. With `start`, a table and mark that an earlier call's `after_wave`
/// saw (or returned), the fill goes on from there, and the table it returns is identical to one
/// filled in a single call. Returns the table and its mark: complete, unless `after_wave` stopped.
///
/// `config.engine` is ignored (only tile-waves have a resumable order); `config.threads` is used.
///
/// # Errors
/// The thread pool could not be built, or `start` does not fit `game` and `shape`: another shape,
/// a mark for other tiles than [`plan_waves`] gives or with another number of tile-waves, or more
/// done than there are.
pub fn fill_resumable(
    game: &Game,
    shape: &TableShape,
    config: &FillConfig,
    start: Option<(GrundyTable, WaveMark)>,
    progress: &dyn Progress,
    after_wave: &mut (dyn FnMut(&GrundyTable, WaveMark) -> Control + Send),
) -> Result<(GrundyTable, WaveMark), FillError> {
    assert_eq!(game.axes(), shape.axes(), "the shape belongs to another game");
    let compiled = compiled::CompiledGame::new(game, shape, true);
    let mut mark = plan_waves(game, shape, config);
    let start = match start {
        None => None,
        Some((table, from)) => {
            if table.shape().lens() != shape.lens() {
                return Err(FillError::Resume(ResumeMismatch::Size {
                    found: table.shape().lens(),
                    expected: shape.lens(),
                }));
            }
            // The cells of a partial table are final only in the tile-waves of the tiles that
            // filled them: a mark for other tiles (or more waves than there are) would resume
            // into a wrong table, so it must be exactly this plan's.
            if from.tile_sides != mark.tile_sides {
                return Err(FillError::Resume(ResumeMismatch::TileSides {
                    found: from.tile_sides,
                    expected: mark.tile_sides,
                }));
            }
            if from.total != mark.total || from.done > mark.total {
                return Err(FillError::Resume(ResumeMismatch::Waves {
                    done: from.done,
                    total: from.total,
                    expected: mark.total,
                }));
            }
            mark.done = from.done;
            Some((table, from.done))
        }
    };
    let WaveMark { total, tile_sides, .. } = mark;
    on_threads(config.threads, || {
        let (table, done) =
            tiles::fill_tiles(&compiled, shape, tile_sides, start, progress, &mut |table, done| {
                // The caller sees every tile-wave (to save it) before a cancellation stops the
                // fill; the mark it gets back then says how far it went.
                let control = after_wave(table, WaveMark { done, total, tile_sides });
                if progress.cancelled() {
                    Control::Stop
                } else {
                    control
                }
            });
        (table, WaveMark { done, total, tile_sides })
    })
}
