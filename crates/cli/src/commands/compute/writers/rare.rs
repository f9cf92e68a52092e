//! `--format rare`: CSV `heap,value` of a take-and-break game's rare heaps, in heap order.

use super::output::Finished;
use crate::signals::StopOnSignal;
use anyhow::{Context, Result};
use grundy_compute::SparseRecords;
use grundy_core::GrundyTable;

/// The rare heaps of a finished table.
pub(super) fn table(out: Finished<'_>) -> Result<()> {
    let run = out.run;
    let table = out.answered.table();
    let records = grundy_compute::sparse_records(&run.game, &run.shape, table)
        .with_context(|| format!("--format rare: {} has no rare heaps", run.game.name()))?;
    out.destination.write_with(|file| write_rare(table, records, &mut StopOnSignal(file)))
}

fn write_rare(
    table: &GrundyTable,
    records: SparseRecords,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    writeln!(out, "heap,value")?;
    grundy_core::with_cells!(table.cells(), |values| write_rare_heaps(values, records, out))?;
    out.flush()
}

/// The lines of [`write_rare`], from a table's cells.
fn write_rare_heaps<C: Copy + Into<u32>>(
    values: &[C],
    records: SparseRecords,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    for (heap, &value) in values.iter().enumerate() {
        let value: u32 = value.into();
        if records.is_rare(heap as u64, value) {
            writeln!(out, "{heap},{value}")?;
        }
    }
    Ok(())
}
