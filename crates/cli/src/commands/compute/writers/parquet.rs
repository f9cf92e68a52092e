//! `--format parquet`: a Parquet file (`--out FILE`), one column per axis and `g` (or `outcome`),
//! row groups of 2^20 rows, its provenance in the file's metadata.

use super::output::ProvenanceTo;
use super::output::{Finished, Streaming};
use crate::signals::StopOnSignal;
use anyhow::Result;
use grundy_compute::bands::{NoCuts, SoloLink};
use grundy_parquet::ParquetError;

/// A finished table.
pub(super) fn table(out: Finished<'_>) -> Result<()> {
    let run = out.run;
    let provenance = (run.provenance == ProvenanceTo::Metadata).then(|| out.record());
    let table = out.answered.table();
    out.destination.write_file_with(|file| {
        let file = std::io::BufWriter::with_capacity(1 << 16, StopOnSignal(file));
        grundy_parquet::write_parquet(table, run.cells, provenance, file)
            .map_err(ParquetError::into_io)
    })
}

/// Streamed rows, row group by row group: the value column's type comes before the first row,
/// the widest the values may need.
pub(super) fn rows(out: Streaming<'_>) -> Result<()> {
    let (run, fill) = (out.run, out.fill);
    let shape = &run.shape;
    let lens = shape.lens();
    let width = fill.planned_width();
    let provenance = (run.provenance == ProvenanceTo::Metadata).then(|| out.record());
    out.destination.write_file_with(|file| {
        let file = std::io::BufWriter::with_capacity(1 << 16, StopOnSignal(file));
        let mut rows = grundy_parquet::ParquetRows::new(
            shape.axes(),
            &lens,
            run.cells,
            width,
            provenance,
            file,
        )
        .map_err(ParquetError::into_io)?;
        let mut sink = |row: &[u32]| rows.write_row(row).map_err(ParquetError::into_io);
        fill.run(&SoloLink, None, out.bar, &mut sink, &mut NoCuts)?;
        rows.finish().map_err(ParquetError::into_io)
    })
}
