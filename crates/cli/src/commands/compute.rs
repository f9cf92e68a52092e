use super::{fill_prepared, install, load_game, SequenceRecords};
use crate::checkpoint::Checkpoint;
use crate::output::write_json_line;
use crate::output::{same_file, Destination, Overwrite, Special};
use crate::progress::Bar;
use crate::signals;
use anyhow::{anyhow, bail, Context, Result};
use clap::ValueEnum;
use grundy_compute::bands::{BandFill, NoCuts, SoloLink};
use grundy_compute::memory::check_bytes;
use grundy_compute::{Control, Engine, FillConfig, RingStore, RowStream, TableFill, WaveMark};
use grundy_core::table::CsvRows;
use grundy_core::{
    parse_coords, write_bfile, write_csv, write_npy, CsvLayout, Game, GrundyTable, TableShape,
    TableStats,
};
use rayon::prelude::*;
use serde::Serialize;
use std::convert::Infallible;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Compute the Grundy table of GAME over every position up to SIZE.
///
/// Examples: `grundy compute kiki --size 2000x2000 --out kiki.csv`,
/// `grundy compute octal:0.77 --size 1000 --format summary`,
/// `grundy compute wythoff --size 9999x9999 --format npy --out w.npy --checkpoint w.ckpt`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A catalog game (see `grundy games`), e.g. `cutting`, `subtraction:2,5`, `octal:0.77`, or a
    /// path to a spec file (see `grundy show`).
    game: String,
    /// The largest coordinate on each axis, inclusive: `N` for heap games, `RxC` for boards.
    #[arg(long, allow_hyphen_values = true)]
    size: String,
    /// Write to this file instead of standard output: a regular file atomically (a temporary file
    /// renamed into place, keeping an existing file's permissions), a symbolic link's target
    /// beside the target, a device or FIFO written through; `-` is standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace an existing output (or checkpoint) file even if it is read-only.
    #[arg(long)]
    force: bool,
    /// `grid`: one CSV row per row coordinate; `long`: one CSV line per cell; `npy`: a numpy
    /// array with the cells' integer type (uint8/16/32); `bfile`: an OEIS b-file, `n value` per
    /// line (heap games); `summary`: a JSON object with cells, sum, max, p_positions and seconds.
    /// The default is `grid`, and `long` for 3-D games.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write P (value 0, the player to move loses) or N instead of the values (grid and long).
    #[arg(long)]
    outcome: bool,
    /// Worker threads (default: one per core; at most four per core are started, as more only
    /// slow a fill down).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// The engine: `auto` (the default: `sparse` for the heap games it computes, `tiles` for
    /// the others), `sparse` (the rare/common method for heap games whose moves leave at most two
    /// heaps), `tiles` (parallel tile-waves, line accumulators), `waves` (parallel cell waves) or
    /// `reference` (plain, single-threaded, the correctness oracle).
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    engine: EngineArg,
    /// Compute row by row, keeping only the rows the moves reach back (2-D games whose moves do
    /// not run down whole columns): for tables larger than memory.
    #[arg(long)]
    stream: bool,
    /// Save the finished waves (tile-waves; rows with --stream, which then needs --format
    /// summary) to FILE every --checkpoint-every seconds and on Ctrl-C (SIGINT/SIGTERM, which
    /// then stops the run); run the same command again to resume from it. Deleted once the table
    /// is written.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between checkpoint saves (0: after every wave).
    #[arg(long, value_name = "SECONDS", default_value_t = 60, requires = "checkpoint")]
    checkpoint_every: u64,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Grid,
    Long,
    Npy,
    Bfile,
    Summary,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EngineArg {
    Auto,
    Sparse,
    Tiles,
    Waves,
    Reference,
}

#[derive(Serialize)]
struct Summary<'a> {
    game: &'a str,
    size: &'a [i64],
    cells: u64,
    sum: u64,
    max: u32,
    p_positions: u64,
    seconds: f64,
    /// Heap games only: the records of the sequence.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    sequence: Option<SequenceRecords>,
}

impl<'a> Summary<'a> {
    fn new(game: &'a Game, size: &'a [i64], stats: TableStats, seconds: f64) -> Summary<'a> {
        Summary {
            game: game.name(),
            size,
            cells: stats.cells,
            sum: stats.sum,
            max: stats.max,
            p_positions: stats.p_positions,
            seconds,
            sequence: None,
        }
    }
}

/// What a `compute` run does, validated once from the raw arguments: every cross-flag check is
/// in [`Config::from_args`], so the rest of the command never checks a flag combination.
struct Config {
    game: Game,
    /// The largest coordinates, as `--size` gave them.
    max: Vec<i64>,
    shape: TableShape,
    format: Format,
    /// Cells written as P/N.
    outcome: bool,
    mode: Mode,
    engine: Engine,
    threads: Option<usize>,
    quiet: bool,
    out: Option<PathBuf>,
    overwrite: Overwrite,
}

/// How the table is held while it is computed.
enum Mode {
    /// The whole table in memory, saved to a checkpoint when one is given.
    InMemory { checkpoint: Option<CheckpointConfig> },
    /// Row by row (`--stream`), the ring of rows saved to a checkpoint when one is given
    /// (`--format summary` only).
    Streamed { checkpoint: Option<CheckpointConfig> },
}

/// `--checkpoint FILE` and `--checkpoint-every SECONDS`.
struct CheckpointConfig {
    path: PathBuf,
    every: Duration,
}

impl Config {
    /// Validates `args`: the game, the size, the format for the game's dimensions, and every
    /// combination of options.
    fn from_args(args: Args) -> Result<Config> {
        let game = load_game(&args.game)?;
        let max = parse_coords(&args.size, "size")?;
        let shape = TableShape::new(&game, &max, &args.size)?;
        let format = match args.format {
            Some(Format::Grid) if game.dims() == 3 => bail!(
                "a 3-D table has no grid format; use --format long (the default for 3-D games)"
            ),
            Some(format) => format,
            None if game.dims() == 3 => Format::Long,
            None => Format::Grid,
        };
        if args.outcome && !matches!(format, Format::Grid | Format::Long) {
            bail!(
                "--outcome applies to the grid and long formats, not to --format {}",
                format.name()
            );
        }
        if format == Format::Bfile && game.dims() != 1 {
            bail!(
                "--format bfile writes a sequence, but {} has {}; use grid, long or npy",
                game.name(),
                grundy_core::counted(game.dims(), "axis", "axes")
            );
        }
        let checkpoint = match args.checkpoint {
            None => None,
            Some(path) => {
                if args.stream && format != Format::Summary {
                    bail!(
                        "--checkpoint with --stream needs --format summary: streamed {} rows go \
                         out as they are computed and cannot be taken up again",
                        format.name()
                    );
                }
                if args.engine == EngineArg::Reference {
                    bail!(
                        "--checkpoint needs the tiles or waves engine: the reference fill has no \
                         waves to save between"
                    );
                }
                if path == Path::new("-") || path.is_dir() {
                    bail!("--checkpoint needs a file path");
                }
                // The checkpoint is deleted once the output is written: two files.
                if args.out.as_deref().is_some_and(|out| same_file(out, &path)) {
                    bail!(
                        "--checkpoint and --out name the same file ({}); the checkpoint is \
                         deleted once the table is written",
                        path.display()
                    );
                }
                Some(CheckpointConfig { path, every: Duration::from_secs(args.checkpoint_every) })
            }
        };
        if args.engine == EngineArg::Sparse {
            grundy_compute::sparse_eligibility(&game, &shape)
                .map_err(|why| anyhow!("--engine sparse cannot compute {}: {why}", game.name()))?;
        }
        if args.stream && format == Format::Npy {
            bail!("--format npy cannot be streamed; use grid or long with --stream");
        }
        Ok(Config {
            game,
            max,
            shape,
            format,
            outcome: args.outcome,
            mode: if args.stream {
                Mode::Streamed { checkpoint }
            } else {
                Mode::InMemory { checkpoint }
            },
            engine: match args.engine {
                EngineArg::Auto => Engine::Auto,
                EngineArg::Sparse => Engine::Sparse,
                EngineArg::Tiles => Engine::Tiles,
                EngineArg::Waves => Engine::Waves,
                EngineArg::Reference => Engine::Reference,
            },
            threads: args.threads.map(usize::from),
            quiet: args.quiet,
            out: args.out,
            overwrite: if args.force { Overwrite::Force } else { Overwrite::IfWritable },
        })
    }
}

#[cfg(feature = "mpi")]
mod distributed;

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    // In an MPI job of two ranks or more, the ranks share the table (2-D games).
    #[cfg(feature = "mpi")]
    if let Some(cluster) = grundy_mpi::Cluster::join() {
        return match Config::from_args(args) {
            Ok(config) => distributed::run(config, &cluster),
            // Every rank found the same error: rank 0 says it.
            Err(err) if cluster.rank() == 0 => Err(err),
            Err(_) => Ok(ExitCode::from(crate::EXIT_ERROR)),
        };
    }
    let config = Config::from_args(args)?;
    let Config { ref game, ref max, ref shape, overwrite, .. } = config;
    let destination = Destination::open(config.out.as_deref(), overwrite, Special::WriteThrough)?;
    let checkpoint = match &config.mode {
        Mode::Streamed { checkpoint } => {
            return run_streaming(&config, checkpoint.as_ref(), destination)
        }
        Mode::InMemory { checkpoint } => checkpoint.as_ref(),
    };
    // The game is compiled and the work planned once, for the memory check and the fill.
    let fill = TableFill::new(
        game,
        shape,
        &FillConfig { engine: config.engine, threads: config.threads, tile_side: None },
    );
    if let Err(too_large) = fill.check_memory(0) {
        // Refused before anything is allocated; say when --stream would do it.
        if RowStream::new(game, shape).is_ok() {
            bail!("{too_large:#}; --stream computes it row by row in little memory");
        }
        return Err(too_large.into());
    }
    let start = Instant::now();
    let checkpoint = match checkpoint {
        Some(c) => Some((Checkpoint::open(&c.path, game, max, overwrite)?, c.every)),
        None => None,
    };
    let (table, mark) = match &checkpoint {
        None => (fill_prepared(&fill, shape, config.quiet)?, None),
        Some((checkpoint, every)) => match fill_checkpointed(&config, &fill, checkpoint, *every)? {
            Some((table, mark)) => (table, Some(mark)),
            None => return Ok(ExitCode::from(signals::EXIT_INTERRUPTED)),
        },
    };
    let seconds = start.elapsed().as_secs_f64();
    let written = write_table(&config, &table, seconds, destination);
    if let (Some((checkpoint, _)), Some(mark)) = (&checkpoint, mark) {
        if let Err(err) = written {
            // Keep the finished table: the next run writes it without computing anything.
            let saved = checkpoint.save(&table, mark);
            return Err(match saved {
                Ok(()) => err.context(format!(
                    "the finished table is saved in checkpoint {}",
                    checkpoint.path().display()
                )),
                Err(_) => err,
            });
        }
        checkpoint.remove()?;
    }
    written?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the finished `table` to `destination` in the format `args` asks for.
fn write_table(
    config: &Config,
    table: &GrundyTable,
    seconds: f64,
    destination: Destination,
) -> Result<()> {
    match config.format {
        Format::Summary => {
            // The sums in parallel, on the pool of the fill: a single pass over a large table
            // costs as much as filling a simple game's table.
            let stats = install(config.threads.map(|t| t as u16), || {
                Ok(grundy_core::with_cells!(table.cells(), |values| values
                    .par_chunks(1 << 20)
                    .map(TableStats::of)
                    .reduce(|| TableStats::EMPTY, TableStats::merge)))
            })?;
            let mut summary = Summary::new(&config.game, &config.max, stats, seconds);
            summary.sequence = SequenceRecords::of(Some(&config.game), table);
            destination.write_with(|out| write_json_line(out, &summary))
        }
        Format::Grid | Format::Long => {
            let layout =
                if config.format == Format::Grid { CsvLayout::Grid } else { CsvLayout::Long };
            destination.write_with(|out| write_csv(table, layout, config.outcome, out))
        }
        Format::Npy => {
            destination.write_with(|out| write_npy(table, out).map_err(io::Error::other))
        }
        Format::Bfile => destination.write_with(|out| write_bfile(table, out)),
    }
}

/// `compute --checkpoint`: fills resumably, from the checkpoint if there is one, saving every
/// `--checkpoint-every` seconds and when interrupted. Returns `None` when a signal stopped the
/// run (after saving and saying so).
fn fill_checkpointed(
    run: &Config,
    fill: &TableFill<'_>,
    checkpoint: &Checkpoint,
    every: Duration,
) -> Result<Option<(GrundyTable, WaveMark)>> {
    let shape = &run.shape;
    // From here on a signal stops the run cleanly: while the checkpoint is read, before any
    // tile-wave (nothing to save, the checkpoint is as it was), then at the next tile-wave.
    signals::defer();
    let start = checkpoint.load(shape, &fill.plan().start())?;
    if signals::interrupted() {
        checkpoint.say_unchanged("tile-wave");
        return Ok(None);
    }
    if let Some((_, mark)) = &start {
        if !run.quiet {
            checkpoint.say_resuming(mark.done, mark.total, "tile-wave");
        }
    }
    let mut saves = Saves::every(every);
    let bar = Bar::new(shape.cells() as u64, run.quiet);
    let (table, mark) = fill
        .fill_resumable(start, &bar, &mut |table, mark| {
            saves.after_wave(|| checkpoint.save(table, mark))
        })
        .context("cannot compute the table")?;
    bar.finish();
    saves.saved?;
    if saves.stopped {
        checkpoint.say_saved(mark.done, mark.total, "tile-wave");
        return Ok(None);
    }
    // A signal while the table is written ends the run at once (its output not in place); the
    // checkpoint stays as last saved.
    if signals::undefer() {
        // It came after the last save: keep the finished table for the next run.
        checkpoint.save(&table, mark)?;
        checkpoint.say_saved(mark.done, mark.total, "tile-wave");
        return Ok(None);
    }
    Ok(Some((table, mark)))
}

/// When a checkpointed run saves: every `every`, and when a signal asks it to stop.
struct Saves {
    every: Duration,
    last: Instant,
    /// The first failed save, which stopped the run.
    saved: Result<()>,
    /// Whether a signal stopped the run (after saving).
    stopped: bool,
}

impl Saves {
    fn every(every: Duration) -> Saves {
        Saves { every, last: Instant::now(), saved: Ok(()), stopped: false }
    }

    /// Whether it is time to save: `every` has passed, or a signal came.
    fn due(&self) -> bool {
        signals::interrupted() || self.last.elapsed() >= self.every
    }

    /// After a wave: saves with `save` when it is time or a signal came, and says whether to go
    /// on.
    fn after_wave(&mut self, save: impl FnOnce() -> Result<()>) -> Control {
        let interrupted = signals::interrupted();
        if self.due() {
            if let Err(err) = save() {
                self.saved = Err(err);
                return Control::Stop;
            }
            self.last = Instant::now();
        }
        if interrupted {
            self.stopped = true;
            return Control::Stop;
        }
        Control::Continue
    }
}

/// `compute --stream`: the table row by row, each row written (or summed up) as soon as it is
/// final; with a checkpoint (summaries only), resumable.
fn run_streaming(
    config: &Config,
    checkpoint: Option<&CheckpointConfig>,
    destination: Destination,
) -> Result<ExitCode> {
    let (game, shape, max) = (&config.game, &config.shape, &config.max);
    let stream = RowStream::new(game, shape)
        .map_err(|why| anyhow!("cannot stream {}: {why}", game.name()))?;
    let lens = shape.lens();
    // Without a checkpoint, bands of tile rows on the pool's threads (one rank, nothing sent
    // anywhere); for a summary, a symmetric table mirrored: each row comes as its lower half.
    // With one, the row-by-row stream, whose rings the checkpoints are.
    let bands = match (config.format, checkpoint) {
        (Format::Summary, Some(_)) => None,
        (Format::Summary, None) => Some(BandFill::summary(game, shape, 1, threads(config))),
        _ => Some(BandFill::new(game, shape, 1, threads(config))),
    }
    .transpose()
    .map_err(|why| anyhow!("cannot stream {}: {why}", game.name()))?;
    // What the fill that runs holds: its rows and its line summaries.
    let needed = bands.as_ref().map_or_else(|| stream.planned_bytes(), BandFill::planned_bytes);
    check_bytes(shape.cells(), 4, needed).map_err(|too_large| {
        anyhow!("{too_large:#} (streamed: the rows kept and the line summaries)")
    })?;
    let bar = Bar::new(shape.cells() as u64, config.quiet);
    let start = Instant::now();
    match config.format {
        Format::Summary => {
            let stats = match checkpoint {
                None => {
                    let fill = bands.as_ref().expect("a band fill without a checkpoint");
                    let mirrored = fill.lower_rows();
                    let mut stats = TableStats::EMPTY;
                    install(config.threads.map(|t| t as u16), || {
                        let mut sink = |row: &[u32]| {
                            add_row(&mut stats, row);
                            if mirrored {
                                // The cells left of the diagonal stand for their mirrors too.
                                let left = &row[..row.len() - 1];
                                add_row(&mut stats, left);
                            }
                            Ok::<(), Infallible>(())
                        };
                        let done = fill.run(&SoloLink, None, &bar, &mut sink, &mut NoCuts);
                        Ok(done.unwrap_or_else(|never| match never {}))
                    })?;
                    stats
                }
                Some(checkpointed) => {
                    let checkpoint =
                        Checkpoint::open(&checkpointed.path, game, max, config.overwrite)?;
                    match stream_checkpointed(
                        config,
                        &stream,
                        &checkpoint,
                        checkpointed.every,
                        &bar,
                    )? {
                        Some(stats) => {
                            let summary =
                                Summary::new(game, max, stats, start.elapsed().as_secs_f64());
                            destination.write_with(|out| write_json_line(out, &summary))?;
                            bar.finish();
                            checkpoint.remove()?;
                            return Ok(ExitCode::SUCCESS);
                        }
                        None => return Ok(ExitCode::from(signals::EXIT_INTERRUPTED)),
                    }
                }
            };
            let summary = Summary::new(game, max, stats, start.elapsed().as_secs_f64());
            destination.write_with(|out| write_json_line(out, &summary))?
        }
        // Only 2-D games stream, and bfile is for heap games.
        Format::Npy | Format::Bfile => unreachable!("refused before streaming"),
        Format::Grid | Format::Long => {
            let layout =
                if config.format == Format::Grid { CsvLayout::Grid } else { CsvLayout::Long };
            let fill = bands.as_ref().expect("CSV streams run bands");
            install(config.threads.map(|t| t as u16), || {
                Ok(destination.write_with(|out| {
                    let mut rows = CsvRows::new(shape.axes(), &lens, layout, config.outcome, out)?;
                    let mut sink = |row: &[u32]| rows.write_row(row);
                    fill.run(&SoloLink, None, &bar, &mut sink, &mut NoCuts)?;
                    rows.finish()
                }))
            })??
        }
    }
    bar.finish();
    Ok(ExitCode::SUCCESS)
}

/// The threads a fill of `config` runs on (rayon's pool when not given).
fn threads(config: &Config) -> usize {
    grundy_compute::effective_threads(config.threads.unwrap_or_else(rayon::current_num_threads))
}

/// Adds a finished row to a summary's sums.
fn add_row(stats: &mut TableStats, row: &[u32]) {
    for &v in row {
        stats.cells += 1;
        stats.sum += u64::from(v);
        stats.max = stats.max.max(v);
        stats.p_positions += u64::from(v == 0);
    }
}

/// A summary's sums as a streamed checkpoint keeps them: cells, sum, max and P-positions as
/// little-endian u64s.
fn stats_bytes(stats: &TableStats) -> Vec<u8> {
    [stats.cells, stats.sum, stats.max.into(), stats.p_positions]
        .iter()
        .flat_map(|n| n.to_le_bytes())
        .collect()
}

/// The sums [`stats_bytes`] wrote, if `bytes` are such sums for `cells` cells.
fn stats_from(bytes: &[u8], cells: u64) -> Option<TableStats> {
    let numbers: Vec<u64> = bytes
        .chunks_exact(8)
        .map(|chunk| u64::from_le_bytes(chunk.try_into().expect("8 bytes")))
        .collect();
    match numbers[..] {
        [cells_seen, sum, max, p_positions] if bytes.len() == 32 && cells_seen == cells => {
            Some(TableStats { cells, sum, max: u32::try_from(max).ok()?, p_positions })
        }
        _ => None,
    }
}

/// The ring and the summary's sums a streamed checkpoint held (`loaded`), checked against each
/// other; says that the run resumes.
fn resumed(
    config: &Config,
    stream: &RowStream,
    checkpoint: &Checkpoint,
    loaded: Option<(RingStore, Vec<u8>)>,
) -> Result<Option<(RingStore, TableStats)>> {
    let Some((ring, bytes)) = loaded else { return Ok(None) };
    let done = ring.rows_done();
    let stats = stats_from(&bytes, (done * config.shape.lens()[1]) as u64).ok_or_else(|| {
        anyhow!(
            "checkpoint {} refused: its summary sums are not those of {done} rows",
            checkpoint.path().display()
        )
    })?;
    if !config.quiet {
        checkpoint.say_resuming(done, stream.plan().waves(), "row");
    }
    Ok(Some((ring, stats)))
}

/// `compute --stream --checkpoint --format summary`: streams from the checkpoint if there is
/// one, saving the ring and the sums every `every` and when interrupted. Returns the sums, or
/// `None` when a signal stopped the run (after saving and saying so).
fn stream_checkpointed(
    config: &Config,
    stream: &RowStream,
    checkpoint: &Checkpoint,
    every: Duration,
    bar: &Bar,
) -> Result<Option<TableStats>> {
    signals::defer();
    let start = checkpoint.load_stream(stream)?;
    if signals::interrupted() {
        checkpoint.say_unchanged("row");
        return Ok(None);
    }
    let (ring, stats) = match resumed(config, stream, checkpoint, start)? {
        Some((ring, stats)) => (Some(ring), stats),
        None => (None, TableStats::EMPTY),
    };
    let stats = std::cell::Cell::new(stats);
    let mut saves = Saves::every(every);
    let (_, mark) = stream
        .run_resumable(
            ring,
            bar,
            |row| {
                let mut sums = stats.get();
                add_row(&mut sums, row);
                stats.set(sums);
                Ok::<(), Infallible>(())
            },
            &mut |ring, _| {
                saves.after_wave(|| checkpoint.save_stream(ring, &stats_bytes(&stats.get())))
            },
        )
        .unwrap_or_else(|never| match never {});
    saves.saved?;
    if saves.stopped {
        bar.finish();
        checkpoint.say_saved(mark.done, mark.total, "row");
        return Ok(None);
    }
    Ok(Some(stats.get()))
}

impl Format {
    /// The name the user gave, as clap spells it.
    fn name(self) -> String {
        self.to_possible_value().expect("no format is skipped").get_name().to_string()
    }
}
