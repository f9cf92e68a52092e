//! Tables as numpy `.npy` arrays: one array of the table's shape whose integer type is the
//! table's cell width (`uint8`, `uint16` or `uint32`), so `numpy.load` gives the values as they
//! are, indexed from each axis' smallest coordinate.

use super::{GrundyTable, Store, TableShape};
use crate::table::CellWidth;
use ndarray::ArrayD;
use ndarray_npy::{ReadNpyExt, WriteNpyExt};
use std::fmt;
use std::io::{Read, Write};

/// Why an `.npy` array could not be written or read.
#[derive(Debug)]
pub struct NpyError(String);

impl fmt::Display for NpyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NpyError {}

/// Writes `table` to `out` in numpy's `.npy` format, with its cells' integer type.
///
/// # Errors
/// Writing to `out` failed.
pub fn write_npy<W: Write>(table: &GrundyTable, out: W) -> Result<(), NpyError> {
    let written = match &table.store {
        Store::U8(array) => array.write_npy(out),
        Store::U16(array) => array.write_npy(out),
        Store::U32(array) => array.write_npy(out),
    };
    written.map_err(|err| NpyError(format!("cannot write the .npy array: {err}")))
}

/// Reads an `.npy` array of `width` cells, written by [`write_npy`], as the table over `shape`:
/// the array must have exactly `shape`'s lengths and end the input.
///
/// # Errors
/// The input is not such an array: another integer type or shape, missing or extra bytes.
pub fn read_npy<R: Read>(
    shape: TableShape,
    width: CellWidth,
    input: R,
) -> Result<GrundyTable, NpyError> {
    fn read<C: ndarray_npy::ReadableElement>(input: impl Read) -> Result<ArrayD<C>, NpyError> {
        ArrayD::<C>::read_npy(input)
            .map_err(|err| NpyError(format!("not the expected .npy array: {err}")))
    }
    let store = match width {
        CellWidth::U8 => Store::U8(read(input)?),
        CellWidth::U16 => Store::U16(read(input)?),
        CellWidth::U32 => Store::U32(read(input)?),
    };
    let found = match &store {
        Store::U8(array) => array.shape().to_vec(),
        Store::U16(array) => array.shape().to_vec(),
        Store::U32(array) => array.shape().to_vec(),
    };
    if found != shape.lens() {
        return Err(NpyError(format!(
            "the .npy array has shape {found:?}, not the table's {:?}",
            shape.lens()
        )));
    }
    let standard = match &store {
        Store::U8(array) => array.is_standard_layout(),
        Store::U16(array) => array.is_standard_layout(),
        Store::U32(array) => array.is_standard_layout(),
    };
    if !standard {
        return Err(NpyError("the .npy array is in Fortran order, not C order".into()));
    }
    Ok(GrundyTable { shape, store })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Axis;
    use crate::{Nimber, TableShape};

    fn shape(lens: &[i64]) -> TableShape {
        let axes = (0..lens.len()).map(|d| Axis { name: format!("x{d}"), min: 0 }).collect();
        TableShape::from_axes(axes, lens.iter().map(|l| l - 1).collect())
    }

    #[test]
    fn every_width_round_trips() {
        for (max, width) in
            [(200, CellWidth::U8), (60_000, CellWidth::U16), (70_000, CellWidth::U32)]
        {
            let shape = shape(&[3, 4]);
            let values: Vec<Nimber> = (0..12).map(|i| Nimber(i * max / 11)).collect();
            let table = GrundyTable::from_nimbers(shape.clone(), &values);
            assert_eq!(table.width(), width);
            let mut bytes = Vec::new();
            write_npy(&table, &mut bytes).unwrap();
            let descriptor = match width {
                CellWidth::U8 => "'|u1'",
                CellWidth::U16 => "'<u2'",
                CellWidth::U32 => "'<u4'",
            };
            let header = String::from_utf8_lossy(&bytes[..bytes.len().min(128)]).into_owned();
            assert!(header.contains(descriptor), "{header}");
            assert!(header.contains("'shape': (3, 4)"), "{header}");
            let again = read_npy(shape, width, &bytes[..]).unwrap();
            assert_eq!(again.width(), width);
            assert!(again == table);
        }
    }

    #[test]
    fn other_shapes_types_and_trailing_bytes_are_refused() {
        let table = GrundyTable::from_nimbers(shape(&[2, 3]), &[Nimber(1); 6]);
        let mut bytes = Vec::new();
        write_npy(&table, &mut bytes).unwrap();
        let err = read_npy(shape(&[3, 2]), CellWidth::U8, &bytes[..]).unwrap_err();
        assert!(err.to_string().contains("shape [2, 3]"), "{err}");
        assert!(read_npy(shape(&[2, 3]), CellWidth::U16, &bytes[..]).is_err());
        bytes.push(0);
        assert!(read_npy(shape(&[2, 3]), CellWidth::U8, &bytes[..]).is_err());
        bytes.truncate(bytes.len() - 2);
        assert!(read_npy(shape(&[2, 3]), CellWidth::U8, &bytes[..]).is_err());
    }
}
