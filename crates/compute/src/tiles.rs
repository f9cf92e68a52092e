//! The tiled fill: square tiles in anti-diagonal tile-waves, cells inside a tile in row-major
//! order, with line accumulators for slides.
//!
//! # Order
//! Tile (I, J) holds the cells whose indices divided by the tile's sides are (I, J); tile-wave D is
//! every tile with I + J = D (in 3-D, I + J + K = D). No move raises a coordinate, so every option
//! of a cell lies in a tile that is componentwise at most the cell's own: either an earlier
//! tile-wave or the same tile, earlier in row-major order. The tiles of one tile-wave therefore
//! depend only on earlier tile-waves and run in parallel; rayon's join at the end of each
//! tile-wave orders every write before the reads of later waves.
//!
//! # Lines
//! A slide along a row, a column or the main diagonal reaches every earlier cell of its line, so
//! instead of reading them the engine keeps each line's values in a [`PrefixSet`]; a cell's value
//! is the mex of the union of its lines' sets and its other options, and the scan starts at the
//! largest of the lines' own mexes. Tiles of one tile-wave touch disjoint rows and columns, and
//! their diagonal ranges are disjoint too: with tiles of h rows and w columns, tile (I, J) covers
//! i − j in [I·h − J·w − w + 1, I·h − J·w + h − 1], h + w − 1 values, and the next tile of the
//! same tile-wave, (I + 1, J − 1), starts h + w further on. So lines are updated without locks.
//!
//! # Symmetry
//! When the moves are symmetric in the two axes on a square table, T(i, j) = T(j, i): only the
//! tiles with I ≥ J are computed (on the diagonal tiles, the cells with i ≥ j), and each cell is
//! also written at its mirror (j, i), so every option a computed cell reads, on either side of
//! the diagonal, is final. The tiles are square then, and the mirror of tile (I, J) is (J, I): in
//! the same tile-wave, never computed, and read by no other tile of it. Computed cells use only
//! their row, their column and a diagonal i − j ≥ 0; the mirror (j, i) of a computed cell is the
//! only one of its column i that is never computed, so its value goes into column i's set (column
//! i lies in the tile's own row band, which no other tile of the tile-wave touches).
//!
//! # Safety
//! Cells and lines are reached through [`Shared`]. Each task writes only the cells and lines of its
//! own tile, and reads cells of its own tile written earlier by itself or cells of earlier
//! tile-waves: the contract of [`Shared::get`] and [`Shared::get_mut`].

use crate::compiled::{Cells, CompiledGame, LineKind, NO_LINE};
use crate::shared::Shared;
use crate::wave::index_tuples;
use crate::{Control, Progress};
use grundy_core::{
    mex_of_union, Cell, CellWidth, GrundyTable, MexSet, Nimber, PrefixSet, TableShape,
};
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;

/// Tile shape for 2-D tables (rows × columns): short, wide tiles. A tile's rows lie one table row
/// apart in memory, so each costs its own pages and cache sets; few long rows keep the tile's
/// working set (and its row, column and diagonal line state) in the first cache levels.
const TILE_2D: [usize; 2] = [TILE_ROWS, TILE_COLS];
const TILE_ROWS: usize = 16;
const TILE_COLS: usize = 256;

/// Tile side for symmetric 2-D tables, whose tiles must be square to be mirrored.
const TILE_SQUARE: usize = 64;

/// Tile side for 3-D tables (16³ = 4096 cells, as in 2-D).
const TILE_3D: usize = 16;

/// The line state of a table: one [`PrefixSet`] per row, column and diagonal that the game's
/// slides need.
struct LineStore {
    rows: Vec<PrefixSet>,
    columns: Vec<PrefixSet>,
    diagonals: Vec<PrefixSet>,
}

/// Tile side for heap games. Their cells depend on each other in order, so the tile-waves have one
/// tile each and there is no parallelism to gain from size; short tiles give a checkpoint
/// something to stop between, and a table whose values outgrow its cells is widened after at most
/// one tile, so the values that did not fit are looked up by hash for at most one tile's cells
/// (a whole heap game as one tile read every option of every later cell that way: issue 11).
const TILE_1D: usize = 1024;

/// The tile sides the fill of `compiled` over `shape` uses: `tile_side` if given, else the
/// defaults above.
pub(crate) fn tile_sides(
    compiled: &CompiledGame,
    shape: &TableShape,
    tile_side: Option<usize>,
) -> [usize; 3] {
    match (tile_side, compiled.lens().len()) {
        (Some(side), _) => [side.max(1); 3],
        (None, 1) => [TILE_1D, 1, 1],
        // Mirroring needs square tiles.
        (None, 2) if compiled.is_symmetric(shape) => [TILE_SQUARE, TILE_SQUARE, 1],
        (None, 2) => [TILE_2D[0], TILE_2D[1], 1],
        (None, _) => [TILE_3D; 3],
    }
}

/// The number of tile-waves of a table with `lens` cut into tiles of `sides`.
pub(crate) fn wave_count(lens: &[usize], sides: [usize; 3]) -> usize {
    lens.iter().zip(&sides).map(|(len, side)| len.div_ceil(*side) - 1).sum::<usize>() + 1
}

/// Fills the table of `compiled` over `shape` in tile-waves of tiles with `sides` on the current
/// rayon pool. With `start`, a table whose first tile-waves are final (as `after_wave` saw it), the
/// fill goes on from there. After each tile-wave, `after_wave` sees the table and the number of
/// final tile-waves, and may stop the fill. Returns the table and its number of final tile-waves.
pub(crate) fn fill_tiles(
    compiled: &CompiledGame,
    shape: &TableShape,
    sides: [usize; 3],
    start: Option<(GrundyTable, usize)>,
    progress: &dyn Progress,
    after_wave: &mut dyn FnMut(&GrundyTable, usize) -> Control,
) -> (GrundyTable, usize) {
    let lens = compiled.lens().to_vec();
    let dims = lens.len();
    let symmetric = compiled.is_symmetric(shape);
    // A symmetric fill writes every mirror cell, so column moves can read rows instead.
    let transposed;
    let compiled = if symmetric {
        transposed = compiled.clone().transposing_columns();
        &transposed
    } else {
        compiled
    };
    let tile_counts: Vec<usize> =
        lens.iter().zip(&sides).map(|(len, side)| len.div_ceil(*side)).collect();
    let strides: Vec<usize> = (0..dims).map(|d| lens[d + 1..].iter().product()).collect();
    let sized = |kind: LineKind, len: usize| if compiled.lines().contains(&kind) { len } else { 0 };
    let (rows, cols) = if dims == 2 { (lens[0], lens[1]) } else { (0, 0) };
    let mut lines = LineStore {
        rows: vec![PrefixSet::new(); sized(LineKind::Row, rows)],
        columns: vec![PrefixSet::new(); sized(LineKind::Column, cols)],
        diagonals: vec![
            PrefixSet::new();
            sized(LineKind::Diagonal, (rows + cols).saturating_sub(1))
        ],
    };
    let layout = Layout { compiled, lens: &lens, strides: &strides, sides, symmetric };
    let waves = wave_count(&lens, sides);
    let (mut table, first_wave) = match start {
        Some((table, done)) => {
            let cells = restore_lines(&layout, &table, &mut lines, &tile_counts, done);
            progress.advance(cells);
            (table, done)
        }
        // Cells start as bytes and widen when a value outgrows them: most games' values are
        // small.
        None => (GrundyTable::zeroed_with(shape.clone(), CellWidth::U8), 0),
    };
    for d in first_wave..waves {
        let mut tiles = index_tuples(&tile_counts, d);
        if symmetric {
            tiles.retain(|tile| tile[0] >= tile[1]);
        }
        let (cells, overflow) = match table.width() {
            CellWidth::U8 => wave::<u8>(&layout, &mut table, &mut lines, &tiles),
            CellWidth::U16 => wave::<u16>(&layout, &mut table, &mut lines, &tiles),
            CellWidth::U32 => wave::<u32>(&layout, &mut table, &mut lines, &tiles),
        };
        if !overflow.is_empty() {
            // Some values outgrew the cells: widen the table and put them in.
            let max = overflow.iter().map(|(_, v)| v.value()).max().unwrap_or(0);
            let wider = table
                .width()
                .wider()
                .expect("u32 cells hold every nimber")
                .max(CellWidth::for_max(max.into()));
            table = table.widened(wider);
            for (flat, value) in overflow {
                table.set_flat(flat, value);
            }
        }
        progress.advance(cells);
        if d + 1 < waves && after_wave(&table, d + 1) == Control::Stop {
            return (table, d + 1);
        }
    }
    (table, waves)
}

/// Puts the values of the first `done` tile-waves of `table` into `lines`, as the fill that
/// computed them left them (a [`PrefixSet`] is a set: the order of insertion does not matter), one
/// line per task. Returns the number of those cells.
fn restore_lines(
    layout: &Layout<'_>,
    table: &GrundyTable,
    lines: &mut LineStore,
    tile_counts: &[usize],
    done: usize,
) -> u64 {
    let Layout { lens, sides, .. } = *layout;
    let span = |tile: &[usize; 3], axis: usize| {
        let lo = tile[axis] * sides[axis];
        (lo + sides[axis]).min(lens.get(axis).copied().unwrap_or(1)) - lo
    };
    let cells: usize = (0..done)
        .flat_map(|d| index_tuples(tile_counts, d))
        .map(|tile| span(&tile, 0) * span(&tile, 1) * span(&tile, 2))
        .sum();
    // Lines exist in 2-D tables only.
    if !layout.compiled.lines().is_empty() {
        grundy_core::with_cells!(table.cells(), |values| restore_typed(
            layout, values, lines, done
        ));
    }
    cells as u64
}

/// [`restore_lines`] on the table's typed cells. A computed cell's value is in its row, column
/// and diagonal sets; with symmetry, a mirror cell's (i < j) is in its column set only.
fn restore_typed<C: Cell>(layout: &Layout<'_>, values: &[C], lines: &mut LineStore, done: usize) {
    let Layout { lens, sides, symmetric, .. } = *layout;
    let (rows, cols) = (lens[0], lens[1]);
    let value = |i: usize, j: usize| values[i * cols + j].nimber();
    // Cell (i, j) is final when its tile-wave i / h + j / w is below `done`.
    let row_end = |i: usize| (done.saturating_sub(i / sides[0]) * sides[1]).min(cols);
    let column_end = |j: usize| (done.saturating_sub(j / sides[1]) * sides[0]).min(rows);
    let computed = |i: usize, j: usize| !symmetric || i >= j;
    lines.rows.par_iter_mut().enumerate().for_each(|(i, set)| {
        (0..row_end(i)).filter(|&j| computed(i, j)).for_each(|j| set.insert(value(i, j)));
    });
    lines.columns.par_iter_mut().enumerate().for_each(|(j, set)| {
        (0..column_end(j)).for_each(|i| set.insert(value(i, j)));
    });
    lines.diagonals.par_iter_mut().enumerate().for_each(|(line, set)| {
        // The diagonal `line` holds the cells with i − j = line − (cols − 1).
        let (i0, j0) = if line < cols { (0, cols - 1 - line) } else { (line + 1 - cols, 0) };
        (0..(rows - i0).min(cols - j0))
            .map(|k| (i0 + k, j0 + k))
            .filter(|&(i, j)| j < row_end(i) && computed(i, j))
            .for_each(|(i, j)| set.insert(value(i, j)));
    });
}

/// Runs the tiles of one tile-wave in parallel with cells of type `C`. Returns the number of
/// cells and the values that did not fit in `C` (their cells hold `C::MAX` until the caller
/// widens the table).
fn wave<C: Cell>(
    layout: &Layout<'_>,
    table: &mut GrundyTable,
    lines: &mut LineStore,
    tiles: &[[usize; 3]],
) -> (u64, Vec<(usize, Nimber)>) {
    let dims = layout.lens.len();
    let cells = Shared::new(table.typed_mut::<C>().expect("the table's width"));
    let shared_lines = [
        Shared::new(&mut lines.rows),
        Shared::new(&mut lines.columns),
        Shared::new(&mut lines.diagonals),
    ];
    let tile = Tile { layout, cells: &cells, lines: &shared_lines };
    tiles.par_iter().map_init(MexSet::new, |mex, corner| tile.fill(&corner[..dims], mex)).reduce(
        || (0, Vec::new()),
        |(a, mut va), (b, vb)| {
            va.extend(vb);
            (a + b, va)
        },
    )
}

/// A tile's view of the table: the shared cells, plus the values of its own cells that did not
/// fit in `C` (stored there as `C::MAX`).
struct TileCells<'a, 'b, C> {
    shared: &'a Shared<'b, C>,
    overflow: &'a RefCell<Overflow>,
}

/// The values of a tile's cells (and their mirrors) that did not fit in the cells, by flat index.
struct Overflow {
    values: HashMap<usize, Nimber>,
    /// The smallest flat index in `values` (`usize::MAX` when empty): cells before it hold their
    /// values as they are stored.
    first: usize,
}

impl Overflow {
    fn new() -> Overflow {
        Overflow { values: HashMap::new(), first: usize::MAX }
    }

    fn insert(&mut self, flat: usize, value: Nimber) {
        self.values.insert(flat, value);
        self.first = self.first.min(flat);
    }
}

impl<C: Cell> Cells for TileCells<'_, '_, C> {
    type Cell = C;

    #[inline(always)]
    fn at(&self, index: usize) -> Nimber {
        // SAFETY: cells of earlier tile-waves or earlier cells of this tile (module docs).
        let cell = unsafe { *self.shared.get(index) };
        if cell == C::MAX {
            return self.overflowed(index, cell);
        }
        cell.nimber()
    }

    #[inline]
    fn run(&self, start: usize, len: usize) -> Option<&[C]> {
        // A cell holding C::MAX may stand for an overflowed value: only cells before the first
        // one may be read as they are stored.
        if start + len > self.overflow.borrow().first {
            return None;
        }
        // SAFETY: the callers ask for the cells of options, all final and written by no task of
        // this tile-wave but this one, which does not write while the slice lives (module docs).
        Some(unsafe { self.shared.slice(start, len) })
    }
}

impl<C: Cell> TileCells<'_, '_, C> {
    /// The value of a cell that holds `C::MAX`: an overflowed value of this tile's own (only
    /// this tile's cells can hold one during the tile-wave), or `C::MAX` itself.
    #[cold]
    #[inline(never)]
    fn overflowed(&self, index: usize, cell: C) -> Nimber {
        #[cfg(test)]
        tests::OVERFLOW_READS.with(|reads| reads.set(reads.get() + 1));
        self.overflow.borrow().values.get(&index).copied().unwrap_or(cell.nimber())
    }
}

/// The shape of the work, the same for every tile-wave.
struct Layout<'a> {
    compiled: &'a CompiledGame,
    lens: &'a [usize],
    strides: &'a [usize],
    sides: [usize; 3],
    /// Compute the cells with i ≥ j only and mirror them (module docs).
    symmetric: bool,
}

/// What every tile task of one tile-wave shares.
struct Tile<'a, 'b, C> {
    layout: &'a Layout<'a>,
    cells: &'a Shared<'b, C>,
    lines: &'a [Shared<'b, PrefixSet>; 3],
}

impl<C: Cell> Tile<'_, '_, C> {
    /// Fills the tile at tile index `corner`, row-major; returns its number of cells and the
    /// values that did not fit in `C`.
    fn fill(&self, corner: &[usize], mex: &mut MexSet) -> (u64, Vec<(usize, Nimber)>) {
        let Layout { lens, strides, sides, symmetric, .. } = *self.layout;
        let dims = corner.len();
        let mut lo = [0usize; 3];
        let mut hi = [1usize; 3];
        for d in 0..dims {
            lo[d] = corner[d] * sides[d];
            hi[d] = (lo[d] + sides[d]).min(lens[d]);
        }
        let overflow = RefCell::new(Overflow::new());
        let reader = TileCells { shared: self.cells, overflow: &overflow };
        let mut index = [0usize; 3];
        // The last axis is the inner loop, with the flat index advancing by one.
        let last = dims - 1;
        let mut outer = lo;
        let mut count = 0;
        loop {
            index[..dims].copy_from_slice(&outer[..dims]);
            let start: usize = index[..dims].iter().zip(strides).map(|(i, s)| i * s).sum();
            // With symmetry, only the cells on or below the diagonal (j ≤ i).
            let end = if symmetric { hi[last].min(index[0] + 1) } else { hi[last] };
            for (flat, j) in (start..).zip(lo[last]..end) {
                index[last] = j;
                let value = self.value(&reader, &index, flat, mex);
                let mirror = (symmetric && j != index[0]).then(|| j * lens[1] + index[0]);
                let cell = match C::from_nimber(value) {
                    Some(cell) if cell != C::MAX => cell,
                    _ => {
                        let mut overflow = overflow.borrow_mut();
                        overflow.insert(flat, value);
                        if let Some(mirror) = mirror {
                            overflow.insert(mirror, value);
                        }
                        C::MAX
                    }
                };
                // SAFETY: `flat` is in this task's tile; no other task reads or writes it during
                // this tile-wave (module docs).
                unsafe { *self.cells.get_mut(flat) = cell };
                count += 1;
                if let Some(mirror) = mirror {
                    // SAFETY: the mirror lies in tile (J, I), which no task of this tile-wave
                    // computes or reads (module docs, Symmetry).
                    unsafe { *self.cells.get_mut(mirror) = cell };
                    count += 1;
                    if self.layout.compiled.lines().contains(&LineKind::Column) {
                        // SAFETY: column i is in this tile's row band (module docs, Symmetry).
                        unsafe { self.lines[1].get_mut(index[0]) }.insert(value);
                    }
                }
            }
            // Next line of the tile: advance the outer axes, last-but-one fastest.
            let mut d = last;
            loop {
                if d == 0 {
                    return (count, overflow.into_inner().values.into_iter().collect());
                }
                d -= 1;
                outer[d] += 1;
                if outer[d] < hi[d] {
                    break;
                }
                outer[d] = lo[d];
            }
        }
    }

    #[inline]
    fn value(
        &self,
        cells: &TileCells<'_, '_, C>,
        index: &[usize; 3],
        flat: usize,
        mex: &mut MexSet,
    ) -> Nimber {
        let compiled = self.layout.compiled;
        let low = compiled.insert_options(cells, index, flat, mex);
        let kinds = compiled.lines();
        let value = if kinds.is_empty() {
            mex.mex_with_low(low)
        } else {
            let (i, j, cols) = (index[0], index[1], self.layout.lens[1]);
            let line_of = |kind: LineKind| kind.locate(i, j, cols);
            let mut refs = [&NO_LINE; 3];
            for (slot, &kind) in refs.iter_mut().zip(kinds) {
                let (store, line) = line_of(kind);
                // SAFETY: the cell's own row, column and diagonal belong to this tile's lines,
                // which no other task of this tile-wave touches (module docs).
                *slot = unsafe { self.lines[store].get(line) };
            }
            let value = mex_of_union(mex, low, &refs[..kinds.len()]);
            for &kind in kinds {
                let (store, line) = line_of(kind);
                // SAFETY: as above; the shared references in `refs` are no longer used.
                unsafe { self.lines[store].get_mut(line) }.insert(value);
            }
            value
        };
        mex.clear();
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoProgress;
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
        let compiled = CompiledGame::new(&game, &shape, true);
        let sides = tile_sides(&compiled, &shape, None);
        assert_eq!(sides, [TILE_1D, 1, 1]);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let (table, reads) = pool.install(|| {
            OVERFLOW_READS.with(|reads| reads.set(0));
            let (table, _) =
                fill_tiles(&compiled, &shape, sides, None, &NoProgress, &mut |_, _| {
                    Control::Continue
                });
            (table, OVERFLOW_READS.with(|reads| reads.get()))
        });
        assert!((0..=5000).all(|n| table.get(&[n]) == Some(Nimber(n as u32))));
        assert!(reads < 1024 * 1024, "{reads} reads of overflowed cells");
    }
}
