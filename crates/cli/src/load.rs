//! What the commands load: games (catalog names or spec files), and the tables `patterns`,
//! `check` and `plot` work on — computed from a game through the library's fill request, or read
//! from a CSV file.

use crate::progress::Bar;
use anyhow::{bail, Context, Result};
use grundy_compute::memory::Besides;
use grundy_compute::{FillRequest, Runtime};
use grundy_core::{
    parse_coords, read_bfile, read_csv_within, read_npy_table, CellKind, CsvLimits, Game, Table,
    TableShape,
};
use std::path::Path;

/// Finds the game a user named: a spec file when `name` is a path to one (it ends in `.toml`, has
/// a path separator or names an existing file), otherwise a catalog game.
pub(crate) fn load_game(name: &str) -> Result<Game> {
    match spec_path(name) {
        Some(path) => Ok(grundy_core::parse_spec(&read_spec(path, name)?, name)?),
        None => Ok(grundy_core::lookup(name)?),
    }
}

use grundy_core::SPEC_LIMIT_BYTES as MAX_SPEC_BYTES;

/// The text of the spec file at `path`, at most [`MAX_SPEC_BYTES`] of it.
pub(crate) fn read_spec(path: &Path, name: &str) -> Result<String> {
    read_text_within(path, &format!("spec file {name}"), MAX_SPEC_BYTES, "a spec is a few lines")
}

/// The text of the small file at `path` (a spec, a provenance sidecar, a recipe), refused past
/// `limit` bytes, a whole number of MiB (`why` says why such a file is small): `/dev/zero` or a huge file ends in one line of
/// error, not in all the memory.
pub(crate) fn read_text_within(path: &Path, what: &str, limit: u64, why: &str) -> Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path).with_context(|| format!("cannot read {what}"))?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).with_context(|| format!("cannot read {what}"))?;
    if bytes.len() as u64 > limit {
        bail!("{what} is larger than {} MiB; {why}", limit >> 20);
    }
    String::from_utf8(bytes).with_context(|| format!("{what} is not UTF-8 text"))
}

/// `name` as the path of a spec file, if it is one.
pub(crate) fn spec_path(name: &str) -> Option<&Path> {
    let path = Path::new(name);
    (name.ends_with(".toml")
        || name.contains(std::path::MAIN_SEPARATOR)
        || name.contains('/')
        || path.is_file())
    .then_some(path)
}

/// Where a table to analyse comes from: the arguments `patterns`, `check` and `plot` share.
#[derive(Debug, clap::Args)]
pub(crate) struct TableArgs {
    /// A game (catalog name or spec file) to compute, or a CSV table written by `grundy compute`.
    pub(crate) source: String,
    /// The size to compute a game at (not for CSV tables).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) size: Option<String>,
    /// No progress bar.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Take the 2-D slice of a 3-D table where an axis has one coordinate, e.g. `z=5`.
    #[arg(long, value_name = "AXIS=COORD")]
    pub(crate) slice: Option<String>,
    /// The play convention (not for tables read from files).
    #[command(flatten)]
    pub(crate) play: crate::play::PlayArg,
}

impl TableArgs {
    /// The game and the shape to compute it at, for `--stream`: a game (not a CSV table) and a
    /// size.
    pub(crate) fn game_to_stream(&self) -> Result<(Game, TableShape)> {
        if is_table_file(&self.source) {
            bail!("--stream computes a game; {} is a table to read", self.source);
        }
        if self.slice.is_some() {
            bail!(
                "--slice takes a slice of a table in memory; it cannot be combined with --stream"
            );
        }
        let game = self.play.apply(load_game(&self.source)?);
        let Some(size) = self.size.as_deref() else {
            bail!("--size is needed to compute {}", self.source)
        };
        let shape = TableShape::new(&game, &parse_coords(size, "size")?, size)?;
        Ok((game, shape))
    }

    /// Loads the table (its slice, with `--slice`), computing a game's on `threads` (the
    /// command's pool, on which the analyses run too, so that `--threads` bounds the whole
    /// command) with `bar` showing the fill. A game's table is computed only if it fits in
    /// memory together with what `analysis` holds besides.
    pub(crate) fn load(&self, runtime: &Runtime, bar: &Bar, analysis: Analysis) -> Result<Table> {
        if self.play.given().is_some() && is_table_file(&self.source) {
            bail!(
                "--misere and --play apply to games; {} is a table that is read as it is",
                self.source
            );
        }
        let loaded =
            load_table(&self.source, self.size.as_deref(), self.play, runtime, bar, analysis)?;
        match &self.slice {
            Some(slice) => sliced(loaded, slice),
            None => Ok(loaded),
        }
    }
}

/// The 2-D slice that `spec` (`AXIS=COORD`) names of a 3-D table. The slice is no game of its
/// own, so no theorem is applied to it.
pub(crate) fn sliced(table: Table, spec: &str) -> Result<Table> {
    let (axis, at) = slice_of(spec, table.name(), table.data().shape())?;
    let name = table.name().to_string();
    table.slice(axis, at).ok_or_else(|| {
        anyhow::anyhow!("--slice: {name} is a loopy game's table, which has no slices")
    })
}

/// The axis and coordinate that `spec` (`AXIS=COORD`) names in a 3-D table of `shape` called
/// `name`: checked before the table is computed (`view` refuses a bad slice at once, as `plot`
/// does).
pub(crate) fn slice_of(spec: &str, name: &str, shape: &TableShape) -> Result<(usize, i64)> {
    let axes = shape.axes();
    let names = || axes.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ");
    let Some((axis_name, coord)) = spec.split_once('=') else {
        bail!("malformed --slice `{spec}`: write AXIS=COORD, e.g. {}=5", axes[0].name)
    };
    let (axis_name, coord) = (axis_name.trim(), coord.trim());
    if axes.len() != 3 {
        bail!(
            "--slice takes a 2-D slice of a 3-D table, but {name} has {}",
            grundy_core::counted(axes.len(), "axis", "axes")
        );
    }
    let Some(axis) = axes.iter().position(|a| a.name == axis_name) else {
        bail!("--slice `{spec}`: {name} has no axis `{axis_name}` (its axes: {})", names())
    };
    let Ok(at) = coord.parse::<i64>() else {
        bail!("--slice `{spec}`: `{coord}` is not a whole number")
    };
    let (min, max) = (axes[axis].min, shape.max()[axis]);
    if !(min..=max).contains(&at) {
        bail!("--slice `{spec}`: {axis_name} runs from {min} to {max} in this table");
    }
    Ok((axis, at))
}

/// What a command holds besides the table while it works on it, measured with `/usr/bin/time`
/// (issue 19: `patterns kiki --size 8000x8000` peaked at 6.1 times the table the memory check
/// counted).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Analysis {
    /// `value`, `check`: nothing.
    None,
    /// `plot`: the image and its rows ([`grundy_plot::PLOT_BYTES_PER_CELL`]).
    Plot,
    /// `patterns`: [`grundy_laws::analysis_bytes`].
    Patterns,
    /// `view`: [`grundy_view::view_bytes`] (the tiles' summaries and the patterns overlay).
    View,
}

impl Analysis {
    /// What it is, as a refusal names it.
    fn name(self) -> &'static str {
        match self {
            Analysis::None => "nothing",
            Analysis::Plot => "the picture",
            Analysis::Patterns => "the analysis",
            Analysis::View => "the view's tiles and analysis",
        }
    }

    /// The bytes per cell it holds (rounded up from the measurements).
    fn bytes_per_cell(self) -> u64 {
        match self {
            Analysis::None => 0,
            Analysis::Plot => grundy_plot::PLOT_BYTES_PER_CELL,
            Analysis::Patterns => grundy_laws::ANALYSIS_BYTES_PER_CELL,
            // The summaries take 8 bytes per 64 cells: rounded up to one a cell.
            Analysis::View => grundy_laws::ANALYSIS_BYTES_PER_CELL + 1,
        }
    }

    /// The bytes per row, column and diagonal of a 2-D table ([`grundy_core::board_lines`]).
    fn bytes_per_line(self) -> u64 {
        match self {
            Analysis::None | Analysis::Plot => 0,
            Analysis::Patterns | Analysis::View => grundy_laws::ANALYSIS_BYTES_PER_LINE,
        }
    }

    /// The bytes it holds for a table of `shape`.
    fn bytes_for(self, shape: &TableShape) -> u128 {
        match self {
            Analysis::Patterns => grundy_laws::analysis_bytes(&shape.lens()),
            Analysis::View => grundy_view::view_bytes(&shape.lens()),
            _ => shape.cells() * u128::from(self.bytes_per_cell()),
        }
    }
}

/// Whether `source` names a table file rather than a game: a CSV table (plain or
/// gzip-compressed), a b-file (`.b`, as `compute --format bfile` writes it; plain or gzipped), a
/// numpy array (`.npy`) or a Parquet table (`.parquet`, as `compute --format parquet` writes it).
pub(crate) fn is_table_file(source: &str) -> bool {
    source.ends_with(".csv")
        || source.ends_with(".csv.gz")
        || source.ends_with(".npy")
        || source.ends_with(".parquet")
        || is_bfile(source)
}

/// Reads the table file `source` (see [`is_table_file`]) within the memory available, as the
/// analyses read it.
pub(crate) fn read_table_file(source: &str, runtime: &Runtime) -> Result<Table> {
    debug_assert!(is_table_file(source));
    let bar = Bar::new(0, true);
    load_table(source, None, crate::play::PlayArg::default(), runtime, &bar, Analysis::None)
}

fn is_bfile(source: &str) -> bool {
    source.ends_with(".b") || source.ends_with(".b.gz")
}

/// Loads the table that `source` names: a `.csv` or `.csv.gz` file (then `size` must be absent),
/// or a game computed up to `size` on `threads`.
fn load_table(
    source: &str,
    size: Option<&str>,
    play: crate::play::PlayArg,
    runtime: &Runtime,
    bar: &Bar,
    analysis: Analysis,
) -> Result<Table> {
    let read_budget = || runtime.memory().read_budget();
    if is_table_file(source) {
        if size.is_some() {
            bail!("--size applies to games; {source} is a table that is read as it is");
        }
        let file = std::fs::File::open(source).with_context(|| format!("cannot read {source}"))?;
        let file = std::io::BufReader::new(file);
        if source.ends_with(".npy") {
            // The cells and what the analysis holds per cell (at least one byte a cell).
            let most = read_budget() / (1 + analysis.bytes_per_cell());
            let table = read_npy_table(file, most)
                .with_context(|| format!("cannot read numpy array {source}"))?;
            return Ok(Table::without_game(table, CellKind::Values, source));
        }
        if source.ends_with(".parquet") {
            // The reader counts what it holds a cell; the analysis holds more.
            let file = file.into_inner();
            let read = grundy_parquet::read_parquet(file, read_budget(), analysis.bytes_per_cell())
                .with_context(|| format!("cannot read Parquet table {source}"))?;
            return Ok(Table::without_game(read.table, read.cells, source));
        }
        if is_bfile(source) {
            // Values and what the analysis holds per value, within the memory available.
            let per_value = 4 + analysis.bytes_per_cell();
            let most = read_budget() / per_value;
            let read = if source.ends_with(".gz") {
                read_bfile(
                    std::io::BufReader::new(flate2::bufread::MultiGzDecoder::new(file)),
                    most,
                )
            } else {
                read_bfile(file, most)
            };
            let table = read.with_context(|| format!("cannot read b-file {source}"))?;
            return Ok(Table::without_game(table, CellKind::Values, source));
        }
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
    let game = play.apply(load_game(source)?);
    let Some(size) = size else {
        bail!("--size is needed to compute {source} (or give a .csv table written by `grundy compute`)")
    };
    let max = parse_coords(size, "size")?;
    let shape = TableShape::new(&game, &max, size)?;
    fill_table(&game, &shape, runtime, bar, analysis)
}

/// The in-memory fill of `game` over `shape` on `runtime` with the fastest engine, once the
/// memory check has passed for the table and what `analysis` holds besides.
pub(crate) fn prepare_fill<'g>(
    game: &'g Game,
    shape: &'g TableShape,
    runtime: &Runtime,
    analysis: Analysis,
) -> Result<grundy_compute::TableFill<'g>> {
    let request = FillRequest { runtime: runtime.clone(), ..FillRequest::new(game, shape) };
    Ok(request.table(&besides(game, shape, analysis))?)
}

/// What a fill of `game` over `shape` holds besides the table: a heap game's fill watches for a
/// proved period before the analysis holds its bytes.
fn besides(game: &Game, shape: &TableShape, analysis: Analysis) -> Besides {
    let watch = grundy_laws::answered::watch(game, shape);
    Besides::one_after_another([watch, (analysis.name(), analysis.bytes_for(shape))])
}

/// Fills the table of any game (`shape`: a loopy game's holds every position its moves reach)
/// in memory on `runtime` with the library's engine (the exact misère search and the
/// retrograde kernel included), after checking that it fits together with what `analysis`
/// holds besides; `bar` shows it. A heap game whose period a theorem proves is searched only
/// as far as the proof.
pub(crate) fn fill_table(
    game: &Game,
    shape: &TableShape,
    runtime: &Runtime,
    bar: &Bar,
    analysis: Analysis,
) -> Result<Table> {
    let request = FillRequest { runtime: runtime.clone(), ..FillRequest::new(game, shape) };
    let fill = request.whole(&besides(game, shape, analysis))?;
    bar.start(shape.cells() as u64);
    let table =
        grundy_laws::answered::fill_whole(&fill, bar, None).context("cannot compute the table")?;
    bar.finish();
    Ok(table)
}
