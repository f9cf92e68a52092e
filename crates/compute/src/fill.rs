//! The in-memory fill: the plan's waves run by the executor with the kernel into a dense store
//! (or the sparse-space kernel and store), on the request's threads. Prepared by
//! [`crate::request::FillRequest::prepare`], which has already refused what cannot run.

use crate::engine::Engine;
use crate::error::{FillError, ResumeMismatch};
use crate::executor::Executor;
use crate::kernel::{Slides, StencilKernel};
use crate::misere::{genus_table, HeapGenus, MisereFill, SearchLimits};
use crate::plan::{Plan, WaveMark};
use crate::progress::{Control, Progress};
use crate::reference;
use crate::sparse::{HeapMoves, SparseStore};
use crate::store::{line_bytes, DenseStore};
use crate::threads::Threads;
use grundy_core::{CellWidth, Game, GrundyTable, TableShape};

/// A fill of one game's table in memory, prepared once: the game compiled for the table (the
/// kernel), the order of the work (the [`Plan`]) and the threads it runs on.
///
/// The fill itself is a composition: the plan's waves, run by an executor on the fill's
/// threads, with the kernel into a dense in-memory store (or the sparse-space kernel into its
/// store).
pub struct TableFill<'g> {
    game: &'g Game,
    shape: TableShape,
    /// The engine, resolved: never [`Engine::Auto`].
    engine: Engine,
    threads: Threads,
    kernel: StencilKernel,
    plan: Plan,
    /// The moves of the sparse-space kernel, when it runs.
    heap: Option<HeapMoves>,
    /// What bounds the exact misère search, when it runs ([`Engine::Search`]).
    search: Option<SearchLimits>,
}

impl<'g> TableFill<'g> {
    /// Prepares the fill of `game` over `shape` with `engine` (resolved here), square tiles of
    /// `tile_side` when given, on `threads`. `heap` is the sparse-space kernel's moves when the
    /// game has them: [`Engine::Auto`] runs them, [`Engine::Sparse`] needs them. `search` is the
    /// exact misère search's limits when it runs: [`Engine::Auto`] runs it then.
    pub(crate) fn new(
        game: &'g Game,
        shape: &TableShape,
        engine: Engine,
        threads: Threads,
        tile_side: Option<usize>,
        heap: Option<HeapMoves>,
        search: Option<SearchLimits>,
    ) -> TableFill<'g> {
        let engine = match (engine, &heap) {
            (Engine::Auto | Engine::Search, _) if search.is_some() => Engine::Search,
            (Engine::Auto | Engine::Sparse, Some(_)) => Engine::Sparse,
            (Engine::Auto, None) => Engine::Tiles,
            (engine, _) => engine,
        };
        assert!(engine != Engine::Sparse || heap.is_some(), "the sparse engine needs its moves");
        assert_eq!(engine == Engine::Search, search.is_some(), "the search runs with its limits");
        let heap = heap.filter(|_| engine == Engine::Sparse);
        let (kernel, plan) = match engine {
            // The cell-wave engine walks every slide cell by cell and mirrors nothing: it checks
            // the tiled engine's tiles, line summaries and mirror writes (the reference fill,
            // which shares nothing with either, checks the compiled moves).
            Engine::Waves => {
                let kernel = StencilKernel::new(game, shape, Slides::Walked);
                let plan = Plan::cells(shape.lens(), kernel.reads());
                (kernel, plan)
            }
            // The sparse-space method runs the tiles' plan of heap ranges, so that checkpoints
            // of either engine go on with the other. The reference fill runs no plan (it reports
            // progress per row, and a resumable reference fill is refused): it has the tiles'
            // only so that `plan` always answers; so has the search, which runs no plan either.
            Engine::Retrograde => unreachable!("the retrograde engine prepares a RetrogradeFill"),
            Engine::Tiles | Engine::Reference | Engine::Sparse | Engine::Search | Engine::Auto => {
                let kernel = StencilKernel::new(game, shape, Slides::Summarised);
                let halves = kernel.halves(shape);
                let plan = Plan::tiles(shape.lens(), kernel.reads(), tile_side, halves);
                // A mirrored fill writes every mirror cell, so column moves can read rows.
                let kernel = if plan.mirror() { kernel.transposing_columns() } else { kernel };
                (kernel, plan)
            }
        };
        TableFill { game, shape: shape.clone(), engine, threads, kernel, plan, heap, search }
    }

    /// The engine that runs: [`Engine::Auto`] resolved for the game.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The game.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// The table's shape.
    pub fn shape(&self) -> &TableShape {
        &self.shape
    }

    /// The plan the fill runs: the waves a checkpoint of it records.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The widest cells the fill can hold the table in: what a caller should budget memory for.
    /// The reference fill keeps `u32` cells; the others start narrow and widen only as far as
    /// the values need (they are bounded by the number of options of a cell).
    pub fn planned_width(&self) -> CellWidth {
        match self.engine {
            Engine::Reference | Engine::Search => CellWidth::U32,
            _ => CellWidth::for_max(self.kernel.compiled().value_bound()),
        }
    }

    /// The most bytes the fill holds at once: the table in its widest cells, the narrower cells
    /// it widens from while it widens (the engines start in bytes), and the line summaries
    /// (each set at most a window of every value). Issue 19: the table alone was 84 MB of Nim
    /// 300×70000's 602 MiB peak.
    pub fn planned_bytes(&self) -> u128 {
        let width = self.planned_width().bytes() as u128;
        let widening = if self.engine == Engine::Reference { 0 } else { width / 2 };
        let table = self.shape.cells() * (width + widening);
        table + self.line_bytes()
    }

    /// Of [`TableFill::planned_bytes`], the line summaries': a set for every row.
    pub(crate) fn line_bytes(&self) -> u128 {
        if self.engine == Engine::Search {
            return 0;
        }
        let rows = self.plan.lens().first().copied().unwrap_or(0);
        line_bytes(&self.plan, rows, self.kernel.compiled().value_bound())
    }

    /// Fills the table. The table is allocated here: the caller has checked the memory
    /// ([`crate::request::PreparedFill::check_memory`]).
    ///
    /// # Errors
    /// `progress` cancelled the fill, or the search reached one of its limits.
    pub fn fill(&self, progress: &dyn Progress) -> Result<GrundyTable, FillError> {
        progress.runs(self.engine);
        if self.engine == Engine::Reference {
            return reference::fill_reference_with(self.game, &self.shape, progress);
        }
        if let Some(limits) = &self.search {
            let search = MisereFill::new(self.game, &self.shape, limits);
            return search.genera(progress).map(|(table, _)| table);
        }
        let (table, mark) = self.run(None, progress, &mut |_, _| Control::Continue);
        if !mark.is_complete() {
            return Err(FillError::Cancelled);
        }
        Ok(table)
    }

    /// Fills a heap game's table under misère play with every heap's genus and tameness
    /// (`compute --misere`'s columns): the search gives both at once when it is the fill;
    /// otherwise the fill gives the values and a search within `limits` the genera, which
    /// agree with them (the genus' first misère value is the heap's). `progress` hears of the
    /// genera, heap by heap.
    ///
    /// # Errors
    /// As [`TableFill::fill`]; the genera's search, as [`FillError::Search`] (without heaps).
    ///
    /// # Panics
    /// If the game is not a heap game, or a genus disagrees with the value filled. That is a
    /// bug, not an input to refuse: the fill and the search are two computations of the same
    /// misère value (issue 58: the empty position's value differed between them), compared for
    /// every small take-and-break code by `grundy-play`'s `misere_oracle` test.
    pub fn fill_genera(
        &self,
        limits: &SearchLimits,
        progress: &dyn Progress,
    ) -> Result<(GrundyTable, Vec<HeapGenus>), FillError> {
        if let Some(own) = &self.search {
            progress.runs(self.engine);
            return MisereFill::new(self.game, &self.shape, own).genera(progress);
        }
        progress.runs(self.engine);
        let table = self.fill(&crate::progress::NoProgress)?;
        let rows = genus_table(self.game, self.shape.max()[0], limits, progress)?;
        for (heap, row) in rows.iter().enumerate() {
            assert_eq!(
                table.get_flat(heap).0,
                row.genus.misere[0],
                "a bug: heap {}'s misère value filled differs from its genus' (the search's)",
                row.heap
            );
        }
        Ok((table, rows))
    }

    /// Fills the table resumably: after every wave but the last, `after_wave` sees the table
    /// (final in the waves the mark counts as done) and may save it, or stop the fill. With
    /// `start`, a table and mark that an earlier call's `after_wave` saw (or returned), the fill
    /// goes on from there, and the table it returns is identical to one filled in a single
    /// call. Returns the table and its mark: complete, unless `after_wave` stopped it or
    /// `progress` cancelled it.
    ///
    /// # Errors
    /// `start` does not fit this fill: another shape, a mark for other tiles than
    /// [`TableFill::plan`]'s or with another number of waves, or more done than there are.
    ///
    /// # Panics
    /// For the reference engine and the search, which have no waves
    /// ([`crate::request::FillRequest::prepare`] refuses them a resumable layout).
    pub fn fill_resumable(
        &self,
        start: Option<(GrundyTable, WaveMark)>,
        progress: &dyn Progress,
        after_wave: &mut (dyn FnMut(&GrundyTable, WaveMark) -> Control + Send),
    ) -> Result<(GrundyTable, WaveMark), FillError> {
        assert!(self.engine.has_waves(), "the {} engine has no waves to resume", self.engine);
        progress.runs(self.engine);
        let start = match start {
            None => None,
            Some((table, from)) => {
                self.check_resume(&table, from)?;
                Some((table, from.done))
            }
        };
        Ok(self.run(start, progress, &mut |table, mark| {
            if mark.is_complete() {
                Control::Continue
            } else {
                after_wave(table, mark)
            }
        }))
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
    /// run on the fill's threads with the kernel into a dense store (or the sparse one).
    fn run(
        &self,
        start: Option<(GrundyTable, usize)>,
        progress: &dyn Progress,
        after_wave: &mut (dyn FnMut(&GrundyTable, WaveMark) -> Control + Send),
    ) -> (GrundyTable, WaveMark) {
        let (plan, kernel) = (&self.plan, &self.kernel);
        let from = start.as_ref().map_or(0, |(_, done)| *done);
        if from > 0 {
            progress.advance(plan.cells_done(from));
        }
        match &self.heap {
            Some(moves) => {
                // The store is the calling thread's; only the waves run on the pool, where each
                // worker makes its own state.
                let mut store = match start {
                    None => SparseStore::new(moves, &self.shape),
                    Some((table, done)) => {
                        SparseStore::resume(moves, table, plan.cells_done(done) as usize)
                    }
                };
                let mark = self.threads.install(|| {
                    Executor::Rayon.run(plan, from, moves, &mut store, progress, &mut |s, m| {
                        after_wave(s.table(), m)
                    })
                });
                (store.into_table(), mark)
            }
            // On the pool: a resumed store rebuilds its line summaries in parallel.
            None => self.threads.install(|| {
                let mut store = match start {
                    None => DenseStore::new(&self.shape, plan),
                    Some((table, done)) => DenseStore::resume(table, plan, done),
                };
                let mark =
                    Executor::Rayon.run(plan, from, kernel, &mut store, progress, &mut |s, m| {
                        after_wave(s.table(), m)
                    });
                (store.into_table(), mark)
            }),
        }
    }
}
