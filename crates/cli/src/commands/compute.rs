use super::{fill_table, load_game};
use crate::output::write_json_line;
use crate::output::Destination;
use crate::progress::Bar;
use crate::resources::check_memory;
use anyhow::anyhow;
use anyhow::{bail, Result};
use clap::ValueEnum;
use grundy_compute::{planned_width, stream_rows, streaming_rows, Engine, Progress};
use grundy_core::table::CsvRows;
use grundy_core::{parse_coords, write_csv, CellWidth, CsvLayout, Game, TableShape, TableStats};
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Compute the Grundy table of GAME over every position up to SIZE.
///
/// Examples: `grundy compute kiki --size 2000x2000 --out kiki.csv`,
/// `grundy compute octal:0.77 --size 1000 --format summary`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A catalog game (see `grundy games`), e.g. `cutting`, `subtraction:2,5`, `octal:0.77`, or a
    /// path to a spec file (see `grundy show`).
    game: String,
    /// The largest coordinate on each axis, inclusive: `N` for heap games, `RxC` for boards.
    #[arg(long, allow_hyphen_values = true)]
    size: String,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// `grid`: one CSV row per row coordinate; `long`: one CSV line per cell; `summary`: a JSON
    /// object with cells, sum, max, p_positions and seconds.
    #[arg(long, value_enum, default_value_t = Format::Grid)]
    format: Format,
    /// Write P (value 0, the player to move loses) or N instead of the values.
    #[arg(long)]
    outcome: bool,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// The engine: `tiles` (parallel tile-waves, line accumulators), `waves` (parallel cell
    /// waves) or `reference` (plain, single-threaded, the correctness oracle).
    #[arg(long, value_enum, default_value_t = EngineArg::Tiles)]
    engine: EngineArg,
    /// Compute row by row, keeping only the rows the moves reach back (2-D games whose moves do
    /// not run down whole columns): for tables larger than memory.
    #[arg(long)]
    stream: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Grid,
    Long,
    Summary,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EngineArg {
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
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let game = load_game(&args.game)?;
    let max = parse_coords(&args.size, "size")?;
    let shape = TableShape::new(&game, &max, &args.size)?;
    if args.format == Format::Grid && game.dims() == 3 {
        bail!("a 3-D table has no grid format; use --format long");
    }
    if args.format == Format::Summary && args.outcome {
        bail!("--outcome applies to the grid and long formats, not to --format summary");
    }
    let destination = Destination::open(args.out.as_deref())?;
    if args.stream {
        return run_streaming(&args, &game, &shape, &max, destination);
    }
    if let Err(too_large) = check_memory(&shape, planned_width(&game, &shape)) {
        // Refused before anything is allocated; say when --stream would do it.
        if streaming_rows(&game, &shape).is_ok() {
            bail!("{too_large:#}; --stream computes it row by row in little memory");
        }
        return Err(too_large);
    }
    let engine = match args.engine {
        EngineArg::Tiles => Engine::Tiles,
        EngineArg::Waves => Engine::Waves,
        EngineArg::Reference => Engine::Reference,
    };
    let start = Instant::now();
    let table = fill_table(&game, &shape, engine, args.threads.map(usize::from), args.quiet)?;
    let seconds = start.elapsed().as_secs_f64();
    match args.format {
        Format::Summary => {
            let stats = table.stats();
            let summary = Summary {
                game: game.name(),
                size: &max,
                cells: stats.cells,
                sum: stats.sum,
                max: stats.max,
                p_positions: stats.p_positions,
                seconds,
            };
            destination.write_with(|out| write_json_line(out, &summary))?
        }
        Format::Grid | Format::Long => {
            let layout =
                if args.format == Format::Grid { CsvLayout::Grid } else { CsvLayout::Long };
            destination.write_with(|out| write_csv(&table, layout, args.outcome, out))?
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `compute --stream`: the table row by row, each row written (or summed up) as soon as it is
/// final.
fn run_streaming(
    args: &Args,
    game: &Game,
    shape: &TableShape,
    max: &[i64],
    destination: Destination,
) -> Result<ExitCode> {
    let kept = streaming_rows(game, shape)
        .map_err(|why| anyhow!("cannot stream {}: {why}", game.name()))?;
    let lens = shape.lens();
    // The ring of kept rows is what the stream needs beyond the line sets.
    check_memory(
        &TableShape::from_axes(
            shape.axes().to_vec(),
            vec![shape.axes()[0].min + kept as i64 - 1, max[1]],
        ),
        CellWidth::U32,
    )?;
    let bar = Bar::new(shape.cells() as u64, args.quiet);
    let start = Instant::now();
    match args.format {
        Format::Summary => {
            let mut stats = TableStats { cells: 0, sum: 0, max: 0, p_positions: 0 };
            stream_rows(game, shape, |row| {
                for &v in row {
                    stats.cells += 1;
                    stats.sum += u64::from(v);
                    stats.max = stats.max.max(v);
                    stats.p_positions += u64::from(v == 0);
                }
                bar.advance(row.len() as u64);
                Ok::<(), std::convert::Infallible>(())
            })
            .unwrap_or_else(|never| match never {});
            let summary = Summary {
                game: game.name(),
                size: max,
                cells: stats.cells,
                sum: stats.sum,
                max: stats.max,
                p_positions: stats.p_positions,
                seconds: start.elapsed().as_secs_f64(),
            };
            destination.write_with(|out| write_json_line(out, &summary))?
        }
        Format::Grid | Format::Long => {
            let layout =
                if args.format == Format::Grid { CsvLayout::Grid } else { CsvLayout::Long };
            destination.write_with(|out| {
                let mut rows = CsvRows::new(shape.axes(), &lens, layout, args.outcome, out)?;
                stream_rows(game, shape, |row| {
                    bar.advance(row.len() as u64);
                    rows.write_row(row)
                })?;
                rows.finish()
            })?
        }
    }
    bar.finish();
    Ok(ExitCode::SUCCESS)
}
