//! Filling Grundy tables: a plain reference fill, and one engine made of four parts.
//!
//! - [`fill_reference`] walks the table in row-major order and spells out each cell's options with
//!   [`Game::options`]: slow, obviously right, the oracle for everything else.
//! - The engine composes
//!   - a **plan** ([`plan`]): the table cut into units (tiles, single cells or rows) in
//!     anti-diagonal waves, with what each unit reads; a [`WaveMark`] is a position in it;
//!   - a **kernel** (`kernel.rs`): the game's moves compiled for the table, filling one unit from
//!     a view of the cells and line summaries it reads;
//!   - a **store** (`store.rs`): where values live, the dense in-memory table (the only `unsafe`)
//!     or the streaming fill's ring of rows;
//!   - an **executor** (`executor.rs`): runs the waves on the current rayon pool, and after each
//!     one reports progress, honours cancellation and calls back (checkpoints, streamed rows).
//! - [`fill`] runs it with [`Engine::Tiles`] (tiles, line summaries for slides, the narrowest
//!   cells, mirrored symmetric tables), [`Engine::Waves`] (single cells, every slide walked,
//!   nothing mirrored: a check on the tiled engine) or [`Engine::Sparse`] (the sparse-space
//!   kernel and store of `sparse.rs` for heap games that take and break into at most two heaps);
//!   [`Engine::Auto`], the default, picks the sparse one where it applies and the tiles
//!   elsewhere. [`fill_resumable`] stops between waves and goes on later from the partial table:
//!   what checkpoints are made of. [`RowStream`] runs rows into a ring, for tables larger than
//!   memory.
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

pub mod bands;
pub mod checkpoint;
mod compiled;
#[cfg(test)]
mod compositions;
mod executor;
mod kernel;
pub mod memory;
pub mod plan;
mod records;
mod reference;
mod shared;
mod sparse;
mod store;
mod stream;

pub use plan::{Plan, WaveMark};
pub use records::SequenceRecords;
pub use reference::fill_reference;
pub use sparse::{sparse_records, NotSparse, SparseRecords};
pub use stream::{stream_rows, streaming_rows, NoStream, RingStore, RowStream};

use executor::Executor;
use grundy_core::{CellWidth, Game, GrundyTable, TableShape};
use kernel::StencilKernel;
use sparse::{HeapMoves, SparseStore};
use std::fmt;
use store::DenseStore;

/// Which engine fills the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The fastest engine for the game: [`Engine::Sparse`] for the heap games it computes,
    /// [`Engine::Tiles`] for every other game.
    #[default]
    Auto,
    /// Row-major, options spelt out per cell; single-threaded.
    Reference,
    /// Compiled move tables, cell anti-diagonal waves in parallel.
    Waves,
    /// Compiled move tables, square tiles in anti-diagonal tile-waves in parallel, line
    /// accumulators for slides: the fast engine for boards.
    Tiles,
    /// The sparse-space (rare/common) method for heap games whose moves leave at most two heaps
    /// (see [`sparse_eligibility`]); two workers pipeline consecutive heaps when the heaps are
    /// expensive and the pool has two threads or more.
    Sparse,
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
    /// [`Engine::Sparse`] was asked for a game it does not compute.
    NotSparse(NotSparse),
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
            FillError::NotSparse(why) => write!(f, "{why}"),
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
    TableFill::new(game, shape, &FillConfig::default()).planned_width()
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

/// Runs `work` on a pool of `threads` threads (see [`effective_threads`]), or on the current
/// rayon pool (the caller's, or rayon's global one).
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

/// What a fill does after a wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Go on with the next wave.
    Continue,
    /// Stop here and return the partial table.
    Stop,
}

/// A fill of one game's table, prepared once: the game compiled for the table (the kernel) and
/// the order of the work (the [`Plan`]). [`fill`], [`fill_resumable`], [`plan_waves`] and
/// [`planned_width`] each prepare one; a front end that needs several of them prepares it once.
///
/// The fill itself is a composition: the plan's waves, run by an executor (rayon's current pool,
/// see [`FillConfig::threads`]) with the kernel into a dense in-memory store.
pub struct TableFill<'g> {
    game: &'g Game,
    shape: TableShape,
    /// The engine, resolved: never [`Engine::Auto`].
    engine: Engine,
    threads: Option<usize>,
    kernel: StencilKernel,
    plan: Plan,
    /// The moves for the sparse-space kernel, or why it cannot run the game.
    heap: Option<Result<HeapMoves, NotSparse>>,
}

/// Whether [`Engine::Sparse`] computes `game`: heap games (one axis from 0) whose moves remove
/// stones and leave at most two heaps, at least one of them leaving two.
pub fn sparse_eligibility(game: &Game, shape: &TableShape) -> Result<(), NotSparse> {
    HeapMoves::new(game, shape).map(|_| ())
}

impl<'g> TableFill<'g> {
    /// Prepares the fill of `game` over `shape` as `config` says.
    ///
    /// # Panics
    /// If `shape` was made for a game with other axes.
    pub fn new(game: &'g Game, shape: &TableShape, config: &FillConfig) -> TableFill<'g> {
        assert_eq!(game.axes(), shape.axes(), "the shape belongs to another game");
        let heap = match config.engine {
            Engine::Auto | Engine::Sparse => Some(HeapMoves::new(game, shape)),
            _ => None,
        };
        let engine = match (config.engine, &heap) {
            (Engine::Auto, Some(Ok(_))) => Engine::Sparse,
            (Engine::Auto, _) => Engine::Tiles,
            (engine, _) => engine,
        };
        let (kernel, plan) = match engine {
            // The cell-wave engine walks every slide cell by cell and mirrors nothing: it checks
            // the tiled engine's tiles, line summaries and mirror writes (the reference fill,
            // which shares nothing with either, checks the compiled moves).
            Engine::Waves => {
                let kernel = StencilKernel::new(game, shape, false);
                let plan = Plan::cells(shape.lens(), kernel.reads());
                (kernel, plan)
            }
            // The reference fill has no waves to resume between: resumably, it runs the tiles.
            // The sparse-space method runs the tiles' plan of heap ranges, so that checkpoints
            // of either engine go on with the other.
            Engine::Tiles | Engine::Reference | Engine::Sparse | Engine::Auto => {
                let kernel = StencilKernel::new(game, shape, true);
                let symmetric = kernel.compiled().is_symmetric(shape);
                let plan = Plan::tiles(shape.lens(), kernel.reads(), config.tile_side, symmetric);
                // A mirrored fill writes every mirror cell, so column moves can read rows.
                let kernel = if plan.mirror() { kernel.transposing_columns() } else { kernel };
                (kernel, plan)
            }
        };
        TableFill {
            game,
            shape: shape.clone(),
            engine,
            threads: config.threads,
            kernel,
            plan,
            heap,
        }
    }

    /// The engine that runs: [`Engine::Auto`] resolved for the game.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The plan the fill runs (the tiled one for [`Engine::Reference`] when resumable).
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The widest cells the fill can hold the table in: what a caller should budget memory for
    /// (see [`planned_width`]). The reference fill keeps `u32` cells; the others start narrow and
    /// widen only as far as the values need.
    pub fn planned_width(&self) -> CellWidth {
        match self.engine {
            Engine::Reference => CellWidth::U32,
            _ => CellWidth::for_max(self.kernel.compiled().value_bound()),
        }
    }

    /// The most bytes the fill holds at once: the table in its widest cells, the narrower cells
    /// it widens from while it widens (the engines start in bytes), and the line summaries
    /// (each set at most a window of every value). What a caller checks before filling (issue
    /// 19: the table alone was 84 MB of Nim 300×70000's 602 MiB peak).
    pub fn planned_bytes(&self) -> u128 {
        let width = self.planned_width().bytes() as u128;
        let widening = if self.engine == Engine::Reference { 0 } else { width / 2 };
        let table = self.shape.cells() * (width + widening);
        let rows = self.plan.lens().first().copied().unwrap_or(0);
        table + store::line_bytes(&self.plan, rows, self.kernel.compiled().value_bound())
    }

    /// Refuses the fill when what it holds ([`TableFill::planned_bytes`]) and `extra_bytes`
    /// more (what the caller holds besides, such as an analysis of the table) would not fit in
    /// the memory available now ([`memory::available`]).
    ///
    /// # Errors
    /// The table, as [`memory::TooLarge`] describes it.
    pub fn check_memory(&self, extra_bytes: u128) -> Result<(), memory::TooLarge> {
        let cells = self.shape.cells();
        memory::check_bytes(cells, self.planned_width().bytes(), self.planned_bytes() + extra_bytes)
    }

    /// Fills the table. The caller checks [`TableShape::value_bytes`] against the memory it is
    /// willing to use before calling: the table is allocated here.
    ///
    /// # Errors
    /// The thread pool could not be built, or `progress` cancelled the fill.
    pub fn fill(&self, progress: &dyn Progress) -> Result<GrundyTable, FillError> {
        if self.engine == Engine::Reference {
            return reference::fill_reference_with(self.game, &self.shape, progress);
        }
        let (table, mark) = self.run(None, progress, &mut |_, _| Control::Continue)?;
        if !mark.is_complete() {
            return Err(FillError::Cancelled);
        }
        Ok(table)
    }

    /// Fills the table resumably: see [`fill_resumable`].
    ///
    /// # Errors
    /// As for [`fill_resumable`].
    pub fn fill_resumable(
        &self,
        start: Option<(GrundyTable, WaveMark)>,
        progress: &dyn Progress,
        after_wave: &mut (dyn FnMut(&GrundyTable, WaveMark) -> Control + Send),
    ) -> Result<(GrundyTable, WaveMark), FillError> {
        let start = match start {
            None => None,
            Some((table, from)) => {
                self.check_resume(&table, from)?;
                Some((table, from.done))
            }
        };
        self.run(start, progress, &mut |table, mark| {
            if mark.is_complete() {
                Control::Continue
            } else {
                after_wave(table, mark)
            }
        })
    }

    /// Whether a partial table and its mark are this fill's to go on from.
    fn check_resume(&self, table: &GrundyTable, from: WaveMark) -> Result<(), FillError> {
        let plan = self.plan.start();
        if table.shape().lens() != self.shape.lens() {
            return Err(FillError::Resume(ResumeMismatch::Size {
                found: table.shape().lens(),
                expected: self.shape.lens(),
            }));
        }
        // The cells of a partial table are final only in the waves of the units that filled
        // them: a mark for other units (or more waves than there are) would resume into a wrong
        // table, so it must be exactly this plan's.
        if from.tile_sides != plan.tile_sides {
            return Err(FillError::Resume(ResumeMismatch::TileSides {
                found: from.tile_sides,
                expected: plan.tile_sides,
            }));
        }
        if from.total != plan.total || from.done > plan.total {
            return Err(FillError::Resume(ResumeMismatch::Waves {
                done: from.done,
                total: from.total,
                expected: plan.total,
            }));
        }
        Ok(())
    }

    /// The composition: the plan's waves from `start` (a partial table and its waves done),
    /// run on the fill's threads with the kernel into a dense store.
    fn run(
        &self,
        start: Option<(GrundyTable, usize)>,
        progress: &dyn Progress,
        after_wave: &mut (dyn FnMut(&GrundyTable, WaveMark) -> Control + Send),
    ) -> Result<(GrundyTable, WaveMark), FillError> {
        let (plan, kernel) = (&self.plan, &self.kernel);
        if let Some(heap) = &self.heap.as_ref().filter(|_| self.engine == Engine::Sparse) {
            let moves = heap.as_ref().map_err(|why| FillError::NotSparse(why.clone()))?;
            let (mut store, from) = match start {
                None => (SparseStore::new(moves, &self.shape), 0),
                Some((table, done)) => {
                    let filled = plan.cells_done(done);
                    progress.advance(filled);
                    (SparseStore::resume(moves, table, filled as usize), done)
                }
            };
            let mark = on_threads(self.threads, || {
                Executor::Rayon.run(plan, from, moves, &mut store, progress, &mut |s, m| {
                    after_wave(s.table(), m)
                })
            })?;
            return Ok((store.into_table(), mark));
        }
        on_threads(self.threads, || {
            let (mut store, from) = match start {
                None => (DenseStore::new(&self.shape, plan), 0),
                Some((table, done)) => {
                    progress.advance(plan.cells_done(done));
                    (DenseStore::resume(table, plan, done), done)
                }
            };
            let mark =
                Executor::Rayon.run(plan, from, kernel, &mut store, progress, &mut |s, m| {
                    after_wave(s.table(), m)
                });
            (store.into_table(), mark)
        })
    }
}

/// Fills the Grundy table of `game` over `shape` as `config` says.
///
/// The caller checks [`TableShape::value_bytes`] against the memory it is willing to use before
/// calling: the table is allocated here.
///
/// # Errors
/// The thread pool could not be built, or `progress` cancelled the fill.
///
/// # Panics
/// If `shape` was made for a game with other axes.
pub fn fill(
    game: &Game,
    shape: &TableShape,
    config: &FillConfig,
    progress: &dyn Progress,
) -> Result<GrundyTable, FillError> {
    TableFill::new(game, shape, config).fill(progress)
}

/// The waves a resumable fill of `game` over `shape` will run (none done yet): what a
/// checkpoint written by it will record. `config` chooses the plan as in [`fill`]
/// ([`Engine::Reference`] resumes with the tiles).
pub fn plan_waves(game: &Game, shape: &TableShape, config: &FillConfig) -> WaveMark {
    TableFill::new(game, shape, config).plan().start()
}

/// Fills the table of `game` over `shape` resumably: after every wave but the last,
/// `after_wave` sees the table (final in the waves the mark counts as done) and may save it, or
/// stop the fill. With `start`, a table and mark that an earlier call's `after_wave` saw (or
/// returned), the fill goes on from there, and the table it returns is identical to one filled in
/// a single call. Returns the table and its mark: complete, unless `after_wave` stopped it or
/// `progress` cancelled it.
///
/// `config.engine` chooses the plan: tiles, or single cells for [`Engine::Waves`];
/// [`Engine::Reference`] has no waves and runs the tiles. `config.threads` is used.
///
/// # Errors
/// The thread pool could not be built, or `start` does not fit `game` and `shape`: another shape,
/// a mark for other tiles than [`plan_waves`] gives or with another number of waves, or more
/// done than there are.
pub fn fill_resumable(
    game: &Game,
    shape: &TableShape,
    config: &FillConfig,
    start: Option<(GrundyTable, WaveMark)>,
    progress: &dyn Progress,
    after_wave: &mut (dyn FnMut(&GrundyTable, WaveMark) -> Control + Send),
) -> Result<(GrundyTable, WaveMark), FillError> {
    TableFill::new(game, shape, config).fill_resumable(start, progress, after_wave)
}
