//! `--format grid` and `--format long`: CSV, with the provenance as `#` comment lines when asked.

use super::output::ProvenanceTo;
use super::output::{layout, Finished, Genera, Labelled, Streaming};
use crate::provenance;
use crate::signals::StopOnSignal;
use anyhow::Result;
use grundy_compute::bands::{NoCuts, SoloLink};
use grundy_compute::misere::HeapGenus;
use grundy_core::table::CsvRows;
use grundy_core::{write_csv, write_table_csv, CellKind, ValuesDigest};

/// A finished table, between its provenance's header and checksum lines when asked.
pub(super) fn table(out: Finished<'_>) -> Result<()> {
    let run = out.run;
    let comments = run.provenance == ProvenanceTo::CsvComments;
    let record = comments.then(|| out.record());
    let table = out.answered.table();
    out.destination.write_with(|file| {
        let mut file = StopOnSignal(file);
        if let Some(record) = &record {
            provenance::write_csv_header(&mut file, record)?;
        }
        write_csv(table, layout(run), run.cells, &mut file)?;
        if comments {
            let sum = ValuesDigest::of_table(table, run.cells);
            provenance::write_csv_checksum(&mut file, &sum)?;
        }
        Ok(())
    })
}

/// Streamed rows, each written as it is final; the checksum line fed as they pass.
pub(super) fn rows(out: Streaming<'_>) -> Result<()> {
    let (run, fill) = (out.run, out.fill);
    let shape = &run.shape;
    let lens = shape.lens();
    let comments = run.provenance == ProvenanceTo::CsvComments;
    let record = comments.then(|| out.record());
    out.destination.write_with(|file| {
        if let Some(record) = &record {
            provenance::write_csv_header(file, record)?;
        }
        let mut digest = ValuesDigest::new();
        let mut rows = CsvRows::new(shape.axes(), &lens, layout(run), run.cells, &mut *file)?;
        let mut sink = |row: &[u32]| {
            if comments {
                digest.feed(row.iter().copied(), run.cells);
            }
            rows.write_row(row)
        };
        fill.run(&SoloLink, None, out.bar, &mut sink, &mut NoCuts)?;
        rows.finish()?;
        if comments {
            provenance::write_csv_checksum(file, &digest.finish())?;
        }
        Ok(())
    })
}

/// A loopy game's labels: `inf` for ∞ (with K in the long layout's `k` column).
pub(super) fn labels(out: Labelled<'_>) -> Result<()> {
    let (run, table) = (out.run, out.table);
    out.destination
        .write_with(|file| write_table_csv(table, layout(run), run.cells, &mut StopOnSignal(file)))
}

/// `n,misere,genus,tameness` (or `n,outcome,…` with `--outcome`), one heap a line, in either
/// layout.
pub(super) fn genera(out: Genera<'_>) -> Result<()> {
    let (run, rows) = (out.run, out.rows);
    out.destination.write_with(|file| {
        let mut csv = csv::Writer::from_writer(StopOnSignal(file));
        let value = if run.cells == CellKind::Outcomes { "outcome" } else { "misere" };
        let axis = run.game.axes()[0].name.as_str();
        csv.write_record([axis, value, "genus", "tameness"])?;
        for row in rows {
            let misere = row.genus.misere[0];
            let value = match run.cells {
                CellKind::Outcomes if misere == 0 => "P".to_string(),
                CellKind::Outcomes => "N".to_string(),
                _ => misere.to_string(),
            };
            csv.write_record([
                row.heap.to_string(),
                value,
                row.genus.to_string(),
                tameness(row).into(),
            ])?;
        }
        csv.flush()
    })
}

fn tameness(row: &HeapGenus) -> &'static str {
    grundy_compute::misere::tameness(&row.standing)
}

/// Rank 0's rows, written as they arrive from the ranks.
#[cfg(feature = "mpi")]
pub(super) fn ranks(out: super::output::Ranked<'_>) -> Result<std::process::ExitCode> {
    let (run, fill) = (out.run, out.fill);
    let shape = &run.shape;
    let lens = shape.lens();
    out.destination.write_with(|file| {
        let mut rows = CsvRows::new(shape.axes(), &lens, layout(run), run.cells, file)?;
        fill.run(out.link, None, out.bar, &mut |row| rows.write_row(row), &mut NoCuts)?;
        rows.finish()
    })?;
    Ok(std::process::ExitCode::SUCCESS)
}
