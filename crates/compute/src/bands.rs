//! The distributed fill: a 2-D table cut into bands of rows that the ranks of a job compute in
//! turn, as a pipelined wavefront. No rank holds the whole table unless the moves read every row
//! above a cell.
//!
//! # Layout
//! From its first row (0, or where a checkpoint stopped), the table is cut into bands of
//! `band_tiles` rows of tiles (16 × 256 cells, or 64 × 64 when a symmetric table is mirrored);
//! band b belongs to rank b mod K. A rank computes its band's tiles in local anti-diagonal waves
//! (the tiles of one wave in parallel, on the caller's rayon pool), with the same kernel as the
//! one-process engine: every value is the one that engine gives, whatever K and the band height.
//!
//! # What flows between the ranks
//! [`Link`] carries two channels, each in order for every pair of ranks:
//! - **edges** (band b to the owner of band b + 1), one per tile column, sent as soon as the
//!   band's last tile in that column is final: the rows of the band below may then begin that
//!   column. An edge holds the cells the next band's moves read (its last `halo` rows at those
//!   columns; all its rows when every row is kept) and the line summaries that cross the band's
//!   bottom: the column summaries and those of the diagonals leaving its last row there. The
//!   receiver merges summaries as unions: every summary passes down the bands like a baton,
//!   holding every value above, so a union with the receiver's own older one is the newer one.
//! - **rows** (a finished band): to rank 0, which hands the rows to its sink in table order as
//!   bands finish; when every row is kept, also to the ranks whose later bands read them.
//!
//! A rank receives only what its next wave needs, so the ranks overlap: rank r + 1 begins a
//! band's first tile column as soon as rank r has finished the one above it.
//!
//! # What a rank holds
//! When the moves reach back at most `halo` rows (steps, short jumps, slides on lines), a rank
//! holds its band and the `halo` rows above it, the line summaries (one per column and diagonal)
//! and the band's row summaries. When they may reach further (splits, long jumps: when the halo
//! is unbounded or as long as K bands), every rank holds every row above its band: such games
//! read whole columns, so their tables must fit one machine. Only then are symmetric tables
//! mirrored: a mirrored table's row i is only known once every later row is, which a rank that
//! forgets rows cannot wait for.
//!
//! # Stopping and going on
//! A [`BandCut`] is the state between two bands: the rows above the next band that its moves
//! read and the column and diagonal summaries. It is what a streaming fill's ring holds after the
//! same rows, so a cut is saved as (and resumed from) a streamed checkpoint, with any number of
//! ranks.

mod transport;
mod wire;

pub use transport::{Channel, Link, SoloLink};

use crate::executor::Executor;
use crate::kernel::{Slides, StencilKernel};
use crate::layout::RowsTo;
use crate::plan::{Halves, LineKind, Plan, Unit};
use crate::progress::{Control, Progress};
use crate::store::{fill_window_wave, Lines, RingStore, Window};
use crate::threads::Threads;
use grundy_core::{Cell, CellVec, CellWidth, Game, Nimber, PrefixSet, TableShape};
use wire::{decode_start, encode_start, Reader, Wire};

/// Why a table cannot be filled by bands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoBands {
    dims: usize,
}

impl std::fmt::Display for NoBands {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "only 2-D tables are shared among ranks (this one has {}); run it in one process",
            grundy_core::counted(self.dims, "axis", "axes")
        )
    }
}

impl std::error::Error for NoBands {}

/// The state between two bands: enough to go on from row `next_row`.
#[derive(Clone, Debug)]
pub struct BandCut {
    /// The first row not computed yet.
    pub next_row: usize,
    /// Rows `next_row - halo .. next_row` (fewer at the top), row-major.
    pub rows: Vec<u32>,
    /// The column summaries (empty when the moves keep none).
    pub columns: Vec<PrefixSet>,
    /// The diagonal summaries (empty when the moves keep none).
    pub diagonals: Vec<PrefixSet>,
}

/// When rank 0 saves a cut, and what it does with it.
pub trait Cuts {
    /// Asked by rank 0 before each of its bands but the first: whether to cut there.
    fn due(&mut self) -> bool;
    /// The cut before one of rank 0's bands: save it, and say whether to go on.
    fn save(&mut self, cut: &BandCut) -> Control;
}

/// A [`Cuts`] that never cuts.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCuts;

impl Cuts for NoCuts {
    fn due(&mut self) -> bool {
        false
    }
    fn save(&mut self, _cut: &BandCut) -> Control {
        Control::Continue
    }
}

/// How a rank's part of a distributed fill ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BandsDone {
    /// Every band is computed (and on rank 0, every row went to the sink).
    Complete,
    /// Rank 0 saved a cut and was told to stop there; the other ranks wait for it forever, so
    /// the caller ends the job.
    Stopped {
        /// The first row not computed.
        next_row: usize,
    },
}

/// A distributed fill of one game's 2-D table, prepared: the kernel, the tiles, what a rank
/// must keep and the threads a rank runs its bands on.
#[derive(Clone, Debug)]
pub struct BandFill {
    kernel: StencilKernel,
    plan: Plan,
    rows: usize,
    cols: usize,
    /// Rows above a band that its moves read (meaningless when `every_row`).
    halo: usize,
    /// How far back the moves read, if that is bounded.
    reach: Option<usize>,
    /// Whether every rank keeps every row above its band.
    every_row: bool,
    /// Tile rows per band.
    band_tiles: usize,
    ranks: usize,
    threads: Threads,
}

impl BandFill {
    /// Prepares the fill of `game` over `shape` for `ranks` ranks, each running its bands on
    /// `threads`. For [`RowsTo::Summary`], rank 0's sink is given each row's lower half (columns
    /// 0 to i) when [`BandFill::lower_rows`] says so: symmetric tables are then mirrored
    /// whatever the moves' reach, so that a streamed summary of Wythoff computes half the cells.
    ///
    /// A band has a row of tiles per thread (a band's waves have that many tiles), and more when
    /// the moves keep column or diagonal summaries: every band passes one of each per column
    /// down, so taller bands send fewer per cell (Wythoff 6000², 2 ranks: 1.24 GB a rank with
    /// bands of 16 rows, 0.15 GB with 128). Not so tall that the ranks wait for one another: a
    /// rank begins a band a few tiles after the rank above has, and comes round again after K
    /// bands, so bands stay under a 2K-th of the tile columns.
    ///
    /// # Errors
    /// The table is not 2-D.
    pub(crate) fn new(
        game: &Game,
        shape: &TableShape,
        ranks: usize,
        threads: Threads,
        rows: RowsTo,
    ) -> Result<BandFill, NoBands> {
        let band_tiles = threads.count().max(1);
        let mut fill = BandFill::with_tiles(game, shape, ranks, band_tiles, None, rows)?;
        fill.threads = threads;
        fill.taller_for_summaries();
        Ok(fill)
    }

    /// Taller bands when the moves keep column or diagonal summaries ([`BandFill::new`]).
    fn taller_for_summaries(&mut self) {
        let fill = self;
        if fill.plan.reads().lines.iter().any(|line| *line != LineKind::Row) {
            let tile_columns = fill.cols.div_ceil(fill.plan.tile_sides()[1]);
            fill.band_tiles = fill.band_tiles.max((tile_columns / (2 * fill.ranks)).clamp(1, 8));
        }
    }

    /// [`BandFill::new`] with bands of `band_tiles` tile rows and square tiles of `side`
    /// (`None`: the engine's tiles), on the current pool.
    pub(crate) fn with_tiles(
        game: &Game,
        shape: &TableShape,
        ranks: usize,
        band_tiles: usize,
        side: Option<usize>,
        rows_to: RowsTo,
    ) -> Result<BandFill, NoBands> {
        let lens = shape.lens();
        if lens.len() != 2 {
            return Err(NoBands { dims: lens.len() });
        }
        let (ranks, band_tiles) = (ranks.max(1), band_tiles.max(1));
        let kernel = StencilKernel::new(game, shape, Slides::Summarised);
        let symmetric = kernel.halves(shape) == Halves::Mirrored;
        // The band height, from the unmirrored tiles (mirroring is decided below).
        let tile_rows =
            Plan::tiles(lens.clone(), kernel.reads(), side, Halves::Whole).tile_sides()[0];
        let halo = kernel.reads().halo[0];
        // Long reaches send as many rows per edge as a band sends to every rank: keep them all.
        let every_row = halo.is_none_or(|halo| halo >= band_tiles * tile_rows * ranks.max(2));
        // Mirrored only when a mirrored row can wait for every later one (module docs).
        let halves = if symmetric && (every_row || rows_to == RowsTo::Summary) {
            Halves::Mirrored
        } else {
            Halves::Whole
        };
        let plan = Plan::tiles(lens.clone(), kernel.reads(), side, halves);
        // Column moves read the mirror row only when every row is kept: a rank that keeps a few
        // rows reads (and writes) mirror cells only inside them.
        let kernel = if plan.mirror() && every_row { kernel.transposing_columns() } else { kernel };
        Ok(BandFill {
            kernel,
            plan,
            rows: lens[0],
            cols: lens[1],
            halo: halo.unwrap_or(lens[0]).min(lens[0]),
            reach: halo,
            every_row,
            band_tiles,
            ranks,
            threads: Threads::current(),
        })
    }

    /// Whether the moves reach back a bounded number of rows, so that the table can be filled
    /// row by row (see [`crate::stream::RowStream`]).
    pub fn streams(&self) -> bool {
        self.reach.is_some()
    }

    /// Whether every rank keeps every row above its band (the moves reach that far back).
    pub fn keeps_every_row(&self) -> bool {
        self.every_row
    }

    /// Whether only the lower half of the table is computed (symmetric tables, when every row is
    /// kept, or for a summary).
    pub fn mirrored(&self) -> bool {
        self.plan.mirror()
    }

    /// Whether the sink is given each row's lower half only (columns 0 to i of row i): the
    /// table is symmetric, and mirrored by a rank that forgets rows.
    pub fn lower_rows(&self) -> bool {
        self.plan.mirror() && !self.every_row
    }

    /// The most rows of cells one rank holds at once: its band and the rows above it that the
    /// moves read (every row when they are all kept). Each is a row of the table's columns in
    /// cells of at most [`BandFill::planned_width`]; rank 0 also holds one finished band of
    /// another rank at a time, in `u32`s.
    pub fn rows_held(&self) -> usize {
        if self.every_row {
            self.rows
        } else {
            (self.halo + self.band_rows()).min(self.rows)
        }
    }

    /// The most bytes one rank holds at once: its rows ([`BandFill::rows_held`]) in the widest
    /// cells and the narrower ones while they widen, the line summaries (their bound, as
    /// [`crate::fill::TableFill::planned_bytes`] counts them), and on rank 0 of several, another rank's
    /// band on its way to the sink, in `u32`s.
    pub fn planned_bytes(&self) -> u128 {
        let width = self.planned_width().bytes() as u128;
        let cols = self.cols as u128;
        let held = self.rows_held() as u128 * cols * (width + width / 2);
        let received = if self.ranks > 1 { self.band_rows() as u128 * cols * 4 } else { 0 };
        held + received + self.line_bytes()
    }

    /// Of [`BandFill::planned_bytes`], the line summaries'.
    pub(crate) fn line_bytes(&self) -> u128 {
        let bound = self.kernel.compiled().value_bound();
        crate::store::line_bytes(&self.plan, self.band_rows(), bound)
    }

    /// The widest cells the values may need.
    pub fn planned_width(&self) -> CellWidth {
        CellWidth::for_max(self.kernel.compiled().value_bound())
    }

    /// The threads a rank runs its bands on.
    pub fn threads(&self) -> &Threads {
        &self.threads
    }

    /// The ranks the fill was planned for.
    pub fn ranks(&self) -> usize {
        self.ranks
    }

    /// The table's cells.
    pub fn cells(&self) -> u128 {
        self.rows as u128 * self.cols as u128
    }

    /// The rows of one band.
    pub fn band_rows(&self) -> usize {
        self.band_tiles * self.plan.tile_sides()[0]
    }

    /// Runs this rank's part of the fill over `link`. Rank 0 starts from `start` (`None`: from
    /// the top; a cut, or a ring of a streamed checkpoint made into one with
    /// [`BandCut::from_ring`]), hands every row from there on to `sink` in order, reports
    /// progress and asks `cuts` before each of its bands; the other ranks' `start`, `sink` and
    /// `cuts` are not used, and their `progress` only answers `cancelled` (never asked).
    ///
    /// # Errors
    /// The error `sink` returned; then rank 0 stops (and the caller ends the job).
    ///
    /// # Panics
    /// When it is not called inside [`BandFill::threads`]' [`Threads::install`]: the caller
    /// installs them around its whole part, since a link (MPI's) is used from one thread.
    pub fn run<E>(
        &self,
        link: &dyn Link,
        start: Option<BandCut>,
        progress: &dyn Progress,
        sink: &mut dyn FnMut(&[u32]) -> Result<(), E>,
        cuts: &mut dyn Cuts,
    ) -> Result<BandsDone, E> {
        assert!(self.threads.runs_here(), "a band fill runs inside its threads' install");
        progress.runs(crate::engine::Engine::Tiles);
        let me = link.rank();
        assert_eq!(link.ranks(), self.ranks, "the fill was planned for another number of ranks");
        // Rank 0 tells every rank where the fill starts (and, when every row is kept, sends
        // them: a cut holds them all then).
        let start = if me == 0 {
            let start = start.unwrap_or_else(|| self.top());
            // Mirrored tiles must lie on the diagonal: such fills start at a band's edge.
            assert!(!self.mirrored() || start.next_row.is_multiple_of(self.plan.tile_sides()[0]));
            for to in 1..self.ranks {
                let rows = if self.every_row { &start.rows[..] } else { &[] };
                link.send(to, Channel::Rows, encode_start(start.next_row, rows));
            }
            start
        } else {
            let (next_row, rows) = decode_start(&link.receive(0, Channel::Rows));
            BandCut { next_row, rows, columns: Vec::new(), diagonals: Vec::new() }
        };
        let mut rank = Rank::new(self, link, start);
        rank.run(progress, sink, cuts)
    }

    /// The cut before the first row.
    fn top(&self) -> BandCut {
        let Lines { columns, diagonals, .. } = Lines::new(&self.plan, 0);
        BandCut { next_row: 0, rows: Vec::new(), columns, diagonals }
    }
}

impl BandCut {
    /// The cut a streaming fill's ring stands at (see [`crate::stream::RowStream`]): its last rows and
    /// its summaries. A row's own summary is empty between rows, so nothing else is needed.
    pub fn from_ring(ring: &RingStore, halo: usize) -> BandCut {
        let next_row = ring.rows_done();
        let first = next_row.saturating_sub(halo.min(ring.kept() - 1));
        let rows = (first..next_row).flat_map(|i| ring.row(i).iter().copied()).collect();
        let [_, columns, diagonals] = ring.lines();
        BandCut { next_row, rows, columns: columns.to_vec(), diagonals: diagonals.to_vec() }
    }

    /// The ring a streaming fill of `plan` (a plan of rows, see [`crate::stream::RowStream::plan`]) has
    /// after the same rows: what a streamed checkpoint saves.
    pub fn to_ring(&self, plan: &Plan) -> Option<RingStore> {
        let cols = plan.lens()[1];
        let kept = plan.reads().halo[0]? + 1;
        let mut cells = vec![0; kept * cols];
        let held = self.rows.len() / cols.max(1);
        for (k, row) in self.rows.chunks(cols.max(1)).enumerate() {
            let i = self.next_row - held + k;
            if i + kept > self.next_row {
                let at = (i % kept) * cols;
                cells[at..at + cols].copy_from_slice(row);
            }
        }
        let rows = if plan.reads().lines.contains(&LineKind::Row) {
            vec![PrefixSet::new()]
        } else {
            Vec::new()
        };
        RingStore::restore(
            plan,
            self.next_row,
            cells,
            [rows, self.columns.clone(), self.diagonals.clone()],
        )
    }
}

/// One rank's state while it runs.
struct Rank<'a> {
    fill: &'a BandFill,
    link: &'a dyn Link,
    me: usize,
    /// Where band 0 starts.
    start_row: usize,
    bands: usize,
    /// Cells of rows `first_row..` (row-major, the table's columns).
    held: CellVec,
    first_row: usize,
    /// The first row of the band being computed (that of `lines.rows[0]`).
    band_first_row: usize,
    lines: Lines,
    /// Rank 0 only: the first band whose rows have not gone to the sink.
    next_out: usize,
    /// When every row is kept: the first band this rank has not yet received or computed.
    next_in: usize,
    /// Rank 0 only: a row on its way to the sink.
    row_buffer: Vec<u32>,
}

mod rank;
#[cfg(test)]
mod tests;
