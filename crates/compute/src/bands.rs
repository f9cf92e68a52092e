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
            assert!(!self.mirrored() || start.next_row % self.plan.tile_sides()[0] == 0);
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

impl<'a> Rank<'a> {
    fn new(fill: &'a BandFill, link: &'a dyn Link, start: BandCut) -> Rank<'a> {
        let cols = fill.cols;
        let start_row = start.next_row;
        let bands = (fill.rows - start_row).div_ceil(fill.band_rows());
        let mut lines = Lines::new(&fill.plan, 0);
        // Only rank 0's cut has summaries; the others get theirs from the band above.
        if start.columns.len() == lines.columns.len() {
            lines.columns = start.columns;
        }
        if start.diagonals.len() == lines.diagonals.len() {
            lines.diagonals = start.diagonals;
        }
        let held_rows = start.rows.len() / cols;
        let max = start.rows.iter().copied().max().unwrap_or(0);
        let mut held = CellVec::with_width(CellWidth::for_max(max.into()));
        held.resize(if fill.every_row { fill.rows * cols } else { held_rows * cols });
        for (at, &value) in start.rows.iter().enumerate() {
            held.set(at, Nimber(value));
        }
        Rank {
            fill,
            link,
            me: link.rank(),
            start_row,
            bands,
            held,
            first_row: start_row - held_rows,
            band_first_row: start_row,
            lines,
            next_out: 0,
            next_in: 0,
            row_buffer: Vec::new(),
        }
    }

    /// Rank 0: `band` is final (computed here, or all of it received).
    fn known(&self, band: usize, progress: &dyn Progress) {
        if self.me == 0 {
            let (r0, r1) = self.band_span(band);
            progress.advance(((r1 - r0) * self.fill.cols) as u64);
        }
    }

    fn owner(&self, band: usize) -> usize {
        band % self.fill.ranks
    }

    fn band_span(&self, band: usize) -> (usize, usize) {
        let r0 = self.start_row + band * self.fill.band_rows();
        (r0, (r0 + self.fill.band_rows()).min(self.fill.rows))
    }

    /// The tile columns of band `band` (the lower half's, when mirrored).
    fn tile_columns(&self, band: usize) -> usize {
        let w = self.fill.plan.tile_sides()[1];
        let columns = if self.fill.mirrored() { self.band_span(band).1 } else { self.fill.cols };
        columns.div_ceil(w)
    }

    /// Whether rank `rank` is sent band `band`'s rows: rank 0 for the sink, and, when every row
    /// is kept, the ranks with a later band that did not get them as edges.
    fn gets_rows(&self, rank: usize, band: usize) -> bool {
        if rank == self.owner(band) {
            return false;
        }
        if !self.fill.every_row {
            return rank == 0;
        }
        let next_owner = (band + 1 < self.bands).then(|| self.owner(band + 1));
        let later = (band + 2..self.bands).any(|b| self.owner(b) == rank);
        next_owner != Some(rank) && (rank == 0 || later)
    }

    fn run<E>(
        &mut self,
        progress: &dyn Progress,
        sink: &mut dyn FnMut(&[u32]) -> Result<(), E>,
        cuts: &mut dyn Cuts,
    ) -> Result<BandsDone, E> {
        let mut units = Vec::new();
        for band in (self.me..self.bands).step_by(self.fill.ranks) {
            let (r0, r1) = self.band_span(band);
            self.begin_band(band, progress);
            // Edges come from the band above's owner: none when that is this rank (one rank),
            // whose summaries and rows are the ones the edges would carry. Sending them anyway
            // queued a copy of every line summary between two bands: 1 GB of Wythoff 65536²'s
            // 2.69 GB.
            let previous_columns = match band.checked_sub(1) {
                Some(above) if self.owner(above) != self.me => self.tile_columns(above),
                _ => 0,
            };
            let mut edges_in = 0;
            if self.me == 0 && band > 0 && cuts.due() {
                // Everything above the band first: then the cut is complete.
                while edges_in < previous_columns {
                    self.apply(band - 1, Channel::Edge);
                    edges_in += 1;
                }
                if self.fill.every_row && self.owner(band - 1) != self.me {
                    self.known(band - 1, progress);
                }
                self.output(band, progress, sink)?;
                let cut = self.cut(r0);
                if cuts.save(&cut) == Control::Stop {
                    return Ok(BandsDone::Stopped { next_row: r0 });
                }
            }
            let band_height = (r1 - r0).div_ceil(self.fill.plan.tile_sides()[0]);
            let columns = self.tile_columns(band);
            for wave in 0..band_height + columns - 1 {
                // The band above, as far as this wave's top tile.
                while edges_in < previous_columns && edges_in <= wave {
                    self.apply(band - 1, Channel::Edge);
                    edges_in += 1;
                    let others = self.owner(band - 1) != self.me;
                    if edges_in == previous_columns && self.fill.every_row && others {
                        self.known(band - 1, progress);
                    }
                }
                self.units(band, wave, &mut units);
                self.fill_wave(&units);
                if let Some(column) = (wave + 1).checked_sub(band_height) {
                    if band + 1 < self.bands && self.owner(band + 1) != self.me {
                        let edge = self.edge(band, column);
                        self.link.send(self.owner(band + 1), Channel::Edge, edge);
                    }
                }
            }
            for to in 0..self.fill.ranks {
                if self.gets_rows(to, band) {
                    self.link.send(to, Channel::Rows, self.rows_message(r0, r1));
                }
            }
            if self.fill.every_row {
                self.next_in = band + 1;
                self.known(band, progress);
            }
            if self.me == 0 {
                self.output(band + 1, progress, sink)?;
            }
        }
        if self.me == 0 {
            if self.fill.every_row {
                for band in self.next_in..self.bands {
                    if self.gets_rows(0, band) {
                        self.apply(band, Channel::Rows);
                        self.known(band, progress);
                    }
                }
                self.next_in = self.bands;
            }
            self.output(self.bands, progress, sink)?;
        }
        Ok(BandsDone::Complete)
    }

    /// Makes room for `band` and takes in what it reads besides the band above's edges.
    fn begin_band(&mut self, band: usize, progress: &dyn Progress) {
        let (r0, r1) = self.band_span(band);
        let cols = self.fill.cols;
        if self.fill.every_row {
            // Every finished band above but the last (which comes as edges).
            for earlier in self.next_in..band.saturating_sub(1) {
                if self.gets_rows(self.me, earlier) {
                    self.apply(earlier, Channel::Rows);
                    self.known(earlier, progress);
                }
            }
            self.next_in = band.saturating_sub(1).max(self.next_in);
        } else {
            // The halo rows above the band, then the band: keep what is still held of them.
            let first = r0.saturating_sub(self.fill.halo);
            let keep_from = first.max(self.first_row);
            let held_end = self.first_row + self.held_len() / cols.max(1);
            if keep_from < held_end {
                let src = (keep_from - self.first_row) * cols..(held_end - self.first_row) * cols;
                self.held.copy_within(src, (keep_from - first) * cols);
            }
            self.first_row = first;
            self.held.resize((r1 - first) * cols);
        }
        self.band_first_row = r0;
        if self.fill.plan.reads().lines.contains(&LineKind::Row) {
            self.lines.rows = vec![PrefixSet::new(); r1 - r0];
        }
    }

    fn held_len(&self) -> usize {
        self.held.len()
    }

    /// The units of local wave `wave` of `band`: tile (t, wave − t) of the band for each of its
    /// tile rows t.
    fn units(&self, band: usize, wave: usize, units: &mut Vec<Unit>) {
        let (r0, r1) = self.band_span(band);
        let [h, w, _] = self.fill.plan.tile_sides();
        let mirrored = self.fill.mirrored();
        units.clear();
        for t in 0..(r1 - r0).div_ceil(h) {
            let Some(column) = wave.checked_sub(t) else { break };
            let lo = [r0 + t * h, column * w, 0];
            if lo[1] >= self.fill.cols || (mirrored && lo[1] > lo[0]) {
                continue;
            }
            let hi = [(lo[0] + h).min(r1), (lo[1] + w).min(self.fill.cols), 1];
            // Mirrored tiles are square and aligned, so a tile on the diagonal starts on it.
            units.push(Unit { lo, hi, lower_only: mirrored && lo[0] == lo[1] });
        }
    }

    /// Computes `units` (one local wave) into the held cells, widening them when a value needs
    /// it.
    fn fill_wave(&mut self, units: &[Unit]) {
        if units.is_empty() {
            return;
        }
        let first = self.first_row * self.fill.cols;
        let r0 = self.band_first_row;
        let cols = self.fill.cols;
        let mirror = self.fill.mirrored();
        let kernel = &self.fill.kernel;
        fn wave<C: Cell>(
            kernel: &StencilKernel,
            units: &[Unit],
            held: &mut CellVec,
            window: (usize, usize, usize, bool),
            lines: &mut Lines,
        ) -> Vec<(usize, Nimber)> {
            let (first, first_row, cols, mirror) = window;
            let cells = held.typed_mut::<C>().expect("the held cells' width");
            let window = Window { cells, first, first_row, cols, mirror };
            fill_window_wave(kernel, units, Executor::Rayon, window, lines).1
        }
        let window = (first, r0, cols, mirror);
        let (held, lines) = (&mut self.held, &mut self.lines);
        let overflow = match held.width() {
            CellWidth::U8 => wave::<u8>(kernel, units, held, window, lines),
            CellWidth::U16 => wave::<u16>(kernel, units, held, window, lines),
            CellWidth::U32 => wave::<u32>(kernel, units, held, window, lines),
        };
        if !overflow.is_empty() {
            let max = overflow.iter().map(|(_, v)| v.value()).max().unwrap_or(0);
            let wider = self.held.width().wider().expect("u32 cells hold every nimber");
            self.held.widen(wider.max(CellWidth::for_max(max.into())));
            for (flat, value) in overflow {
                self.held.set(flat - first, value);
            }
        }
    }

    /// Band `band`'s edge at tile column `column`.
    fn edge(&self, band: usize, column: usize) -> Vec<u8> {
        let (r0, r1) = self.band_span(band);
        let cols = self.fill.cols;
        let w = self.fill.plan.tile_sides()[1];
        let (c0, c1) = (column * w, ((column + 1) * w).min(cols));
        let top = if self.fill.every_row { r0 } else { r1.saturating_sub(self.fill.halo) };
        let mut wire = Wire::default();
        wire.put(top as u64);
        wire.put(r1 as u64);
        wire.put(c0 as u64);
        wire.put(c1 as u64);
        self.put_cells(&mut wire, top..r1, c0..c1);
        if !self.lines.columns.is_empty() {
            for set in &self.lines.columns[c0..c1] {
                wire.put_set(set);
            }
        }
        if !self.lines.diagonals.is_empty() {
            // The diagonals through the band's last row at these columns.
            for c in c0..c1 {
                wire.put_set(&self.lines.diagonals[LineKind::Diagonal.locate(r1 - 1, c, cols)]);
            }
        }
        wire.into_bytes()
    }

    /// Band rows `r0..r1`, every column.
    fn rows_message(&self, r0: usize, r1: usize) -> Vec<u8> {
        let mut wire = Wire::default();
        wire.put(r0 as u64);
        wire.put(r1 as u64);
        wire.put(0);
        wire.put(self.fill.cols as u64);
        self.put_cells(&mut wire, r0..r1, 0..self.fill.cols);
        wire.into_bytes()
    }

    fn put_cells(
        &self,
        wire: &mut Wire,
        rows: std::ops::Range<usize>,
        cols: std::ops::Range<usize>,
    ) {
        wire.put_width(self.held.width());
        let held = self.held.cells();
        for i in rows {
            let at = (i - self.first_row) * self.fill.cols;
            wire.put_cells(held.range(at + cols.start..at + cols.end));
        }
    }

    /// Receives the next message of `channel` from `band`'s owner and takes it in: its cells
    /// (and their mirrors), and for an edge its summaries.
    fn apply(&mut self, band: usize, channel: Channel) {
        let message = self.link.receive(self.owner(band), channel);
        let mut wire = Reader::new(&message);
        let [r0, r1, c0, c1] = [(); 4].map(|_| wire.get() as usize);
        let (bytes, width) = wire.cell_width();
        self.held.widen(width);
        let cols = self.fill.cols;
        let mirror = self.fill.mirrored();
        let mut row = Vec::with_capacity(c1 - c0);
        for i in r0..r1 {
            row.clear();
            wire.cells_into(bytes, c1 - c0, &mut row);
            let at = (i - self.first_row) * cols;
            if !mirror {
                for (j, &value) in (c0..c1).zip(&row) {
                    self.held.set(at + j, Nimber(value));
                }
                continue;
            }
            // Only the lower half is sent as computed; each cell also goes to its mirror.
            for (j, &value) in (c0..c1).zip(&row).filter(|&(j, _)| j <= i) {
                self.held.set(at + j, Nimber(value));
                // A rank that keeps a few rows holds the mirrors inside them only.
                if j >= self.first_row {
                    self.held.set((j - self.first_row) * cols + i, Nimber(value));
                }
            }
        }
        if channel == Channel::Edge {
            if !self.lines.columns.is_empty() {
                for c in c0..c1 {
                    wire.union_into(&mut self.lines.columns[c]);
                }
            }
            if !self.lines.diagonals.is_empty() {
                for c in c0..c1 {
                    let line = LineKind::Diagonal.locate(r1 - 1, c, cols);
                    wire.union_into(&mut self.lines.diagonals[line]);
                }
            }
        }
    }

    /// Rank 0: hands the rows of every band before `until` to the sink, in order, receiving
    /// the other ranks' finished bands (when every row is kept, at the end only: until then the
    /// rows of a mirrored table are not all known).
    fn output<E>(
        &mut self,
        until: usize,
        progress: &dyn Progress,
        sink: &mut dyn FnMut(&[u32]) -> Result<(), E>,
    ) -> Result<(), E> {
        let cols = self.fill.cols;
        if self.fill.every_row {
            // Rank 0 holds every row, but a mirrored row is only known once every later one is.
            if until < self.bands || self.next_out == self.bands {
                return Ok(());
            }
            let mut row = std::mem::take(&mut self.row_buffer);
            for i in self.start_row..self.fill.rows {
                row.clear();
                let at = i * cols;
                self.held.cells().range(at..at + cols).append_to(&mut row);
                sink(&row)?;
            }
            self.next_out = self.bands;
            self.row_buffer = row;
            return Ok(());
        }
        let mut row = std::mem::take(&mut self.row_buffer);
        while self.next_out < until.min(self.bands) {
            let band = self.next_out;
            let (r0, r1) = self.band_span(band);
            let lower = self.fill.lower_rows();
            let width = |i: usize| if lower { i + 1 } else { cols };
            if self.owner(band) == 0 {
                for i in r0..r1 {
                    row.clear();
                    let at = (i - self.first_row) * cols;
                    self.held.cells().range(at..at + width(i)).append_to(&mut row);
                    sink(&row)?;
                }
            } else {
                let message = self.link.receive(self.owner(band), Channel::Rows);
                // Past the rows and columns the message spans: the band's, every column.
                let mut wire = Reader::new(&message);
                for _ in 0..4 {
                    wire.get();
                }
                let (bytes, _) = wire.cell_width();
                for i in r0..r1 {
                    row.clear();
                    wire.cells_into(bytes, cols, &mut row);
                    row.truncate(width(i));
                    sink(&row)?;
                }
            }
            progress.advance(((r1 - r0) * cols) as u64);
            self.next_out += 1;
        }
        self.row_buffer = row;
        Ok(())
    }

    /// The cut before row `r0` (rank 0, with everything above taken in).
    fn cut(&self, r0: usize) -> BandCut {
        let cols = self.fill.cols;
        let first = if self.fill.every_row { 0 } else { r0.saturating_sub(self.fill.halo) };
        let rows = ((first - self.first_row) * cols..(r0 - self.first_row) * cols)
            .map(|at| self.held.get(at).value())
            .collect();
        BandCut {
            next_row: r0,
            rows,
            columns: self.lines.columns.clone(),
            diagonals: self.lines.diagonals.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;
    use crate::reference::fill_reference;
    use crate::threads::ThreadCount;
    use grundy_core::{lookup, parse_spec};
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::mpsc::{channel, Receiver, Sender};

    /// Ranks as threads, linked by channels.
    struct LocalLink {
        rank: usize,
        ranks: usize,
        to: HashMap<(usize, Channel), Sender<Vec<u8>>>,
        from: HashMap<(usize, Channel), Receiver<Vec<u8>>>,
    }

    fn links(ranks: usize) -> Vec<LocalLink> {
        let mut links: Vec<LocalLink> = (0..ranks)
            .map(|rank| LocalLink { rank, ranks, to: HashMap::new(), from: HashMap::new() })
            .collect();
        for a in 0..ranks {
            for b in 0..ranks {
                for kind in [Channel::Edge, Channel::Rows] {
                    let (send, receive) = channel();
                    links[a].to.insert((b, kind), send);
                    links[b].from.insert((a, kind), receive);
                }
            }
        }
        links
    }

    impl Link for LocalLink {
        fn rank(&self) -> usize {
            self.rank
        }
        fn ranks(&self) -> usize {
            self.ranks
        }
        fn send(&self, to: usize, channel: Channel, message: Vec<u8>) {
            self.to[&(to, channel)].send(message).expect("the rank is there");
        }
        fn receive(&self, from: usize, channel: Channel) -> Vec<u8> {
            // A rank 0 that stopped drops its links: end this rank without the panic message
            // (`resume_unwind` skips the hook), as the job would end it.
            self.from[&(from, channel)]
                .recv()
                .unwrap_or_else(|_| std::panic::resume_unwind(Box::new("rank 0 stopped")))
        }
    }

    struct Counted(AtomicU64);

    impl Progress for Counted {
        fn advance(&self, cells: u64) {
            self.0.fetch_add(cells, Ordering::Relaxed);
        }
    }

    /// Cuts before rank 0's band `at` (counting its bands) and stops there.
    struct StopAt {
        at: usize,
        seen: usize,
        cut: Option<BandCut>,
    }

    impl Cuts for StopAt {
        fn due(&mut self) -> bool {
            self.seen += 1;
            self.seen == self.at
        }
        fn save(&mut self, cut: &BandCut) -> Control {
            self.cut = Some(cut.clone());
            Control::Stop
        }
    }

    /// Runs `fill` on `ranks` threads from `start`; rank 0's rows, its progress, and how it
    /// ended.
    fn run_ranks(
        fill: &BandFill,
        ranks: usize,
        start: Option<BandCut>,
        cuts: &mut (dyn Cuts + Send),
    ) -> (Vec<u32>, u64, BandsDone) {
        let mut start = Some(start);
        std::thread::scope(|scope| {
            let mut handles = Vec::new();
            let mut zero = None;
            for link in links(ranks) {
                if link.rank == 0 {
                    zero = Some(link);
                    continue;
                }
                handles.push(scope.spawn(move || {
                    let mut sink = |_: &[u32]| Ok::<(), ()>(());
                    fill.run(&link, None, &NoProgress, &mut sink, &mut NoCuts)
                }));
            }
            let link = zero.expect("rank 0");
            let mut rows = Vec::new();
            let progress = Counted(AtomicU64::new(0));
            let mut sink = |row: &[u32]| {
                rows.extend_from_slice(row);
                Ok::<(), ()>(())
            };
            let done = fill.run(&link, start.take().flatten(), &progress, &mut sink, cuts);
            let done = done.expect("the sink never fails");
            if done == BandsDone::Complete {
                for handle in handles {
                    assert_eq!(handle.join().unwrap(), Ok(BandsDone::Complete));
                }
            } else {
                // The other ranks wait for rank 0 forever: a job ends them. Here the links
                // drop with rank 0's, which ends their waits with a panic: leave them.
                drop(link);
                for handle in handles {
                    let _ = handle.join();
                }
            }
            (rows, progress.0.into_inner(), done)
        })
    }

    fn games() -> Vec<(grundy_core::Game, Vec<i64>)> {
        let queen = parse_spec(
            "name = \"queen-and-knight\"\ndescription = \"t\"\n\
             axes = [{ name = \"x\", min = 0 }, { name = \"y\", min = 0 }]\n\
             [[rules]]\nkind = \"slide\"\ndirections = [[-1, 0], [0, -1], [-1, -1]]\n\
             [[rules]]\nkind = \"step\"\noffsets = [[-2, -1], [-1, -2], [-3, 0]]\n",
            "queen",
        )
        .unwrap();
        let split = parse_spec(
            "name = \"split-and-step\"\ndescription = \"t\"\n\
             axes = [{ name = \"x\", min = 1 }, { name = \"y\", min = 0 }]\n\
             [[rules]]\nkind = \"split\"\naxis = \"x\"\n\
             [[rules]]\nkind = \"step\"\noffsets = [[0, -1], [0, -2]]\n",
            "split",
        )
        .unwrap();
        let long_step = parse_spec(
            "name = \"long-step\"\ndescription = \"t\"\n\
             axes = [{ name = \"x\", min = 0 }, { name = \"y\", min = 0 }]\n\
             [[rules]]\nkind = \"step\"\noffsets = [[-9, 0], [0, -1], [-5, -2]]\n",
            "long",
        )
        .unwrap();
        vec![
            (long_step, vec![50, 30]),
            (lookup("kiki").unwrap(), vec![60, 75]),
            (lookup("wythoff").unwrap(), vec![70, 70]),
            (lookup("wythoff").unwrap(), vec![45, 80]),
            (lookup("nim").unwrap(), vec![300, 300]),
            (lookup("cutting").unwrap(), vec![50, 50]),
            (lookup("cutting").unwrap(), vec![40, 61]),
            (lookup("prime-steps").unwrap(), vec![55, 50]),
            (lookup("wythoff-short-diagonal").unwrap(), vec![30, 44]),
            (lookup("fibonacci-rook").unwrap(), vec![40, 40]),
            (queen, vec![66, 41]),
            (split, vec![40, 33]),
            (lookup("kiki").unwrap(), vec![1, 40]),
            (lookup("kiki").unwrap(), vec![40, 1]),
        ]
    }

    /// Every game, 1 to 4 ranks, bands of 1 to 3 tile rows, small tiles: rank 0 hands out the
    /// reference table, row by row, and counts every cell once.
    #[test]
    fn bands_give_the_reference_table() {
        for (game, max) in games() {
            let shape = TableShape::new(&game, &max, "test").unwrap();
            let expected = fill_reference(&game, &shape).to_nimbers();
            let expected: Vec<u32> = expected.iter().map(|v| v.value()).collect();
            for ranks in 1..=4 {
                for band_tiles in 1..=3 {
                    for side in [Some(4), Some(9), None] {
                        let fill = BandFill::with_tiles(
                            &game,
                            &shape,
                            ranks,
                            band_tiles,
                            side,
                            RowsTo::Writer,
                        )
                        .unwrap();
                        let (rows, cells, done) = run_ranks(&fill, ranks, None, &mut NoCuts);
                        let what = format!("{} {max:?} ranks {ranks} bands {band_tiles} tiles {side:?} every row {}", game.name(), fill.keeps_every_row());
                        assert_eq!(done, BandsDone::Complete, "{what}");
                        assert!(rows == expected, "{what}");
                        assert_eq!(cells, expected.len() as u64, "{what}");
                    }
                }
            }
        }
    }

    /// A fill for a summary mirrors symmetric tables even when its ranks keep a few rows: rank
    /// 0 hands out each row's lower half, as the reference has it.
    #[test]
    fn summaries_mirror_symmetric_tables() {
        let mut lower = 0;
        for (game, max) in games() {
            let shape = TableShape::new(&game, &max, "test").unwrap();
            let reference = fill_reference(&game, &shape);
            let cols = shape.lens()[1];
            let all: Vec<u32> = reference.to_nimbers().iter().map(|v| v.value()).collect();
            for ranks in 1..=3 {
                for (band_tiles, side) in [(1, Some(4)), (2, Some(9)), (1, None)] {
                    let fill = BandFill::with_tiles(
                        &game,
                        &shape,
                        ranks,
                        band_tiles,
                        side,
                        RowsTo::Summary,
                    )
                    .unwrap();
                    let expected: Vec<u32> = if fill.lower_rows() {
                        lower += 1;
                        all.chunks(cols)
                            .enumerate()
                            .flat_map(|(i, row)| row[..=i].to_vec())
                            .collect()
                    } else {
                        all.clone()
                    };
                    let (rows, cells, done) = run_ranks(&fill, ranks, None, &mut NoCuts);
                    let what = format!("{} {max:?} ranks {ranks} side {side:?}", game.name());
                    assert_eq!(done, BandsDone::Complete, "{what}");
                    assert!(rows == expected, "{what}");
                    assert_eq!(cells, all.len() as u64, "{what}");
                }
            }
        }
        assert!(lower >= 20, "only {lower} fills were mirrored");
    }

    /// One rank through a [`SoloLink`]: the table of one process, without a message (issue 18:
    /// a solo fill that sent itself its edges held a second copy of its line summaries).
    #[test]
    fn a_solo_link_fills_in_one_process() {
        for (game, max) in games() {
            let shape = TableShape::new(&game, &max, "test").unwrap();
            let expected: Vec<u32> =
                fill_reference(&game, &shape).to_nimbers().iter().map(|v| v.value()).collect();
            let threads = Threads::new(Some(ThreadCount::new(2).unwrap())).unwrap();
            let fill = BandFill::new(&game, &shape, 1, threads, RowsTo::Writer).unwrap();
            let mut rows = Vec::new();
            let mut sink = |row: &[u32]| {
                rows.extend_from_slice(row);
                Ok::<(), ()>(())
            };
            let done = fill
                .threads()
                .install(|| fill.run(&SoloLink, None, &NoProgress, &mut sink, &mut NoCuts));
            assert_eq!(done, Ok(BandsDone::Complete), "{}", game.name());
            assert!(rows == expected, "{}", game.name());
        }
    }

    /// A run cut and stopped before one of rank 0's bands, saved as a streamed checkpoint's
    /// ring and resumed with another number of ranks, hands out the rest of the table.
    #[test]
    fn a_cut_resumes_with_any_number_of_ranks() {
        let mut stopped = 0;
        for (game, max) in games() {
            let shape = TableShape::new(&game, &max, "test").unwrap();
            let Ok(stream) = crate::stream::RowStream::new(&game, &shape) else { continue };
            let expected: Vec<u32> =
                fill_reference(&game, &shape).to_nimbers().iter().map(|v| v.value()).collect();
            for (ranks, again, at) in [(2, 3, 2), (3, 1, 2), (1, 4, 3), (4, 2, 2)] {
                let fill =
                    BandFill::with_tiles(&game, &shape, ranks, 1, Some(4), RowsTo::Writer).unwrap();
                if fill.keeps_every_row() {
                    continue;
                }
                let mut cuts = StopAt { at, seen: 0, cut: None };
                let (mut rows, _, done) = run_ranks(&fill, ranks, None, &mut cuts);
                let what = format!("{} {max:?} ranks {ranks} then {again}", game.name());
                let BandsDone::Stopped { next_row } = done else {
                    // Too few bands to cut there.
                    assert_eq!(rows, expected, "{what}");
                    continue;
                };
                stopped += 1;
                let cut = cuts.cut.unwrap();
                assert_eq!(cut.next_row, next_row);
                assert_eq!(rows.len(), next_row * shape.lens()[1], "{what}");
                let ring = cut.to_ring(stream.plan()).expect("a ring");
                let halo = stream.kept_rows() - 1;
                let resumed = BandCut::from_ring(&ring, halo);
                let fill =
                    BandFill::with_tiles(&game, &shape, again, 2, Some(4), RowsTo::Writer).unwrap();
                let (rest, cells, done) = run_ranks(&fill, again, Some(resumed), &mut NoCuts);
                assert_eq!(done, BandsDone::Complete, "{what}");
                assert_eq!(cells as usize, rest.len(), "{what}");
                rows.extend(rest);
                assert!(rows == expected, "{what}");
            }
        }
        assert!(stopped >= 20, "{stopped} runs were cut");
    }
}
