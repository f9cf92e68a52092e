//! `mpirun -n K grundy compute ...`: the table computed by K ranks, bands of rows each (see
//! `grundy_compute::bands`), written by rank 0 as the bands arrive.

use super::config::{Config, Mode};
use super::writers::output::Ranked;
use crate::checkpoint::Checkpoint;
use crate::output::{Destination, Special};
use crate::progress::Bar;
use crate::signals;
use anyhow::{anyhow, bail, Result};
use grundy_compute::bands::{BandFill, NoCuts};
use grundy_compute::{NoProgress, PreparedFill, RowStream};
use grundy_mpi::{Cluster, MpiLink};
use std::io;
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
        config.run.runtime.install(work)
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
    prepared
        .check_memory(config.run.runtime.memory(), &grundy_compute::memory::Besides::NOTHING)?;
    match prepared {
        PreparedFill::Bands { fill, rows } => Ok((fill, rows)),
        _ => bail!("{} is not shared among ranks by bands of rows", config.run.game.name()),
    }
}

/// What rank 0 writes to: the output, and the checkpoint of a summary.
struct Outputs {
    destination: Destination,
    checkpoint: Option<(Checkpoint, std::time::Duration)>,
}

impl Outputs {
    fn open(config: &Config) -> Result<Outputs> {
        let destination = Destination::open(
            config.run.out.as_deref(),
            config.run.overwrite,
            Special::WriteThrough,
        )?;
        // Only a summary is resumed (the library refuses a checkpoint of rows that are
        // written as they come).
        let checkpoint = config.open_checkpoint()?;
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
    let Outputs { destination, checkpoint } = outputs;
    let bar = Bar::new(config.run.shape.cells() as u64, config.run.quiet);
    let start = Instant::now();
    let write = config.writer(|row| row.ranks)?;
    let ranked =
        Ranked { run: &config.run, fill, rows, link, checkpoint, bar: &bar, start, destination };
    let code = write(ranked)?;
    bar.finish();
    Ok(code)
}
