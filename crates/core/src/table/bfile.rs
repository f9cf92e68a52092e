//! Heap-game tables as OEIS b-files: one line `n value` per position, n ascending.

use super::GrundyTable;
use std::io::{self, Write};

/// Writes the 1-D `table` as an OEIS b-file, `n value` per line from the axis' smallest n.
///
/// # Panics
/// If the table is not 1-D (the caller refuses that with a message).
pub fn write_bfile<W: Write>(table: &GrundyTable, mut out: W) -> io::Result<()> {
    let axes = table.shape().axes();
    assert_eq!(axes.len(), 1, "a b-file holds a sequence");
    let cells = table.cells();
    let mut n = itoa::Buffer::new();
    let mut value = itoa::Buffer::new();
    for (index, coord) in (axes[0].min..).take(cells.len()).enumerate() {
        out.write_all(n.format(coord).as_bytes())?;
        out.write_all(b" ")?;
        out.write_all(value.format(cells.get(index).value()).as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Axis;
    use crate::{Nimber, TableShape};

    #[test]
    fn lines_are_n_and_value_from_the_axis_minimum() {
        let shape = TableShape::from_axes(vec![Axis { name: "n".into(), min: 1 }], vec![4]);
        let table =
            GrundyTable::from_nimbers(shape, &[Nimber(0), Nimber(1), Nimber(300), Nimber(2)]);
        let mut out = Vec::new();
        write_bfile(&table, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "1 0\n2 1\n3 300\n4 2\n");
    }
}
