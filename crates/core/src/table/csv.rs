//! Writing tables as CSV through any `impl Write`.

use super::{board_lines, GrundyTable, TableShape};
use crate::game::{Axis, Coord};
use crate::nimber::Nimber;
use std::fmt;
use std::io::{self, Read, Write};

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

/// Writes `table` to `out` as CSV, its cells as `cells` says: the values, or `P` (value 0) and
/// `N` for [`CellKind::Outcomes`].
///
/// # Errors
/// An I/O error from `out`, or `InvalidInput` for the grid layout of a 3-D table.
pub fn write_csv<W: Write>(
    table: &GrundyTable,
    layout: CsvLayout,
    cells: CellKind,
    out: W,
) -> io::Result<()> {
    let lens = table.shape().lens();
    let mut rows = CsvRows::new(table.axes(), &lens, layout, cells, out)?;
    let values = table.cells();
    let row_len = *lens.last().expect("tables have axes");
    let mut row = Vec::with_capacity(row_len);
    for start in (0..values.len()).step_by(row_len) {
        row.clear();
        row.extend((start..start + row_len).map(|flat| values.get(flat).value()));
        rows.write_row(&row)?;
    }
    rows.finish()
}

/// Writes any game's [`crate::table::Table`] as CSV, as [`write_csv`] writes its cells; a loopy game's
/// generalized values with a finite value as its number and ∞ as [`crate::loopy::INFINITE_G`] (−1),
/// so that pandas and polars read an integer column, and with [`CellKind::Outcomes`] `P`, `N`
/// or `D` (a draw). A loopy table's long layout of values adds a column `infinite`: an ∞
/// position's value as `value` and `moves` write it, `inf(0,3)` with its set K (a string in
/// every reader), empty for a finite value.
///
/// # Errors
/// An I/O error, or `InvalidInput` for the grid layout of a 3-D table.
pub fn write_table_csv<W: Write>(
    table: &crate::table::Table,
    layout: CsvLayout,
    cells: CellKind,
    out: W,
) -> io::Result<()> {
    match table.loopy() {
        None => write_csv(table.data(), layout, cells, out),
        Some(loopy) => write_loopy(table.data().shape(), |i| loopy.value_at(i), layout, cells, out),
    }
}

fn write_loopy<W: Write>(
    shape: &crate::table::TableShape,
    value_at: impl Fn(usize) -> crate::loopy::LoopyValue,
    layout: CsvLayout,
    cells: CellKind,
    out: W,
) -> io::Result<()> {
    let axes = shape.axes();
    let lens = shape.lens();
    let layout = if axes.len() == 1 { CsvLayout::Long } else { layout };
    if layout == CsvLayout::Grid && axes.len() == 3 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a 3-D table has no grid layout; use the long layout",
        ));
    }
    let mut writer = ::csv::WriterBuilder::new().has_headers(false).from_writer(out);
    let text = |value: &crate::loopy::LoopyValue| -> String {
        match (cells, value) {
            (CellKind::Outcomes, value) => value.outcome().letter().to_string(),
            (CellKind::Values, value) => value.g().to_string(),
        }
    };
    let row_len = *lens.last().expect("tables have axes");
    let cells_count: usize = lens.iter().product();
    let mut outer = vec![0usize; axes.len() - 1];
    let last = axes.len() - 1;
    match layout {
        CsvLayout::Grid => {
            let mut header = vec![format!("{}\\{}", axes[0].name, axes[1].name)];
            header.extend((0..lens[1]).map(|c| (axes[1].min + c as i64).to_string()));
            writer.write_record(&header).map_err(into_io)?;
        }
        CsvLayout::Long => {
            let k = (cells == CellKind::Values).then_some("infinite");
            let header = axes.iter().map(|a| a.name.as_str()).chain(["g"]).chain(k);
            writer.write_record(header).map_err(into_io)?;
        }
    }
    for start in (0..cells_count).step_by(row_len) {
        match layout {
            CsvLayout::Grid => {
                let mut record = vec![(axes[0].min + outer[0] as i64).to_string()];
                record.extend((start..start + row_len).map(|i| text(&value_at(i))));
                writer.write_record(&record).map_err(into_io)?;
            }
            CsvLayout::Long => {
                for j in 0..row_len {
                    let value = value_at(start + j);
                    let mut record: Vec<String> = axes[..last]
                        .iter()
                        .zip(&outer)
                        .map(|(axis, &i)| (axis.min + i as i64).to_string())
                        .collect();
                    record.push((axes[last].min + j as i64).to_string());
                    record.push(text(&value));
                    if cells == CellKind::Values {
                        let infinite =
                            if value.is_finite() { String::new() } else { value.to_string() };
                        record.push(infinite);
                    }
                    writer.write_record(&record).map_err(into_io)?;
                }
            }
        }
        super::advance_row_major(&mut outer, &lens[..last]);
    }
    writer.flush()
}

/// The most bytes of a row [`CsvRows`] holds before it hands them on.
const LINE_CHUNK: usize = 1 << 14;

/// Writes a table as CSV one row at a time (the values along the last axis, in row-major order),
/// so that a table can be written while it is being computed; [`write_csv`] writes a whole table
/// through it.
pub struct CsvRows<W: Write> {
    out: io::BufWriter<W>,
    /// The line being written, reused for every line.
    line: Vec<u8>,
    axes: Vec<crate::game::Axis>,
    lens: Vec<usize>,
    layout: CsvLayout,
    cells: CellKind,
    /// The indices of the next row on every axis but the last.
    outer: Vec<usize>,
}

impl<W: Write> CsvRows<W> {
    /// Writes the header for a table with `axes` and `lens` to `out`; its cells will be written
    /// as `cells` says.
    ///
    /// # Errors
    /// An I/O error, or `InvalidInput` for the grid layout of a 3-D table.
    pub fn new(
        axes: &[crate::game::Axis],
        lens: &[usize],
        layout: CsvLayout,
        cells: CellKind,
        out: W,
    ) -> io::Result<CsvRows<W>> {
        // The header through the csv crate, which quotes a name that needs it; the rows hold
        // only numbers and `P`/`N`, which never do, and are written as they are.
        let mut header = ::csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        let layout = if axes.len() == 1 { CsvLayout::Long } else { layout };
        match (layout, axes.len()) {
            (CsvLayout::Grid, 3) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a 3-D table has no grid layout; use the long layout",
                ))
            }
            (CsvLayout::Grid, _) => {
                let mut coordinate = itoa::Buffer::new();
                header
                    .write_field(format!("{}\\{}", axes[0].name, axes[1].name))
                    .map_err(into_io)?;
                for c in 0..lens[1] {
                    header
                        .write_field(coordinate.format(axes[1].min + c as i64))
                        .map_err(into_io)?;
                }
                header.write_record(None::<&[u8]>).map_err(into_io)?;
            }
            (CsvLayout::Long, _) => {
                header
                    .write_record(axes.iter().map(|a| a.name.as_str()).chain(["g"]))
                    .map_err(into_io)?;
            }
        }
        let header = header.into_inner().map_err(|err| err.into_error())?;
        let mut out = io::BufWriter::with_capacity(1 << 16, out);
        out.write_all(&header)?;
        let outer = vec![0; axes.len() - 1];
        Ok(CsvRows {
            out,
            line: Vec::new(),
            axes: axes.to_vec(),
            lens: lens.to_vec(),
            layout,
            cells,
            outer,
        })
    }

    /// Writes the next row: the values along the last axis.
    pub fn write_row(&mut self, values: &[u32]) -> io::Result<()> {
        let mut number = itoa::Buffer::new();
        let last = self.axes.len() - 1;
        let outcome = self.cells == CellKind::Outcomes;
        let (line, out) = (&mut self.line, &mut self.out);
        line.clear();
        // Handed on in pieces: a row of millions of cells is never held whole.
        let mut spill = |line: &mut Vec<u8>| -> io::Result<()> {
            if line.len() >= LINE_CHUNK {
                out.write_all(line)?;
                line.clear();
            }
            Ok(())
        };
        let mut cell = |line: &mut Vec<u8>, value: u32| {
            line.extend_from_slice(match (outcome, value == 0) {
                (true, true) => b"P",
                (true, false) => b"N",
                (false, _) => number.format(value).as_bytes(),
            });
        };
        let mut coordinate = itoa::Buffer::new();
        match self.layout {
            CsvLayout::Grid => {
                let row = self.axes[0].min + self.outer[0] as i64;
                line.extend_from_slice(coordinate.format(row).as_bytes());
                for &value in values {
                    line.push(b',');
                    cell(line, value);
                    spill(line)?;
                }
                line.push(b'\n');
            }
            CsvLayout::Long => {
                for (j, &value) in values.iter().enumerate() {
                    for (axis, &i) in self.axes[..last].iter().zip(&self.outer) {
                        line.extend_from_slice(coordinate.format(axis.min + i as i64).as_bytes());
                        line.push(b',');
                    }
                    let at = self.axes[last].min + j as i64;
                    line.extend_from_slice(coordinate.format(at).as_bytes());
                    line.push(b',');
                    cell(line, value);
                    line.push(b'\n');
                    spill(line)?;
                }
            }
        }
        out.write_all(line)?;
        super::advance_row_major(&mut self.outer, &self.lens[..last]);
        Ok(())
    }

    /// Flushes what is buffered.
    pub fn finish(mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// What the cells of a table read from CSV hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// Grundy values.
    Values,
    /// Only outcomes, `P` or `N` (read as 0 and 1).
    Outcomes,
}

impl CellKind {
    /// What the cells are, in a word: `values` or `outcomes`.
    pub fn name(self) -> &'static str {
        match self {
            CellKind::Values => "values",
            CellKind::Outcomes => "outcomes",
        }
    }
}

/// Why a CSV table could not be read: one line, with the line number where it applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvReadError {
    /// The 1-based line of the problem, if it has one.
    pub line: Option<u64>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CsvReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for CsvReadError {}

/// Bounds on what [`read_csv_within`] reads, so that an endless input (`/dev/zero`, a
/// decompression bomb) ends in an error instead of exhausting memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsvLimits {
    /// The most memory the table may take while it is read (its cells, their coordinates in the
    /// long layout, and the table built from them).
    pub max_bytes: u64,
    /// The longest line, in bytes. The read also stops lines at a tenth of `max_bytes` (and no
    /// less than 1 KiB): one line's record may take ten times its length.
    pub max_line_bytes: u64,
    /// Bytes per cell that the caller will hold besides the table once it is read (an
    /// analysis' copies), counted against `max_bytes` as the cells are read.
    pub extra_per_cell: u64,
    /// Bytes per row, column and diagonal of a 2-D table ([`crate::table::board_lines`]) that the
    /// caller will hold besides (an analysis' record of each line), counted in the same way.
    pub extra_per_line: u64,
}

impl CsvLimits {
    /// The longest line accepted by default: a grid row of a few million columns.
    pub const DEFAULT_LINE_BYTES: u64 = 64 << 20;

    /// No bound on memory; lines up to [`CsvLimits::DEFAULT_LINE_BYTES`].
    pub const UNBOUNDED: CsvLimits = CsvLimits {
        max_bytes: u64::MAX,
        max_line_bytes: CsvLimits::DEFAULT_LINE_BYTES,
        extra_per_cell: 0,
        extra_per_line: 0,
    };
}

/// Reads a table written by [`write_csv`], in either layout, with values or with `P`/`N`
/// outcomes, within [`CsvLimits::UNBOUNDED`]. See [`read_csv_within`].
///
/// # Errors
/// As [`read_csv_within`].
pub fn read_csv<R: Read>(input: R) -> Result<(GrundyTable, CellKind), CsvReadError> {
    read_csv_within(input, &CsvLimits::UNBOUNDED)
}

/// Reads a table written by [`write_csv`], in either layout, with values or with `P`/`N`
/// outcomes. The axis names come from the header and each axis starts at its first coordinate.
/// Reading stops with an error as soon as a line outgrows `limits.max_line_bytes` or the cells
/// read so far would need more than `limits.max_bytes`.
///
/// # Errors
/// A malformed file: empty, a header that is neither layout, ragged rows, cells that are not
/// numbers (or not all `P`/`N`), coordinates that are not consecutive or not in row-major order;
/// or a file beyond `limits`.
pub fn read_csv_within<R: Read>(
    input: R,
    limits: &CsvLimits,
) -> Result<(GrundyTable, CellKind), CsvReadError> {
    // A line of L bytes is held in one record of at most 2L bytes of text and L/2 + 1 field
    // ends of 8 bytes, both in vectors that may have doubled: no line may outgrow a tenth of
    // the budget.
    let max_line = limits.max_line_bytes.min((limits.max_bytes / RECORD_BYTES_PER_BYTE).max(1024));
    // The csv crate keeps two copies of the first record it reads (as headers, even without
    // `has_headers`), which for a grid of 6·10^6 columns were 200 MB: it is given a first line
    // of its own, one byte long, and line numbers are counted from the line after it.
    let input =
        LineBound { inner: io::Cursor::new(FIRST_LINE).chain(input), line: 0, max: max_line };
    let mut reader =
        // `#` lines are comments: a table's provenance header, say.
        ::csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .comment(Some(b'#'))
            .from_reader(input);
    // One record, read into again for every line: a row is as long as the header.
    let mut record = ::csv::StringRecord::new();
    read_line(&mut reader, &mut record)?;
    let Some(header_line) = read_line(&mut reader, &mut record)? else {
        return Err(CsvReadError { line: None, message: "the file is empty".into() });
    };
    // The header's record is the rows' from then on: one record, reused for every line.
    let header = std::mem::take(&mut record);
    let mut cells = CellReader::default();
    let (axes, max, values) = if header.get(0).is_some_and(|h| h.contains('\\')) {
        read_grid(&mut reader, header, header_line, limits, &mut cells)?
    } else {
        read_long(&mut reader, header, header_line, limits, &mut cells)?
    };
    let table = GrundyTable::from_nimbers(TableShape::from_axes(axes, max), &values);
    Ok((table, cells.kind.unwrap_or(CellKind::Values)))
}

/// What a table's body gives: its axes, its largest coordinates and its cells.
type Body = (Vec<Axis>, Vec<Coord>, Vec<Nimber>);

/// An error at `line`.
fn at(line: u64, message: String) -> CsvReadError {
    CsvReadError { line: Some(line), message }
}

/// An axis name from a header, at `line`.
fn axis_name(text: &str, line: u64) -> Result<String, CsvReadError> {
    let text = text.trim();
    if crate::game::Axis::is_name(text) {
        Ok(text.to_string())
    } else {
        Err(at(line, format!("`{}` is not an axis name", text.escape_debug())))
    }
}

/// The grid layout after its header (`ROW\COL,c0,c1,…`): `r,v,v,…` lines.
fn read_grid<R: Read>(
    reader: &mut ::csv::Reader<R>,
    header: ::csv::StringRecord,
    header_line: u64,
    limits: &CsvLimits,
    cells: &mut CellReader,
) -> Result<Body, CsvReadError> {
    // Grid: `ROW\COL,c0,c1,…`, then `r,v,v,…`.
    let (row_name, col_name) = header[0].split_once('\\').unwrap();
    let (row_name, col_name) =
        (axis_name(row_name, header_line)?, axis_name(col_name, header_line)?);
    let columns = header.len() - 1;
    if columns == 0 {
        return Err(at(header_line, "the header lists no column coordinates".into()));
    }
    // The width the header declares must fit before its coordinates, or any row, are kept.
    let mut budget = Budget::new(limits, 0);
    budget.saw_record(&header);
    budget.check_header(columns, header_line)?;
    let first_column = consecutive(header.iter().skip(1), header_line, "column coordinates")?;
    let width = header.len();
    let mut row_coords = Vec::new();
    let mut values = Vec::new();
    let mut record = header;
    while let Some(line) = read_line(reader, &mut record)? {
        check_width(&record, width, line)?;
        budget.saw_record(&record);
        let rows = row_coords.len() + 1;
        budget.check(values.len() + columns, board_lines(rows, columns), line)?;
        row_coords.push(coordinate(&record[0], line)?);
        for field in record.iter().skip(1) {
            values.push(cells.read(field, line)?);
        }
        check_consecutive(
            &row_coords[row_coords.len().saturating_sub(2)..],
            line,
            "row coordinates",
        )?;
    }
    if row_coords.is_empty() {
        return Err(at(header_line, "the table has a header but no rows".into()));
    }
    let axes = vec![Axis::new(&row_name, row_coords[0]), Axis::new(&col_name, first_column)];
    let last_column = first_column + columns as Coord - 1;
    Ok((axes, vec![*row_coords.last().unwrap(), last_column], values))
}

/// The long layout after its header (`A[,B[,C]],g`): one line per cell in row-major order.
fn read_long<R: Read>(
    reader: &mut ::csv::Reader<R>,
    header: ::csv::StringRecord,
    header_line: u64,
    limits: &CsvLimits,
    cells: &mut CellReader,
) -> Result<Body, CsvReadError> {
    // Long: `A[,B[,C]],g`, one line per cell in row-major order.
    let dims = header.len().saturating_sub(1);
    if !(1..=3).contains(&dims) || header[dims].trim() != "g" {
        return Err(at(
            header_line,
            "the header is neither a grid (`n\\m,1,2,…`) nor a long table (`n,m,g`)".into(),
        ));
    }
    let names =
        (0..dims).map(|d| axis_name(&header[d], header_line)).collect::<Result<Vec<_>, _>>()?;
    // The coordinates of every cell, `dims` each, flat: one allocation, not one per cell.
    let mut flat: Vec<Coord> = Vec::new();
    let mut values = Vec::new();
    let mut budget = Budget::new(limits, dims);
    budget.saw_record(&header);
    let width = header.len();
    // The box read so far, on the first two axes, for a 2-D table's lines.
    let mut span = [(Coord::MAX, Coord::MIN); 2];
    let mut record = header;
    while let Some(line) = read_line(reader, &mut record)? {
        check_width(&record, width, line)?;
        budget.saw_record(&record);
        for d in 0..dims {
            flat.push(coordinate(&record[d], line)?);
        }
        let lines = if dims == 2 {
            let cell = &flat[flat.len() - 2..];
            for (d, (low, high)) in span.iter_mut().enumerate() {
                (*low, *high) = ((*low).min(cell[d]), (*high).max(cell[d]));
            }
            let len = |(low, high): (Coord, Coord)| (high - low + 1) as usize;
            board_lines(len(span[0]), len(span[1]))
        } else {
            0
        };
        budget.check(values.len() + 1, lines, line)?;
        values.push(cells.read(&record[dims], line)?);
    }
    if values.is_empty() {
        return Err(at(header_line, "the table has a header but no rows".into()));
    }
    let (min, max) = row_major_box(&flat, dims, header_line)?;
    let axes = names.iter().zip(&min).map(|(n, &m)| Axis::new(n, m)).collect();
    Ok((axes, max, values))
}

/// The box of a long table's cells, `dims` coordinates each in `flat`: its least and largest
/// coordinates, once every cell of it came once, in row-major order.
fn row_major_box(
    flat: &[Coord],
    dims: usize,
    header_line: u64,
) -> Result<(Vec<Coord>, Vec<Coord>), CsvReadError> {
    // Walked through in place: a vector of them would be 16 more bytes per cell.
    let coords = || flat.chunks_exact(dims);
    let min = flat[..dims].to_vec();
    let max: Vec<Coord> = (0..dims).map(|d| coords().map(|c| c[d]).max().unwrap()).collect();
    // Every cell of the box, once, in row-major order.
    let mut expected = min.clone();
    let mut wrapped = false;
    for (index, pos) in coords().enumerate() {
        let line = header_line + 1 + index as u64;
        if wrapped {
            // Every cell of the box came before: this one repeats.
            return Err(at(
                line,
                format!(
                    "the cell {pos:?} appears a second time (each cell once, in row-major order)"
                ),
            ));
        }
        if pos != expected {
            return Err(at(
                line,
                format!("expected the cell {expected:?} here (row-major order), found {pos:?}"),
            ));
        }
        wrapped = true;
        for d in (0..dims).rev() {
            expected[d] += 1;
            if expected[d] <= max[d] {
                wrapped = false;
                break;
            }
            expected[d] = min[d];
        }
    }
    if expected != min
        || (flat.len() / dims) as u128
            != (0..dims).map(|d| (max[d] - min[d] + 1) as u128).product::<u128>()
    {
        return Err(CsvReadError {
            line: None,
            message: "the table ends before its last cell".into(),
        });
    }
    Ok((min, max))
}

/// The line that `read_csv_within` reads first, before its input: see there.
const FIRST_LINE: &[u8] = b"-\n";

/// Reads the next line into `record`: its 1-based line number in the input after
/// [`FIRST_LINE`], or `None` at the end.
fn read_line<R: Read>(
    reader: &mut ::csv::Reader<R>,
    record: &mut ::csv::StringRecord,
) -> Result<Option<u64>, CsvReadError> {
    match reader.read_record(record) {
        Ok(false) => Ok(None),
        Ok(true) => Ok(Some(record.position().map_or(0, |p| p.line() - 1))),
        Err(err) => Err(CsvReadError {
            line: err.position().map(|p| p.line().saturating_sub(1)),
            message: format!("not readable as CSV: {err}"),
        }),
    }
}

/// The memory a table being read takes, against the limit.
struct Budget {
    max_bytes: u64,
    /// Bytes a cell takes while it is read: its value as a nimber and, in the long layout, its
    /// coordinates, both in vectors that may have doubled; then its cell in the table built.
    per_cell: u64,
    /// Bytes the caller holds per line of a 2-D table.
    per_line: u64,
    /// The most the record that lines are read into may hold, from the longest line so far.
    record: u64,
}

/// Bytes a record may hold per byte of its line: the text and one 8-byte field end per two
/// bytes, in vectors that may have doubled.
const RECORD_BYTES_PER_BYTE: u64 = 10;

impl Budget {
    fn new(limits: &CsvLimits, coordinates: usize) -> Budget {
        let read = std::mem::size_of::<Nimber>() + coordinates * std::mem::size_of::<Coord>();
        Budget {
            max_bytes: limits.max_bytes,
            per_cell: 2 * read as u64 + 4 + limits.extra_per_cell,
            per_line: limits.extra_per_line,
            record: 0,
        }
    }

    /// Counts what `record` holds, if it is the longest line so far.
    fn saw_record(&mut self, record: &::csv::StringRecord) {
        let bytes = 2 * (record.as_slice().len() as u64 + 8 * record.len() as u64);
        self.record = self.record.max(bytes);
    }

    /// Refuses `cells` cells with `lines` lines (read so far, with the line's) when they
    /// outgrow the limit.
    fn check(&self, cells: usize, lines: u128, line: u64) -> Result<(), CsvReadError> {
        let lines_text = if lines * u128::from(self.per_line) == 0 {
            String::new()
        } else {
            format!(" in {lines} rows, columns and diagonals")
        };
        self.refuse_beyond(cells, lines, line, |needed| {
            format!("{cells} cells{lines_text} so far need {needed} bytes")
        })
    }

    /// Refuses a grid whose header declares more columns than a row within the limit has.
    fn check_header(&self, columns: usize, line: u64) -> Result<(), CsvReadError> {
        let lines = board_lines(1, columns);
        self.refuse_beyond(columns, lines, line, |needed| {
            format!("the header declares {columns} columns, and one row needs {needed} bytes")
        })
    }

    fn refuse_beyond(
        &self,
        cells: usize,
        lines: u128,
        line: u64,
        what: impl FnOnce(u128) -> String,
    ) -> Result<(), CsvReadError> {
        let needed = cells as u128 * u128::from(self.per_cell)
            + lines * u128::from(self.per_line)
            + u128::from(self.record);
        if needed <= u128::from(self.max_bytes) {
            return Ok(());
        }
        Err(CsvReadError {
            line: Some(line),
            message: format!(
                "the table is too large to read: {}, more than the {} bytes of memory available",
                what(needed),
                self.max_bytes
            ),
        })
    }
}

/// A reader that fails once a line outgrows `max` bytes, before the CSV reader buffers more of
/// it.
struct LineBound<R> {
    inner: R,
    /// Bytes since the last newline.
    line: u64,
    max: u64,
}

impl<R: Read> Read for LineBound<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &byte in &buf[..n] {
            self.line = if byte == b'\n' { 0 } else { self.line + 1 };
            if self.line > self.max {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("a line is longer than {} bytes", self.max),
                ));
            }
        }
        Ok(n)
    }
}

/// Reads cells, requiring all to be numbers or all to be `P`/`N`.
#[derive(Default)]
struct CellReader {
    kind: Option<CellKind>,
}

impl CellReader {
    fn read(&mut self, field: &str, line: u64) -> Result<Nimber, CsvReadError> {
        let field = field.trim();
        let (kind, value) = match field {
            "P" => (CellKind::Outcomes, Nimber(0)),
            "N" => (CellKind::Outcomes, Nimber(1)),
            _ => match field.parse::<u32>() {
                Ok(v) => (CellKind::Values, Nimber(v)),
                Err(_) => {
                    return Err(CsvReadError {
                        line: Some(line),
                        message: format!(
                            "`{field}` is not a Grundy value (a whole number >= 0) nor P or N"
                        ),
                    })
                }
            },
        };
        match self.kind {
            Some(seen) if seen != kind => Err(CsvReadError {
                line: Some(line),
                message: "the table mixes numbers with P/N outcomes".into(),
            }),
            _ => {
                self.kind = Some(kind);
                Ok(value)
            }
        }
    }
}

fn check_width(record: &::csv::StringRecord, width: usize, line: u64) -> Result<(), CsvReadError> {
    if record.len() == width {
        return Ok(());
    }
    Err(CsvReadError {
        line: Some(line),
        message: format!("expected {width} fields like the header, found {}", record.len()),
    })
}

fn coordinate(field: &str, line: u64) -> Result<Coord, CsvReadError> {
    let field = field.trim();
    field.parse::<Coord>().ok().filter(|c| (0..crate::game::COORD_LIMIT).contains(c)).ok_or_else(
        || CsvReadError {
            line: Some(line),
            message: format!("`{field}` is not a coordinate (a whole number >= 0)"),
        },
    )
}

/// The first of `fields`, coordinates that must go up by one (read one at a time: a header may
/// list millions).
fn consecutive<'a>(
    fields: impl Iterator<Item = &'a str>,
    line: u64,
    what: &str,
) -> Result<Coord, CsvReadError> {
    let mut first = None;
    let mut previous: Option<Coord> = None;
    for field in fields {
        let coord = coordinate(field, line)?;
        if let Some(previous) = previous {
            check_consecutive(&[previous, coord], line, what)?;
        }
        first.get_or_insert(coord);
        previous = Some(coord);
    }
    Ok(first.expect("the caller checked that there is a field"))
}

fn check_consecutive(coords: &[Coord], line: u64, what: &str) -> Result<(), CsvReadError> {
    match coords.windows(2).find(|w| w[1] != w[0] + 1) {
        Some(w) => Err(CsvReadError {
            line: Some(line),
            message: format!("{what} must go up by one: {} is followed by {}", w[0], w[1]),
        }),
        None => Ok(()),
    }
}

/// The I/O error inside a CSV error, so that callers can tell a closed pipe from other failures.
fn into_io(err: ::csv::Error) -> io::Error {
    match err.into_kind() {
        ::csv::ErrorKind::Io(err) => err,
        other => io::Error::other(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests;
