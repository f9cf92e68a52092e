//! `grundy compute`: a game's table written as CSV, numpy, an OEIS b-file or a JSON summary.
//! The fill is the library's (`grundy_compute::FillRequest`); this module owns the files, the
//! formats, the checkpoints' paths, the progress bar and the signals.

mod config;
#[cfg(feature = "mpi")]
mod distributed;
mod loopy;
mod misere;
mod saves;
mod summary;
mod writers;

use crate::checkpoint::Checkpoint;
use crate::output::write_json_line;
use crate::output::{Destination, Special};
use crate::progress::Bar;
use crate::provenance;
use crate::signals::{self, StopOnSignal};
use anyhow::{bail, Context, Result};
pub(crate) use config::{Args, Format};
use config::{Config, ProvenanceTo};
use grundy_compute::bands::{BandFill, NoCuts, SoloLink};
use grundy_compute::memory::Besides;
use grundy_compute::Runtime;
use grundy_compute::{Control, PreparedFill, RowStream, SparseRecords, TableFill, WaveMark};
use grundy_core::table::CsvRows;
use grundy_core::{write_bfile, write_csv, write_npy, GrundyTable, TableStats, ValuesDigest};
use grundy_laws::answered::{Answered, PeriodWatch};
use grundy_parquet::ParquetError;
use rayon::prelude::*;
use saves::{resumed, Saves};
use std::convert::Infallible;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use summary::{RowSums, Summary};
use writers::{Holding, RowWriter, TableWriter};

pub(crate) fn run(args: Args, runtime: &Runtime) -> Result<ExitCode> {
    // In an MPI job of two ranks or more, the ranks share the table (2-D games).
    #[cfg(feature = "mpi")]
    if let Some(cluster) = grundy_mpi::Cluster::join() {
        return match Config::from_args(args, runtime, Some(cluster.size())) {
            Ok(config) => distributed::run(config, &cluster),
            // Every rank found the same error: rank 0 says it.
            Err(err) if cluster.rank() == 0 => Err(err),
            Err(_) => Ok(ExitCode::from(crate::errors::EXIT_ERROR)),
        };
    }
    let config = Config::from_args(args, runtime, None)?;
    run_here(&config)
}

/// The run in this process. Its parallel work runs on the command's one pool: the fill installs
/// it, and so do the sums of a summary and the bands of a stream; the rest (files, checkpoints,
/// the output) stays on the main thread.
fn run_here(config: &Config) -> Result<ExitCode> {
    let fill = config.request().prepare().map_err(|err| config.refusal(err))?;
    let genera = config.holding == Holding::Genera;
    // Parquet seeks nowhere, but its writer needs a file of its own to send to.
    let special =
        if config.format == Format::Parquet { Special::Refuse } else { Special::WriteThrough };
    let watch_bytes = match &fill {
        PreparedFill::Table(fill) if !config.search_all && !genera => {
            PeriodWatch::bytes(&config.game, fill)
        }
        _ => 0,
    };
    let destination = Destination::open(config.out.as_deref(), config.overwrite, special)?;
    let besides = Besides::held(grundy_laws::answered::WATCH, watch_bytes);
    if let Err(too_large) = fill.check_memory(config.runtime.memory(), &besides) {
        // Refused before anything is allocated; say when --stream would do it.
        let table = matches!(fill, PreparedFill::Table(_)) && !genera;
        if table && config.request().streamed_would_fit() {
            bail!("{too_large:#}; --stream computes it row by row in little memory");
        }
        return Err(too_large.into());
    }
    match fill {
        PreparedFill::Table(fill) if genera => misere::heaps(config, &fill, destination),
        PreparedFill::Table(fill) => in_memory(config, &fill, destination),
        PreparedFill::Rows(stream) => stream_checkpointed(config, &stream, destination),
        PreparedFill::Bands { fill, .. } => {
            config.runtime.install(|| streamed(config, &fill, destination))
        }
        PreparedFill::Retrograde(fill) => loopy::run(config, &fill, destination),
    }
}

/// The whole table in memory, from and to the checkpoint when there is one, then written.
fn in_memory(config: &Config, fill: &TableFill<'_>, destination: Destination) -> Result<ExitCode> {
    let start = Instant::now();
    let checkpoint = config.open_checkpoint()?;
    let bar = Bar::new(config.shape.cells() as u64, config.quiet);
    // Heap games whose period a theorem proves stop searching there (unless --search-all).
    let mut watch = config.period_watch(fill);
    let (table, mark) = match (&checkpoint, &mut watch) {
        (None, None) => (fill.fill(&bar).context("cannot compute the table")?, None),
        (None, Some(watch)) => {
            let (table, mark) = fill
                .fill_resumable(None, &bar, &mut |table, mark| watch.after_wave(table, mark))
                .context("cannot compute the table")?;
            (table, Some(mark))
        }
        (Some((checkpoint, every)), watch) => {
            match fill_checkpointed(config, fill, checkpoint, *every, watch.as_mut(), &bar)? {
                Some((table, mark)) => (table, Some(mark)),
                None => return Ok(ExitCode::from(signals::EXIT_INTERRUPTED)),
            }
        }
    };
    bar.finish();
    let seconds = start.elapsed().as_secs_f64();
    let mut answered = match (watch, mark) {
        (Some(watch), Some(mark)) => watch.finish(table, mark),
        _ => Answered::searched(table),
    };
    if let (Some(by_period), false) = (answered.by_period(), config.quiet) {
        eprintln!(
            "heaps from {} on: from the period {} (preperiod {}) that a theorem proved on the \
             heaps before (--search-all searches them)",
            by_period.from, by_period.period, by_period.preperiod
        );
    }
    // With a checkpoint, signals are still deferred: one that comes while the table is written
    // stops the write ([`signals::StopOnSignal`]), and the table is saved below.
    let engine = match answered.by_period() {
        Some(by) => format!(
            "{}, heaps from {} on from the period {} (preperiod {}) a theorem proved",
            fill.engine(),
            by.from,
            by.period,
            by.preperiod
        ),
        None => fill.engine().to_string(),
    };
    let written = write_table(config, &mut answered, seconds, &engine, destination);
    match (&checkpoint, mark) {
        (Some((checkpoint, _)), Some(mark)) => saves::after_write(
            checkpoint,
            written,
            || checkpoint.save(answered.table(), mark),
            || checkpoint.say_saved(mark.done, mark.total, "tile-wave"),
        ),
        _ => written.map(|()| ExitCode::SUCCESS),
    }
}

/// Writes the finished table to `destination` in the format `config` asks for: a summary
/// from the proved period when one answered the table, every other format from the table, with
/// its provenance (computed by `engine`) where `config` sends it.
fn write_table(
    config: &Config,
    answered: &mut Answered,
    seconds: f64,
    engine: &str,
    destination: Destination,
) -> Result<()> {
    let writer = config.writer(|row| row.table)?;
    let record = || provenance::record(&config.game, &config.max, config.cells, engine);
    match writer {
        TableWriter::Summary => write_summary(config, answered, seconds, destination),
        TableWriter::Csv(layout) => {
            let table = answered.table();
            let comments = config.provenance == ProvenanceTo::CsvComments;
            destination.write_with(|out| {
                let mut out = StopOnSignal(out);
                if comments {
                    provenance::write_csv_header(&mut out, &record())?;
                }
                write_csv(table, layout, config.cells, &mut out)?;
                if comments {
                    let sum = ValuesDigest::of_table(table, config.cells);
                    provenance::write_csv_checksum(&mut out, &sum)?;
                }
                Ok(())
            })
        }
        TableWriter::Npy => {
            let table = answered.table();
            destination.write_with(|out| {
                // A stopped write stays the io::Error that says so.
                write_npy(table, &mut StopOnSignal(out)).map_err(grundy_core::NpyError::into_io)
            })?;
            write_sidecar(config, table, record)
        }
        TableWriter::Bfile => {
            let table = answered.table();
            destination.write_with(|out| write_bfile(table, &mut StopOnSignal(out)))?;
            write_sidecar(config, table, record)
        }
        TableWriter::Parquet => {
            let table = answered.table();
            let provenance = (config.provenance == ProvenanceTo::Metadata).then(record);
            destination.write_file_with(|file| {
                let out = std::io::BufWriter::with_capacity(1 << 16, StopOnSignal(file));
                grundy_parquet::write_parquet(table, config.cells, provenance, out)
                    .map_err(ParquetError::into_io)
            })
        }
        TableWriter::Rare => {
            let table = answered.table();
            let records = grundy_compute::sparse_records(&config.game, &config.shape, table)
                .with_context(|| {
                    format!("--format rare: {} has no rare heaps", config.game.name())
                })?;
            destination.write_with(|out| write_rare(table, records, &mut StopOnSignal(out)))
        }
    }
}

/// `--format summary` of a finished table: its sums (from the proved period when one answered
/// the table), its records and the period.
fn write_summary(
    config: &Config,
    answered: &mut Answered,
    seconds: f64,
    destination: Destination,
) -> Result<()> {
    let stats = answered.stats(|table| {
        // The sums in parallel, on the command's pool: a single pass over a large table
        // costs as much as filling a simple game's table.
        config.runtime.install(|| {
            grundy_core::with_cells!(table.cells(), |values| values
                .par_chunks(1 << 20)
                .map(TableStats::of)
                .reduce(|| TableStats::EMPTY, TableStats::merge))
        })
    });
    let mut summary = Summary::new(&config.game, &config.max, stats, seconds);
    summary.sequence = answered.records(&config.game);
    summary.by_period = answered.by_period();
    destination.write_with(|out| write_json_line(&mut StopOnSignal(out), &summary))
}

/// The provenance of `table` (made by `record`, its checksum added) as FILE.json beside the
/// output file, when `config` sends it there. Written after the table: a run stopped between the
/// two leaves a table without its sidecar, never a sidecar without its table.
fn write_sidecar(
    config: &Config,
    table: &GrundyTable,
    record: impl FnOnce() -> grundy_core::Provenance,
) -> Result<()> {
    let (ProvenanceTo::Sidecar, Some(out)) = (config.provenance, config.out.as_deref()) else {
        return Ok(());
    };
    // A device or FIFO written through (`--out /dev/null`) has no place beside it.
    if !std::fs::metadata(out).is_ok_and(|meta| meta.is_file()) {
        return Ok(());
    }
    let mut record = record();
    record.values_sha256 = ValuesDigest::of_table(table, config.cells);
    let json = record.to_json_pretty();
    let sidecar = provenance::sidecar_path(out);
    // No link followed: checked when the run started, and again now.
    crate::derived::exists(&sidecar)?;
    Destination::open(Some(&sidecar), config.overwrite, Special::Refuse)?
        .write_with(|out| writeln!(out, "{json}"))
}

/// `--format rare`: `heap,value` for each rare heap of a heap game's table, in heap order.
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

/// `compute --checkpoint`: fills resumably, from the checkpoint if there is one, saving every
/// `--checkpoint-every` seconds and when interrupted. Returns `None` when a signal stopped the
/// run (after saving and saying so).
fn fill_checkpointed(
    config: &Config,
    fill: &TableFill<'_>,
    checkpoint: &Checkpoint,
    every: Duration,
    mut watch: Option<&mut PeriodWatch<'_>>,
    bar: &Bar,
) -> Result<Option<(GrundyTable, WaveMark)>> {
    // From here on a signal stops the run cleanly: while the checkpoint is read, before any
    // tile-wave (nothing to save, the checkpoint is as it was), then at the next tile-wave.
    signals::defer();
    let start = checkpoint.load(&config.shape, &fill.plan().start())?;
    if signals::interrupted() {
        checkpoint.say_unchanged("tile-wave");
        return Ok(None);
    }
    if let Some((_, mark)) = &start {
        if !config.quiet {
            checkpoint.say_resuming(mark.done, mark.total, "tile-wave");
        }
    }
    let mut saves = Saves::every(every);
    let (table, mark) = fill
        .fill_resumable(start, bar, &mut |table, mark| {
            let proved = watch.as_mut().map(|watch| watch.after_wave(table, mark));
            match proved {
                Some(Control::Stop) => Control::Stop,
                _ => saves.after_wave(|| checkpoint.save(table, mark)),
            }
        })
        .context("cannot compute the table")?;
    bar.finish();
    saves.saved?;
    if saves.stopped {
        checkpoint.say_saved(mark.done, mark.total, "tile-wave");
        return Ok(None);
    }
    if signals::interrupted() {
        // It came after the last save: keep the finished table for the next run.
        checkpoint.save(&table, mark)?;
        checkpoint.say_saved(mark.done, mark.total, "tile-wave");
        return Ok(None);
    }
    // Signals stay deferred while the table is written (see `in_memory`).
    Ok(Some((table, mark)))
}

/// `compute --stream` in one run, inside the command's threads: bands of tile rows (one rank,
/// nothing sent anywhere), each row written (or summed up) as soon as it is final; for a
/// summary, a symmetric table mirrored, each row coming as its lower half.
fn streamed(config: &Config, fill: &BandFill, destination: Destination) -> Result<ExitCode> {
    let (game, shape, max) = (&config.game, &config.shape, &config.max);
    let bar = Bar::new(shape.cells() as u64, config.quiet);
    let start = Instant::now();
    // What a streamed table's provenance names as its engine.
    let engine = format!("{} (streamed)", grundy_compute::Engine::Tiles);
    match config.writer(|row| row.rows)? {
        RowWriter::Summary => {
            let lower_half = fill.lower_rows();
            let mut sums = RowSums::new(TableStats::EMPTY);
            let mut sink = |row: &[u32]| {
                sums.add(row, lower_half);
                Ok::<(), Infallible>(())
            };
            let done = fill.run(&SoloLink, None, &bar, &mut sink, &mut NoCuts);
            done.unwrap_or_else(|never| match never {});
            let summary = Summary::new(game, max, sums.stats, start.elapsed().as_secs_f64());
            destination.write_with(|out| write_json_line(out, &summary))?
        }
        RowWriter::Parquet => {
            let lens = shape.lens();
            // The value column's type comes before the first row: the widest the values may need.
            let width = fill.planned_width();
            let provenance = (config.provenance == ProvenanceTo::Metadata)
                .then(|| provenance::record(game, max, config.cells, &engine));
            destination.write_file_with(|file| {
                let out = std::io::BufWriter::with_capacity(1 << 16, StopOnSignal(file));
                let mut rows = grundy_parquet::ParquetRows::new(
                    shape.axes(),
                    &lens,
                    config.cells,
                    width,
                    provenance,
                    out,
                )
                .map_err(ParquetError::into_io)?;
                let mut sink = |row: &[u32]| rows.write_row(row).map_err(ParquetError::into_io);
                fill.run(&SoloLink, None, &bar, &mut sink, &mut NoCuts)?;
                rows.finish().map_err(ParquetError::into_io)
            })?
        }
        RowWriter::Csv(layout) => {
            let lens = shape.lens();
            let comments = config.provenance == ProvenanceTo::CsvComments;
            destination.write_with(|out| {
                if comments {
                    let record = provenance::record(game, max, config.cells, &engine);
                    provenance::write_csv_header(out, &record)?;
                }
                let mut digest = ValuesDigest::new();
                let mut rows = CsvRows::new(shape.axes(), &lens, layout, config.cells, &mut *out)?;
                let mut sink = |row: &[u32]| {
                    if comments {
                        digest.feed(row.iter().copied(), config.cells);
                    }
                    rows.write_row(row)
                };
                fill.run(&SoloLink, None, &bar, &mut sink, &mut NoCuts)?;
                rows.finish()?;
                if comments {
                    provenance::write_csv_checksum(out, &digest.finish())?;
                }
                Ok(())
            })?
        }
    }
    bar.finish();
    Ok(ExitCode::SUCCESS)
}

/// `compute --stream --checkpoint --format summary`: streams from the checkpoint if there is
/// one, saving the ring and the sums every `--checkpoint-every` and when interrupted, then
/// writes the summary.
fn stream_checkpointed(
    config: &Config,
    stream: &RowStream,
    destination: Destination,
) -> Result<ExitCode> {
    let (game, max) = (&config.game, &config.max);
    let Some((checkpoint, every)) = config.open_checkpoint()? else {
        bail!("--stream --checkpoint: no checkpoint to resume the rows from");
    };
    let bar = Bar::new(config.shape.cells() as u64, config.quiet);
    let start = Instant::now();
    signals::defer();
    let loaded = checkpoint.load_stream(stream)?;
    if signals::interrupted() {
        checkpoint.say_unchanged("row");
        return Ok(ExitCode::from(signals::EXIT_INTERRUPTED));
    }
    let (ring, sums) = match resumed(config, stream, &checkpoint, loaded)? {
        Some((ring, sums)) => (Some(ring), sums),
        None => (None, RowSums::new(TableStats::EMPTY)),
    };
    let sums = std::cell::Cell::new(sums);
    let mut saves = Saves::every(every);
    let (_, mark) = stream
        .run_resumable(
            ring,
            &bar,
            |row| {
                let mut more = sums.get();
                more.add(row, false);
                sums.set(more);
                Ok::<(), Infallible>(())
            },
            &mut |ring, _| {
                saves.after_wave(|| checkpoint.save_stream(ring, &sums.get().to_bytes()))
            },
        )
        .unwrap_or_else(|never| match never {});
    saves.saved?;
    bar.finish();
    if saves.stopped {
        checkpoint.say_saved(mark.done, mark.total, "row");
        return Ok(ExitCode::from(signals::EXIT_INTERRUPTED));
    }
    let summary = Summary::new(game, max, sums.get().stats, start.elapsed().as_secs_f64());
    destination.write_with(|out| write_json_line(out, &summary))?;
    checkpoint.remove()?;
    Ok(ExitCode::SUCCESS)
}
