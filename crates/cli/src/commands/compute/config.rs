//! What a `compute` run does: the raw arguments ([`Args`], clap's), validated once into a
//! [`Config`] (ripgrep's low-args → high-args): the options that are the command line's own (formats, files) here; which fill
//! runs, on which threads and whether it may run at all, in the library's
//! `grundy_compute::FillRequest`, whose refusals [`Config::refusal`] puts in the command line's
//! words.

use super::writers::output::{ProvenanceTo, Run};
use super::writers::{self, Format, Holding, Row};
use crate::checkpoint::Checkpoint;
use crate::load::load_game;
use crate::output::{same_file, Overwrite};
use anyhow::{anyhow, bail, Result};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use grundy_compute::retrograde::LoopyRefusal;
use grundy_compute::{
    Content, Engine, FillRequest, Layout, RequestError, RequestErrorKind, Resumable, RowsTo,
    Runtime,
};
use grundy_core::{parse_coords, CellKind, Game, TableShape};
use std::path::{Path, PathBuf};
use std::time::Duration;

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
    /// line (heap games); `summary`: a JSON object with cells, sum, max, p_positions and seconds;
    /// `rare`: CSV `heap,value` of a take-and-break game's rare heaps (those the summary's
    /// `rare_mask` and `rare_class` make rare, from heap 1 on), to compare with published lists;
    /// `parquet`: a Parquet file (needs --out FILE), one column per axis and `g` (or `outcome`
    /// with --outcome), the narrowest integer types, zstd, row groups of 2^20 rows (so --stream
    /// writes it in bounded memory), its provenance in the file's metadata.
    /// The default is the format --out's extension names (`.npy`, `.parquet`, `.b`, `.json`),
    /// else `grid`, and `long` for 3-D games.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write P (value 0, the player to move loses) or N instead of the values (grid and long).
    #[arg(long)]
    outcome: bool,
    /// Say where the table came from: the game's rules as a spec, grundy's version and git
    /// revision, the command, the date, the engine and a SHA-256 of the values. CSV gets it as
    /// `#` comment lines (a header, and the checksum as the last line; off by default so that
    /// plain CSV readers keep working); a .npy or b-file written to a file always gets it as
    /// FILE.json beside it. `grundy show FILE` prints it and checks the values against it.
    #[arg(long, conflicts_with = "no_provenance")]
    provenance: bool,
    /// No FILE.json beside a .npy or b-file.
    #[arg(long)]
    no_provenance: bool,
    /// The play convention; under misère play a heap game's table adds each heap's genus and
    /// whether it is tame (an exact search over sums when moves split heaps).
    #[command(flatten)]
    play: crate::play::PlayArg,
    /// With --misere on a heap game: the most seconds the exact search over sums may run.
    #[arg(long, value_name = "SECONDS", default_value_t = grundy_compute::misere::SearchLimits::DEFAULT_SECONDS)]
    search_seconds: u64,
    /// Search every value of a heap game, even past the period a theorem proves (by default
    /// the values past the proof come from the period: Kayles to 10^9 heaps in a second).
    #[arg(long)]
    search_all: bool,
    /// The engine: `auto` (the default: `sparse` for the heap games it computes, `tiles` for
    /// the others), `sparse` (the rare/common method for heap games whose moves leave at most two
    /// heaps), `tiles` (parallel tile-waves, line accumulators), `waves` (parallel cell waves),
    /// `reference` (plain, single-threaded, the correctness oracle) or `retrograde` (the whole
    /// board's game graph, labelled round by round: what a loopy game runs, `auto` included).
    #[arg(long, default_value = "auto", value_parser = engine())]
    engine: Engine,
    /// Compute band by band (rows of tiles), keeping only the rows the moves reach back (2-D
    /// games whose moves do not run down whole columns): for tables larger than memory. The
    /// bands are the tiles engine's: `--engine auto` or `tiles`.
    #[arg(long)]
    stream: bool,
    /// Save the finished waves (tile-waves; rows with --stream, which then needs --format
    /// summary; a loopy game's labelling after a round) to FILE every --checkpoint-every seconds
    /// and on Ctrl-C (SIGINT/SIGTERM, which then stops the run); run the same command again to
    /// resume from it. Deleted once the table is written.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between checkpoint saves (0: after every wave or round).
    #[arg(long, value_name = "SECONDS", default_value_t = 60, requires = "checkpoint")]
    checkpoint_every: u64,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// The engine as clap reads it: the library's names.
fn engine() -> impl TypedValueParser<Value = Engine> {
    PossibleValuesParser::new(Engine::NAMES)
        .map(|name| name.parse::<Engine>().expect("clap checked the name"))
}

/// What a `compute` run does: every cross-flag check is in [`Config::from_args`] (and the
/// library's in [`FillRequest::prepare`]), so the rest of the command never checks a flag
/// combination.
pub(super) struct Config {
    /// What the writers know of the run too.
    pub(super) run: Run,
    pub(super) mode: Mode,
    pub(super) engine: Engine,
    /// With `--misere` on a heap game: the exact search's seconds.
    pub(super) search_seconds: u64,
    /// `--search-all`: no proved period answers the heaps past its proof.
    pub(super) search_all: bool,
    /// How the run holds the cells it writes (the writer table's column).
    pub(super) holding: Holding,
    /// The ranks of an MPI job, when the run is one of them.
    pub(super) ranks: Option<usize>,
}

/// How the table is held while it is computed.
pub(super) enum Mode {
    /// The whole table in memory, saved to a checkpoint when one is given.
    InMemory { checkpoint: Option<CheckpointConfig> },
    /// Row by row (`--stream`), the ring of rows saved to a checkpoint when one is given
    /// (`--format summary` only).
    Streamed { checkpoint: Option<CheckpointConfig> },
}

impl Mode {
    pub(super) fn checkpoint(&self) -> Option<&CheckpointConfig> {
        match self {
            Mode::InMemory { checkpoint } | Mode::Streamed { checkpoint } => checkpoint.as_ref(),
        }
    }
}

/// `--checkpoint FILE` and `--checkpoint-every SECONDS`.
pub(super) struct CheckpointConfig {
    pub(super) path: PathBuf,
    pub(super) every: Duration,
}

impl Config {
    /// Validates `args` for a run in one process (`ranks` `None`) or as one rank of a job of
    /// `ranks`: the game, the size, the format for what the run holds (the writer table's
    /// refusals), the files.
    pub(super) fn from_args(args: Args, runtime: &Runtime, ranks: Option<usize>) -> Result<Config> {
        let game = args.play.apply(load_game(&args.game)?);
        let max = parse_coords(&args.size, "size")?;
        let shape = TableShape::new(&game, &max, &args.size)?;
        // What the table holds decides what may be written of it: a misère heap game's genus
        // columns come from the whole table at once; a loopy game's labels are no values.
        let content = Content::of(&game);
        let genera = content == Content::Genera;
        if genera && args.checkpoint.is_some() {
            bail!(
                "--checkpoint: a misère heap game's genera come from the exact search over sums, \
                 which has no waves to save; run it without --checkpoint"
            );
        }
        if genera && args.stream {
            bail!("--stream applies to boards; a misère heap game's genera come from the exact search");
        }
        let holding = Holding::of(content, ranks, args.stream);
        let format = format_of(&args, &game, &shape, holding)?;
        let checkpoint = checkpoint_of(&args)?;
        let provenance = provenance_of(&args, format, content, &game)?;
        // A link where the sidecar goes was not made by grundy: refused before anything is
        // computed or written (issue 50: it was written through).
        if let (ProvenanceTo::Sidecar, Some(out)) = (provenance, args.out.as_deref()) {
            crate::derived::exists(&crate::provenance::sidecar_path(out))?;
        }
        Ok(Config {
            run: Run {
                game,
                max,
                shape,
                format,
                cells: if args.outcome { CellKind::Outcomes } else { CellKind::Values },
                runtime: runtime.clone(),
                quiet: args.quiet,
                out: args.out,
                overwrite: if args.force { Overwrite::Force } else { Overwrite::IfWritable },
                provenance,
            },
            mode: if args.stream {
                Mode::Streamed { checkpoint }
            } else {
                Mode::InMemory { checkpoint }
            },
            engine: args.engine,
            search_seconds: args.search_seconds,
            search_all: args.search_all,
            holding,
            ranks,
        })
    }

    /// This run's writer, from its format's row of the writer table (`pick` names the column):
    /// the refusal, in the command line's words, where the format cannot write it.
    pub(super) fn writer<W>(
        &self,
        pick: impl FnOnce(Row) -> Result<W, writers::Refused>,
    ) -> Result<W> {
        pick(writers::row(self.run.format)).map_err(|why| writers::refusal(self.run.format, why))
    }

    /// The checkpoint `--checkpoint` names, opened (or made), and how often it is saved.
    pub(super) fn open_checkpoint(&self) -> Result<Option<(Checkpoint, Duration)>> {
        let Some(c) = self.mode.checkpoint() else { return Ok(None) };
        let checkpoint =
            Checkpoint::open(&c.path, &self.run.game, &self.run.max, self.run.overwrite)?;
        Ok(Some((checkpoint, c.every)))
    }

    /// The library's watch for a proved period over `fill` (a heap game's, when a theorem covers
    /// it), unless `--search-all`.
    pub(super) fn period_watch<'c>(
        &'c self,
        fill: &grundy_compute::TableFill<'_>,
    ) -> Option<grundy_laws::answered::PeriodWatch<'c>> {
        if self.search_all {
            return None;
        }
        grundy_laws::answered::PeriodWatch::new(&self.run.game, fill)
    }

    /// The fill this run asks the library for: in one process, or as one rank of a job.
    pub(super) fn request(&self) -> FillRequest<'_> {
        let rows =
            if self.run.format == Format::Summary { RowsTo::Summary } else { RowsTo::Writer };
        let resumable =
            if self.mode.checkpoint().is_some() { Resumable::Yes } else { Resumable::No };
        let layout = match (self.ranks, &self.mode) {
            (Some(ranks), _) => Layout::Distributed { ranks, rows, resumable },
            (None, Mode::InMemory { .. }) => Layout::InMemory { resumable },
            (None, Mode::Streamed { .. }) => Layout::Streamed { rows, resumable },
        };
        FillRequest {
            engine: self.engine,
            runtime: self.run.runtime.clone(),
            layout,
            search_seconds: self.search_seconds,
            ..FillRequest::new(&self.run.game, &self.run.shape)
        }
    }

    /// A refusal of the library's, in the command line's words: the options that asked for it.
    pub(super) fn refusal(&self, err: RequestError) -> anyhow::Error {
        let game = self.run.game.name();
        let distributed = "under mpirun";
        match err.into_kind() {
            RequestErrorKind::NotSparse(why) => {
                anyhow!("--engine sparse cannot compute {game}: {why}")
            }
            RequestErrorKind::ReferenceNotResumable => anyhow!(
                "--checkpoint needs the tiles or waves engine: the reference fill has no waves to \
                 save between"
            ),
            RequestErrorKind::RowsNotResumable if matches!(self.mode, Mode::Streamed { .. }) => {
                anyhow!(
                    "--checkpoint with --stream needs --format summary: streamed {} rows go out \
                     as they are computed and cannot be taken up again",
                    self.run.format.name()
                )
            }
            RequestErrorKind::RowsNotResumable => anyhow!(
                "--checkpoint {distributed} needs --format summary: rank 0 writes the rows as they \
                 come, and written rows cannot be taken up again"
            ),
            RequestErrorKind::NotTiles { layout: Layout::Distributed { .. }, .. } => anyhow!(
                "{distributed} the ranks share the tiles engine's work; --engine auto or tiles, \
                 not another engine"
            ),
            RequestErrorKind::NotTiles { engine, .. } => anyhow!(
                "--stream runs the tiles engine band by band; --engine auto or tiles, not {engine}"
            ),
            RequestErrorKind::EveryRowNotResumable => anyhow!(
                "--checkpoint {distributed} needs a game whose moves reach back a bounded number \
                 of rows; {game}'s read whole columns, so every rank keeps every row: run it in \
                 one process with --checkpoint"
            ),
            RequestErrorKind::NoStream(why) => anyhow!("cannot stream {game}: {why}"),
            RequestErrorKind::NoBands(why) => anyhow!("cannot share {game} among ranks: {why}"),
            RequestErrorKind::TooLarge(too_large) => anyhow!("{too_large:#}"),
            kind @ RequestErrorKind::MisereSums { .. }
                if !matches!(self.engine, Engine::Auto | Engine::Search) =>
            {
                anyhow!(
                    "--engine {}: {}; leave --engine out",
                    self.engine,
                    RequestError::from(kind)
                )
            }
            kind @ RequestErrorKind::MisereSums { .. } => anyhow!(
                "{}; `grundy value --misere {game} POS` answers its positions and their sums",
                RequestError::from(kind)
            ),
            RequestErrorKind::NotSearch { .. } => anyhow!(
                "--engine search computes misère tables of heap games whose moves leave sums; \
                 {game}'s table is filled cell by cell (leave --engine out)"
            ),
            kind @ RequestErrorKind::Loopy(LoopyRefusal::Layout) => anyhow!(
                "{}; --checkpoint alone (without --stream) saves its labelling between rounds",
                RequestError::from(kind)
            ),
            other => anyhow!("{}", RequestError::from(other)),
        }
    }
}

/// How a run holds the cells it writes (the writer table's column), from what the game's
/// table holds and where it runs.
impl Holding {
    fn of(content: Content, ranks: Option<usize>, stream: bool) -> Holding {
        match (content, ranks, stream) {
            (Content::Labels, ..) => Holding::Labels,
            (Content::Genera, ..) => Holding::Genera,
            (Content::Values, Some(_), _) => Holding::Ranks,
            (Content::Values, None, true) => Holding::Rows,
            (Content::Values, None, false) => Holding::Table,
        }
    }
}

/// The format asked for (or the one `--out`'s extension names), once the writer table and the
/// game's shape allow it.
fn format_of(args: &Args, game: &Game, shape: &TableShape, holding: Holding) -> Result<Format> {
    let format = match args.format {
        Some(Format::Grid) if game.dims() == 3 => {
            bail!("a 3-D table has no grid format; use --format long (the default for 3-D games)")
        }
        Some(format) => format,
        None => match args.out.as_deref().and_then(Format::of_extension) {
            // A .npy, .parquet, .b or .json file gets that format.
            Some(format) => format,
            None if game.dims() == 3 => Format::Long,
            None => Format::Grid,
        },
    };
    if args.outcome && !matches!(format, Format::Grid | Format::Long | Format::Parquet) {
        bail!(
            "--outcome applies to the grid, long and parquet formats, not to --format {}",
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
    if let Some(why) = writers::row(format).refused(holding) {
        return Err(writers::refusal(format, why));
    }
    if format == Format::Parquet && args.out.as_deref().is_none_or(|out| out == Path::new("-")) {
        bail!("--format parquet writes a file (Parquet's footer is written last): give --out FILE");
    }
    if format == Format::Rare {
        if let Err(why) = grundy_compute::has_sparse_records(game, shape) {
            bail!(
                "--format rare lists the rare heaps of games the sparse-space method reads, and \
                 {} is not one: {why}",
                game.name()
            );
        }
    }
    Ok(format)
}

/// `--checkpoint FILE` and `--checkpoint-every`, when given: a file of its own.
fn checkpoint_of(args: &Args) -> Result<Option<CheckpointConfig>> {
    let Some(path) = args.checkpoint.clone() else { return Ok(None) };
    if path == Path::new("-") || path.is_dir() {
        bail!("--checkpoint needs a file path");
    }
    // The checkpoint is deleted once the output is written: two files.
    if args.out.as_deref().is_some_and(|out| same_file(out, &path)) {
        bail!(
            "--checkpoint and --out name the same file ({}); the checkpoint is deleted once the \
             table is written",
            path.display()
        );
    }
    Ok(Some(CheckpointConfig { path, every: Duration::from_secs(args.checkpoint_every) }))
}

/// Where the table's provenance goes, for `format` and what the table holds.
fn provenance_of(
    args: &Args,
    format: Format,
    content: Content,
    game: &Game,
) -> Result<ProvenanceTo> {
    let to_file = args.out.as_deref().is_some_and(|out| out != Path::new("-"));
    let provenance = match format {
        Format::Grid | Format::Long if args.provenance => ProvenanceTo::CsvComments,
        // A loopy game's table holds labels for ∞; a misère heap game's has genus columns:
        // neither is a table of values to check (yet).
        _ if content != Content::Values => ProvenanceTo::Nowhere,
        Format::Npy | Format::Bfile if to_file && !args.no_provenance => ProvenanceTo::Sidecar,
        Format::Parquet if !args.no_provenance => ProvenanceTo::Metadata,
        Format::Npy | Format::Bfile if args.provenance => bail!(
            "--provenance with --format {} writes FILE.json beside the table: give --out FILE",
            format.name()
        ),
        Format::Summary | Format::Rare if args.provenance => bail!(
            "--provenance goes with a table (grid, long, npy or bfile), not --format {}",
            format.name()
        ),
        _ => ProvenanceTo::Nowhere,
    };
    if args.provenance && content != Content::Values {
        bail!(
            "--provenance checks a table of values, and {}'s table is {}",
            game.name(),
            content.described()
        );
    }
    Ok(provenance)
}
