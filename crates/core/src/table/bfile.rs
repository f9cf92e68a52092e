//! Heap-game tables as OEIS b-files: one line `n value` per position, n ascending.

use super::{GrundyTable, TableShape};
use crate::game::Axis;
use crate::nimber::Nimber;
use std::io::{self, BufRead, Write};

/// Why a b-file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BfileError {
    /// Reading failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// A line is not `n value`.
    #[error("line {line}: {why}")]
    Line {
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// No line holds a value.
    #[error("it holds no values")]
    Empty,
    /// More values than `most`.
    #[error("it holds more than {most} values, more than the memory available")]
    TooMany {
        /// The most values allowed.
        most: u64,
    },
}

/// Reads an OEIS b-file (`n value` per line, n consecutive and ascending; `#` comments and blank
/// lines skipped) as a heap game's table whose axis `n` starts at the first n; at most `most`
/// values, and no line longer than 200 bytes.
///
/// # Errors
/// As [`BfileError`] says.
pub fn read_bfile(mut input: impl BufRead, most: u64) -> Result<GrundyTable, BfileError> {
    let mut values: Vec<Nimber> = Vec::new();
    let mut first: Option<i64> = None;
    let mut buffer = Vec::new();
    let mut line = 0;
    loop {
        buffer.clear();
        line += 1;
        let read = io::Read::take(input.by_ref(), 201).read_until(b'\n', &mut buffer)?;
        if read == 0 {
            break;
        }
        let bad = |why: &str| BfileError::Line { line, why: why.to_string() };
        if buffer.len() > 200 {
            return Err(bad("longer than a b-file line can be (200 bytes)"));
        }
        let text = std::str::from_utf8(&buffer).map_err(|_| bad("not UTF-8 text"))?.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let mut words = text.split_whitespace();
        let (Some(n), Some(value), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad("not `n value`"));
        };
        let n: i64 = n.parse().map_err(|_| bad("n is not a whole number"))?;
        let value: u32 =
            value.parse().map_err(|_| bad("the value is not a whole number from 0 to 2^32 - 1"))?;
        let expected = first.map(|f| f + values.len() as i64);
        if expected.is_some_and(|e| e != n) {
            return Err(bad(&format!("n is {n}, but {} comes next", expected.unwrap_or(n))));
        }
        if n.unsigned_abs() >= crate::game::COORD_LIMIT as u64 {
            return Err(bad("n lies beyond 2^31"));
        }
        first.get_or_insert(n);
        if values.len() as u64 >= most {
            return Err(BfileError::TooMany { most });
        }
        values.push(Nimber(value));
    }
    let Some(first) = first else { return Err(BfileError::Empty) };
    let last = first + values.len() as i64 - 1;
    let shape = TableShape::from_axes(vec![Axis::new("n", first)], vec![last]);
    Ok(GrundyTable::from_nimbers(shape, &values))
}

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
    use crate::nimber::Nimber;
    use crate::table::TableShape;

    #[test]
    fn a_written_b_file_reads_back_and_bad_ones_are_refused() {
        let shape = TableShape::from_axes(vec![Axis::new("n", 1)], vec![4]);
        let table =
            GrundyTable::from_nimbers(shape, &[Nimber(0), Nimber(1), Nimber(300), Nimber(2)]);
        let mut out = Vec::new();
        write_bfile(&table, &mut out).unwrap();
        let text = format!("# A comment\n\n{}", String::from_utf8(out).unwrap());
        let back = read_bfile(text.as_bytes(), 100).unwrap();
        assert!(back == table);
        for (bad, why) in [
            ("1 0\n3 1\n", "line 2: n is 3, but 2 comes next"),
            ("1 x\n", "line 1: the value"),
            ("1 2 3\n", "not `n value`"),
            ("# only\n", "no values"),
            ("0 1\n1 1\n2 1\n", "more than 2 values"),
        ] {
            let err = read_bfile(bad.as_bytes(), 2).unwrap_err().to_string();
            assert!(err.contains(why), "{bad:?}: {err}");
        }
    }

    #[test]
    fn lines_are_n_and_value_from_the_axis_minimum() {
        let shape = TableShape::from_axes(vec![Axis::new("n", 1)], vec![4]);
        let table =
            GrundyTable::from_nimbers(shape, &[Nimber(0), Nimber(1), Nimber(300), Nimber(2)]);
        let mut out = Vec::new();
        write_bfile(&table, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "1 0\n2 1\n3 300\n4 2\n");
    }
}
