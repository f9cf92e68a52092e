//! Tables as numpy `.npy` arrays: one array of the table's shape whose integer type is the
//! table's cell width (`uint8`, `uint16` or `uint32`), so `numpy.load` gives the values as they
//! are, indexed from each axis' smallest coordinate.

use super::{Cell, CellArray, GrundyTable, TableShape};
use crate::game::{Axis, Coord};
use crate::table::CellWidth;
use ndarray_npy::WriteNpyExt;
use std::fmt;
use std::io::{Read, Write};

/// Why an `.npy` array could not be written or read.
#[derive(Debug)]
pub struct NpyError {
    kind: NpyErrorKind,
}

/// What went wrong with an `.npy` array.
#[derive(Debug)]
#[non_exhaustive]
pub enum NpyErrorKind {
    /// Reading or writing failed.
    Io(std::io::Error),
    /// The input is not an `.npy` array (`why` says how).
    NotNpy {
        /// How.
        why: String,
    },
    /// The header is not a dict literal this reader understands.
    Header {
        /// The header text.
        header: String,
    },
    /// The cells have another type or byte order than the table's.
    Type {
        /// The header's `descr`.
        found: String,
        /// The table's.
        expected: &'static str,
        /// Bytes per cell.
        bytes: usize,
    },
    /// The array is in Fortran order.
    FortranOrder,
    /// The array has another shape than the table.
    Shape {
        /// The header's shape.
        found: Vec<usize>,
        /// The table's.
        expected: Vec<usize>,
    },
    /// The array ends before its last cell.
    Short,
    /// Bytes follow the array.
    Trailing,
    /// An array read as a table of its own ([`read_npy_table`]) is not of unsigned cells.
    NotCells {
        /// The header's `descr`.
        found: String,
    },
    /// An array read as a table of its own has no axis, more than three, or an empty one.
    Lens {
        /// The header's shape.
        found: Vec<usize>,
    },
    /// An array read as a table of its own would take more memory than allowed.
    TooLarge {
        /// Its cells' bytes.
        bytes: u128,
        /// The bytes allowed.
        limit: u64,
    },
}

impl NpyError {
    fn new(kind: NpyErrorKind) -> NpyError {
        NpyError { kind }
    }

    /// The error as an `io::Error`: the one reading or writing failed with, or this one.
    pub fn into_io(self) -> std::io::Error {
        match self.kind {
            NpyErrorKind::Io(err) => err,
            _ => std::io::Error::other(self),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &NpyErrorKind {
        &self.kind
    }
}

impl fmt::Display for NpyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            NpyErrorKind::Io(err) => write!(f, "cannot read or write the .npy array: {err}"),
            NpyErrorKind::NotNpy { why } => write!(f, "not an .npy array: {why}"),
            NpyErrorKind::Header { header } => write!(f, "malformed .npy header `{header}`"),
            NpyErrorKind::Type { found, expected, bytes } => write!(
                f,
                "the .npy array holds `{found}`, not the table's `{expected}` (little-endian \
                 {bytes}-byte cells)"
            ),
            NpyErrorKind::FortranOrder => {
                f.write_str("the .npy array is in Fortran order, not C order")
            }
            NpyErrorKind::Shape { found, expected } => {
                write!(f, "the .npy array has shape {found:?}, not the table's {expected:?}")
            }
            NpyErrorKind::Short => f.write_str("the .npy array is cut short"),
            NpyErrorKind::Trailing => f.write_str("the .npy array is followed by extra bytes"),
            NpyErrorKind::NotCells { found } => write!(
                f,
                "the .npy array holds `{found}`; a table's cells are unsigned integers of 1, 2 or 4 \
                 bytes (`|u1`, `<u2`, `<u4`: numpy's `array.astype(numpy.uint32)`)"
            ),
            NpyErrorKind::Lens { found } => write!(
                f,
                "the .npy array has shape {found:?}; a table has 1 to 3 axes, none of them empty"
            ),
            NpyErrorKind::TooLarge { bytes, limit } => write!(
                f,
                "the .npy array's cells take {bytes} bytes, more than the {limit} bytes allowed"
            ),
        }
    }
}

impl std::error::Error for NpyError {}

/// Writes `table` to `out` in numpy's `.npy` format, with its cells' integer type.
///
/// # Errors
/// Writing to `out` failed.
pub fn write_npy<W: Write>(table: &GrundyTable, out: W) -> Result<(), NpyError> {
    let written = match &table.store {
        CellArray::U8(array) => array.write_npy(out),
        CellArray::U16(array) => array.write_npy(out),
        CellArray::U32(array) => array.write_npy(out),
    };
    written.map_err(|err| match err {
        // The writer's own error, as it was (a caller may have made it, to stop the write).
        ndarray_npy::WriteNpyError::Io(err) => NpyError::new(NpyErrorKind::Io(err)),
        other => {
            NpyError::new(NpyErrorKind::Io(std::io::Error::other(format!("cannot write: {other}"))))
        }
    })
}

/// Writes the header [`write_npy`] writes for a table of `lens` in cells of `width`, so that a
/// table whose rows arrive one at a time (a distributed fill's) can be written as the same bytes:
/// after the header come the cells, row-major, little-endian, in `width`.
///
/// # Errors
/// Writing to `out` failed.
pub fn write_npy_header<W: Write>(
    mut out: W,
    width: CellWidth,
    lens: &[usize],
) -> std::io::Result<()> {
    let descr = match width {
        CellWidth::U8 => "|u1",
        CellWidth::U16 => "<u2",
        CellWidth::U32 => "<u4",
    };
    let shape = match lens {
        [len] => format!("({len},)"),
        _ => format!("({})", lens.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
    };
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}}}");
    // Version 1.0: magic (6 bytes), version (2), header length (2), then the dict padded with
    // spaces and ended by a newline so that the cells start at a multiple of 64 bytes.
    let unpadded = 10 + dict.len() + 1;
    dict.extend(std::iter::repeat_n(' ', unpadded.next_multiple_of(64) - unpadded));
    dict.push('\n');
    out.write_all(b"\x93NUMPY\x01\x00")?;
    out.write_all(&(dict.len() as u16).to_le_bytes())?;
    out.write_all(dict.as_bytes())
}

/// Reads an `.npy` array of `width` cells, written by [`write_npy`], as the table over `shape`:
/// the array must have exactly `shape`'s lengths and end the input.
///
/// The header is checked before any cell is read — the integer type and little-endian byte
/// order of `width`, C order, and `shape` itself — so an array that claims another shape is
/// refused without allocating anything for it (a forged shape of 10^6 × 10^6 must not abort the
/// process), and the only allocation is the table the caller planned for.
///
/// # Errors
/// The input is not such an array: another integer type, byte order or shape, Fortran order,
/// a malformed header, missing or extra bytes.
pub fn read_npy<R: Read>(
    shape: TableShape,
    width: CellWidth,
    mut input: R,
) -> Result<GrundyTable, NpyError> {
    let header = read_header(&mut input)?;
    let fields = NpyHeader::parse(&header)?;
    let accepted: &[&str] = match width {
        CellWidth::U8 => &["|u1", "<u1"],
        CellWidth::U16 => &["<u2"],
        CellWidth::U32 => &["<u4"],
    };
    if !accepted.contains(&fields.descr.as_str()) {
        return Err(NpyError::new(NpyErrorKind::Type {
            found: fields.descr,
            expected: accepted[0],
            bytes: width.bytes(),
        }));
    }
    if fields.fortran_order {
        return Err(NpyError::new(NpyErrorKind::FortranOrder));
    }
    if fields.shape != shape.lens() {
        return Err(NpyError::new(NpyErrorKind::Shape {
            found: fields.shape,
            expected: shape.lens(),
        }));
    }
    fn cells<C: Cell, const N: usize>(
        input: &mut impl Read,
        count: usize,
        decode: fn([u8; N]) -> C,
    ) -> Result<Vec<C>, NpyError> {
        // Read straight into the table's memory (the cells are plain old data), then put each
        // cell in the machine's byte order where it is not little-endian.
        let mut cells = vec![C::zeroed(); count];
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut cells);
        input.read_exact(bytes).map_err(|_| NpyError::new(NpyErrorKind::Short))?;
        if cfg!(target_endian = "big") {
            for cell in &mut cells {
                *cell = decode(bytemuck::bytes_of(cell).try_into().expect("N bytes"));
            }
        }
        Ok(cells)
    }
    let count: usize = shape.lens().iter().product();
    let table = match width {
        CellWidth::U8 => GrundyTable::from_vec(shape, cells(&mut input, count, u8::from_le_bytes)?),
        CellWidth::U16 => {
            GrundyTable::from_vec(shape, cells(&mut input, count, u16::from_le_bytes)?)
        }
        CellWidth::U32 => {
            GrundyTable::from_vec(shape, cells(&mut input, count, u32::from_le_bytes)?)
        }
    };
    let mut extra = [0u8; 1];
    match input.read(&mut extra) {
        Ok(0) => Ok(table),
        Ok(_) => Err(NpyError::new(NpyErrorKind::Trailing)),
        Err(err) => Err(NpyError::new(NpyErrorKind::Io(err))),
    }
}

/// Reads an `.npy` array of unsigned cells (1, 2 or 4 bytes, as `grundy compute --format npy`
/// and the Python package write them) as a table of its own: an array carries no coordinates,
/// so its axes are named `i`, `j`, `k` and start at 0. The header is checked before anything is
/// allocated: the cells must take at most `max_bytes`.
///
/// # Errors
/// The input is not such an array, or it is too large.
pub fn read_npy_table<R: Read>(mut input: R, max_bytes: u64) -> Result<GrundyTable, NpyError> {
    let header = read_header(&mut input)?;
    let fields = NpyHeader::parse(&header)?;
    let width = match fields.descr.as_str() {
        "|u1" | "<u1" => CellWidth::U8,
        "<u2" => CellWidth::U16,
        "<u4" => CellWidth::U32,
        _ => return Err(NpyError::new(NpyErrorKind::NotCells { found: fields.descr })),
    };
    let lens = fields.shape.clone();
    if lens.is_empty() || lens.len() > 3 || lens.contains(&0) {
        return Err(NpyError::new(NpyErrorKind::Lens { found: lens }));
    }
    let bytes = lens.iter().map(|&l| l as u128).product::<u128>() * width.bytes() as u128;
    if bytes > u128::from(max_bytes)
        || lens.iter().any(|&l| l as u64 >= crate::game::COORD_LIMIT as u64)
    {
        return Err(NpyError::new(NpyErrorKind::TooLarge { bytes, limit: max_bytes }));
    }
    let axes = ["i", "j", "k"].iter().take(lens.len()).map(|n| Axis::new(n, 0)).collect();
    let shape = TableShape::from_axes(axes, lens.iter().map(|&l| l as Coord - 1).collect());
    // The header is read again by `read_npy`, from the bytes already taken.
    let mut again = Vec::with_capacity(header.len() + 12);
    write_header_bytes(&mut again, &header);
    read_npy(shape, width, again.as_slice().chain(input))
}

/// A version 1.0 (or 2.0, for long headers) `.npy` prefix around `header`.
fn write_header_bytes(out: &mut Vec<u8>, header: &str) {
    match u16::try_from(header.len()) {
        Ok(len) => {
            out.extend_from_slice(b"\x93NUMPY\x01\x00");
            out.extend_from_slice(&len.to_le_bytes());
        }
        Err(_) => {
            out.extend_from_slice(b"\x93NUMPY\x02\x00");
            out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        }
    }
    out.extend_from_slice(header.as_bytes());
}

/// The largest header this reader accepts (ours are under 128 bytes).
const MAX_HEADER: usize = 1 << 16;

/// Reads the magic string, the version and the header text of an `.npy` file.
fn read_header(input: &mut impl Read) -> Result<String, NpyError> {
    let bad = |why: &str| NpyError::new(NpyErrorKind::NotNpy { why: why.to_string() });
    let mut start = [0u8; 8];
    input.read_exact(&mut start).map_err(|_| bad("it is too short"))?;
    if &start[..6] != b"\x93NUMPY" {
        return Err(bad("no .npy magic string"));
    }
    let len = match start[6] {
        1 => {
            let mut len = [0u8; 2];
            input.read_exact(&mut len).map_err(|_| bad("it is too short"))?;
            usize::from(u16::from_le_bytes(len))
        }
        2 | 3 => {
            let mut len = [0u8; 4];
            input.read_exact(&mut len).map_err(|_| bad("it is too short"))?;
            u32::from_le_bytes(len) as usize
        }
        major => return Err(bad(&format!("format version {major} is unknown"))),
    };
    if len > MAX_HEADER {
        return Err(bad(&format!("its header would be {len} bytes long")));
    }
    let mut text = vec![0u8; len];
    input.read_exact(&mut text).map_err(|_| bad("its header is cut short"))?;
    String::from_utf8(text).map_err(|_| bad("its header is not text"))
}

/// The three fields of an `.npy` header, a Python dict literal such as
/// `{'descr': '<u2', 'fortran_order': False, 'shape': (3, 4), }`.
struct NpyHeader {
    descr: String,
    fortran_order: bool,
    shape: Vec<usize>,
}

impl NpyHeader {
    fn parse(text: &str) -> Result<NpyHeader, NpyError> {
        let bad = || NpyError::new(NpyErrorKind::Header { header: text.trim().to_string() });
        let after = |key: &str| -> Result<&str, NpyError> {
            let at = text.find(&format!("'{key}'")).ok_or_else(bad)?;
            let rest = text[at + key.len() + 2..].trim_start();
            Ok(rest.strip_prefix(':').ok_or_else(bad)?.trim_start())
        };
        let descr = after("descr")?;
        let descr = descr.strip_prefix('\'').ok_or_else(bad)?;
        let descr = descr[..descr.find('\'').ok_or_else(bad)?].to_string();
        let order = after("fortran_order")?;
        let fortran_order = if order.starts_with("False") {
            false
        } else if order.starts_with("True") {
            true
        } else {
            return Err(bad());
        };
        let shape = after("shape")?.strip_prefix('(').ok_or_else(bad)?;
        let shape = &shape[..shape.find(')').ok_or_else(bad)?];
        let shape = shape
            .split(',')
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(|part| part.parse::<usize>().map_err(|_| bad()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(NpyHeader { descr, fortran_order, shape })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Axis;
    use crate::nimber::Nimber;
    use crate::table::TableShape;

    fn shape(lens: &[i64]) -> TableShape {
        let axes = (0..lens.len()).map(|d| Axis::new(&format!("x{d}"), 0)).collect();
        TableShape::from_axes(axes, lens.iter().map(|l| l - 1).collect())
    }

    /// The header written alone is the one `write_npy` writes, for every width and for one, two
    /// and three axes.
    #[test]
    fn headers_alone_match_whole_arrays() {
        for lens in [vec![7], vec![3, 4], vec![300, 1], vec![2, 3, 5], vec![12345, 678]] {
            for (max, width) in
                [(9, CellWidth::U8), (300, CellWidth::U16), (70_000, CellWidth::U32)]
            {
                let table = GrundyTable::zeroed_with(
                    shape(&lens.iter().map(|&l| l as i64).collect::<Vec<_>>()),
                    width,
                );
                let mut whole = Vec::new();
                write_npy(&table, &mut whole).unwrap();
                let mut header = Vec::new();
                write_npy_header(&mut header, width, &lens).unwrap();
                assert_eq!(header[..], whole[..header.len()], "{lens:?} {max}");
                let cells: usize = lens.iter().product();
                assert_eq!(whole.len() - header.len(), cells * width.bytes(), "{lens:?}");
            }
        }
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
        // Issue 12: a big-endian array, and a forged shape of 10^6 × 10^6 (refused from the
        // header, before anything is allocated for it).
        let replaced = |bytes: &[u8], from: &str, to: &str| -> Vec<u8> {
            let at = bytes.windows(from.len()).position(|w| w == from.as_bytes()).unwrap();
            [&bytes[..at], to.as_bytes(), &bytes[at + from.len()..]].concat()
        };
        let swapped = replaced(&bytes, "'|u1'", "'>u1'");
        assert!(read_npy(shape(&[2, 3]), CellWidth::U8, &swapped[..]).is_err());
        let table16 = GrundyTable::from_nimbers(shape(&[2, 3]), &[Nimber(300); 6]);
        let mut wide = Vec::new();
        write_npy(&table16, &mut wide).unwrap();
        let big_endian = replaced(&wide, "'<u2'", "'>u2'");
        let err = read_npy(shape(&[2, 3]), CellWidth::U16, &big_endian[..]).unwrap_err();
        assert!(err.to_string().contains("`>u2`"), "{err}");
        // The same header length: the padding gives up the characters the shape takes.
        let forged = replaced(&wide, "(2, 3)}            ", "(1000000, 1000000)}");
        assert_eq!(forged.len(), wide.len());
        let err = read_npy(shape(&[2, 3]), CellWidth::U16, &forged[..]).unwrap_err();
        assert!(err.to_string().contains("[1000000, 1000000]"), "{err}");
        assert!(read_npy(shape(&[2, 3]), CellWidth::U16, &bytes[..]).is_err());
        bytes.push(0);
        assert!(read_npy(shape(&[2, 3]), CellWidth::U8, &bytes[..]).is_err());
        bytes.truncate(bytes.len() - 2);
        assert!(read_npy(shape(&[2, 3]), CellWidth::U8, &bytes[..]).is_err());
    }

    /// An array read as a table of its own: its cells as they were, its axes i, j from 0; other
    /// types, shapes and sizes refused before anything is allocated.
    #[test]
    fn arrays_read_as_tables_of_their_own() {
        let values: Vec<Nimber> = (0..12).map(|i| Nimber(i * 5000)).collect();
        let table = GrundyTable::from_nimbers(shape(&[3, 4]), &values);
        let mut bytes = Vec::new();
        write_npy(&table, &mut bytes).unwrap();
        let read = read_npy_table(bytes.as_slice(), 1 << 20).unwrap();
        assert_eq!(read.cells().to_u32_vec(), table.cells().to_u32_vec());
        let names: Vec<&str> = read.axes().iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["i", "j"]);
        let kind = |bytes: &[u8], limit| read_npy_table(bytes, limit).unwrap_err().to_string();
        assert!(kind(&bytes, 10).contains("more than the 10 bytes allowed"));
        let replaced = |from: &[u8], to: &[u8]| {
            let at = bytes.windows(from.len()).position(|w| w == from).unwrap();
            [&bytes[..at], to, &bytes[at + from.len()..]].concat()
        };
        let signed = replaced(b"<u2", b"<i8");
        assert!(kind(&signed, 1 << 20).contains("holds `<i8`"), "{}", kind(&signed, 1 << 20));
        let empty = replaced(b"(3, 4)", b"(0, 4)");
        assert!(kind(&empty, 1 << 20).contains("none of them empty"));
        assert!(kind(b"not an array", 1 << 20).contains("not an .npy array"));
    }
}
