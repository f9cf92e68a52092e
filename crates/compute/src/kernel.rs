//! The stencil kernel: computes the cells of one unit, in row-major order, from a view of what the
//! unit reads.
//!
//! A cell's value is the mex of its options' values: the cells its compiled moves reach (through
//! [`Cells`]) and, for slides along a row, a column or the main diagonal, the summaries of those
//! lines (a [`PrefixSet`] each). The kernel adds each value to the cell's lines as it goes, since
//! later cells of the same unit read them; additions are set unions, so the order in which units
//! add to a line does not change it. The kernel knows nothing of where values live (that is the
//! store's [`UnitView`]) or of threads (the executor's).

pub(crate) use crate::compiled::Slides;
use crate::compiled::{Cells, CompiledGame, Stencil, NO_LINE};
use crate::plan::{Halves, LineKind, Reads, Unit};
use crate::sliced::{SlicedStencil, LANES};
use grundy_core::{mex_of_union, Cell, Game, MexSet, Nimber, Play, PrefixSet, TableShape};

/// What a unit sees of the store while the kernel fills it: the final cells it reads (as
/// [`Cells`]), the line summaries of its cells, and a place to put each value.
pub(crate) trait UnitView: Cells {
    /// The `line`th line of its `kind` (see [`LineKind::locate`]): the values of the line's
    /// final cells so far.
    fn line(&self, kind: LineKind, line: usize) -> &PrefixSet;

    /// Adds `value` to that line.
    fn add_to_line(&mut self, kind: LineKind, line: usize, value: Nimber);

    /// Stores `value` as the value of the cell at `index` (flat position `flat`); returns how many
    /// cells that made final (2 when the store also writes the mirror cell).
    fn write(&mut self, index: &[usize; 3], flat: usize, value: Nimber) -> u64;

    /// [`UnitView::write`] for the cells of a 2-D row from `index` (flat position `flat`) on,
    /// whose values are all below 64.
    fn write_small(&mut self, index: &[usize; 3], flat: usize, values: &[u8]) -> u64 {
        let mut index = *index;
        let j0 = index[1];
        let mut written = 0;
        for (k, &value) in values.iter().enumerate() {
            index[1] = j0 + k;
            written += self.write(&index, flat + k, Nimber(value.into()));
        }
        written
    }
}

/// A game's moves compiled for one table, as a kernel.
#[derive(Clone, Debug)]
pub(crate) struct StencilKernel {
    compiled: CompiledGame,
    strides: [usize; 3],
    /// The moves as fixed 2-D steps, when they are only that (see [`StencilKernel::fill_row`]).
    stencil: Option<Stencil>,
    /// The same steps swept 64 rows at a time, when there are few enough of them (see
    /// [`StencilKernel::fill_sliced`]).
    sliced: Option<SlicedStencil>,
    /// The play convention, applied to every cell's mex by [`Play::value`] (the stencil rows
    /// need not: they hold only cells every step leaves on the board, none of them terminal).
    play: Play,
}

impl StencilKernel {
    /// Compiles `game` for `shape`, its slides along whole rows, columns and the main diagonal
    /// as `slides` says (line summaries, or every cell walked).
    pub(crate) fn new(game: &Game, shape: &TableShape, slides: Slides) -> StencilKernel {
        StencilKernel::from_compiled(CompiledGame::new(game, shape, slides), game.play())
    }

    fn from_compiled(compiled: CompiledGame, play: Play) -> StencilKernel {
        let lens = compiled.lens();
        let mut strides = [0; 3];
        for d in 0..lens.len() {
            strides[d] = lens[d + 1..].iter().product();
        }
        let stencil = compiled.stencil();
        let sliced = stencil.as_ref().and_then(|stencil| SlicedStencil::new(&stencil.steps()));
        StencilKernel { compiled, strides, stencil, sliced, play }
    }

    pub(crate) fn compiled(&self) -> &CompiledGame {
        &self.compiled
    }

    /// The same kernel reading the moves that walk down a column through the mirror row (see
    /// [`CompiledGame::transposing_columns`]): for a store that writes every mirror cell.
    pub(crate) fn transposing_columns(&self) -> StencilKernel {
        StencilKernel::from_compiled(self.compiled.clone().transposing_columns(), self.play)
    }

    /// Whether units of at least [`StencilKernel::SLICED_ROWS`] rows are swept 64 rows at a
    /// time: a cell then costs a fraction of a nanosecond, less than writing its mirror, so a
    /// symmetric table is best computed whole (see [`crate::plan::Halves`]).
    pub(crate) fn sweeps(&self) -> bool {
        self.sliced.is_some()
    }

    /// How a table of `shape` is computed: by halves when the moves allow it (see
    /// [`CompiledGame::halves`]), unless the kernel sweeps them.
    pub(crate) fn halves(&self, shape: &TableShape) -> Halves {
        if self.sweeps() {
            Halves::Whole
        } else {
            self.compiled.halves(shape)
        }
    }

    /// Units with fewer rows than this are filled row by row even when the steps can be swept:
    /// a sweep of h rows and w columns takes w + h − 1 steps.
    pub(crate) const SLICED_ROWS: usize = 16;

    /// What a unit of this kernel reads besides its own earlier cells.
    pub(crate) fn reads(&self) -> Reads {
        let dims = self.compiled.lens().len();
        Reads {
            halo: (0..dims).map(|axis| self.compiled.reach(axis)).collect(),
            lines: self.compiled.lines().to_vec(),
        }
    }

    /// The flat (row-major) position of `index`.
    #[inline]
    pub(crate) fn flat(&self, index: &[usize; 3]) -> usize {
        index.iter().zip(&self.strides).map(|(i, s)| i * s).sum()
    }

    /// Fills `unit` through `view`, cell by cell in row-major order; returns the number of cells
    /// made final. `mex` is scratch space, empty on entry and on exit.
    pub(crate) fn fill_unit<V: UnitView>(
        &self,
        unit: &Unit,
        view: &mut V,
        mex: &mut MexSet,
    ) -> u64 {
        let dims = self.compiled.lens().len();
        if let Some(sliced) = &self.sliced {
            let rows = unit.hi[0] - unit.lo[0];
            if dims == 2 && !unit.lower_only && rows >= StencilKernel::SLICED_ROWS {
                return self.fill_sliced(sliced, unit, view, mex);
            }
        }
        // The last axis is the inner loop, with the flat index advancing by one; the others (at
        // most two) are walked by ndarray's row-major index iterator.
        let last = dims - 1;
        let outer = |d: usize| if d < last { (unit.lo[d], unit.hi[d]) } else { (0, 1) };
        let [(a0, a1), (b0, b1)] = [outer(0), outer(1)];
        let mut count = 0;
        for (a, b) in ndarray::indices((a1 - a0, b1 - b0)) {
            let mut index = [a0 + a, b0 + b, 0];
            index[last] = unit.lo[last];
            let start = self.flat(&index);
            // A diagonal tile of a mirrored table: only the cells with j ≤ i.
            let end = if unit.lower_only { unit.hi[last].min(index[0] + 1) } else { unit.hi[last] };
            let mut from = unit.lo[last];
            if let Some(stencil) = self.stencil.as_ref().filter(|_| !unit.lower_only) {
                let (done, written) = self.fill_row(stencil, view, index, start, end);
                count += written;
                from += done;
            }
            for (flat, j) in (start + (from - unit.lo[last])..).zip(from..end) {
                index[last] = j;
                let value = self.value(view, &index, flat, mex);
                count += view.write(&index, flat, value);
            }
        }
        count
    }

    /// Fills a 2-D `unit` of a game whose steps are a [`SlicedStencil`]: the cells some step
    /// would leave the board from (the table's first rows and columns) one by one, the rest in
    /// strips of 64 rows swept at once.
    fn fill_sliced<V: UnitView>(
        &self,
        sliced: &SlicedStencil,
        unit: &Unit,
        view: &mut V,
        mex: &mut MexSet,
    ) -> u64 {
        let [up, back] = sliced.reach();
        let [i0, j0, _] = unit.lo;
        let [i1, j1, _] = unit.hi;
        // The first cells of the sweep: every step stays on the board from there on.
        let (si, sj) = (i0.max(up).min(i1), j0.max(back).min(j1));
        let mut count = self.fill_cells(view, i0..si, j0..j1, mex);
        let w = j1 - sj;
        let (mut top, mut side, mut out) = (Vec::new(), Vec::new(), Vec::new());
        for r0 in (si..i1).step_by(LANES) {
            let h = LANES.min(i1 - r0);
            // Where the steps leave the board, before the strip's first swept column.
            count += self.fill_cells(view, r0..r0 + h, j0..sj, mex);
            if w == 0 {
                continue;
            }
            top.clear();
            for a in 1..=up {
                self.read_bytes(view, [r0 - a, sj - back], back + w, &mut top);
            }
            side.clear();
            for r in r0..r0 + h {
                self.read_bytes(view, [r, sj - back], back, &mut side);
            }
            out.resize(SlicedStencil::out_len(h, w), 0);
            sliced.sweep(h, w, &top, &side, &mut out);
            for r in 0..h {
                let index = [r0 + r, sj, 0];
                let start = SlicedStencil::out_start(r, w);
                count += view.write_small(&index, self.flat(&index), &out[start..start + w]);
            }
        }
        count
    }

    /// Appends the values of the `len` cells of a 2-D table from `[i, j]` on, all below 64, to
    /// `bytes`.
    fn read_bytes<V: UnitView>(
        &self,
        view: &V,
        [i, j]: [usize; 2],
        len: usize,
        bytes: &mut Vec<u8>,
    ) {
        let start = self.flat(&[i, j, 0]);
        match view.run(start, len) {
            Some(run) => bytes.extend(run.iter().map(|cell| cell.nimber().value() as u8)),
            None => bytes.extend((start..start + len).map(|k| view.at(k).value() as u8)),
        }
    }

    /// Fills the cells of a 2-D table in `rows` × `cols` one by one, in row-major order.
    fn fill_cells<V: UnitView>(
        &self,
        view: &mut V,
        rows: std::ops::Range<usize>,
        cols: std::ops::Range<usize>,
        mex: &mut MexSet,
    ) -> u64 {
        let mut count = 0;
        for i in rows {
            for j in cols.clone() {
                let index = [i, j, 0];
                let flat = self.flat(&index);
                let value = self.value(view, &index, flat, mex);
                count += view.write(&index, flat, value);
            }
        }
        count
    }

    /// The cells of a 2-D row from `index` (flat position `start`) to column `end` of a game
    /// whose moves are a [`Stencil`], the way a plain loop over a byte table would: the cells
    /// of earlier rows read as slices, the last values of this row kept in a register, a cell's
    /// options one word (every value is below 64). Only where every step stays on the board:
    /// returns how many cells it computed (the caller does the rest, from the first one it
    /// left) and how many it made final. Not for diagonal tiles of a mirrored table, whose
    /// mirror writes land in the row above.
    #[inline]
    fn fill_row<V: UnitView>(
        &self,
        stencil: &Stencil,
        view: &mut V,
        mut index: [usize; 3],
        start: usize,
        end: usize,
    ) -> (usize, u64) {
        let [i, j0] = [index[0], index[1]];
        if i < stencil.reach[0] || j0 < stencil.reach[1] || end <= j0 {
            return (0, 0);
        }
        let len = end - j0;
        let cols = self.strides[0];
        // The values of the cells before this row's first, newest in the lowest byte.
        let mut recent = 0u64;
        for k in 0..stencil.reach[1].min(Stencil::MOST_LEFT) {
            recent |= u64::from(view.at(start - 1 - k).value() as u8) << (8 * k);
        }
        const CHUNK: usize = 256;
        let mut values = [0u8; CHUNK];
        let mut written = 0;
        for chunk in (0..len).step_by(CHUNK) {
            let n = CHUNK.min(len - chunk);
            let first = start + chunk;
            {
                // Read the earlier rows, then write: the slices end before the first write.
                let mut rows: [&[V::Cell]; Stencil::MOST_ABOVE] = [&[]; Stencil::MOST_ABOVE];
                for (row, &[up, back]) in rows.iter_mut().zip(&stencil.above) {
                    match view.run(first - up * cols - back, n) {
                        Some(run) => *row = run,
                        None => return (chunk, written),
                    }
                }
                let above = &rows[..stencil.above.len()];
                for (k, value) in values[..n].iter_mut().enumerate() {
                    let mut low = 0u64;
                    for row in above {
                        low |= 1 << row[k].nimber().value();
                    }
                    let mut left = stencil.left;
                    let mut past = recent;
                    while left != 0 {
                        if left & 1 != 0 {
                            low |= 1 << (past & 0xff);
                        }
                        left >>= 1;
                        past >>= 8;
                    }
                    *value = (!low).trailing_zeros() as u8;
                    recent = (recent << 8) | u64::from(*value);
                }
            }
            index[1] = j0 + chunk;
            written += view.write_small(&index, first, &values[..n]);
        }
        (len, written)
    }

    /// The value of the cell at `index` (flat position `flat`), every option of which is final in
    /// `view`; adds it to the cell's lines.
    #[inline]
    fn value<V: UnitView>(
        &self,
        view: &mut V,
        index: &[usize; 3],
        flat: usize,
        mex: &mut MexSet,
    ) -> Nimber {
        let compiled = &self.compiled;
        let low = compiled.insert_options(view, index, flat, mex);
        let kinds = compiled.lines();
        let value = if kinds.is_empty() {
            self.play.value(mex.mex_with_low(low), || mex.is_empty_with_low(low))
        } else {
            let cols = compiled.lens()[1];
            let mut spots = [(LineKind::Row, 0usize); 3];
            for (spot, &kind) in spots.iter_mut().zip(kinds) {
                *spot = (kind, kind.locate(index[0], index[1], cols));
            }
            let spots = &spots[..kinds.len()];
            let mut refs = [&NO_LINE; 3];
            for (slot, &(kind, line)) in refs.iter_mut().zip(spots) {
                *slot = view.line(kind, line);
            }
            let lines = &refs[..spots.len()];
            let value = self.play.value(mex_of_union(mex, low, lines), || {
                mex.is_empty_with_low(low) && lines.iter().all(|line| line.is_empty())
            });
            for &(kind, line) in spots {
                view.add_to_line(kind, line, value);
            }
            value
        };
        mex.clear();
        value
    }
}
