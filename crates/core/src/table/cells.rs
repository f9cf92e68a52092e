//! Compact cells: a table's values in the narrowest unsigned type that holds them.

use crate::nimber::Nimber;
use ndarray::ArrayD;

/// The width of a table's cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CellWidth {
    /// `u8`: values up to 255.
    U8,
    /// `u16`: values up to 65 535.
    U16,
    /// `u32`: every nimber.
    U32,
}

impl CellWidth {
    /// Bytes per cell.
    pub const fn bytes(self) -> usize {
        match self {
            CellWidth::U8 => 1,
            CellWidth::U16 => 2,
            CellWidth::U32 => 4,
        }
    }

    /// The narrowest width that holds `max`.
    pub const fn for_max(max: u64) -> CellWidth {
        if max <= u8::MAX as u64 {
            CellWidth::U8
        } else if max <= u16::MAX as u64 {
            CellWidth::U16
        } else {
            CellWidth::U32
        }
    }

    /// The next wider width, if any.
    pub const fn wider(self) -> Option<CellWidth> {
        match self {
            CellWidth::U8 => Some(CellWidth::U16),
            CellWidth::U16 => Some(CellWidth::U32),
            CellWidth::U32 => None,
        }
    }
}

/// An unsigned integer type a table can store its values in.
pub trait Cell: bytemuck::Pod + Eq + Send + Sync + From<u8> + Into<u32> + 'static {
    /// Its width.
    const WIDTH: CellWidth;

    /// `value` as this type, or `None` if it does not fit (never wrapped).
    fn from_nimber(value: Nimber) -> Option<Self>;

    /// The largest value of the type.
    const MAX: Self;

    /// This cell as a nimber.
    #[inline]
    fn nimber(self) -> Nimber {
        Nimber(self.into())
    }

    #[doc(hidden)]
    fn wrap(array: ArrayD<Self>) -> CellArray;

    #[doc(hidden)]
    fn slice(store: &CellArray) -> Option<&[Self]>;

    #[doc(hidden)]
    fn slice_mut(store: &mut CellArray) -> Option<&mut [Self]>;
}

/// The values of a table as an ndarray of its cell type (row-major, standard layout): what
/// [`GrundyTable::into_array`](crate::table::GrundyTable::into_array) hands over without a copy.
#[derive(Clone, Debug)]
pub enum CellArray {
    /// Values up to 255.
    U8(ArrayD<u8>),
    /// Values up to 65 535.
    U16(ArrayD<u16>),
    /// Any value.
    U32(ArrayD<u32>),
}

macro_rules! cell {
    ($t:ty, $width:ident) => {
        impl Cell for $t {
            const WIDTH: CellWidth = CellWidth::$width;
            const MAX: $t = <$t>::MAX;

            #[inline]
            fn from_nimber(value: Nimber) -> Option<$t> {
                <$t>::try_from(value.0).ok()
            }

            fn wrap(array: ArrayD<$t>) -> CellArray {
                CellArray::$width(array)
            }

            fn slice(store: &CellArray) -> Option<&[$t]> {
                match store {
                    CellArray::$width(array) => array.as_slice(),
                    _ => None,
                }
            }

            fn slice_mut(store: &mut CellArray) -> Option<&mut [$t]> {
                match store {
                    CellArray::$width(array) => array.as_slice_mut(),
                    _ => None,
                }
            }
        }
    };
}

cell!(u8, U8);
cell!(u16, U16);
cell!(u32, U32);

/// A table's values in row-major order, in their stored width.
#[derive(Clone, Copy, Debug)]
pub enum CellSlice<'a> {
    /// `u8` cells.
    U8(&'a [u8]),
    /// `u16` cells.
    U16(&'a [u16]),
    /// `u32` cells.
    U32(&'a [u32]),
}

impl CellSlice<'_> {
    /// Number of cells.
    pub fn len(&self) -> usize {
        match self {
            CellSlice::U8(s) => s.len(),
            CellSlice::U16(s) => s.len(),
            CellSlice::U32(s) => s.len(),
        }
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cells of `range`.
    ///
    /// # Panics
    /// If `range` is out of bounds.
    pub fn range(&self, range: std::ops::Range<usize>) -> CellSlice<'_> {
        match self {
            CellSlice::U8(s) => CellSlice::U8(&s[range]),
            CellSlice::U16(s) => CellSlice::U16(&s[range]),
            CellSlice::U32(s) => CellSlice::U32(&s[range]),
        }
    }

    /// The value at flat index `index`.
    #[inline]
    pub fn get(&self, index: usize) -> Nimber {
        match self {
            CellSlice::U8(s) => Nimber(s[index].into()),
            CellSlice::U16(s) => Nimber(s[index].into()),
            CellSlice::U32(s) => Nimber(s[index]),
        }
    }

    /// The values as `u32`s, copied.
    pub fn to_u32_vec(&self) -> Vec<u32> {
        let mut values = Vec::with_capacity(self.len());
        self.append_to(&mut values);
        values
    }

    /// The values as `u32`s, appended to `values`.
    pub fn append_to(&self, values: &mut Vec<u32>) {
        match self {
            CellSlice::U8(s) => values.extend(s.iter().map(|&v| u32::from(v))),
            CellSlice::U16(s) => values.extend(s.iter().map(|&v| u32::from(v))),
            CellSlice::U32(s) => values.extend_from_slice(s),
        }
    }
}

/// A growable run of cells in the narrowest width that holds the values put in so far, widened
/// when one does not fit: what a rank of the distributed fill holds of a table (its band and the
/// rows above it), which changes length from band to band.
#[derive(Clone, Debug)]
pub enum CellVec {
    /// `u8` cells.
    U8(Vec<u8>),
    /// `u16` cells.
    U16(Vec<u16>),
    /// `u32` cells.
    U32(Vec<u32>),
}

impl CellVec {
    /// No cells, in `width`.
    pub fn with_width(width: CellWidth) -> CellVec {
        match width {
            CellWidth::U8 => CellVec::U8(Vec::new()),
            CellWidth::U16 => CellVec::U16(Vec::new()),
            CellWidth::U32 => CellVec::U32(Vec::new()),
        }
    }

    /// The width of the cells.
    pub fn width(&self) -> CellWidth {
        match self {
            CellVec::U8(_) => CellWidth::U8,
            CellVec::U16(_) => CellWidth::U16,
            CellVec::U32(_) => CellWidth::U32,
        }
    }

    /// The cells, in their width.
    pub fn cells(&self) -> CellSlice<'_> {
        match self {
            CellVec::U8(cells) => CellSlice::U8(cells),
            CellVec::U16(cells) => CellSlice::U16(cells),
            CellVec::U32(cells) => CellSlice::U32(cells),
        }
    }

    /// The cells as `C`, if that is their width.
    pub fn typed_mut<C: Cell>(&mut self) -> Option<&mut [C]> {
        if C::WIDTH != self.width() {
            return None;
        }
        // The same type under another name: the cast cannot fail.
        Some(match self {
            CellVec::U8(cells) => bytemuck::cast_slice_mut(cells),
            CellVec::U16(cells) => bytemuck::cast_slice_mut(cells),
            CellVec::U32(cells) => bytemuck::cast_slice_mut(cells),
        })
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells().len()
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Room for `additional` more cells without reallocating.
    pub fn reserve(&mut self, additional: usize) {
        match self {
            CellVec::U8(cells) => cells.reserve_exact(additional),
            CellVec::U16(cells) => cells.reserve_exact(additional),
            CellVec::U32(cells) => cells.reserve_exact(additional),
        }
    }

    /// `len` cells: cut, or grown with zeros.
    pub fn resize(&mut self, len: usize) {
        match self {
            CellVec::U8(cells) => cells.resize(len, 0),
            CellVec::U16(cells) => cells.resize(len, 0),
            CellVec::U32(cells) => cells.resize(len, 0),
        }
    }

    /// The cells in `width`, if that is wider than theirs.
    pub fn widen(&mut self, width: CellWidth) {
        if width <= self.width() {
            return;
        }
        let values = self.cells().to_u32_vec();
        *self = match width {
            CellWidth::U8 => unreachable!("no cells are narrower than bytes"),
            CellWidth::U16 => CellVec::U16(values.into_iter().map(|v| v as u16).collect()),
            CellWidth::U32 => CellVec::U32(values),
        };
    }

    /// The value at `at`.
    #[inline]
    pub fn get(&self, at: usize) -> Nimber {
        self.cells().get(at)
    }

    /// Stores `value` at `at`.
    ///
    /// # Panics
    /// If `value` does not fit the width ([`CellVec::widen`] first).
    #[inline]
    pub fn set(&mut self, at: usize, value: Nimber) {
        fn put<C: Cell>(cells: &mut [C], at: usize, value: Nimber) {
            cells[at] = C::from_nimber(value).expect("the cells are wide enough");
        }
        match self {
            CellVec::U8(cells) => put(cells, at, value),
            CellVec::U16(cells) => put(cells, at, value),
            CellVec::U32(cells) => put(cells, at, value),
        }
    }

    /// Copies the cells of `src` to those from `dest` on (which may overlap them).
    pub fn copy_within(&mut self, src: std::ops::Range<usize>, dest: usize) {
        match self {
            CellVec::U8(cells) => cells.copy_within(src, dest),
            CellVec::U16(cells) => cells.copy_within(src, dest),
            CellVec::U32(cells) => cells.copy_within(src, dest),
        }
    }
}

/// Calls `$body` with `$slice` bound to the typed slice inside a [`CellSlice`], so that generic
/// code runs monomorphised for the stored width.
#[macro_export]
macro_rules! with_cells {
    ($cells:expr, |$slice:ident| $body:expr) => {
        match $cells {
            $crate::table::CellSlice::U8($slice) => $body,
            $crate::table::CellSlice::U16($slice) => $body,
            $crate::table::CellSlice::U32($slice) => $body,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells stay in the narrowest width until a value needs more, and keep their values through
    /// every widening, resize and copy.
    #[test]
    fn a_cell_vec_widens_only_when_asked_and_keeps_its_values() {
        let mut cells = CellVec::with_width(CellWidth::U8);
        cells.resize(4);
        cells.set(1, Nimber(200));
        assert_eq!(cells.width(), CellWidth::U8);
        assert!(cells.typed_mut::<u16>().is_none());
        cells.widen(CellWidth::U16);
        cells.set(2, Nimber(60_000));
        cells.widen(CellWidth::U8);
        assert_eq!(cells.width(), CellWidth::U16, "never narrowed");
        cells.copy_within(1..3, 0);
        cells.resize(6);
        assert_eq!(cells.cells().to_u32_vec(), [200, 60_000, 60_000, 0, 0, 0]);
        cells.typed_mut::<u16>().unwrap()[5] = 7;
        cells.widen(CellWidth::U32);
        assert_eq!((cells.get(5), cells.len()), (Nimber(7), 6));
        let mut row = vec![9];
        cells.cells().range(1..3).append_to(&mut row);
        assert_eq!(row, [9, 60_000, 60_000]);
    }
}
