use super::{is_csv_table, load_game, SequenceRecords, TableArgs};
use crate::output::write_json_line;
use crate::progress::Bar;
use crate::resources::check_memory;
use anyhow::{bail, Context, Result};
use grundy_compute::{Control, Engine, FillConfig, TableFill};
use grundy_core::{parse_coords, Cell, CellWidth, Game, GrundyTable, Table, TableShape};
use grundy_patterns::proofs::has_periodicity_theorem;
use grundy_patterns::{analyze, BoardReport, ErrorKind, LineReport, Report, SequenceReport};
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;

/// Find the laws behind a table: the period (with preperiod and saltus) of a heap game, proved
/// where a theorem allows; for boards the period and an exact rule for the P-positions and the
/// values, symmetry, separable P-sets, and the period of every row, column and diagonal.
///
/// Examples: `grundy patterns kayles --size 1000`, `grundy patterns kiki --size 200x200`,
/// `grundy patterns table.csv --json`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    table: TableArgs,
    /// Print the full report as JSON.
    #[arg(long)]
    json: bool,
    /// Compute more values of a heap game until a periodicity theorem proves its period (the
    /// Octal Periodicity Theorem, or the window of a finite subtraction game): from --size (4095
    /// by default) the size grows to what the theorem needs, at least by a quarter each round.
    #[arg(long)]
    until_proved: bool,
    /// The largest heap size --until-proved computes.
    #[arg(long, requires = "until_proved", value_name = "N", default_value_t = 1 << 27,
          value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
    limit: u64,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    if args.until_proved {
        return until_proved(&args);
    }
    let (report, records) = args.table.install(|| {
        let loaded = args.table.load(args.json)?;
        let report = analyze(&loaded).map_err(|err| match err.kind() {
            ErrorKind::Axes { dims } => anyhow::anyhow!(
                "patterns analyses 1-D and 2-D tables; this one has {dims} axes (take a 2-D \
                     slice with --slice AXIS=COORD)"
            ),
            _ => anyhow::Error::from(err),
        })?;
        Ok((report, SequenceRecords::of(loaded.game(), loaded.data())))
    })?;
    print_report(&args, &report, records.as_ref(), None)
}

/// How an `--until-proved` search went.
#[derive(Serialize)]
struct Search {
    /// Values computed in the last round (heap sizes from the axis' smallest).
    values: usize,
    /// Rounds of computing.
    rounds: usize,
    /// The largest heap size allowed.
    limit: u64,
}

/// `patterns GAME --until-proved`: rounds of computing and analysing, each larger, until the
/// period is proved or the limit is reached.
fn until_proved(args: &Args) -> Result<ExitCode> {
    let source = &args.table.source;
    if is_csv_table(source) {
        bail!("--until-proved computes a game; {source} is a table to read");
    }
    let game = load_game(source)?;
    if game.dims() != 1 {
        bail!(
            "--until-proved proves the periods of heap games; {} has {}",
            game.name(),
            grundy_core::counted(game.dims(), "axis", "axes")
        );
    }
    if !has_periodicity_theorem(&game) {
        bail!(
            "--until-proved needs a game a periodicity theorem covers (octal codes, finite \
             subtraction sets); none covers {}",
            game.name()
        );
    }
    let min = game.axes()[0].min;
    let start = match args.table.size.as_deref() {
        Some(size) => parse_coords(size, "size")?[0],
        None => min + 4095,
    };
    let limit = i64::try_from(args.limit).expect("at most 2^32");
    let mut max = start.min(limit).max(min);
    let mut rounds = 0;
    let mut previous: Option<GrundyTable> = None;
    loop {
        rounds += 1;
        let shape = TableShape::new(&game, &[max], &max.to_string())?;
        let (report, records, table) = args.table.install(|| {
            let quiet = args.table.quiet || args.json;
            let table = extend_table(&game, &shape, previous.take(), args.table.threads(), quiet)?;
            let records = SequenceRecords::of(Some(&game), &table);
            let described = Table::of_game(game.clone(), table);
            Ok((analyze(&described)?, records, described.into_data()))
        })?;
        previous = Some(table);
        let Report::Sequence(sequence) = &report else { unreachable!("a heap game") };
        let len = sequence.sequence.searched.length;
        let needed = sequence.sequence.needed_length.unwrap_or(0);
        if sequence.sequence.proved || max >= limit {
            let search = Search { values: len, rounds, limit: args.limit };
            return print_report(args, &report, records.as_ref(), Some(&search));
        }
        // What the theorem needs if a period was seen, else twice as much; a quarter more at
        // least, so that the rounds cost at most a few times the last one.
        let next_len = if needed > len { needed.max(len + len / 4) } else { 2 * len };
        max = (min + next_len as i64 - 1).min(limit);
    }
}

/// The table of `game` over `shape` (a longer sequence than `previous`, if given), going on
/// from the waves of `previous` that are final in it instead of computing them again: each
/// `--until-proved` round costs only its new heap sizes.
fn extend_table(
    game: &Game,
    shape: &TableShape,
    previous: Option<GrundyTable>,
    threads: Option<usize>,
    quiet: bool,
) -> Result<GrundyTable> {
    let config = FillConfig { engine: Engine::Auto, threads, tile_side: None };
    let fill = TableFill::new(game, shape, &config);
    check_memory(shape, fill.planned_width())?;
    let start = previous.map(|previous| {
        let side = fill.plan().tile_sides()[0];
        let done = previous.len() / side;
        let mut table = GrundyTable::zeroed_with(shape.clone(), previous.width());
        fn copy<C: Cell>(from: &GrundyTable, to: &mut GrundyTable, cells: usize) {
            let from = from.typed::<C>().expect("the width");
            to.typed_mut::<C>().expect("the same width")[..cells].copy_from_slice(&from[..cells]);
        }
        match previous.width() {
            CellWidth::U8 => copy::<u8>(&previous, &mut table, done * side),
            CellWidth::U16 => copy::<u16>(&previous, &mut table, done * side),
            CellWidth::U32 => copy::<u32>(&previous, &mut table, done * side),
        }
        (table, fill.plan().mark(done))
    });
    let bar = Bar::new(shape.cells() as u64, quiet);
    let (table, _) = fill
        .fill_resumable(start, &bar, &mut |_, _| Control::Continue)
        .context("cannot compute the table")?;
    bar.finish();
    Ok(table)
}

/// Prints `report` as text or JSON, with the records of a heap game's sequence and how an
/// `--until-proved` search went.
fn print_report(
    args: &Args,
    report: &Report,
    records: Option<&SequenceRecords>,
    search: Option<&Search>,
) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut value = serde_json::to_value(report)?;
        if let Some(records) = records {
            value["records"] = serde_json::to_value(records)?;
        }
        if let Some(search) = search {
            value["until_proved"] = serde_json::to_value(search)?;
        }
        write_json_line(&mut out, &value)?;
    } else {
        match &report {
            Report::Sequence(r) => print_sequence(&mut out, r)?,
            Report::Board(r) => print_board(&mut out, r)?,
        }
        if let (Some(records), Report::Sequence(r)) = (records, report) {
            writeln!(out, "{}", records.describe(&r.axis))?;
        }
        if let (Some(search), Report::Sequence(r)) = (search, report) {
            let rounds = grundy_core::counted(search.rounds, "round", "rounds");
            if r.sequence.proved {
                writeln!(out, "until proved: {} values computed ({rounds})", search.values)?;
            } else {
                writeln!(
                    out,
                    "until proved: not proved with {} values ({rounds}); --limit {} stopped the search",
                    search.values, search.limit
                )?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_sequence(out: &mut impl Write, r: &SequenceReport) -> std::io::Result<()> {
    let s = &r.sequence;
    let n = &r.axis;
    writeln!(out, "{}: {n} = {}..={} ({} values)", r.game, r.min, r.size[0], s.searched.length)?;
    match (s.period, s.saltus, s.preperiod, s.from) {
        (Some(p), Some(saltus), Some(e), Some(from)) => {
            let kind =
                if saltus == 0 { String::new() } else { format!(", saltus {saltus} (arithmetic)") };
            writeln!(out, "period {p}{kind}, preperiod {e}: periodic from {n} = {from}")?;
            let argument = s.argument.as_deref().unwrap_or("no theorem was tried");
            if s.proved {
                writeln!(out, "  proved: {argument}")?;
            } else {
                writeln!(
                    out,
                    "  evidence only: the period holds on {n} = {from}..={} of the table; not proved: {argument}",
                    r.size[0]
                )?;
            }
        }
        _ => writeln!(
            out,
            "no period found (searched periods up to {} in {n} = {}..={})",
            s.searched.max_period, r.min, r.size[0]
        )?,
    }
    Ok(())
}

fn print_board(out: &mut impl Write, r: &BoardReport) -> std::io::Result<()> {
    let [x, y] = &r.axes;
    let ([x0, y0], [x1, y1]) = (r.min, r.size);
    writeln!(out, "{}: {x} = {x0}..={x1}, {y} = {y0}..={y1}", r.game)?;
    let on_table = format!("evidence only: every cell of the table ({x} <= {x1}, {y} <= {y1})");
    let period = |period: Option<[usize; 2]>, from: Option<[i64; 2]>| match (period, from) {
        (Some([p, q]), Some([a, b])) => format!(
            "period [{p}, {q}] from ({x}, {y}) = ({a}, {b}), also found in the table's first \
             three quarters on each axis; {on_table}"
        ),
        _ => "no 2-D period within the table".to_string(),
    };
    writeln!(out, "outcome:   {}", period(r.outcome.period, r.outcome.from))?;
    if let Some(rule) = &r.outcome.rule {
        writeln!(out, "           P-positions: {rule}")?;
        let argument = r.outcome.argument.as_deref().unwrap_or("no proof was tried");
        if r.outcome.proved {
            writeln!(out, "             proved for every board: {argument}")?;
        } else {
            writeln!(out, "             {on_table}; not proved: {argument}")?;
        }
    }
    let separable = yes(r.outcome.separable);
    writeln!(out, "           separable P-set: {separable} ({on_table})")?;
    if r.cells == "values" {
        writeln!(out, "values:    {}", period(r.values.period, r.values.from))?;
        if let Some(rule) = &r.values.rule {
            writeln!(out, "           g = {rule} ({on_table}; not proved)")?;
        }
    }
    writeln!(out, "symmetric: {} ({on_table})", yes(r.symmetric))?;
    let within = "evidence only: each line as far as the table reaches, its period also found in the line's first three quarters";
    writeln!(out, "lines:     {within}")?;
    lines(out, "rows", x, &r.rows)?;
    lines(out, "columns", y, &r.columns)?;
    lines(out, "diagonals", &format!("{x} - {y}"), &r.diagonals)?;
    Ok(())
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// A summary of a family of lines: how many are periodic, the commonest periods, and the first
/// few lines in full.
fn lines(
    out: &mut impl Write,
    what: &str,
    index_name: &str,
    lines: &[LineReport],
) -> std::io::Result<()> {
    let periodic: Vec<&LineReport> = lines.iter().filter(|l| l.period.is_some()).collect();
    write!(out, "{what}: {} of {} periodic", periodic.len(), lines.len())?;
    for (shown, line) in periodic.iter().enumerate() {
        if shown == 5 {
            write!(out, "; ...")?;
            break;
        }
        let (p, s, from) = (line.period.unwrap(), line.saltus.unwrap(), line.from.unwrap());
        let saltus = if s == 0 { String::new() } else { format!(" saltus {s}") };
        let separator = if shown == 0 { ":" } else { ";" };
        write!(out, "{separator} {index_name} = {}: period {p}{saltus} from {from}", line.index)?;
    }
    writeln!(out)
}
