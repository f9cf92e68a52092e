//! What each way of holding the cells hands its writer: the run's configuration, the cells, and
//! the destination. A writer of the table in `writers.rs` takes one of these and writes it.

use super::Format;
use crate::output::Overwrite;
use crate::output::{Destination, Special};
use crate::progress::Bar;
use crate::provenance;
use anyhow::Result;
use grundy_compute::bands::BandFill;
use grundy_compute::misere::HeapGenus;
use grundy_compute::Runtime;
use grundy_core::{CellKind, Game, TableShape};
use grundy_core::{CsvLayout, GrundyTable, Provenance, Table, ValuesDigest};
use grundy_laws::answered::Answered;
use std::path::PathBuf;
use std::time::Instant;

/// What a writer knows of the run: the game and its size, the format and what the cells say,
/// where the output and the provenance go, and the command's runtime.
pub(in crate::commands::compute) struct Run {
    pub(in crate::commands::compute) game: Game,
    /// The largest coordinates, as `--size` gave them.
    pub(in crate::commands::compute) max: Vec<i64>,
    pub(in crate::commands::compute) shape: TableShape,
    pub(in crate::commands::compute) format: Format,
    /// What the cells say: values, or P/N (`--outcome`).
    pub(in crate::commands::compute) cells: CellKind,
    /// The command's threads and memory: every fill and sum of it runs on them.
    pub(in crate::commands::compute) runtime: Runtime,
    pub(in crate::commands::compute) quiet: bool,
    pub(in crate::commands::compute) out: Option<PathBuf>,
    pub(in crate::commands::compute) overwrite: Overwrite,
    /// Where the table's provenance goes.
    pub(in crate::commands::compute) provenance: ProvenanceTo,
}

/// Where a `compute` run writes the table's provenance (see `crate::provenance`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::commands::compute) enum ProvenanceTo {
    /// Nowhere.
    Nowhere,
    /// `#` lines around the CSV.
    CsvComments,
    /// FILE.json beside the output file.
    Sidecar,
    /// The Parquet file's key-value metadata.
    Metadata,
}

/// A finished table of values in memory, answered from a proved period where one holds.
pub(in crate::commands::compute) struct Finished<'a> {
    pub(in crate::commands::compute) run: &'a Run,
    pub(in crate::commands::compute) answered: &'a mut Answered,
    pub(in crate::commands::compute) seconds: f64,
    /// The engine, as the provenance names it.
    pub(in crate::commands::compute) engine: &'a str,
    pub(in crate::commands::compute) destination: Destination,
}

impl Finished<'_> {
    /// The table's provenance.
    pub(super) fn record(&self) -> Provenance {
        let run = self.run;
        provenance::record(&run.game, &run.max, run.cells, self.engine)
    }
}

/// Rows streamed in this process, band by band: the writer runs the fill, each row written as
/// soon as it is final.
pub(in crate::commands::compute) struct Streaming<'a> {
    pub(in crate::commands::compute) run: &'a Run,
    pub(in crate::commands::compute) fill: &'a BandFill,
    pub(in crate::commands::compute) bar: &'a Bar,
    pub(in crate::commands::compute) start: Instant,
    pub(in crate::commands::compute) destination: Destination,
}

impl Streaming<'_> {
    /// The table's provenance, the engine named as streamed.
    pub(super) fn record(&self) -> Provenance {
        let run = self.run;
        let engine = format!("{} (streamed)", grundy_compute::Engine::Tiles);
        provenance::record(&run.game, &run.max, run.cells, &engine)
    }
}

/// A loopy game's labelled table.
pub(in crate::commands::compute) struct Labelled<'a> {
    pub(in crate::commands::compute) run: &'a Run,
    pub(in crate::commands::compute) table: &'a Table,
    /// The game graph's moves.
    pub(in crate::commands::compute) moves: u64,
    /// When no play can go round: the weighted sum every move lowers.
    pub(in crate::commands::compute) acyclic: Option<String>,
    pub(in crate::commands::compute) seconds: f64,
    pub(in crate::commands::compute) destination: Destination,
}

/// A misère heap game's values with every heap's genus and tameness.
pub(in crate::commands::compute) struct Genera<'a> {
    pub(in crate::commands::compute) run: &'a Run,
    pub(in crate::commands::compute) table: &'a GrundyTable,
    pub(in crate::commands::compute) rows: &'a [HeapGenus],
    pub(in crate::commands::compute) seconds: f64,
    pub(in crate::commands::compute) destination: Destination,
}

/// Rows from the ranks of an MPI job, written by rank 0: the writer runs rank 0's part.
#[cfg(feature = "mpi")]
pub(in crate::commands::compute) struct Ranked<'a> {
    pub(in crate::commands::compute) run: &'a Run,
    pub(in crate::commands::compute) fill: &'a BandFill,
    /// The stream whose rings a checkpoint holds, when there is one.
    pub(in crate::commands::compute) rows: Option<&'a grundy_compute::RowStream>,
    pub(in crate::commands::compute) link: &'a grundy_mpi::MpiLink,
    pub(in crate::commands::compute) checkpoint:
        Option<(crate::checkpoint::Checkpoint, std::time::Duration)>,
    pub(in crate::commands::compute) bar: &'a Bar,
    pub(in crate::commands::compute) start: Instant,
    pub(in crate::commands::compute) destination: Destination,
}

/// The CSV layout `--format` names (grid or long).
pub(super) fn layout(run: &Run) -> CsvLayout {
    if run.format == Format::Grid {
        CsvLayout::Grid
    } else {
        CsvLayout::Long
    }
}

/// The provenance of `table` (made by `record`, its checksum added) as FILE.json beside the
/// output file, when `run` sends it there. Written after the table: a run stopped between the
/// two leaves a table without its sidecar, never a sidecar without its table.
pub(super) fn write_sidecar(
    run: &Run,
    table: &GrundyTable,
    record: impl FnOnce() -> Provenance,
) -> Result<()> {
    let (ProvenanceTo::Sidecar, Some(out)) = (run.provenance, run.out.as_deref()) else {
        return Ok(());
    };
    // A device or FIFO written through (`--out /dev/null`) has no place beside it.
    if !std::fs::metadata(out).is_ok_and(|meta| meta.is_file()) {
        return Ok(());
    }
    let mut record = record();
    record.values_sha256 = ValuesDigest::of_table(table, run.cells);
    let json = record.to_json_pretty();
    let sidecar = provenance::sidecar_path(out);
    // No link followed: checked when the run started, and again now.
    crate::derived::exists(&sidecar)?;
    Destination::open(Some(&sidecar), run.overwrite, Special::Refuse)?
        .write_with(|out| writeln!(out, "{json}"))
}
