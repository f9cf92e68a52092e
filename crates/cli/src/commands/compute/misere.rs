//! `compute --misere` of a heap game: every heap's misère value, genus and tameness, from the
//! library's exact search over sums (`grundy_patterns::misere`), in the command's formats.

use super::config::{Config, Format, Mode};
use super::summary::Summary;
use crate::output::{write_json_line, Destination};
use crate::progress::Bar;
use crate::signals::StopOnSignal;
use anyhow::{bail, Result};
use grundy_compute::Engine;
use grundy_core::{write_bfile, write_npy, CellKind, GrundyTable, Nimber, TableStats};
use grundy_patterns::misere::{genus_table, GeneraCount, HeapGenus, SearchLimits};
use std::process::ExitCode;
use std::time::Instant;

/// Whether a run computes a heap game's genera rather than filling a table: under misère play
/// every heap game's output has the genus and tameness columns, which only the search gives
/// (boards under misère play are the engines' tables).
pub(super) fn takes_the_search(config: &Config) -> bool {
    // A loopy heap game is the library's to refuse (its misère play is not computed).
    config.game.play() == grundy_core::Play::Misere
        && config.game.dims() == 1
        && !config.game.is_loopy()
}

pub(super) fn heaps(config: &Config, destination: Destination) -> Result<ExitCode> {
    if config.mode.checkpoint().is_some() {
        bail!(
            "--checkpoint: a misère heap game is computed by the exact search over sums, which has \
             no waves to save; run it without --checkpoint"
        );
    }
    if matches!(config.mode, Mode::Streamed { .. }) {
        bail!("--stream applies to boards; a misère heap game is computed by the exact search");
    }
    if config.engine != Engine::Auto {
        bail!(
            "--engine {}: a misère heap game is computed by the exact search over sums (values, \
             genus and tameness); leave --engine out",
            config.engine
        );
    }
    let start = Instant::now();
    let limits = SearchLimits::available(config.search_seconds);
    let heaps = (config.max[0] - config.game.axes()[0].min + 1).max(0) as u64;
    let bar = Bar::counting(heaps, config.quiet, "heaps");
    let rows = genus_table(&config.game, config.max[0], &limits, &bar)?;
    bar.finish();
    let seconds = start.elapsed().as_secs_f64();
    let values: Vec<Nimber> = rows.iter().map(|row| Nimber(row.genus.misere[0])).collect();
    let table = GrundyTable::from_nimbers(config.shape.clone(), &values);
    match config.format {
        Format::Grid | Format::Long => {
            destination.write_with(|out| write_rows(config, &rows, &mut StopOnSignal(out)))?
        }
        Format::Npy => destination.write_with(|out| {
            write_npy(&table, &mut StopOnSignal(out)).map_err(grundy_core::NpyError::into_io)
        })?,
        Format::Bfile => {
            destination.write_with(|out| write_bfile(&table, &mut StopOnSignal(out)))?
        }
        Format::Rare | Format::Parquet => unreachable!("refused with --misere on a heap game"),
        Format::Summary => {
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
    grundy_patterns::misere::tameness(&row.standing)
}
