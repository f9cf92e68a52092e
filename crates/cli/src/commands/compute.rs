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
use crate::signals;
use anyhow::{bail, Context, Result};
pub(crate) use config::Args;
use config::Config;
use grundy_compute::bands::BandFill;
use grundy_compute::memory::Besides;
use grundy_compute::Runtime;
use grundy_compute::{Control, PreparedFill, RowStream, TableFill, WaveMark};
use grundy_core::{GrundyTable, TableStats};
use grundy_laws::answered::{Answered, PeriodWatch};
use saves::{resumed, Saves};
use std::convert::Infallible;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use summary::{RowSums, Summary};
use writers::output::{Finished, Streaming};
pub(crate) use writers::Format;
use writers::Holding;

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
        if config.run.format == Format::Parquet { Special::Refuse } else { Special::WriteThrough };
    let watch_bytes = match &fill {
        PreparedFill::Table(fill) if !config.search_all && !genera => {
            PeriodWatch::bytes(&config.run.game, fill)
        }
        _ => 0,
    };
    let destination = Destination::open(config.run.out.as_deref(), config.run.overwrite, special)?;
    let besides = Besides::held(grundy_laws::answered::WATCH, watch_bytes);
    if let Err(too_large) = fill.check_memory(config.run.runtime.memory(), &besides) {
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
            config.run.runtime.install(|| streamed(config, &fill, destination))
        }
        PreparedFill::Retrograde(fill) => loopy::run(config, &fill, destination),
    }
}

/// The whole table in memory, from and to the checkpoint when there is one, then written.
fn in_memory(config: &Config, fill: &TableFill<'_>, destination: Destination) -> Result<ExitCode> {
    let start = Instant::now();
    let checkpoint = config.open_checkpoint()?;
    let bar = Bar::new(config.run.shape.cells() as u64, config.run.quiet);
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
    if let (Some(by_period), false) = (answered.by_period(), config.run.quiet) {
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
    let write = config.writer(|row| row.table)?;
    let written = write(Finished {
        run: &config.run,
        answered: &mut answered,
        seconds,
        engine: &engine,
        destination,
    });
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
    let start = checkpoint.load(&config.run.shape, &fill.plan().start())?;
    if signals::interrupted() {
        checkpoint.say_unchanged("tile-wave");
        return Ok(None);
    }
    if let Some((_, mark)) = &start {
        if !config.run.quiet {
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
    let bar = Bar::new(config.run.shape.cells() as u64, config.run.quiet);
    let write = config.writer(|row| row.rows)?;
    write(Streaming { run: &config.run, fill, bar: &bar, start: Instant::now(), destination })?;
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
    let (game, max) = (&config.run.game, &config.run.max);
    let Some((checkpoint, every)) = config.open_checkpoint()? else {
        bail!("--stream --checkpoint: no checkpoint to resume the rows from");
    };
    let bar = Bar::new(config.run.shape.cells() as u64, config.run.quiet);
    let start = Instant::now();
    signals::defer();
    let loaded = checkpoint.load_stream(stream)?;
    if signals::interrupted() {
        checkpoint.say_unchanged("row");
        return Ok(ExitCode::from(signals::EXIT_INTERRUPTED));
    }
    let (ring, sums) = match resumed(&config.run, stream, &checkpoint, loaded)? {
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
