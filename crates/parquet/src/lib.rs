//! Grundy tables as Parquet files, the columnar format pandas, polars, DuckDB and Spark read.
//!
//! A table is a long table: one column per axis, named after it, holding the coordinates, and a
//! last column `g` with the values (or `outcome`, `P` or `N`, for an outcome table), one row per
//! cell in row-major order. Coordinates take the narrowest signed integer type that holds them,
//! values the table's own unsigned cell type (uint8, uint16 or uint32), so a reader gets the
//! same dtypes as from the `.npy`. Pages are zstd-compressed; rows go out in row groups of
//! [`ROW_GROUP_ROWS`], so [`ParquetRows`] writes a table row by row, while it is computed, in
//! memory bounded by one group. The table's [`Provenance`] is the file's key-value metadata
//! under [`PROVENANCE_KEY`], its checksum taken as the rows go by and written in the footer.
//!
//! No paths: the caller brings the writer or the reader (a file, or bytes in memory).

use grundy_core::game::Axis;
use grundy_core::{
    CellKind, CellVec, CellWidth, Coord, GrundyTable, Provenance, TableShape, ValuesDigest,
};
use parquet::basic::{Compression, Encoding, LogicalType, ZstdLevel};
use parquet::column::reader::ColumnReader;
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{ChunkReader, FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;
use std::io::Write;
use std::sync::Arc;

/// The key of the provenance record (JSON) in a file's key-value metadata.
pub const PROVENANCE_KEY: &str = "grundy.provenance";

/// Rows per row group: a million cells hold a few MB of buffered columns, and each group is a
/// unit a reader can skip or read in parallel.
pub const ROW_GROUP_ROWS: usize = 1 << 20;

/// What went wrong writing or reading a Parquet table.
#[derive(Debug, thiserror::Error)]
pub enum ParquetError {
    /// The Parquet library failed (I/O included).
    #[error(transparent)]
    Parquet(parquet::errors::ParquetError),
    /// The file's pages are compressed with a codec this build does not read (LZO).
    #[error(
        "its pages are compressed with {0}, which grundy does not read; write the file with \
         zstd, snappy, gzip, lz4 or brotli, or uncompressed (pyarrow: compression=\"zstd\")"
    )]
    Codec(String),
    /// The file is Parquet, but not a table as grundy writes it.
    #[error("{0}")]
    NotATable(String),
    /// The table has more cells than the reader may hold.
    #[error(
        "the table has {cells} cells; reading it holds {per_cell} bytes a cell, so at most {most} \
         fit in the memory available"
    )]
    TooLarge {
        /// Its cells.
        cells: u64,
        /// The most that fit.
        most: u64,
        /// The bytes a cell takes while it is read (coordinates, value, the table's cell, and
        /// what the caller holds besides).
        per_cell: u64,
    },
    /// Its provenance record does not read.
    #[error("its provenance: {0}")]
    Provenance(#[from] grundy_core::ProvenanceError),
}

impl ParquetError {
    /// The I/O error this is when a write or read failed (so that a caller's own error, such as
    /// a stop on a signal, comes back as it went in), or one that names the failure.
    pub fn into_io(self) -> std::io::Error {
        match self {
            ParquetError::Parquet(parquet::errors::ParquetError::External(inner)) => {
                match inner.downcast::<std::io::Error>() {
                    Ok(io) => *io,
                    Err(other) => std::io::Error::other(other),
                }
            }
            other => std::io::Error::other(other),
        }
    }
}

impl From<parquet::errors::ParquetError> for ParquetError {
    fn from(err: parquet::errors::ParquetError) -> ParquetError {
        // The library says so in words meant for its own developers ("Disabled feature at
        // compile time", "NYI"); a codec that cannot be read is the user's to change.
        let text = err.to_string();
        let codec = text
            .split_once("Disabled feature at compile time: ")
            .map(|(_, codec)| codec)
            .or_else(|| {
                let (_, rest) = text.split_once("The codec type ")?;
                rest.split_once(" is not supported").map(|(codec, _)| codec)
            });
        match codec {
            Some(codec) => ParquetError::Codec(codec.trim().to_string()),
            None => ParquetError::Parquet(err),
        }
    }
}

fn not_a_table(message: impl Into<String>) -> ParquetError {
    ParquetError::NotATable(message.into())
}

/// A Parquet table written a row at a time (the values along the last axis, in row-major
/// order), in row groups of [`ROW_GROUP_ROWS`]; [`write_parquet`] writes a whole table through
/// it.
pub struct ParquetRows<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    mins: Vec<Coord>,
    lens: Vec<usize>,
    cells: CellKind,
    /// The indices of the next cell on every axis.
    next: Vec<usize>,
    /// The buffered group: each axis's coordinates, then the values.
    coordinates: Vec<Vec<Coord>>,
    values: Vec<u32>,
    digest: ValuesDigest,
    provenance: Option<Provenance>,
}

/// The Parquet type of a column of integers from `low` to `high`: the narrowest that holds them.
fn integer_type(low: i128, high: i128, signed: bool) -> (&'static str, u8) {
    let fits = |bits: u32| {
        if signed {
            low >= -(1i128 << (bits - 1)) && high < 1i128 << (bits - 1)
        } else {
            low >= 0 && high < 1i128 << bits
        }
    };
    match [8, 16, 32].into_iter().find(|&bits| fits(bits)) {
        Some(bits) => ("int32", bits as u8),
        None => ("int64", 64),
    }
}

impl<W: Write + Send> ParquetRows<W> {
    /// Starts a table with `axes` and `lens` whose cells hold `cells`, its values at most
    /// `width` wide, written to `out`; `provenance`, when given, goes in the footer with the
    /// values' checksum.
    ///
    /// # Errors
    /// The Parquet library's, such as a failed write.
    pub fn new(
        axes: &[Axis],
        lens: &[usize],
        cells: CellKind,
        width: CellWidth,
        provenance: Option<Provenance>,
        out: W,
    ) -> Result<ParquetRows<W>, ParquetError> {
        let zstd = Compression::ZSTD(ZstdLevel::try_new(3)?);
        ParquetRows::compressed(axes, lens, cells, width, provenance, out, zstd)
    }

    /// [`ParquetRows::new`] with the pages compressed by `compression` (files as other writers
    /// make them, for the tests of reading).
    fn compressed(
        axes: &[Axis],
        lens: &[usize],
        cells: CellKind,
        width: CellWidth,
        provenance: Option<Provenance>,
        out: W,
        compression: Compression,
    ) -> Result<ParquetRows<W>, ParquetError> {
        let mut fields = Vec::new();
        for (axis, &len) in axes.iter().zip(lens) {
            let (low, high) = (axis.min as i128, axis.min as i128 + len.max(1) as i128 - 1);
            let (physical, bits) = integer_type(low, high, true);
            fields.push(format!("required {physical} {} (INTEGER({bits},true));", axis.name));
        }
        fields.push(match cells {
            CellKind::Values => {
                let bits = 8 * width.bytes();
                format!("required int32 g (INTEGER({bits},false));")
            }
            CellKind::Outcomes => "required binary outcome (STRING);".to_string(),
        });
        let schema = parse_message_type(&format!("message grundy {{ {} }}", fields.join(" ")))?;
        let mut properties = WriterProperties::builder()
            .set_compression(compression)
            .set_created_by(format!("grundy {}", env!("CARGO_PKG_VERSION")))
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS));
        // Coordinates count up by one or stay: their differences are a few bits a page (as a
        // dictionary, the last axis of Wythoff 16384² was 382 MB of its 899).
        for axis in axes {
            let path = ColumnPath::from(axis.name.as_str());
            properties = properties
                .set_column_dictionary_enabled(path.clone(), false)
                .set_column_encoding(path, Encoding::DELTA_BINARY_PACKED);
        }
        let properties = properties.build();
        let writer = SerializedFileWriter::new(out, Arc::new(schema), Arc::new(properties))?;
        Ok(ParquetRows {
            writer,
            mins: axes.iter().map(|axis| axis.min).collect(),
            lens: lens.to_vec(),
            cells,
            next: vec![0; lens.len()],
            coordinates: vec![Vec::new(); lens.len()],
            values: Vec::new(),
            digest: ValuesDigest::new(),
            provenance,
        })
    }

    /// Writes the next row: the values along the last axis (a heap game's table is one row,
    /// which may be written in pieces).
    ///
    /// # Errors
    /// The Parquet library's, such as a failed write.
    pub fn write_row(&mut self, mut values: &[u32]) -> Result<(), ParquetError> {
        let last = self.lens.len() - 1;
        // A run of cells along the last axis at a time: the other axes' coordinates are the same
        // along it, and the last one counts up.
        while !values.is_empty() {
            let along = self.next[last];
            let run = values
                .len()
                .min(self.lens[last].saturating_sub(along).max(1))
                .min(ROW_GROUP_ROWS - self.values.len());
            for d in 0..last {
                let coordinate = self.mins[d] + self.next[d] as Coord;
                self.coordinates[d].extend(std::iter::repeat_n(coordinate, run));
            }
            let first = self.mins[last] + along as Coord;
            self.coordinates[last].extend((0..run as Coord).map(|k| first + k));
            self.values.extend_from_slice(&values[..run]);
            values = &values[run..];
            // The cell after the run, in row-major order.
            self.next[last] += run;
            for d in (1..=last).rev() {
                if self.next[d] < self.lens[d] {
                    break;
                }
                self.next[d] = 0;
                self.next[d - 1] += 1;
            }
            if self.values.len() == ROW_GROUP_ROWS {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Writes the buffered rows as one row group.
    fn flush(&mut self) -> Result<(), ParquetError> {
        if self.values.is_empty() {
            return Ok(());
        }
        self.digest.feed(self.values.iter().copied(), self.cells);
        let mut group = self.writer.next_row_group()?;
        let mut column = 0;
        while let Some(mut writer) = group.next_column()? {
            match (writer.untyped(), self.coordinates.get(column)) {
                (ColumnWriter::Int32ColumnWriter(w), Some(coords)) => {
                    let coords: Vec<i32> = coords.iter().map(|&c| c as i32).collect();
                    w.write_batch(&coords, None, None)?;
                }
                (ColumnWriter::Int64ColumnWriter(w), Some(coords)) => {
                    w.write_batch(coords, None, None)?;
                }
                (ColumnWriter::Int32ColumnWriter(w), None) => {
                    // Unsigned values are stored in INT32's bits (the Parquet specification).
                    let values: Vec<i32> = self.values.iter().map(|&v| v as i32).collect();
                    w.write_batch(&values, None, None)?;
                }
                (ColumnWriter::ByteArrayColumnWriter(w), None) => {
                    let outcomes: Vec<ByteArray> = self
                        .values
                        .iter()
                        .map(|&v| ByteArray::from(if v == 0 { "P" } else { "N" }))
                        .collect();
                    w.write_batch(&outcomes, None, None)?;
                }
                _ => unreachable!("the schema has these columns"),
            }
            writer.close()?;
            column += 1;
        }
        group.close()?;
        for coordinates in &mut self.coordinates {
            coordinates.clear();
        }
        self.values.clear();
        Ok(())
    }

    /// Writes the last row group and the footer, with the provenance and its checksum.
    ///
    /// # Errors
    /// The Parquet library's, such as a failed write.
    pub fn finish(mut self) -> Result<(), ParquetError> {
        self.flush()?;
        if let Some(mut provenance) = self.provenance.take() {
            provenance.values_sha256 = self.digest.finish();
            let record = KeyValue::new(PROVENANCE_KEY.to_string(), provenance.to_json());
            self.writer.append_key_value_metadata(record);
        }
        self.writer.close()?;
        Ok(())
    }
}

/// Writes `table` (its cells holding `cells`) to `out` as Parquet, with `provenance`.
///
/// # Errors
/// The Parquet library's, such as a failed write.
pub fn write_parquet<W: Write + Send>(
    table: &GrundyTable,
    cells: CellKind,
    provenance: Option<Provenance>,
    out: W,
) -> Result<(), ParquetError> {
    let shape = table.shape();
    let lens = shape.lens();
    let width = table.width();
    let mut rows = ParquetRows::new(shape.axes(), &lens, cells, width, provenance, out)?;
    let row = lens.last().copied().unwrap_or(0).max(1);
    let values = table.cells();
    let mut buffer = Vec::with_capacity(row);
    for start in (0..values.len()).step_by(row) {
        buffer.clear();
        values.range(start..(start + row).min(values.len())).append_to(&mut buffer);
        rows.write_row(&buffer)?;
    }
    rows.finish()
}

/// The provenance in a Parquet file's metadata, if it has one.
///
/// # Errors
/// A file that is not Parquet, or a record that does not read.
pub fn read_provenance<R: ChunkReader + 'static>(
    input: R,
) -> Result<Option<Provenance>, ParquetError> {
    let reader = SerializedFileReader::new(input)?;
    provenance_of(&reader)
}

fn provenance_of<R: ChunkReader + 'static>(
    reader: &SerializedFileReader<R>,
) -> Result<Option<Provenance>, ParquetError> {
    let metadata = reader.metadata().file_metadata().key_value_metadata();
    let record = metadata.and_then(|pairs| pairs.iter().find(|kv| kv.key == PROVENANCE_KEY));
    match record.and_then(|kv| kv.value.as_deref()) {
        Some(json) => Ok(Some(Provenance::from_json(json)?)),
        None => Ok(None),
    }
}

/// A table read from a Parquet file written by [`write_parquet`] or [`ParquetRows`]: its
/// values, what they hold, and its provenance.
pub struct ReadTable {
    /// The table (axes named after the coordinate columns, starting at their first row).
    pub table: GrundyTable,
    /// Values, or outcomes (`P` as 0, `N` as 1).
    pub cells: CellKind,
    /// The provenance in the file's metadata.
    pub provenance: Option<Provenance>,
}

/// Reads a table from a Parquet file laid out as [`write_parquet`] writes it: 1 to 3 integer
/// coordinate columns and a last column `g` (integers) or `outcome` (`P`/`N`), every cell of a
/// box once, in row-major order; within `max_bytes`, counting [`read_bytes_per_cell`] of its
/// value column's width and the caller's `extra_per_cell` a cell, and the largest row group's
/// coordinates.
///
/// # Errors
/// A file that is not Parquet or not such a table, or a table too large for `max_bytes`
/// (refused from the metadata, before anything is read).
pub fn read_parquet<R: ChunkReader + 'static>(
    input: R,
    max_bytes: u64,
    extra_per_cell: u64,
) -> Result<ReadTable, ParquetError> {
    let reader = SerializedFileReader::new(input)?;
    let provenance = provenance_of(&reader)?;
    let Columns { names, dims, cells, width } =
        columns_of(reader.metadata().file_metadata().schema_descr())?;
    let rows = reader.metadata().file_metadata().num_rows().max(0) as u64;
    if rows == 0 {
        return Err(not_a_table("the table has no rows"));
    }
    // Coordinates are held one row group at a time (checked, then dropped), values for the
    // whole table.
    let groups = reader.num_row_groups();
    let largest_group =
        (0..groups).map(|g| reader.metadata().row_group(g).num_rows().max(0) as u64).max();
    let group_bytes = largest_group.unwrap_or(0) * 8 * dims as u64;
    let per_cell = read_bytes_per_cell(width) + extra_per_cell;
    let most = max_bytes.saturating_sub(group_bytes) / per_cell.max(1);
    if rows > most {
        return Err(ParquetError::TooLarge { cells: rows, most, per_cell });
    }
    // The box runs from the first row's cell to the last row's: the last group is read first.
    // A table of one group (up to 2^20 rows) is then read whole; a larger one is read again in
    // order, its last group twice (one group's work more, at most half the table's).
    let mut coordinates: Vec<Vec<Coord>> = vec![Vec::new(); dims];
    let mut values = CellVec::with_width(width);
    if groups == 1 {
        values.reserve(rows as usize);
    }
    read_group(&reader, groups - 1, &names, cells, &mut coordinates, &mut values)?;
    let max: Vec<Coord> =
        coordinates.iter().map(|c| *c.last().expect("a group has rows")).collect();
    let mut order: Option<RowMajor> = None;
    let mut check_order = |coordinates: &[Vec<Coord>]| {
        let order = order.get_or_insert_with(|| {
            let min: Vec<Coord> =
                coordinates.iter().map(|c| c.first().copied().unwrap_or(0)).collect();
            RowMajor { expected: min.clone(), min, max: max.clone(), seen: 0 }
        });
        order.check(coordinates)
    };
    if groups == 1 {
        check_order(&coordinates)?;
    } else {
        values = CellVec::with_width(width);
        values.reserve(rows as usize);
        for g in 0..groups {
            for axis in &mut coordinates {
                axis.clear();
            }
            read_group(&reader, g, &names, cells, &mut coordinates, &mut values)?;
            check_order(&coordinates)?;
        }
    }
    if values.len() as u64 != rows {
        return Err(not_a_table("the row groups hold fewer rows than the file says"));
    }
    let order = order.expect("a table has a row group");
    let cells_in_box: u128 =
        (0..dims).map(|d| (order.max[d] - order.min[d] + 1).max(0) as u128).product();
    if cells_in_box != order.seen as u128 {
        return Err(not_a_table("the table ends before its last cell"));
    }
    let axes = names[..dims].iter().zip(&order.min).map(|(name, &m)| Axis::new(name, m)).collect();
    let shape = TableShape::from_axes(axes, order.max);
    let table = match values {
        CellVec::U8(cells) => GrundyTable::from_vec(shape, cells),
        CellVec::U16(cells) => GrundyTable::from_vec(shape, cells),
        CellVec::U32(cells) => narrowed(shape, cells),
    };
    Ok(ReadTable { table, cells, provenance })
}

/// What a table's columns say: the axes' names (and the value column's), how many axes, what
/// the cells hold and the width they are read into.
struct Columns {
    names: Vec<String>,
    dims: usize,
    cells: CellKind,
    width: CellWidth,
}

/// The columns of a table laid out as [`write_parquet`] writes it, from the file's schema.
fn columns_of(schema: &parquet::schema::types::SchemaDescriptor) -> Result<Columns, ParquetError> {
    let columns = schema.num_columns();
    if !(2..=4).contains(&columns) {
        return Err(not_a_table(format!(
            "a table has one to three coordinate columns and a value column; this file has \
             {columns} columns"
        )));
    }
    let dims = columns - 1;
    let names: Vec<String> = (0..columns).map(|c| schema.column(c).name().to_string()).collect();
    // Coordinate columns name axes, which go into expressions, headers and terminal lines.
    if let Some(bad) = names[..dims].iter().find(|name| !Axis::is_name(name)) {
        return Err(not_a_table(format!(
            "column `{}` is not an axis name (axis names are identifiers such as `n` or `w`)",
            bad.escape_debug()
        )));
    }
    let cells = match names[dims].as_str() {
        "g" => CellKind::Values,
        "outcome" => CellKind::Outcomes,
        other => {
            return Err(not_a_table(format!(
                "the last column is `{}`; a table's is `g` (values) or `outcome` (P/N)",
                other.escape_debug()
            )))
        }
    };
    // The values go straight into cells of the width the column declares (grundy's files and
    // pandas' unsigned columns say it), or of 32 bits, narrowed at the end.
    let width = match schema.column(dims).logical_type_ref() {
        _ if cells == CellKind::Outcomes => CellWidth::U8,
        Some(LogicalType::Integer(int)) if !int.is_signed && int.bit_width == 8 => CellWidth::U8,
        Some(LogicalType::Integer(int)) if !int.is_signed && int.bit_width == 16 => CellWidth::U16,
        _ => CellWidth::U32,
    };
    Ok(Columns { names, dims, cells, width })
}

/// A table of 32-bit `cells` in the narrowest width that holds them.
fn narrowed(shape: TableShape, cells: Vec<u32>) -> GrundyTable {
    let max = cells.iter().copied().max().unwrap_or(0);
    match CellWidth::for_max(max.into()) {
        CellWidth::U8 => GrundyTable::from_vec(shape, cells.into_iter().map(|v| v as u8).collect()),
        CellWidth::U16 => {
            GrundyTable::from_vec(shape, cells.into_iter().map(|v| v as u16).collect())
        }
        CellWidth::U32 => GrundyTable::from_vec(shape, cells),
    }
}

/// Reads row group `g`: its coordinates into `coordinates` (one `Vec` an axis), its values
/// appended to `values`.
fn read_group<R: ChunkReader + 'static>(
    reader: &SerializedFileReader<R>,
    g: usize,
    names: &[String],
    cells: CellKind,
    coordinates: &mut [Vec<Coord>],
    values: &mut CellVec,
) -> Result<(), ParquetError> {
    let dims = coordinates.len();
    let schema = reader.metadata().file_metadata().schema_descr();
    let group = reader.get_row_group(g)?;
    let group_rows = group.metadata().num_rows().max(0) as usize;
    let values_before = values.len();
    for (column, name) in names.iter().enumerate() {
        // Columns other writers make optional (pandas, pyarrow) have definition levels; a
        // table has no missing cell.
        let optional = schema.column(column).max_def_level() > 0;
        let mut levels: Vec<i16> = Vec::new();
        let read = match group.get_column_reader(column)? {
            ColumnReader::Int32ColumnReader(mut r) => {
                let mut read: Vec<i32> = Vec::with_capacity(group_rows);
                r.read_records(group_rows, optional.then_some(&mut levels), None, &mut read)?;
                if column < dims {
                    coordinates[column].extend(read.iter().map(|&c| Coord::from(c)));
                } else if cells == CellKind::Values {
                    // Unsigned values are stored in INT32's bits (the Parquet specification).
                    append(values, read.iter().map(|&v| v as u32))?;
                } else {
                    return Err(not_a_table("the column `outcome` holds numbers, not P/N"));
                }
                read.len()
            }
            ColumnReader::Int64ColumnReader(mut r) if column < dims => {
                let mut read: Vec<i64> = Vec::with_capacity(group_rows);
                r.read_records(group_rows, optional.then_some(&mut levels), None, &mut read)?;
                let count = read.len();
                coordinates[column].extend(read);
                count
            }
            ColumnReader::ByteArrayColumnReader(mut r) if cells == CellKind::Outcomes => {
                let mut read: Vec<ByteArray> = Vec::with_capacity(group_rows);
                r.read_records(group_rows, optional.then_some(&mut levels), None, &mut read)?;
                let mut outcomes = Vec::with_capacity(read.len());
                for outcome in &read {
                    outcomes.push(match outcome.data() {
                        b"P" => 0,
                        b"N" => 1,
                        other => {
                            return Err(not_a_table(format!(
                                "an outcome is P or N, not `{}`",
                                String::from_utf8_lossy(other)
                            )))
                        }
                    });
                }
                append(values, outcomes.into_iter())?;
                read.len()
            }
            _ => {
                return Err(not_a_table(format!(
                    "column `{name}` has a type a table does not have (coordinates and values \
                     are integers, outcomes text)"
                )))
            }
        };
        if read != group_rows {
            return Err(not_a_table(format!(
                "column `{name}` has missing cells in row group {} (a table has none)",
                g + 1
            )));
        }
    }
    if coordinates.iter().any(|c| c.len() != values.len() - values_before) {
        return Err(not_a_table("the columns have different numbers of rows"));
    }
    Ok(())
}

/// Appends `read` to `values`, which must hold them in its width (the column's declared one).
fn append(
    values: &mut CellVec,
    read: impl Iterator<Item = u32> + Clone,
) -> Result<(), ParquetError> {
    let max = read.clone().max().unwrap_or(0);
    if CellWidth::for_max(max.into()) > values.width() {
        return Err(not_a_table(format!(
            "the value {max} is wider than the column's declared {} bits",
            8 * values.width().bytes()
        )));
    }
    match values {
        CellVec::U8(cells) => cells.extend(read.map(|v| v as u8)),
        CellVec::U16(cells) => cells.extend(read.map(|v| v as u16)),
        CellVec::U32(cells) => cells.extend(read),
    }
    Ok(())
}

/// The bytes a cell takes while [`read_parquet`] reads it, when its value column is `width`
/// wide: its cell, and for 32-bit cells, narrowed at the end, the narrower copy besides (2).
/// Coordinates are held one row group at a time, 8 bytes an axis a row. At most
/// [`READ_BYTES_PER_CELL`].
pub fn read_bytes_per_cell(width: CellWidth) -> u64 {
    match width {
        CellWidth::U32 => 4 + 2,
        narrow => narrow.bytes() as u64,
    }
}

/// The most bytes a cell takes while [`read_parquet`] reads it, whatever its width.
pub const READ_BYTES_PER_CELL: u64 = 6;

/// The check that rows come as every cell of the box from `min` to `max` once, in row-major
/// order, a row group at a time.
struct RowMajor {
    min: Vec<Coord>,
    max: Vec<Coord>,
    /// The cell the next row must hold.
    expected: Vec<Coord>,
    /// Rows checked so far.
    seen: u64,
}

impl RowMajor {
    fn check(&mut self, coordinates: &[Vec<Coord>]) -> Result<(), ParquetError> {
        let dims = coordinates.len();
        for row in 0..coordinates[0].len() {
            if (0..dims).any(|d| coordinates[d][row] != self.expected[d]) {
                let found: Vec<Coord> = coordinates.iter().map(|c| c[row]).collect();
                return Err(not_a_table(format!(
                    "row {}: expected the cell {:?} (every cell of the box once, in row-major \
                     order), found {found:?}",
                    self.seen + 1,
                    self.expected
                )));
            }
            self.seen += 1;
            for d in (0..dims).rev() {
                self.expected[d] += 1;
                if self.expected[d] <= self.max[d] || d == 0 {
                    break;
                }
                self.expected[d] = self.min[d];
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
