//! `--format npy`: a numpy array in the cells' own integer type, its provenance beside it as
//! FILE.json.

use super::output::{write_sidecar, Finished, Genera, Labelled};
use crate::signals::StopOnSignal;
use anyhow::Result;
use grundy_core::{write_npy, NpyError};

/// A finished table, then its sidecar.
pub(super) fn table(out: Finished<'_>) -> Result<()> {
    let record = out.record();
    let (run, table) = (out.run, out.answered.table());
    out.destination.write_with(|file| {
        // A stopped write stays the io::Error that says so.
        write_npy(table, &mut StopOnSignal(file)).map_err(NpyError::into_io)
    })?;
    write_sidecar(run, table, || record)
}

/// A loopy game's labels: ∞ as 4294967295, the largest uint32.
pub(super) fn labels(out: Labelled<'_>) -> Result<()> {
    let table = out.table;
    out.destination.write_with(|file| {
        write_npy(table.data(), &mut StopOnSignal(file)).map_err(NpyError::into_io)
    })
}

/// A misère heap game's values.
pub(super) fn genera(out: Genera<'_>) -> Result<()> {
    let table = out.table;
    out.destination
        .write_with(|file| write_npy(table, &mut StopOnSignal(file)).map_err(NpyError::into_io))
}

/// Rank 0's rows: the cells' type is the narrowest that holds the largest value, known only at
/// the end, so the rows wait in an unnamed file (4 bytes a cell, beside the output).
#[cfg(feature = "mpi")]
pub(super) fn ranks(out: super::output::Ranked<'_>) -> Result<std::process::ExitCode> {
    use anyhow::Context;
    use grundy_compute::bands::NoCuts;
    use grundy_core::{write_npy_header, CellWidth};
    use std::io::{BufReader, BufWriter, Read, Seek, Write};
    let (run, fill) = (out.run, out.fill);
    let shape = &run.shape;
    let lens = shape.lens();
    let spool = match run.out.as_deref().and_then(|out| out.parent()) {
        Some(dir) if !dir.as_os_str().is_empty() => tempfile::tempfile_in(dir),
        _ => tempfile::tempfile(),
    }
    .context("cannot create the file that holds the rows until the end")?;
    let mut spooled = BufWriter::with_capacity(1 << 16, spool);
    let mut max = 0;
    let mut sink = |row: &[u32]| {
        max = row.iter().copied().fold(max, u32::max);
        row.iter().try_for_each(|v| spooled.write_all(&v.to_le_bytes()))
    };
    fill.run(out.link, None, out.bar, &mut sink, &mut NoCuts)
        .context("cannot hold the rows until the end")?;
    let mut spool = spooled.into_inner().map_err(|e| e.into_error())?;
    spool.rewind()?;
    let width = CellWidth::for_max(max.into());
    out.destination.write_with(|file| {
        write_npy_header(&mut *file, width, &lens)?;
        let mut cells = BufReader::with_capacity(1 << 16, spool);
        let mut cell = [0u8; 4];
        for _ in 0..shape.cells() {
            cells.read_exact(&mut cell)?;
            file.write_all(&cell[..width.bytes()])?;
        }
        Ok(())
    })?;
    Ok(std::process::ExitCode::SUCCESS)
}
