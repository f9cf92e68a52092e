//! The streaming fill: a 2-D table row by row, keeping only the rows the moves reach back and the
//! line summaries, for tables larger than memory. Each finished row goes to a sink (a CSV writer,
//! a summary) and is forgotten. It is the engine's composition with a plan of rows, a ring store
//! and the sequential executor (a row reads the rows before it).

use crate::executor::Executor;
use crate::kernel::{Slides, StencilKernel};
use crate::plan::{Plan, WaveMark};
use crate::progress::{Control, Progress};
pub use crate::store::RingStore;
use grundy_core::{CellWidth, Game, TableShape};

/// Why a table cannot be filled row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoStream {
    /// Only 2-D tables stream; this one has `dims` axes.
    Axes {
        /// The table's number of axes.
        dims: usize,
    },
    /// A rule (1-based, with its kind), or the moves together when `rule` is `None`, reach back
    /// through whole columns (a split of the first axis), so every row must be kept.
    WholeColumns {
        /// The rule's number and kind.
        rule: Option<(usize, &'static str)>,
    },
}

impl std::fmt::Display for NoStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoStream::Axes { dims } => {
                write!(f, "only 2-D tables stream row by row; this one has {dims} axes")
            }
            NoStream::WholeColumns { rule } => {
                match rule {
                    Some((index, kind)) => write!(f, "rule {index} ({kind})")?,
                    None => f.write_str("its moves together")?,
                }
                f.write_str(
                    " reaches back through whole columns (a split of the first axis reads pieces \
                     from anywhere in its column), so every row must be kept",
                )
            }
        }
    }
}

impl std::error::Error for NoStream {}

/// The rows a row-by-row fill of `game` over `shape` keeps, or why it cannot stream.
pub fn streaming_rows(game: &Game, shape: &TableShape) -> Result<usize, NoStream> {
    RowStream::new(game, shape).map(|stream| stream.kept_rows())
}

/// A row-by-row fill of a 2-D table, prepared: the plan of rows, the kernel and the rows its
/// moves reach back.
#[derive(Clone, Debug)]
pub struct RowStream {
    kernel: StencilKernel,
    plan: Plan,
}

impl RowStream {
    /// Prepares the row-by-row fill of `game` over `shape`, or says why it cannot stream.
    pub(crate) fn new(game: &Game, shape: &TableShape) -> Result<RowStream, NoStream> {
        let lens = shape.lens();
        if lens.len() != 2 {
            return Err(NoStream::Axes { dims: lens.len() });
        }
        let rows = lens[0];
        // A reach past the table's first row is a reach to it: a one-row board streams (issue
        // 19: `kiki --size 1x5 --stream` was refused as if kiki read whole columns).
        let reach = |kernel: &StencilKernel| kernel.reads().halo[0].map(|back| back.min(rows));
        let kernel = StencilKernel::new(game, shape, Slides::Summarised);
        if let Some(back) = reach(&kernel) {
            let mut reads = kernel.reads();
            reads.halo[0] = Some(back);
            let plan = Plan::rows(lens, reads);
            return Ok(RowStream { kernel, plan });
        }
        // Name the rule that keeps every row: compile each rule alone.
        let culprit = game.rules().iter().enumerate().find(|(_, rule)| {
            Game::new(game.name(), "", game.axes().to_vec(), vec![(*rule).clone()]).is_ok_and(
                |alone| reach(&StencilKernel::new(&alone, shape, Slides::Summarised)).is_none(),
            )
        });
        Err(NoStream::WholeColumns { rule: culprit.map(|(index, rule)| (index + 1, rule.kind())) })
    }

    /// The rows the fill keeps: those its moves reach back, and the one being filled.
    pub fn kept_rows(&self) -> usize {
        self.plan.reads().halo[0].expect("checked in new") + 1
    }

    /// The table's cells.
    pub fn cells(&self) -> u128 {
        self.plan.lens().iter().map(|&len| len as u128).product()
    }

    /// The cells of the ring: `u32`s.
    pub fn planned_width(&self) -> CellWidth {
        CellWidth::U32
    }

    /// The most bytes the fill holds: the ring of kept rows in `u32`s and the line summaries
    /// (their bound, as every fill counts them).
    pub fn planned_bytes(&self) -> u128 {
        let cols = self.plan.lens()[1] as u128;
        let ring = self.kept_rows() as u128 * cols * 4;
        ring + self.line_bytes()
    }

    /// Of [`RowStream::planned_bytes`], the line summaries'.
    pub(crate) fn line_bytes(&self) -> u128 {
        crate::store::line_bytes(&self.plan, 1, self.kernel.compiled().value_bound())
    }

    /// The plan: one row per wave.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Fills the table row by row on the calling thread and hands each finished row (the values
    /// along the second axis) to `sink`, in order. Before every row `progress` may cancel the
    /// fill. Returns how far it went (complete unless cancelled), or the sink's first error.
    pub fn run<E>(
        &self,
        progress: &dyn Progress,
        sink: impl FnMut(&[u32]) -> Result<(), E>,
    ) -> Result<WaveMark, E> {
        let (_, mark) = self.run_resumable(None, progress, sink, &mut |_, _| Control::Continue)?;
        Ok(mark)
    }

    /// [`RowStream::run`], resumably: after every row but the last, `after_row` sees the ring
    /// (which a checkpoint can save, [`crate::checkpoint::CheckpointOf::write_stream`]) and
    /// may stop the fill. With `start`, a ring an earlier call's `after_row` saw (or returned),
    /// the fill goes on with the next row; `sink` then gets only the rows after it. Returns the
    /// ring and how far it went.
    ///
    /// # Panics
    /// If `start` was made by a stream of another table or game.
    pub fn run_resumable<E>(
        &self,
        start: Option<RingStore>,
        progress: &dyn Progress,
        mut sink: impl FnMut(&[u32]) -> Result<(), E>,
        after_row: &mut dyn FnMut(&RingStore, WaveMark) -> Control,
    ) -> Result<(RingStore, WaveMark), E> {
        progress.runs(crate::engine::Engine::Tiles);
        let mut store = match start {
            Some(ring) => {
                assert_eq!(ring.plan(), &self.plan, "the ring belongs to another stream");
                progress.advance(self.plan.cells_done(ring.rows_done()));
                ring
            }
            None => RingStore::new(&self.plan),
        };
        debug_assert_eq!(store.kept(), self.kept_rows());
        let from = store.rows_done();
        let mut failed = None;
        let mark = Executor::Sequential.run(
            &self.plan,
            from,
            &self.kernel,
            &mut store,
            progress,
            &mut |store, mark| {
                if let Err(err) = sink(store.row(mark.done - 1)) {
                    failed = Some(err);
                    return Control::Stop;
                }
                if mark.is_complete() {
                    Control::Continue
                } else {
                    after_row(store, mark)
                }
            },
        );
        match failed {
            Some(err) => Err(err),
            None => Ok((store, mark)),
        }
    }

    /// The widest value a cell can hold: bounds what a saved ring may claim.
    pub(crate) fn value_bound(&self) -> u64 {
        self.kernel.compiled().value_bound()
    }
}
