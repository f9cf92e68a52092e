//! Subcommands. Each module owns its `Args` (whose doc comments are the help text) and a `run`.

mod check;
mod compute;
mod games;
mod patterns;
mod plot;
mod show;
mod survey;
mod value;

use crate::progress::Bar;
use anyhow::{bail, Context, Result};
use clap::Subcommand;
use grundy_compute::memory::read_budget;
pub(crate) use grundy_compute::SequenceRecords;
use grundy_compute::{Engine, FillConfig, RowStream, TableFill};
use grundy_core::{parse_coords, read_csv_within, CsvLimits, Game, GrundyTable, Table, TableShape};
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Compute a game's Grundy table and write it as CSV, numpy, an OEIS b-file or a JSON summary.
    Compute(compute::Args),
    /// Print the value of positions, of their sum, and the outcome.
    Value(value::Args),
    /// Find the laws behind a table: periods, outcome rules, rows, columns and diagonals.
    Patterns(patterns::Args),
    /// Draw a table as a PNG heatmap (values or P/N mask) or a heap game's sequence.
    Plot(plot::Args),
    /// Test a closed-form conjecture against a table: agreement, counterexamples, a proof.
    Check(check::Args),
    /// List the catalog games.
    Games(games::Args),
    /// Print the spec of a game, from the catalog or a file.
    Show(show::Args),
    /// Survey a family of games: every member's period, proved where possible, and classes.
    Survey(survey::Args),
}

pub(crate) fn run(command: Command) -> Result<ExitCode> {
    match command {
        Command::Compute(args) => compute::run(args),
        Command::Value(args) => value::run(args),
        Command::Patterns(args) => patterns::run(args),
        Command::Plot(args) => plot::run(args),
        Command::Check(args) => check::run(args),
        Command::Games(args) => games::run(args),
        Command::Show(args) => show::run(args),
        Command::Survey(args) => survey::run(args),
    }
}

/// Finds the game a user named: a spec file when `name` is a path to one (it ends in `.toml`, has
/// a path separator or names an existing file), otherwise a catalog game.
fn load_game(name: &str) -> Result<Game> {
    match spec_path(name) {
        Some(path) => Ok(grundy_core::parse_spec(&read_spec(path, name)?, name)?),
        None => Ok(grundy_core::lookup(name)?),
    }
}

/// The most bytes a spec file may have: a spec is a few lines (the longest step lists in use are
/// a few MB), and a path such as `/dev/zero` must not be read until memory runs out.
const MAX_SPEC_BYTES: u64 = 16 << 20;

/// The text of the spec file at `path`, at most [`MAX_SPEC_BYTES`] of it.
fn read_spec(path: &Path, name: &str) -> Result<String> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read spec file {name}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_SPEC_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read spec file {name}"))?;
    if bytes.len() as u64 > MAX_SPEC_BYTES {
        bail!(
            "spec file {name} is larger than {} MiB; a spec is a few lines",
            MAX_SPEC_BYTES >> 20
        );
    }
    String::from_utf8(bytes).with_context(|| format!("spec file {name} is not UTF-8 text"))
}

/// `name` as the path of a spec file, if it is one.
fn spec_path(name: &str) -> Option<&Path> {
    let path = Path::new(name);
    (name.ends_with(".toml")
        || name.contains(std::path::MAIN_SEPARATOR)
        || name.contains('/')
        || path.is_file())
    .then_some(path)
}

/// Runs `work` on a pool of `threads` threads (the cap of `grundy_compute::effective_threads`
/// applies), or on rayon's global pool.
fn install<T: Send>(threads: Option<u16>, work: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    match threads {
        None => work(),
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(grundy_compute::effective_threads(threads.into()))
            .build()
            .context("cannot start the worker threads")?
            .install(work),
    }
}

/// Where a table to analyse comes from: the arguments `patterns` and `check` share.
#[derive(Debug, clap::Args)]
pub(crate) struct TableArgs {
    /// A game (catalog name or spec file) to compute, or a CSV table written by `grundy compute`.
    source: String,
    /// The size to compute a game at (not for CSV tables).
    #[arg(long, allow_hyphen_values = true)]
    size: Option<String>,
    /// Worker threads (default: one per core; at most four per core are started, as more only
    /// slow a fill down).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Take the 2-D slice of a 3-D table where an axis has one coordinate, e.g. `z=5`.
    #[arg(long, value_name = "AXIS=COORD")]
    slice: Option<String>,
}

impl TableArgs {
    /// The game, the shape and the prepared row-by-row fill, for `--stream`: a game (not a CSV
    /// table) and a size.
    fn streamed(&self) -> Result<(Game, TableShape, RowStream)> {
        if is_csv_table(&self.source) {
            bail!("--stream computes a game; {} is a table to read", self.source);
        }
        if self.slice.is_some() {
            bail!(
                "--slice takes a slice of a table in memory; it cannot be combined with --stream"
            );
        }
        let game = load_game(&self.source)?;
        let Some(size) = self.size.as_deref() else {
            bail!("--size is needed to compute {}", self.source)
        };
        let shape = TableShape::new(&game, &parse_coords(size, "size")?, size)?;
        let stream = RowStream::new(&game, &shape)
            .map_err(|why| anyhow::anyhow!("cannot stream {}: {why}", game.name()))?;
        Ok((game, shape, stream))
    }

    /// Runs `work` — loading the table and analysing it — on one pool of `--threads` threads
    /// (the cap of `grundy_compute::effective_threads` applies), or on rayon's global pool: the
    /// fill and the analyses both use the pool they run on, so `--threads` bounds the whole
    /// command.
    fn install<T: Send>(&self, work: impl FnOnce() -> Result<T> + Send) -> Result<T> {
        install(self.threads, work)
    }

    /// Loads the table (its slice, with `--slice`) on the current pool (see
    /// [`TableArgs::install`]); `json` output also silences the progress bar. A game's table is
    /// computed only if it fits in memory together with `analysis` more bytes per cell, what the
    /// command's work on it holds besides.
    fn load(&self, json: bool, analysis: Analysis) -> Result<Table> {
        let quiet = self.quiet || json;
        let loaded = load_table(&self.source, self.size.as_deref(), None, quiet, analysis)?;
        match &self.slice {
            Some(slice) => sliced(loaded, slice),
            None => Ok(loaded),
        }
    }
}

/// The 2-D slice that `spec` (`AXIS=COORD`) names of a 3-D table. The slice is no game of its
/// own, so no theorem is applied to it.
fn sliced(table: Table, spec: &str) -> Result<Table> {
    let axes = table.data().axes();
    let names = || axes.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ");
    let Some((name, coord)) = spec.split_once('=') else {
        bail!("malformed --slice `{spec}`: write AXIS=COORD, e.g. {}=5", axes[0].name)
    };
    let (name, coord) = (name.trim(), coord.trim());
    if axes.len() != 3 {
        bail!(
            "--slice takes a 2-D slice of a 3-D table, but {} has {}",
            table.name(),
            grundy_core::counted(axes.len(), "axis", "axes")
        );
    }
    let Some(axis) = axes.iter().position(|a| a.name == name) else {
        bail!("--slice `{spec}`: {} has no axis `{name}` (its axes: {})", table.name(), names())
    };
    let Ok(at) = coord.parse::<i64>() else {
        bail!("--slice `{spec}`: `{coord}` is not a whole number")
    };
    let (min, max) = (axes[axis].min, table.data().shape().max()[axis]);
    table.slice(axis, at).ok_or_else(|| {
        anyhow::anyhow!("--slice `{spec}`: {name} runs from {min} to {max} in this table")
    })
}

/// What a command holds besides the table while it works on it, measured with `/usr/bin/time`
/// (issue 19: `patterns kiki --size 8000x8000` peaked at 6.1 times the table the memory check
/// counted).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Analysis {
    /// `value`, `check`: nothing.
    None,
    /// `plot`: the image and its rows (kiki 8000²: 0.35 bytes per cell).
    Plot,
    /// `patterns`: [`grundy_patterns::analysis_bytes`].
    Patterns,
}

impl Analysis {
    /// The bytes per cell it holds (rounded up from the measurements).
    fn bytes_per_cell(self) -> u64 {
        match self {
            Analysis::None => 0,
            Analysis::Plot => 1,
            Analysis::Patterns => grundy_patterns::ANALYSIS_BYTES_PER_CELL,
        }
    }

    /// The bytes per row, column and diagonal of a 2-D table ([`grundy_core::board_lines`]).
    fn bytes_per_line(self) -> u64 {
        match self {
            Analysis::None | Analysis::Plot => 0,
            Analysis::Patterns => grundy_patterns::ANALYSIS_BYTES_PER_LINE,
        }
    }

    /// The bytes it holds for a table of `shape`.
    fn bytes_for(self, shape: &TableShape) -> u128 {
        match self {
            Analysis::Patterns => grundy_patterns::analysis_bytes(&shape.lens()),
            _ => shape.cells() * u128::from(self.bytes_per_cell()),
        }
    }
}

/// Whether `source` names a CSV table (plain or gzip-compressed) rather than a game.
fn is_csv_table(source: &str) -> bool {
    source.ends_with(".csv") || source.ends_with(".csv.gz")
}

/// Loads the table that `source` names: a `.csv` or `.csv.gz` file (then `size` must be absent),
/// or a game computed up to `size`.
fn load_table(
    source: &str,
    size: Option<&str>,
    threads: Option<usize>,
    quiet: bool,
    analysis: Analysis,
) -> Result<Table> {
    if is_csv_table(source) {
        if size.is_some() {
            bail!("--size applies to games; {source} is a table that is read as it is");
        }
        let file = std::fs::File::open(source).with_context(|| format!("cannot read {source}"))?;
        let file = std::io::BufReader::new(file);
        // Bounded by the memory available: a decompression bomb or `/dev/zero` ends in an error.
        let limits = CsvLimits {
            max_bytes: read_budget(),
            extra_per_cell: analysis.bytes_per_cell(),
            extra_per_line: analysis.bytes_per_line(),
            ..CsvLimits::UNBOUNDED
        };
        let read = if source.ends_with(".gz") {
            read_csv_within(flate2::bufread::MultiGzDecoder::new(file), &limits)
        } else {
            read_csv_within(file, &limits)
        };
        let (table, kind) = read.with_context(|| format!("cannot read {source}"))?;
        return Ok(Table::without_game(table, kind, source));
    }
    let game = load_game(source)?;
    let Some(size) = size else {
        bail!("--size is needed to compute {source} (or give a .csv table written by `grundy compute`)")
    };
    let max = parse_coords(size, "size")?;
    let shape = TableShape::new(&game, &max, size)?;
    let table = fill_table(&game, &shape, Engine::Auto, threads, quiet, analysis)?;
    Ok(Table::of_game(game, table))
}

/// Fills the table of `game` over `shape` after checking that it fits in memory, with a progress
/// bar unless `quiet`.
fn fill_table(
    game: &Game,
    shape: &TableShape,
    engine: Engine,
    threads: Option<usize>,
    quiet: bool,
    analysis: Analysis,
) -> Result<GrundyTable> {
    let fill = TableFill::new(game, shape, &FillConfig { engine, threads, tile_side: None });
    fill.check_memory(analysis.bytes_for(shape))?;
    fill_prepared(&fill, shape, quiet)
}

/// Runs a prepared fill over `shape` (whose memory the caller checked), with a progress bar
/// unless `quiet`.
fn fill_prepared(fill: &TableFill<'_>, shape: &TableShape, quiet: bool) -> Result<GrundyTable> {
    let bar = Bar::new(shape.cells() as u64, quiet);
    let table = fill.fill(&bar).context("cannot compute the table")?;
    bar.finish();
    Ok(table)
}
