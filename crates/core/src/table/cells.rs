//! Compact cells: a table's values in the narrowest unsigned type that holds them.

use crate::Nimber;
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
pub trait Cell: bytemuck::Pod + Eq + Send + Sync + Into<u32> + 'static {
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
/// [`GrundyTable::into_array`](crate::GrundyTable::into_array) hands over without a copy.
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
        match self {
            CellSlice::U8(s) => s.iter().map(|&v| v.into()).collect(),
            CellSlice::U16(s) => s.iter().map(|&v| v.into()).collect(),
            CellSlice::U32(s) => s.to_vec(),
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
