//! Writing tables as CSV through any `impl Write`.

use super::GrundyTable;
use crate::Nimber;
use std::io::{self, Write};

/// How a table is laid out as CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsvLayout {
    /// A grid: a header `ROW\COL,c0,c1,…`, then one line per row coordinate. 1-D tables are
    /// written as `n,g` lines, as in [`CsvLayout::Long`]; 3-D tables have no grid form.
    Grid,
    /// One line per cell, row-major: a header with the axis names and `g`, then the coordinates
    /// and the value.
    Long,
}

/// Writes `table` to `out` as CSV. With `outcome`, cells show `P` (value 0) or `N` instead of the
/// value.
///
/// # Errors
/// An I/O error from `out`, or `InvalidInput` for the grid layout of a 3-D table.
pub fn write_csv<W: Write>(
    table: &GrundyTable,
    layout: CsvLayout,
    outcome: bool,
    out: W,
) -> io::Result<()> {
    let mut writer = ::csv::WriterBuilder::new().has_headers(false).from_writer(out);
    let axes = table.axes();
    let lens = table.shape().lens();
    let values = table.as_slice();
    let mut number = itoa::Buffer::new();
    let mut cell = |writer: &mut ::csv::Writer<W>, value: Nimber| -> io::Result<()> {
        let text: &[u8] = match (outcome, value.is_p()) {
            (true, true) => b"P",
            (true, false) => b"N",
            (false, _) => number.format(value.0).as_bytes(),
        };
        writer.write_field(text).map_err(into_io)
    };
    let mut coordinate = itoa::Buffer::new();
    if layout == CsvLayout::Grid && axes.len() == 2 {
        let (rows, cols) = (lens[0], lens[1]);
        let header = format!("{}\\{}", axes[0].name, axes[1].name);
        writer.write_field(header).map_err(into_io)?;
        for c in 0..cols {
            writer.write_field(coordinate.format(axes[1].min + c as i64)).map_err(into_io)?;
        }
        writer.write_record(None::<&[u8]>).map_err(into_io)?;
        for r in 0..rows {
            writer.write_field(coordinate.format(axes[0].min + r as i64)).map_err(into_io)?;
            for &value in &values[r * cols..(r + 1) * cols] {
                cell(&mut writer, value)?;
            }
            writer.write_record(None::<&[u8]>).map_err(into_io)?;
        }
    } else {
        if layout == CsvLayout::Grid && axes.len() == 3 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a 3-D table has no grid layout; use the long layout",
            ));
        }
        writer.write_record(axes.iter().map(|a| a.name.as_str()).chain(["g"])).map_err(into_io)?;
        let mut index = vec![0usize; axes.len()];
        for &value in values {
            for (axis, &i) in axes.iter().zip(&index) {
                writer.write_field(coordinate.format(axis.min + i as i64)).map_err(into_io)?;
            }
            cell(&mut writer, value)?;
            writer.write_record(None::<&[u8]>).map_err(into_io)?;
            // Advance the row-major index, last axis fastest.
            for d in (0..index.len()).rev() {
                index[d] += 1;
                if index[d] < lens[d] {
                    break;
                }
                index[d] = 0;
            }
        }
    }
    writer.flush()
}

/// The I/O error inside a CSV error, so that callers can tell a closed pipe from other failures.
fn into_io(err: ::csv::Error) -> io::Error {
    match err.into_kind() {
        ::csv::ErrorKind::Io(err) => err,
        other => io::Error::other(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::lookup;
    use crate::TableShape;

    fn sample(game: &str, max: &[i64]) -> GrundyTable {
        let game = lookup(game).unwrap();
        let mut table = GrundyTable::zeroed(TableShape::new(&game, max, "").unwrap());
        for (i, v) in table.as_mut_slice().iter_mut().enumerate() {
            *v = Nimber(i as u32 % 3);
        }
        table
    }

    fn csv(table: &GrundyTable, layout: CsvLayout, outcome: bool) -> String {
        let mut out = Vec::new();
        write_csv(table, layout, outcome, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn grid_and_long_layouts() {
        let table = sample("kiki", &[2, 3]);
        assert_eq!(csv(&table, CsvLayout::Grid, false), "n\\m,1,2,3\n1,0,1,2\n2,0,1,2\n");
        assert_eq!(csv(&table, CsvLayout::Grid, true), "n\\m,1,2,3\n1,P,N,N\n2,P,N,N\n");
        assert_eq!(
            csv(&table, CsvLayout::Long, false),
            "n,m,g\n1,1,0\n1,2,1\n1,3,2\n2,1,0\n2,2,1\n2,3,2\n"
        );
    }

    #[test]
    fn one_dimensional_tables_are_lists() {
        let table = sample("kayles", &[3]);
        let expected = "n,g\n0,0\n1,1\n2,2\n3,0\n";
        assert_eq!(csv(&table, CsvLayout::Grid, false), expected);
        assert_eq!(csv(&table, CsvLayout::Long, false), expected);
    }
}
