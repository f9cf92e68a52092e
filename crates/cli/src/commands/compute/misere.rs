//! `compute --misere` of a heap game: every heap's misère value, genus and tameness, from the
//! library's fill and exact search over sums (`grundy_compute::misere`), in the command's
//! formats.

use super::config::Config;
use super::writers::output::Genera;
use crate::output::Destination;
use crate::progress::Bar;
use anyhow::{Context, Result};
use grundy_compute::misere::SearchLimits;
use grundy_compute::TableFill;
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
    let limits = SearchLimits::within(config.run.runtime.memory(), config.search_seconds);
    let heaps = (config.run.max[0] - config.run.game.axes()[0].min + 1).max(0) as u64;
    let bar = Bar::counting(heaps, config.run.quiet, "heaps");
    let (table, rows) = fill.fill_genera(&limits, &bar).context("cannot compute the table")?;
    bar.finish();
    let seconds = start.elapsed().as_secs_f64();
    let write = config.writer(|row| row.genera)?;
    write(Genera { run: &config.run, table: &table, rows: &rows, seconds, destination })?;
    Ok(ExitCode::SUCCESS)
}
