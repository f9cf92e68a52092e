//! `compute --misere` of a heap game: every heap's misère value, genus and tameness, from the
//! library's fill and exact search over sums (`grundy_compute::misere`), in the command's
//! formats.

use super::config::Config;
use super::summary::Summary;
use super::writers::GeneraWriter;
use crate::output::{write_json_line, Destination};
use crate::progress::Bar;
use crate::signals::StopOnSignal;
use anyhow::{Context, Result};
use grundy_compute::misere::{GeneraCount, HeapGenus, SearchLimits};
use grundy_compute::TableFill;
use grundy_core::{write_bfile, write_npy, CellKind, TableStats};
use std::process::ExitCode;
use std::time::Instant;

/// Every heap's value (from the library's fill: the exact search when the moves leave sums),
/// genus and tameness, written in the run's format.
pub(super) fn heaps(
    config: &Config,
    fill: &TableFill<'_>,
    destination: Destination,
) -> Result<ExitCode> {
    let start = Instant::now();
    let limits = SearchLimits::within(config.runtime.memory(), config.search_seconds);
    let heaps = (config.max[0] - config.game.axes()[0].min + 1).max(0) as u64;
    let bar = Bar::counting(heaps, config.quiet, "heaps");
    let (table, rows) = fill.fill_genera(&limits, &bar).context("cannot compute the table")?;
    bar.finish();
    let seconds = start.elapsed().as_secs_f64();
    match config.writer(|row| row.genera)? {
        GeneraWriter::Csv => {
            destination.write_with(|out| write_rows(config, &rows, &mut StopOnSignal(out)))?
        }
        GeneraWriter::Npy => destination.write_with(|out| {
            write_npy(&table, &mut StopOnSignal(out)).map_err(grundy_core::NpyError::into_io)
        })?,
        GeneraWriter::Bfile => {
            destination.write_with(|out| write_bfile(&table, &mut StopOnSignal(out)))?
        }
        GeneraWriter::Summary => {
            let stats = grundy_core::with_cells!(table.cells(), |cells| TableStats::of(cells));
            let mut summary = Summary::new(&config.game, &config.max, stats, seconds);
            summary.genera = Some(GeneraCount::of(&rows));
            destination.write_with(|out| write_json_line(&mut StopOnSignal(out), &summary))?
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `n,misere,genus,tameness` (or `n,outcome,…` with `--outcome`), one heap a line.
fn write_rows(
    config: &Config,
    rows: &[HeapGenus],
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    let value = if config.cells == CellKind::Outcomes { "outcome" } else { "misere" };
    let axis = config.game.axes()[0].name.as_str();
    csv.write_record([axis, value, "genus", "tameness"])?;
    for row in rows {
        let misere = row.genus.misere[0];
        let value = match config.cells {
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
}

fn tameness(row: &HeapGenus) -> &'static str {
    grundy_compute::misere::tameness(&row.standing)
}
