//! `mpirun -n K grundy compute ...`: the table computed by K ranks, bands of rows each (see
//! `grundy_compute::bands`), written by rank 0 as the bands arrive.

use super::config::{Config, Mode};
use super::saves::{resumed, Saves};
use super::summary::{RowSums, Summary};
use super::writers::RankWriter;
use crate::checkpoint::Checkpoint;
use crate::output::{write_json_line, Destination, Special};
use crate::progress::Bar;
use crate::signals;
use anyhow::{anyhow, bail, Context, Result};
use grundy_compute::bands::{BandCut, BandFill, BandsDone, Cuts, NoCuts};
use grundy_compute::{Control, NoProgress, PreparedFill, Progress, RowStream};
use grundy_core::table::CsvRows;
use grundy_core::{write_npy_header, CellWidth, TableStats};
use grundy_mpi::{Cluster, MpiLink};
use std::cell::Cell;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::process::ExitCode;
use std::time::Instant;

/// Rank `cluster.rank()`'s part of `compute`. Every rank validates the same arguments, so an
/// error found before any message is the same on all of them: rank 0 says it, and the others
/// end quietly with the same exit code. An error after that ends the whole job.
pub(super) fn run(config: Config, cluster: &Cluster) -> Result<ExitCode> {
    let cluster_rank = cluster.rank();
    let zero = cluster_rank == 0;
    if matches!(config.mode, Mode::InMemory { checkpoint: Some(_) }) {
        // Every rank goes on until rank 0 has saved the cut; then rank 0 ends the job.
        signals::defer();
    }
    let (fill, rows) = match prepare(&config) {
        Ok(prepared) => prepared,
        Err(err) if zero => return Err(err),
        Err(_) => return Ok(ExitCode::from(crate::errors::EXIT_ERROR)),
    };
    // Rank 0's output files, opened before any message: one that cannot be written ends every
    // rank normally, through one collective call, so that rank 0's line is never lost to an
    // abort.
    let mut outputs = zero.then(|| Outputs::open(&config));
    let ready = !matches!(outputs, Some(Err(_)));
    if !cluster.all_ready(ready) {
        return match outputs {
            Some(Err(err)) => Err(err),
            _ => Ok(ExitCode::from(crate::errors::EXIT_ERROR)),
        };
    }
    let can = cluster.can_link().map_err(|why| anyhow!("cannot share the table: {why}"));
    let ended = can.and_then(|()| {
        // On the pool's thread, which makes every MPI call from now on.
        let work = || -> Result<ExitCode> {
            let link = MpiLink::connect();
            let started = Instant::now();
            let code = if let Some(Ok(outputs)) = outputs.take() {
                write(&config, outputs, &fill, rows.as_ref(), &link)?
            } else {
                let mut sink = |_: &[u32]| Ok::<(), io::Error>(());
                fill.run(&link, None, &NoProgress, &mut sink, &mut NoCuts)?;
                ExitCode::SUCCESS
            };
            if std::env::var_os("GRUNDY_MPI_STATS").is_some() {
                // For a model of scale (BENCHMARKS.md): what this rank sent, and how long it
                // waited, of how long it ran.
                let stats = link.stats();
                eprintln!(
                    "grundy: rank {}: {} messages, {} bytes sent; waited {:.3} s of {:.3} s",
                    cluster_rank,
                    stats.messages,
                    stats.bytes,
                    stats.waited.as_secs_f64(),
                    started.elapsed().as_secs_f64()
                );
            }
            Ok(code)
        };
        config.runtime.install(work)
    });
    match ended {
        Ok(code) if code == ExitCode::from(signals::EXIT_INTERRUPTED) => {
            // The other ranks wait for bands that will not come.
            cluster.abort(i32::from(signals::EXIT_INTERRUPTED))
        }
        Ok(code) => Ok(code),
        Err(err) => {
            crate::errors::print_error(&err);
            cluster.abort(i32::from(crate::errors::EXIT_ERROR))
        }
    }
}

/// The fill for the job's ranks, after every check that needs no message: the options a
/// distributed fill takes (the library's request), and this rank's memory; with the stream of
/// rows whose rings a checkpoint holds, when there is one.
fn prepare(config: &Config) -> Result<(BandFill, Option<RowStream>)> {
    if matches!(config.mode, Mode::Streamed { .. }) {
        bail!(
            "--stream is for one process: under mpirun the ranks already compute the table band \
             by band and rank 0 writes the rows as they come"
        );
    }
    let prepared = config.request().prepare().map_err(|err| config.refusal(err))?;
    // What one rank holds: its band and the rows above it that the moves read (every row, for
    // some games); rank 0 also one band of another rank, as it arrives.
    prepared.check_memory(config.runtime.memory(), &grundy_compute::memory::Besides::NOTHING)?;
    match prepared {
        PreparedFill::Bands { fill, rows } => Ok((fill, rows)),
        _ => bail!("{} is not shared among ranks by bands of rows", config.game.name()),
    }
}

/// What rank 0 writes to: the output, and the checkpoint of a summary.
struct Outputs {
    destination: Destination,
    checkpoint: Option<(Checkpoint, std::time::Duration)>,
}

impl Outputs {
    fn open(config: &Config) -> Result<Outputs> {
        let destination =
            Destination::open(config.out.as_deref(), config.overwrite, Special::WriteThrough)?;
        // Only a summary is resumed: written rows cannot be taken up again.
        let summary = config.writer(|row| row.ranks)? == RankWriter::Summary;
        let checkpoint = if summary { config.open_checkpoint()? } else { None };
        Ok(Outputs { destination, checkpoint })
    }
}

/// Rank 0: runs its part and writes the rows to the output in the format asked for.
fn write(
    config: &Config,
    outputs: Outputs,
    fill: &BandFill,
    rows: Option<&RowStream>,
    link: &MpiLink,
) -> Result<ExitCode> {
    let (game, shape) = (&config.game, &config.shape);
    let Outputs { destination, checkpoint } = outputs;
    let bar = Bar::new(shape.cells() as u64, config.quiet);
    let start = Instant::now();
    let lens = shape.lens();
    match config.writer(|row| row.ranks)? {
        RankWriter::Summary => {
            let Some(stats) = summarise(config, fill, rows, link, checkpoint.as_ref(), &bar)?
            else {
                return Ok(ExitCode::from(signals::EXIT_INTERRUPTED));
            };
            let summary = Summary::new(game, &config.max, stats, start.elapsed().as_secs_f64());
            destination.write_with(|out| write_json_line(out, &summary))?;
            if let Some((checkpoint, _)) = checkpoint {
                checkpoint.remove()?;
            }
        }
        RankWriter::Csv(layout) => {
            destination.write_with(|out| {
                let mut rows = CsvRows::new(shape.axes(), &lens, layout, config.cells, out)?;
                fill.run(link, None, &bar, &mut |row| rows.write_row(row), &mut NoCuts)?;
                rows.finish()
            })?;
        }
        RankWriter::Npy => {
            // The cells' type is the narrowest that holds the largest value, known only at the
            // end: the rows wait in an unnamed file (4 bytes a cell, beside the output).
            let spool = match config.out.as_deref().and_then(|out| out.parent()) {
                Some(dir) if !dir.as_os_str().is_empty() => tempfile::tempfile_in(dir),
                _ => tempfile::tempfile(),
            }
            .context("cannot create the file that holds the rows until the end")?;
            let mut spooled = BufWriter::with_capacity(1 << 16, spool);
            let mut max = 0;
            fill.run(
                link,
                None,
                &bar,
                &mut |row| {
                    max = row.iter().copied().fold(max, u32::max);
                    row.iter().try_for_each(|v| spooled.write_all(&v.to_le_bytes()))
                },
                &mut NoCuts,
            )
            .context("cannot hold the rows until the end")?;
            let mut spool = spooled.into_inner().map_err(|e| e.into_error())?;
            spool.rewind()?;
            let width = CellWidth::for_max(max.into());
            destination.write_with(|out| {
                write_npy_header(&mut *out, width, &lens)?;
                let mut cells = BufReader::with_capacity(1 << 16, spool);
                let mut cell = [0u8; 4];
                for _ in 0..shape.cells() {
                    cells.read_exact(&mut cell)?;
                    out.write_all(&cell[..width.bytes()])?;
                }
                Ok(())
            })?;
        }
    }
    bar.finish();
    Ok(ExitCode::SUCCESS)
}

/// Rank 0 with `--format summary`: the sums of every row, saved with the cut between bands to
/// `checkpoint` (as a streamed checkpoint, which any number of ranks, or one process with
/// `--stream`, can resume) every `--checkpoint-every` and when a signal comes. `None` when a
/// signal stopped the run.
fn summarise(
    config: &Config,
    fill: &BandFill,
    stream: Option<&RowStream>,
    link: &MpiLink,
    checkpoint: Option<&(Checkpoint, std::time::Duration)>,
    bar: &Bar,
) -> Result<Option<TableStats>> {
    let sums = Cell::new(RowSums::new(TableStats::EMPTY));
    let mut sink = |row: &[u32]| {
        let mut more = sums.get();
        more.add(row, false);
        sums.set(more);
        Ok::<(), io::Error>(())
    };
    let Some((checkpoint, every)) = checkpoint else {
        fill.run(link, None, bar, &mut sink, &mut NoCuts)?;
        return Ok(Some(sums.get().stats));
    };
    let stream = stream.expect("a resumable distributed fill has its stream of rows");
    let rows = config.shape.lens()[0];
    let start = resumed(config, stream, checkpoint, checkpoint.load_stream(stream)?)?.map(
        |(ring, resumed)| {
            sums.set(resumed);
            bar.advance(stream.plan().cells_done(ring.rows_done()));
            BandCut::from_ring(&ring, stream.kept_rows() - 1)
        },
    );
    let mut cuts = BandSaves { saves: Saves::every(*every), checkpoint, stream, sums: &sums };
    let done = fill.run(link, start, bar, &mut sink, &mut cuts)?;
    cuts.saves.saved?;
    match done {
        BandsDone::Complete => Ok(Some(sums.get().stats)),
        BandsDone::Stopped { next_row } => {
            bar.finish();
            checkpoint.say_saved(next_row, rows, "row");
            Ok(None)
        }
    }
}

/// Rank 0's cuts, saved as [`Saves`] says (every `--checkpoint-every` and on a signal, which
/// then stops the run; a failed save stops it too, with the error) as streamed checkpoints.
struct BandSaves<'a> {
    saves: Saves,
    checkpoint: &'a Checkpoint,
    stream: &'a RowStream,
    sums: &'a Cell<RowSums>,
}

impl Cuts for BandSaves<'_> {
    fn due(&mut self) -> bool {
        self.saves.due()
    }

    fn save(&mut self, cut: &BandCut) -> Control {
        let ring = cut.to_ring(self.stream.plan()).expect("a game that streams");
        let sums = self.sums.get().to_bytes();
        self.saves.after_wave(|| self.checkpoint.save_stream(&ring, &sums))
    }
}
