//! Stores: where a fill's values and line summaries live while it runs.
//!
//! - [`DenseStore`]: the whole table in memory (a [`GrundyTable`] in the narrowest cells that
//!   hold its values so far, widened when a value outgrows them), one line summary per row,
//!   column and diagonal, and the mirror writes of symmetric tables. Units of one wave fill their
//!   own parts of it in parallel, through [`Shared`] (whose other user is the sparse-space
//!   pipeline of `sparse.rs`).
//! - [`RingStore`]: the last rows a 2-D table's moves reach back, in a ring, and its line
//!   summaries: the streaming fill's store, for tables larger than memory.
//!
//! # Safety (the dense store)
//! Cells and lines are reached through [`Shared`]. The units of a wave are disjoint, and by the
//! plan's order every cell a unit reads is either its own, written earlier by the same task, or
//! one of an earlier wave, whose writes rayon's join at the end of that wave ordered before this
//! one. Lines: units of one wave touch disjoint rows and columns, and their diagonal ranges are
//! disjoint too: with tiles of h rows and w columns, tile (I, J) covers i − j in
//! [I·h − J·w − w + 1, I·h − J·w + h − 1], h + w − 1 values, and the next tile of the same wave,
//! (I + 1, J − 1), starts h + w further on. So each task writes only its own cells and lines: the
//! contract of [`Shared::get`] and [`Shared::get_mut`].
//!
//! # Symmetry (the dense store with a mirrored plan)
//! When the moves are symmetric in the two axes on a square table, T(i, j) = T(j, i): the plan
//! computes only the tiles with I ≥ J (on diagonal tiles, the cells with i ≥ j), and the store
//! also writes each cell at its mirror (j, i), so every option a computed cell reads, on either
//! side of the diagonal, is final. The tiles are square then, and the mirror of tile (I, J) is
//! (J, I): in the same wave, never computed, and read by no other tile of it. Computed cells use
//! only their row, their column and a diagonal i − j ≥ 0; the mirror (j, i) of a computed cell is
//! the only one of its column i that is never computed, so its value goes into column i's set
//! (column i lies in the tile's own row band, which no other tile of the wave touches).

use crate::compiled::Cells;
use crate::executor::{Executor, Store};
use crate::kernel::{StencilKernel, UnitView};
use crate::plan::{LineKind, Plan, Unit};
use crate::shared::Shared;
use grundy_core::{Cell, CellWidth, GrundyTable, MexSet, Nimber, PrefixSet, TableShape};
use rayon::prelude::*;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// One summary per row, column and diagonal that the kernel reads (empty vectors for the others).
#[derive(Clone, Debug)]
pub(crate) struct Lines {
    pub(crate) rows: Vec<PrefixSet>,
    pub(crate) columns: Vec<PrefixSet>,
    pub(crate) diagonals: Vec<PrefixSet>,
}

impl Lines {
    /// The summaries `plan` declares, for `rows` rows (a ring keeps one) and the table's columns.
    pub(crate) fn new(plan: &Plan, rows: usize) -> Lines {
        let kinds = &plan.reads().lines;
        let (table_rows, cols) = match plan.lens() {
            [table_rows, cols] => (*table_rows, *cols),
            _ => (0, 0),
        };
        let sized = |kind: LineKind, len: usize| {
            vec![PrefixSet::new(); if kinds.contains(&kind) { len } else { 0 }]
        };
        Lines {
            rows: sized(LineKind::Row, rows),
            columns: sized(LineKind::Column, cols),
            diagonals: sized(LineKind::Diagonal, (table_rows + cols).saturating_sub(1)),
        }
    }
}

/// The most bytes the line summaries `plan` declares can take, with `row_lines` row summaries
/// (a ring or a band keeps a few) and values below `value_bound`: each set a window of at most
/// every value (grown by an eighth at a time) and its bookkeeping. A bound, not an estimate:
/// Wythoff's windows are a fraction of it, Nim's columns (values i XOR j) most of it.
pub(crate) fn line_bytes(plan: &Plan, row_lines: usize, value_bound: u64) -> u128 {
    let kinds = &plan.reads().lines;
    let (rows, cols) = match plan.lens() {
        [rows, cols] => (*rows as u128, *cols as u128),
        _ => return 0,
    };
    let header = std::mem::size_of::<PrefixSet>() as u128;
    let set = header + 8 * (u128::from(value_bound) / 64 + 2) * 9 / 8 + 16;
    let mut bytes = 0;
    for kind in kinds {
        let (lines, used) = match kind {
            LineKind::Row => (row_lines as u128, row_lines as u128),
            LineKind::Column => (cols, cols),
            // Every diagonal has its (empty) set; a mirrored table uses the lower half.
            _ => (rows + cols - 1, if plan.mirror() { rows } else { rows + cols - 1 }),
        };
        bytes += lines * header + used * (set - header);
    }
    bytes
}

/// The whole table in memory.
pub(crate) struct DenseStore {
    table: GrundyTable,
    lines: Lines,
    mirror: bool,
}

/// Asks Linux to back the 2 MiB pages of a new table's memory with huge pages: a table is
/// written once, everywhere, so its first writes are one page fault per 4 KiB otherwise, which
/// two threads take in turn under the process's memory lock (kiki 15000²: 55 000 faults, as much
/// system time as the fill's own).
fn advise_huge_pages(bytes: &[u8]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = bytes.as_ptr() as usize;
        let (first, end) = (start.next_multiple_of(HUGE), (start + bytes.len()) / HUGE * HUGE);
        if end > first {
            // SAFETY: advice on pages this table owns; it changes how they are backed, never
            // their contents (a zeroed page reads as zeros either way). A refusal (an old kernel,
            // huge pages off) leaves the pages as they were, which is correct too.
            unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = bytes;
}

impl DenseStore {
    /// An empty table for `plan`. Cells start as bytes and widen when a value outgrows them: most
    /// games' values are small.
    pub(crate) fn new(shape: &TableShape, plan: &Plan) -> DenseStore {
        let rows = plan.lens().first().copied().filter(|_| plan.lens().len() == 2).unwrap_or(0);
        let table = GrundyTable::zeroed_with(shape.clone(), CellWidth::U8);
        if let grundy_core::CellSlice::U8(bytes) = table.cells() {
            advise_huge_pages(bytes);
        }
        DenseStore { table, lines: Lines::new(plan, rows), mirror: plan.mirror() }
    }

    /// The store a fill of `plan` had after `done` waves, from its table (final in those waves):
    /// the line summaries are rebuilt from the final cells (a [`PrefixSet`] is a set, so the order
    /// of insertion does not matter), one line per task.
    pub(crate) fn resume(table: GrundyTable, plan: &Plan, done: usize) -> DenseStore {
        let mut store = DenseStore::new(table.shape(), plan);
        store.table = table;
        if !plan.reads().lines.is_empty() {
            let DenseStore { table, lines, .. } = &mut store;
            grundy_core::with_cells!(table.cells(), |values| restore_lines(
                plan, values, lines, done
            ));
        }
        store
    }

    pub(crate) fn table(&self) -> &GrundyTable {
        &self.table
    }

    pub(crate) fn into_table(self) -> GrundyTable {
        self.table
    }

    /// [`Store::fill_wave`] with cells of type `C`. Returns the number of cells and the values
    /// that did not fit in `C` (their cells hold `C::MAX` until the caller widens the table).
    fn wave<C: Cell>(
        &mut self,
        kernel: &StencilKernel,
        units: &[Unit],
        executor: Executor,
    ) -> (u64, Vec<(usize, Nimber)>) {
        let cols = self.table.shape().lens().get(1).copied().unwrap_or(0);
        let cells = self.table.typed_mut::<C>().expect("the table's width");
        let window = Window { cells, first: 0, first_row: 0, cols, mirror: self.mirror };
        fill_window_wave(kernel, units, executor, window, &mut self.lines)
    }
}

/// Cells of a table held from flat index `first` on (all of it for the dense store; a band of
/// rows and the rows above it that its moves read, for a rank of the distributed fill), with
/// their row summaries from row `first_row` on.
pub(crate) struct Window<'a, C> {
    pub(crate) cells: &'a mut [C],
    pub(crate) first: usize,
    pub(crate) first_row: usize,
    pub(crate) cols: usize,
    pub(crate) mirror: bool,
}

/// Computes the units of one wave into `window`, the units in parallel through `executor`:
/// returns the number of cells made final and the values that did not fit in `C` (by flat
/// index; their cells hold `C::MAX` until the caller widens the cells).
pub(crate) fn fill_window_wave<C: Cell>(
    kernel: &StencilKernel,
    units: &[Unit],
    executor: Executor,
    window: Window<'_, C>,
    lines: &mut Lines,
) -> (u64, Vec<(usize, Nimber)>) {
    let Window { cells, first, first_row, cols, mirror } = window;
    let column_lines = !lines.columns.is_empty();
    let cells = Shared::starting_at(cells, first);
    let lines = SharedLines {
        rows: Shared::starting_at(&mut lines.rows, first_row),
        columns: Shared::new(&mut lines.columns),
        diagonals: Shared::new(&mut lines.diagonals),
    };
    executor.map_reduce(
        units,
        |unit, mex| {
            let mut view = DenseView {
                cells: &cells,
                lines: &lines,
                overflow: Overflow::new(),
                mirror,
                cols,
                column_lines,
            };
            let count = kernel.fill_unit(unit, &mut view, mex);
            // Collecting an empty map allocates nothing.
            (count, view.overflow.values.into_iter().collect::<Vec<_>>())
        },
        || (0, Vec::new()),
        |(a, mut overflow), (b, more)| {
            overflow.extend(more);
            (a + b, overflow)
        },
    )
}

impl Store for DenseStore {
    type Kernel = StencilKernel;

    fn fill_wave(&mut self, kernel: &StencilKernel, units: &[Unit], executor: Executor) -> u64 {
        let (cells, overflow) = match self.table.width() {
            CellWidth::U8 => self.wave::<u8>(kernel, units, executor),
            CellWidth::U16 => self.wave::<u16>(kernel, units, executor),
            CellWidth::U32 => self.wave::<u32>(kernel, units, executor),
        };
        if !overflow.is_empty() {
            // Some values outgrew the cells: widen the table and put them in.
            let max = overflow.iter().map(|(_, v)| v.value()).max().unwrap_or(0);
            let wider = self
                .table
                .width()
                .wider()
                .expect("u32 cells hold every nimber")
                .max(CellWidth::for_max(max.into()));
            self.table.widen(wider);
            for (flat, value) in overflow {
                self.table.set_flat(flat, value);
            }
        }
        cells
    }
}

/// [`DenseStore::resume`] on the table's typed cells. A computed cell's value is in its row,
/// column and diagonal sets; with a mirrored plan, a mirror cell's (i < j) is in its column set
/// only.
fn restore_lines<C: Cell>(plan: &Plan, values: &[C], lines: &mut Lines, done: usize) {
    let (rows, cols) = (plan.lens()[0], plan.lens()[1]);
    let cells = ndarray::ArrayView2::from_shape((rows, cols), values).expect("a 2-D table");
    let computed = |i: usize, j: usize| !plan.mirror() || i >= j;
    lines.rows.par_iter_mut().enumerate().for_each(|(i, set)| {
        let final_cells = cells.row(i).into_iter().take(plan.row_end(i, done)).enumerate();
        final_cells.filter(|&(j, _)| computed(i, j)).for_each(|(_, v)| set.insert(v.nimber()));
    });
    lines.columns.par_iter_mut().enumerate().for_each(|(j, set)| {
        let final_cells = cells.column(j).into_iter().take(plan.column_end(j, done));
        final_cells.for_each(|v| set.insert(v.nimber()));
    });
    lines.diagonals.par_iter_mut().enumerate().for_each(|(line, set)| {
        // The diagonal `line` holds the cells with i − j = line − (cols − 1).
        let (i0, j0) = if line < cols { (0, cols - 1 - line) } else { (line + 1 - cols, 0) };
        (0..(rows - i0).min(cols - j0))
            .map(|k| (i0 + k, j0 + k))
            .filter(|&(i, j)| j < plan.row_end(i, done) && computed(i, j))
            .for_each(|(i, j)| set.insert(cells[[i, j]].nimber()));
    });
}

/// The line summaries of a wave, shared by its units, one store per kind of line.
struct SharedLines<'b> {
    rows: Shared<'b, PrefixSet>,
    columns: Shared<'b, PrefixSet>,
    diagonals: Shared<'b, PrefixSet>,
}

impl<'b> SharedLines<'b> {
    #[inline]
    fn of(&self, kind: LineKind) -> &Shared<'b, PrefixSet> {
        match kind {
            LineKind::Row => &self.rows,
            LineKind::Column => &self.columns,
            LineKind::Diagonal => &self.diagonals,
        }
    }
}

/// The values of a unit's cells (and their mirrors) that did not fit in the cells, by flat index.
struct Overflow {
    /// Keyed by flat index, with a fixed hasher: a unit's map is made for every unit of every
    /// wave (single cells in the cell-wave plan), and a random one costs a thread-local read each.
    values: HashMap<usize, Nimber, BuildHasherDefault<DefaultHasher>>,
    /// The smallest flat index in `values` (`usize::MAX` when empty): cells before it hold their
    /// values as they are stored.
    first: usize,
}

impl Overflow {
    fn new() -> Overflow {
        Overflow { values: HashMap::default(), first: usize::MAX }
    }

    fn insert(&mut self, flat: usize, value: Nimber) {
        self.values.insert(flat, value);
        self.first = self.first.min(flat);
    }
}

/// A unit's view of the dense store: the shared cells and lines, plus the values of its own
/// cells that did not fit in `C` (stored there as `C::MAX`).
struct DenseView<'a, 'b, C> {
    cells: &'a Shared<'b, C>,
    lines: &'a SharedLines<'b>,
    overflow: Overflow,
    mirror: bool,
    cols: usize,
    column_lines: bool,
}

impl<C: Cell> Cells for DenseView<'_, '_, C> {
    type Cell = C;

    #[inline(always)]
    fn at(&self, index: usize) -> Nimber {
        // SAFETY: cells of earlier waves or earlier cells of this unit (module docs).
        let cell = unsafe { *self.cells.get(index) };
        if cell == C::MAX {
            return self.overflowed(index, cell);
        }
        cell.nimber()
    }

    #[inline]
    fn run(&self, start: usize, len: usize) -> Option<&[C]> {
        // A cell holding C::MAX may stand for an overflowed value: only cells before the first
        // one may be read as they are stored.
        if start + len > self.overflow.first {
            return None;
        }
        // SAFETY: the callers ask for the cells of options, all final and written by no task of
        // this wave but this one, which does not write while the slice lives (module docs).
        Some(unsafe { self.cells.slice(start, len) })
    }
}

impl<C: Cell> DenseView<'_, '_, C> {
    /// The value of a cell that holds `C::MAX`: an overflowed value of this unit's own (only
    /// this unit's cells can hold one during the wave), or `C::MAX` itself.
    #[cold]
    #[inline(never)]
    fn overflowed(&self, index: usize, cell: C) -> Nimber {
        #[cfg(test)]
        tests::OVERFLOW_READS.with(|reads| reads.set(reads.get() + 1));
        self.overflow.values.get(&index).copied().unwrap_or(cell.nimber())
    }
}

impl<C: Cell> UnitView for DenseView<'_, '_, C> {
    #[inline]
    fn line(&self, kind: LineKind, line: usize) -> &PrefixSet {
        // SAFETY: the cell's own row, column and diagonal belong to this unit's lines, which no
        // other task of this wave touches (module docs).
        unsafe { self.lines.of(kind).get(line) }
    }

    #[inline]
    fn add_to_line(&mut self, kind: LineKind, line: usize, value: Nimber) {
        // SAFETY: as for `line`; the kernel holds no reference from `line` any more.
        unsafe { self.lines.of(kind).get_mut(line) }.insert(value);
    }

    #[inline]
    fn write(&mut self, index: &[usize; 3], flat: usize, value: Nimber) -> u64 {
        let (i, j) = (index[0], index[1]);
        let mirrored = self.mirror && j != i;
        // A rank of the distributed fill that keeps a few rows holds the mirror cells inside
        // them only: those above are read by no later cell (module `bands`).
        let mirror = mirrored.then(|| j * self.cols + i).filter(|&m| self.cells.holds(m));
        let cell = match C::from_nimber(value) {
            Some(cell) if cell != C::MAX => cell,
            _ => {
                self.overflow.insert(flat, value);
                if let Some(mirror) = mirror {
                    self.overflow.insert(mirror, value);
                }
                C::MAX
            }
        };
        // SAFETY: `flat` is in this task's unit; no other task reads or writes it during this
        // wave (module docs).
        unsafe { *self.cells.get_mut(flat) = cell };
        if !mirrored {
            return 1;
        }
        if let Some(mirror) = mirror {
            // SAFETY: the mirror lies in tile (J, I), which no task of this wave computes or
            // reads (module docs, Symmetry).
            unsafe { *self.cells.get_mut(mirror) = cell };
        }
        if self.column_lines {
            // SAFETY: column i is in this unit's row band (module docs, Symmetry).
            unsafe { self.lines.columns.get_mut(i) }.insert(value);
        }
        2
    }

    #[inline]
    fn write_small(&mut self, index: &[usize; 3], flat: usize, values: &[u8]) -> u64 {
        let (i, j0) = (index[0], index[1]);
        // Values below 64 fit every width and are never `C::MAX`: no overflow.
        // SAFETY: the row's cells are in this task's unit (module docs).
        let row = unsafe { self.cells.slice_mut(flat, values.len()) };
        for (cell, &value) in row.iter_mut().zip(values) {
            *cell = C::from(value);
        }
        if !self.mirror {
            return values.len() as u64;
        }
        if values.is_empty() {
            return 0;
        }
        let diagonal = usize::from((j0..j0 + values.len()).contains(&i));
        let (first, last) = (j0 * self.cols + i, (j0 + values.len() - 1) * self.cols + i);
        if !self.column_lines && self.cells.holds(first) && self.cells.holds(last) {
            // Every mirror is held and no line is fed: the plain loop (kiki 15000²: its mirror
            // writes checked one by one were a sixth of the run).
            for (k, &value) in values.iter().enumerate() {
                if j0 + k != i {
                    let cell = C::from_nimber(Nimber(value.into())).expect("a value below 64");
                    // SAFETY: as below.
                    unsafe { *self.cells.get_mut(first + k * self.cols) = cell };
                }
            }
            return 2 * values.len() as u64 - diagonal as u64;
        }
        let mut written = 0;
        for (k, &value) in values.iter().enumerate() {
            let j = j0 + k;
            written += 1;
            if j != i {
                if self.cells.holds(j * self.cols + i) {
                    let cell = C::from_nimber(Nimber(value.into())).expect("a value below 64");
                    // SAFETY: as in `write`: the mirror lies in tile (J, I) (module docs,
                    // Symmetry).
                    unsafe { *self.cells.get_mut(j * self.cols + i) = cell };
                }
                if self.column_lines {
                    // SAFETY: column i is in this unit's row band (module docs, Symmetry).
                    unsafe { self.lines.columns.get_mut(i) }.insert(Nimber(value.into()));
                }
                written += 1;
            }
        }
        written
    }
}

/// The streaming fill's store: the last rows of a 2-D table, in a ring, and the line summaries
/// (one row summary suffices, since a row's line is only read while that row is filled). With
/// the plan it was made for, it is all a streaming fill needs to go on: what a streamed
/// checkpoint saves.
#[derive(Clone, Debug)]
pub struct RingStore {
    plan: Plan,
    pub(crate) cells: Vec<u32>,
    cols: usize,
    kept: usize,
    lines: Lines,
    rows_done: usize,
    mex: MexSet,
}

impl RingStore {
    /// The ring for `plan` (a plan of rows): the rows its moves reach back, and the row being
    /// filled.
    pub(crate) fn new(plan: &Plan) -> RingStore {
        let cols = plan.lens()[1];
        let kept = plan.reads().halo[0].expect("a streaming plan reaches back a bounded way") + 1;
        RingStore {
            plan: plan.clone(),
            cells: vec![0; kept * cols],
            cols,
            kept,
            lines: Lines::new(plan, 1),
            rows_done: 0,
            mex: MexSet::new(),
        }
    }

    /// The ring `plan` had after `rows_done` rows, from its saved cells and line summaries
    /// (rows, columns, diagonals), or `None` when they do not fit the plan.
    pub(crate) fn restore(
        plan: &Plan,
        rows_done: usize,
        cells: Vec<u32>,
        lines: [Vec<PrefixSet>; 3],
    ) -> Option<RingStore> {
        let mut ring = RingStore::new(plan);
        let [rows, columns, diagonals] = lines;
        let fits = rows_done <= plan.waves()
            && cells.len() == ring.cells.len()
            && rows.len() == ring.lines.rows.len()
            && columns.len() == ring.lines.columns.len()
            && diagonals.len() == ring.lines.diagonals.len();
        if !fits {
            return None;
        }
        ring.cells = cells;
        ring.lines = Lines { rows, columns, diagonals };
        ring.rows_done = rows_done;
        Some(ring)
    }

    /// The plan the ring belongs to.
    pub(crate) fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The line summaries, rows, columns and diagonals: what a checkpoint saves with the cells.
    pub(crate) fn lines(&self) -> [&[PrefixSet]; 3] {
        [&self.lines.rows, &self.lines.columns, &self.lines.diagonals]
    }

    /// The rows kept.
    pub fn kept(&self) -> usize {
        self.kept
    }

    /// The rows filled so far.
    pub fn rows_done(&self) -> usize {
        self.rows_done
    }

    /// Row `i`, which must be one of the kept rows.
    pub(crate) fn row(&self, i: usize) -> &[u32] {
        let start = (i % self.kept) * self.cols;
        &self.cells[start..start + self.cols]
    }
}

impl Store for RingStore {
    type Kernel = StencilKernel;

    /// The units are rows, filled in order on the calling thread whatever the executor: a row
    /// reads the rows before it.
    fn fill_wave(&mut self, kernel: &StencilKernel, units: &[Unit], _executor: Executor) -> u64 {
        let mut mex = std::mem::take(&mut self.mex);
        let mut cells = 0;
        for unit in units {
            if let Some(row_line) = self.lines.rows.first_mut() {
                *row_line = PrefixSet::new();
            }
            cells += kernel.fill_unit(unit, self, &mut mex);
            self.rows_done = unit.hi[0];
        }
        self.mex = mex;
        cells
    }
}

impl Cells for RingStore {
    type Cell = u32;

    #[inline]
    fn at(&self, index: usize) -> Nimber {
        let (row, col) = (index / self.cols, index % self.cols);
        Nimber(self.cells[(row % self.kept) * self.cols + col])
    }

    #[inline]
    fn run(&self, start: usize, len: usize) -> Option<&[u32]> {
        let row = start / self.cols;
        if len == 0 || (start + len - 1) / self.cols != row {
            return None;
        }
        let at = (row % self.kept) * self.cols + start % self.cols;
        Some(&self.cells[at..at + len])
    }
}

impl UnitView for RingStore {
    #[inline]
    fn line(&self, kind: LineKind, line: usize) -> &PrefixSet {
        match kind {
            // The ring keeps the summary of the row being filled only.
            LineKind::Row => &self.lines.rows[0],
            LineKind::Column => &self.lines.columns[line],
            LineKind::Diagonal => &self.lines.diagonals[line],
        }
    }

    #[inline]
    fn add_to_line(&mut self, kind: LineKind, line: usize, value: Nimber) {
        match kind {
            LineKind::Row => &mut self.lines.rows[0],
            LineKind::Column => &mut self.lines.columns[line],
            LineKind::Diagonal => &mut self.lines.diagonals[line],
        }
        .insert(value);
    }

    #[inline]
    fn write(&mut self, index: &[usize; 3], _flat: usize, value: Nimber) -> u64 {
        self.cells[(index[0] % self.kept) * self.cols + index[1]] = value.value();
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::Executor;
    use crate::kernel::Slides;
    use crate::plan::Halves;
    use crate::progress::{Control, NoProgress};
    use grundy_core::{parse_spec, TableShape};

    thread_local! {
        /// Reads of cells whose values did not fit, on this thread.
        pub(super) static OVERFLOW_READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// Issue 11, item 4: a heap game was one tile, so once a value passed 255 every later cell
    /// read all its options through the overflow list (cubic: one-heap Nim to 8000 took 23 s).
    /// Now the table widens after at most one tile of 1024 heaps, and only that tile reads
    /// overflowed cells: fewer than 1024² reads, where the single tile made 12.5 million here.
    #[test]
    fn heap_games_widen_after_one_tile() {
        let spec =
            "name = \"nim1\"\ndescription = \"one heap\"\naxes = [{ name = \"n\", min = 0 }]\n\
                    [[rules]]\nkind = \"slide\"\ndirections = [[-1]]\n";
        let game = parse_spec(spec, "nim1").unwrap();
        let shape = TableShape::new(&game, &[5000], "test").unwrap();
        let kernel = StencilKernel::new(&game, &shape, Slides::Summarised);
        let plan = Plan::tiles(shape.lens(), kernel.reads(), None, Halves::Whole);
        assert_eq!(plan.tile_sides(), [crate::plan::TILE_1D, 1, 1]);
        let mut store = DenseStore::new(&shape, &plan);
        OVERFLOW_READS.with(|reads| reads.set(0));
        Executor::Sequential
            .run(&plan, 0, &kernel, &mut store, &NoProgress, &mut |_, _| Control::Continue);
        let reads = OVERFLOW_READS.with(|reads| reads.get());
        let table = store.into_table();
        assert!((0..=5000).all(|n| table.get(&[n]) == Some(Nimber(n as u32))));
        assert!(reads < 1024 * 1024, "{reads} reads of overflowed cells");
    }
}
