//! The Grundy table: one nimber per position of a box of positions.

mod bfile;
// `with_cells!` is exported at the crate's root for other crates; here it is in scope by text.
#[macro_use]
mod cells;
mod csv;
mod described;
mod lines;
mod npy;
mod provenance;
mod repeating;

pub use self::bfile::{read_bfile, write_bfile, BfileError};
pub use self::cells::{Cell, CellArray, CellSlice, CellVec, CellWidth};
pub use self::csv::{
    read_csv, read_csv_within, write_csv, write_table_csv, CellKind, CsvLayout, CsvLimits,
    CsvReadError, CsvRows,
};
pub use self::described::{LabelsOnly, LoopyCells, Table, INFINITE_LABEL};
pub use self::lines::{read_line_within, skip_line_within, Line};
pub use self::npy::{
    read_npy, read_npy_table, write_npy, write_npy_header, NpyError, NpyErrorKind,
};
pub use self::provenance::{
    fingerprint, Provenance, ProvenanceError, ValuesDigest, PROVENANCE_VERSION,
};
pub use self::repeating::Repeating;

use crate::error::ModelError;
use crate::game::{Axis, Coord, Game};
use crate::nimber::Nimber;
use ndarray::{ArrayD, ArrayViewD, Axis as ArrayAxis, IxDyn};

/// The box of positions a table covers: on each axis, from the axis' smallest coordinate up to a
/// largest coordinate, inclusive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableShape {
    axes: Vec<Axis>,
    max: Vec<Coord>,
}

impl TableShape {
    /// The box of `game`'s positions up to `max` on each axis.
    ///
    /// `text` is how the user wrote `max`, for the error message.
    pub fn new(game: &Game, max: &[Coord], text: &str) -> Result<TableShape, ModelError> {
        let out_of_range = |reason: String| ModelError::OutOfRange {
            what: "size",
            text: text.to_string(),
            game: game.name().to_string(),
            reason,
        };
        check_fits(game, max).map_err(out_of_range)?;
        Ok(TableShape { axes: game.axes().to_vec(), max: max.to_vec() })
    }

    /// The box from each axis' smallest coordinate up to `max`, for a table that has no game
    /// (one read from a file).
    ///
    /// # Panics
    /// If `max` has another length than `axes` or lies below an axis' smallest coordinate.
    pub fn from_axes(axes: Vec<Axis>, max: Vec<Coord>) -> TableShape {
        assert_eq!(axes.len(), max.len());
        assert!(axes.iter().zip(&max).all(|(a, &m)| m >= a.min));
        TableShape { axes, max }
    }

    /// The axes (names and smallest coordinates).
    pub fn axes(&self) -> &[Axis] {
        &self.axes
    }

    /// The largest coordinate on each axis.
    pub fn max(&self) -> &[Coord] {
        &self.max
    }

    /// The number of coordinates on each axis.
    pub fn lens(&self) -> Vec<usize> {
        self.axes.iter().zip(&self.max).map(|(axis, &max)| (max - axis.min + 1) as usize).collect()
    }

    /// The number of cells, without overflow however large the box.
    pub fn cells(&self) -> u128 {
        self.lens().iter().map(|&len| len as u128).product()
    }

    /// The row-major index of position `pos` (`None` outside the box).
    pub fn index_of(&self, pos: &[Coord]) -> Option<usize> {
        if pos.len() != self.axes.len() {
            return None;
        }
        let mut at = 0usize;
        for ((axis, &max), &c) in self.axes.iter().zip(&self.max).zip(pos) {
            if c < axis.min || c > max {
                return None;
            }
            let len = (max - axis.min + 1) as usize;
            at = at * len + (c - axis.min) as usize;
        }
        Some(at)
    }
}

/// Checks that `pos` has the game's dimension and lies on its board.
fn check_fits(game: &Game, pos: &[Coord]) -> Result<(), String> {
    if pos.len() != game.dims() {
        let expected = match game.dims() {
            1 => "N",
            2 => "RxC",
            _ => "AxBxC",
        };
        let axes = crate::words::counted(game.dims(), "axis", "axes");
        return Err(format!("the game has {axes}, so write it as {expected}"));
    }
    for (&c, axis) in pos.iter().zip(game.axes()) {
        if c < axis.min {
            return Err(format!("axis `{}` starts at {}", axis.name, axis.min));
        }
        if let Some(max) = axis.max.filter(|&max| c > max) {
            return Err(format!("axis `{}` ends at {max}", axis.name));
        }
    }
    Ok(())
}

/// Parses `7`, `3x2` or `4x5x6` into coordinates. `what` (`size` or `position`) names the thing
/// in error messages.
pub fn parse_coords(text: &str, what: &'static str) -> Result<Vec<Coord>, ModelError> {
    let error = |reason: String| ModelError::Coordinates { what, text: text.to_string(), reason };
    text.split('x')
        .map(|part| {
            if part.is_empty() {
                return Err(error("a coordinate is missing; write e.g. 7, 3x2 or 4x5x6".into()));
            }
            if !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(error(format!("`{part}` is not a whole number >= 0")));
            }
            // 2^31 is far beyond any table that fits in memory; larger numbers would only
            // overflow the arithmetic on coordinates.
            part.parse::<Coord>()
                .ok()
                .filter(|&c| c < crate::game::COORD_LIMIT)
                .ok_or_else(|| error(format!("`{part}` is too large")))
        })
        .collect()
}

/// Checks a position (as parsed by [`parse_coords`]) against a game.
pub fn check_position(game: &Game, pos: &[Coord], text: &str) -> Result<(), ModelError> {
    check_fits(game, pos).map_err(|reason| ModelError::OutOfRange {
        what: "position",
        text: text.to_string(),
        game: game.name().to_string(),
        reason,
    })
}

/// How many rows, columns and diagonals (x − y constant) a `rows` × `cols` board has: the lines
/// whose periods `grundy patterns` reports, one record each.
pub fn board_lines(rows: usize, cols: usize) -> u128 {
    if rows == 0 || cols == 0 {
        return 0;
    }
    2 * (rows as u128 + cols as u128) - 1
}

/// Moves `index` to the next cell in row-major order (last axis fastest) within `lens`, wrapping
/// to all zeros after the last cell.
pub fn advance_row_major(index: &mut [usize], lens: &[usize]) {
    for d in (0..index.len()).rev() {
        index[d] += 1;
        if index[d] < lens[d] {
            return;
        }
        index[d] = 0;
    }
}

/// Sums that describe a table without listing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableStats {
    /// Number of cells.
    pub cells: u64,
    /// Sum of all values.
    pub sum: u64,
    /// Largest value.
    pub max: u32,
    /// Number of cells of value 0.
    pub p_positions: u64,
}

impl TableStats {
    /// The sums of no cells.
    pub const EMPTY: TableStats = TableStats { cells: 0, sum: 0, max: 0, p_positions: 0 };

    /// The sums of `values` (a table's cells, or a part of them: see [`TableStats::merge`]).
    pub fn of<C: Cell>(values: &[C]) -> TableStats {
        if C::WIDTH == CellWidth::U8 {
            return TableStats::of_bytes(bytemuck::cast_slice(values));
        }
        let mut stats = TableStats { cells: values.len() as u64, ..TableStats::EMPTY };
        // One pass per figure over chunks that stay in the first-level cache, each a loop the
        // compiler turns into vector instructions (one pass doing all three, in u64s, was a
        // sixth of kiki 15000²'s run). A chunk of narrow cells sums within a u32.
        for chunk in values.chunks(1 << 12) {
            stats.sum += if C::WIDTH == CellWidth::U32 {
                chunk.iter().map(|&v| u64::from(v.into())).sum::<u64>()
            } else {
                u64::from(chunk.iter().map(|&v| v.into()).sum::<u32>())
            };
            stats.max = chunk.iter().map(|&v| v.into()).fold(stats.max, u32::max);
            stats.p_positions += chunk.iter().filter(|&&v| v.into() == 0).count() as u64;
        }
        stats
    }

    /// [`TableStats::of`] byte cells: each figure of a block of 256 cells fits in 16 bits, and
    /// sums of 16-bit lanes are twice as wide vectors as sums of 32-bit ones. Summing bytes in
    /// 32 and 64 bits was a sixth of kiki 15000²'s run.
    fn of_bytes(values: &[u8]) -> TableStats {
        let mut stats = TableStats { cells: values.len() as u64, ..TableStats::EMPTY };
        let mut max = 0u8;
        for block in values.chunks(256) {
            stats.sum += u64::from(block.iter().map(|&v| u16::from(v)).sum::<u16>());
            stats.p_positions += u64::from(block.iter().map(|&v| u16::from(v == 0)).sum::<u16>());
            max = block.iter().copied().fold(max, u8::max);
        }
        stats.max = max.into();
        stats
    }

    /// The sums of two disjoint parts of a table together.
    pub fn merge(self, other: TableStats) -> TableStats {
        TableStats {
            cells: self.cells + other.cells,
            sum: self.sum + other.sum,
            max: self.max.max(other.max),
            p_positions: self.p_positions + other.p_positions,
        }
    }
}

/// A Grundy table: the nimber of every position of a [`TableShape`], stored row-major in an
/// ndarray of the narrowest cell type that holds its values ([`CellWidth`]).
#[derive(Clone, Debug)]
pub struct GrundyTable {
    shape: TableShape,
    store: CellArray,
}

impl PartialEq for GrundyTable {
    /// Equal shapes and equal values, whatever the cell widths.
    fn eq(&self, other: &GrundyTable) -> bool {
        let (a, b) = (self.cells(), other.cells());
        self.shape == other.shape
            && a.len() == b.len()
            && (0..a.len()).all(|i| a.get(i) == b.get(i))
    }
}

impl Eq for GrundyTable {}

impl GrundyTable {
    /// A table of zeros in `u32` cells. Callers check the memory first.
    pub fn zeroed(shape: TableShape) -> GrundyTable {
        GrundyTable::zeroed_with(shape, CellWidth::U32)
    }

    /// A table of zeros in cells of `width`.
    pub fn zeroed_with(shape: TableShape, width: CellWidth) -> GrundyTable {
        match width {
            CellWidth::U8 => GrundyTable::zeroed_of::<u8>(shape),
            CellWidth::U16 => GrundyTable::zeroed_of::<u16>(shape),
            CellWidth::U32 => GrundyTable::zeroed_of::<u32>(shape),
        }
    }

    fn zeroed_of<C: Cell>(shape: TableShape) -> GrundyTable {
        let cells = shape.lens().iter().product();
        // Zeroed memory from the allocator: the operating system hands out zero pages as they are
        // first written, instead of the table being written twice.
        let zeros: Vec<C> = bytemuck::allocation::zeroed_vec(cells);
        GrundyTable::from_vec(shape, zeros)
    }

    /// A table holding `values` (row-major).
    ///
    /// # Panics
    /// If the number of values does not match the shape.
    pub fn from_vec<C: Cell>(shape: TableShape, values: Vec<C>) -> GrundyTable {
        let array = ArrayD::from_shape_vec(IxDyn(&shape.lens()), values)
            .expect("the length matches the shape");
        GrundyTable { shape, store: C::wrap(array) }
    }

    /// A table holding `values` (row-major) in the narrowest width that holds them.
    pub fn from_nimbers(shape: TableShape, values: &[Nimber]) -> GrundyTable {
        let max = values.iter().map(|v| v.0).max().unwrap_or(0);
        fn narrow<C: Cell>(shape: TableShape, values: &[Nimber]) -> GrundyTable {
            let cells = values
                .iter()
                .map(|&v| C::from_nimber(v).expect("the width holds the maximum"))
                .collect();
            GrundyTable::from_vec::<C>(shape, cells)
        }
        match CellWidth::for_max(max.into()) {
            CellWidth::U8 => narrow::<u8>(shape, values),
            CellWidth::U16 => narrow::<u16>(shape, values),
            CellWidth::U32 => narrow::<u32>(shape, values),
        }
    }

    /// A heap game's sequence lengthened to `shape` (one axis, as long or longer): these values,
    /// then zeros, in the same cells. The storage grows in place where the allocator can (large
    /// blocks are remapped), so the values are not held twice: a proof search's rounds.
    ///
    /// # Panics
    /// If either shape has more than one axis, or `shape` is shorter.
    pub fn extended(self, shape: TableShape) -> GrundyTable {
        assert!(self.shape.axes.len() == 1 && shape.axes.len() == 1, "sequences only");
        let len = shape.lens()[0];
        assert!(len >= self.len(), "a sequence is extended, not cut");
        fn grow<C: Cell>(array: ArrayD<C>, shape: TableShape, len: usize) -> GrundyTable {
            // An owned array made from a vector, never sliced: its values start at offset 0.
            let (mut values, offset) = array.into_raw_vec_and_offset();
            assert_eq!(offset.unwrap_or(0), 0, "an owned table starts at its first value");
            // Exactly: `resize` alone may double the capacity (16.8 MB grown to 33.5 MB).
            values.reserve_exact(len - values.len());
            values.resize(len, C::zeroed());
            GrundyTable::from_vec(shape, values)
        }
        match self.store {
            CellArray::U8(array) => grow(array, shape, len),
            CellArray::U16(array) => grow(array, shape, len),
            CellArray::U32(array) => grow(array, shape, len),
        }
    }

    /// The same values in the narrowest width that holds them.
    pub fn narrowed(self) -> GrundyTable {
        let width = CellWidth::for_max(self.stats().max.into());
        if width == self.width() {
            self
        } else {
            GrundyTable::from_nimbers(self.shape.clone(), &self.to_nimbers())
        }
    }

    /// The same values in cells of `width`, which must be at least as wide as the current one.
    ///
    /// # Panics
    /// If `width` is narrower than the table's.
    pub fn widened(mut self, width: CellWidth) -> GrundyTable {
        self.widen(width);
        self
    }

    /// Puts the values in cells of `width`, which must be at least as wide as the current one.
    ///
    /// # Panics
    /// If `width` is narrower than the table's.
    pub fn widen(&mut self, width: CellWidth) {
        assert!(width >= self.width(), "widening to a narrower width");
        if width == self.width() {
            return;
        }
        let cells = self.cells();
        fn copy<C: Cell>(shape: TableShape, cells: CellSlice<'_>) -> GrundyTable {
            let values =
                (0..cells.len()).map(|i| C::from_nimber(cells.get(i)).expect("wider")).collect();
            GrundyTable::from_vec::<C>(shape, values)
        }
        *self = match width {
            CellWidth::U8 => unreachable!("nothing is narrower than u8"),
            CellWidth::U16 => copy::<u16>(self.shape.clone(), cells),
            CellWidth::U32 => copy::<u32>(self.shape.clone(), cells),
        };
    }

    /// The table of one fewer axis where axis `axis` is fixed at coordinate `at` (a 2-D slice of a
    /// 3-D table), in the same cell width; `None` when the table has one axis, `axis` is not one of
    /// its axes, or `at` lies outside it.
    pub fn slice(&self, axis: usize, at: Coord) -> Option<GrundyTable> {
        let axes = &self.shape.axes;
        if axes.len() < 2 || axis >= axes.len() || at < axes[axis].min || at > self.shape.max[axis]
        {
            return None;
        }
        let keep = |d: &usize| *d != axis;
        let shape = TableShape::from_axes(
            (0..axes.len()).filter(keep).map(|d| axes[d].clone()).collect(),
            (0..axes.len()).filter(keep).map(|d| self.shape.max[d]).collect(),
        );
        let index = (at - axes[axis].min) as usize;
        fn take<C: Cell>(shape: TableShape, array: ArrayViewD<'_, C>) -> GrundyTable {
            GrundyTable::from_vec(shape, array.iter().copied().collect())
        }
        Some(match &self.store {
            CellArray::U8(a) => take(shape, a.index_axis(ArrayAxis(axis), index)),
            CellArray::U16(a) => take(shape, a.index_axis(ArrayAxis(axis), index)),
            CellArray::U32(a) => take(shape, a.index_axis(ArrayAxis(axis), index)),
        })
    }

    /// The values, without a copy (for a numpy array that takes over the allocation).
    pub fn into_array(self) -> CellArray {
        self.store
    }

    /// The table's box.
    pub fn shape(&self) -> &TableShape {
        &self.shape
    }

    /// The axes (names and smallest coordinates).
    pub fn axes(&self) -> &[Axis] {
        &self.shape.axes
    }

    /// The width of the cells.
    pub fn width(&self) -> CellWidth {
        match self.store {
            CellArray::U8(_) => CellWidth::U8,
            CellArray::U16(_) => CellWidth::U16,
            CellArray::U32(_) => CellWidth::U32,
        }
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.cells().len()
    }

    /// Whether the table has no cells (never: every axis has at least one coordinate).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values in row-major order, in their stored width.
    pub fn cells(&self) -> CellSlice<'_> {
        match &self.store {
            CellArray::U8(a) => CellSlice::U8(a.as_slice().expect("standard layout")),
            CellArray::U16(a) => CellSlice::U16(a.as_slice().expect("standard layout")),
            CellArray::U32(a) => CellSlice::U32(a.as_slice().expect("standard layout")),
        }
    }

    /// The values in row-major order as cells of type `C`, if that is the stored width.
    pub fn typed_mut<C: Cell>(&mut self) -> Option<&mut [C]> {
        C::slice_mut(&mut self.store)
    }

    /// The values in row-major order as cells of type `C`, if that is the stored width.
    pub fn typed<C: Cell>(&self) -> Option<&[C]> {
        C::slice(&self.store)
    }

    /// The value at flat (row-major) index `index`.
    pub fn get_flat(&self, index: usize) -> Nimber {
        self.cells().get(index)
    }

    /// Sets the value at flat index `index`.
    ///
    /// # Panics
    /// If `value` does not fit the table's cells (widen first).
    pub fn set_flat(&mut self, index: usize, value: Nimber) {
        fn set<C: Cell>(cells: &mut [C], index: usize, value: Nimber) {
            cells[index] = C::from_nimber(value).expect("the value fits the cells");
        }
        match self.width() {
            CellWidth::U8 => set::<u8>(self.typed_mut().unwrap(), index, value),
            CellWidth::U16 => set::<u16>(self.typed_mut().unwrap(), index, value),
            CellWidth::U32 => set::<u32>(self.typed_mut().unwrap(), index, value),
        }
    }

    /// Every value in row-major order, as nimbers.
    pub fn to_nimbers(&self) -> Vec<Nimber> {
        let cells = self.cells();
        (0..cells.len()).map(|i| cells.get(i)).collect()
    }

    /// The value at the position `pos` (coordinates, not indices), if it lies in the table.
    pub fn get(&self, pos: &[Coord]) -> Option<Nimber> {
        if pos.len() != self.shape.axes.len() {
            return None;
        }
        // Tables have at most three axes: the indices fit on the stack. No `lens()` here: this
        // runs for every option the reference fill reads.
        let mut index = [0usize; 3];
        for ((slot, &c), axis) in index.iter_mut().zip(pos).zip(&self.shape.axes) {
            *slot = usize::try_from(c.checked_sub(axis.min)?).ok()?;
        }
        let index = &index[..pos.len()];
        match &self.store {
            CellArray::U8(a) => a.get(index).map(|&v| v.nimber()),
            CellArray::U16(a) => a.get(index).map(|&v| v.nimber()),
            CellArray::U32(a) => a.get(index).map(|&v| v.nimber()),
        }
    }

    /// Cell count, sum, maximum and number of P-positions.
    pub fn stats(&self) -> TableStats {
        with_cells!(self.cells(), |values| TableStats::of(values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::lookup;

    #[test]
    fn an_extended_sequence_keeps_its_values_and_cells_then_zeros() {
        let kayles = lookup("kayles").unwrap();
        let shape = |n: Coord| TableShape::new(&kayles, &[n], "test").unwrap();
        for width in [CellWidth::U8, CellWidth::U16, CellWidth::U32] {
            let mut table = GrundyTable::zeroed_with(shape(9), width);
            for n in 0..10 {
                table.set_flat(n, Nimber(n as u32 + 1));
            }
            let longer = table.clone().extended(shape(24));
            assert_eq!((longer.len(), longer.width(), longer.shape()), (25, width, &shape(24)));
            assert!((0..10).all(|n| longer.get_flat(n) == table.get_flat(n)));
            assert!((10..25).all(|n| longer.get_flat(n) == Nimber::ZERO));
        }
    }

    #[test]
    fn coordinates_parse_or_say_why() {
        assert_eq!(parse_coords("7", "size").unwrap(), vec![7]);
        assert_eq!(parse_coords("3x2", "size").unwrap(), vec![3, 2]);
        assert_eq!(parse_coords("4x5x6", "size").unwrap(), vec![4, 5, 6]);
        for bad in ["", "5x", "x5", "-3", "abc", "1e9x1e9", "3 x2", "99999999999"] {
            assert!(parse_coords(bad, "size").is_err(), "{bad:?}");
        }
    }

    #[test]
    fn shapes_check_the_game() {
        let cutting = lookup("cutting").unwrap();
        let shape = TableShape::new(&cutting, &[200, 200], "200x200").unwrap();
        assert_eq!(shape.lens(), vec![199, 199]);
        let err = TableShape::new(&cutting, &[1, 5], "1x5").unwrap_err().to_string();
        assert_eq!(err, "size 1x5 does not fit game `cutting`: axis `w` starts at 2");
        let err = TableShape::new(&cutting, &[5], "5").unwrap_err().to_string();
        assert!(err.contains("write it as RxC"), "{err}");
    }

    #[test]
    fn get_uses_coordinates() {
        let kiki = lookup("kiki").unwrap();
        let mut table = GrundyTable::zeroed(TableShape::new(&kiki, &[3, 4], "3x4").unwrap());
        table.typed_mut::<u32>().unwrap()[4 + 1] = 7; // index (1, 1) is position (2, 2)
        assert_eq!(table.get(&[2, 2]), Some(Nimber(7)));
        assert_eq!(table.get(&[0, 2]), None);
        assert_eq!(table.get(&[3, 5]), None);
        assert_eq!(table.stats().p_positions, 11);
    }

    #[test]
    fn widths_change_storage_not_values() {
        let kiki = lookup("kiki").unwrap();
        let shape = TableShape::new(&kiki, &[3, 4], "3x4").unwrap();
        let values: Vec<Nimber> = (0..12).map(|v| Nimber(v * 20)).collect();
        let table = GrundyTable::from_nimbers(shape.clone(), &values);
        assert_eq!(table.width(), CellWidth::U8);
        let wide = table.clone().widened(CellWidth::U32);
        assert_eq!(wide.width(), CellWidth::U32);
        assert_eq!(wide, table);
        assert_eq!(wide.clone().narrowed().width(), CellWidth::U8);
        assert_eq!(wide.to_nimbers(), values);
        let big = GrundyTable::from_nimbers(shape, &[Nimber(300); 12]);
        assert_eq!(big.width(), CellWidth::U16);
        assert_eq!(CellWidth::for_max(70_000), CellWidth::U32);
        assert_eq!(u8::from_nimber(Nimber(256)), None);
    }
}
