use crate::load::{is_table_file, load_game, Analysis, TableArgs};
use crate::output::write_json_line;
use crate::progress::Bar;
use anyhow::{bail, Context, Result};
use grundy_catalog::identify::{
    game_sequence, heap_sequence, line_of, Identification, IdentifyJson, Index, Line, Match,
    Sequence, DEFAULT_SHIFT, MAX_SHIFT,
};
use grundy_compute::Runtime;
use grundy_core::{parse_coords, CellKind, Coord};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Which known game is this? Match a sequence against the index of known games: every game
/// equal to it after a shift of index, a(n) = b(n + k), and, apart, every game whose
/// P-positions alone agree with it. A match is "proved" when both periods are proved by a
/// theorem and the two agree past both preperiods for the lcm of the periods; otherwise it
/// says how far it was compared ("agrees on n = 0..=N").
///
/// The index (`data/known-games.jsonl.gz`, built in) holds every octal code with up to four
/// digits after the point, the codes 4.d to 4.ddd, hexadecimal codes 0.d, 0.dd, 4.d and 4.dd,
/// every subtraction set from 1..=12 and the all-but sets of up to three amounts from 1..=12,
/// the catalog's games (boards by their first rows, columns and diagonal) and published OEIS
/// sequences.
///
/// The sequence: a heap game (`grundy identify octal:0.137`, computed until a theorem proves its
/// period where one applies), a line of a board (`grundy identify cutting --size 300x300 --row
/// 2`, `--column`, `--diagonal`), a table file (`.b`, a `.csv` table, `.npy`), a column of any
/// CSV file (`data.csv --field NAME`), or numbers on standard input (`grundy identify <
/// values.txt`, whole numbers separated by spaces, commas or new lines).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A game (catalog name or spec file), a table file, a CSV file with --field, or `-` (the
    /// default) for numbers on standard input.
    source: Option<String>,
    /// The size to compute a game at: a heap game's largest heap (4095 by default; a search
    /// for a proved period starts there), a board's `RxC` (needed).
    #[arg(long, allow_hyphen_values = true)]
    size: Option<String>,
    /// Take the row of a 2-D table whose first coordinate is this.
    #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["column", "diagonal"])]
    row: Option<Coord>,
    /// Take the column of a 2-D table whose second coordinate is this.
    #[arg(long, allow_hyphen_values = true, conflicts_with = "diagonal")]
    column: Option<Coord>,
    /// Take the diagonal x − y = D of a 2-D table, indexed by its smaller coordinate.
    #[arg(long, allow_hyphen_values = true, value_name = "D")]
    diagonal: Option<Coord>,
    /// Read this column of a CSV file (or of standard input): its header's name, or its number
    /// from 1.
    #[arg(long, value_name = "NAME")]
    field: Option<String>,
    /// The coordinate n of the first number read (standard input, --field).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    from: Coord,
    /// Try every shift of index k with |k| up to this.
    #[arg(long, default_value_t = DEFAULT_SHIFT,
          value_parser = clap::value_parser!(i64).range(0..=MAX_SHIFT))]
    shift: i64,
    /// The largest heap size a search for a heap game's proved period computes.
    #[arg(long, value_name = "N", default_value_t = 1 << 20,
          value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
    limit: u64,
    /// Search this index instead of the built-in one (made by `grundy survey FAMILY...
    /// --format index`).
    #[arg(long, value_name = "FILE")]
    index: Option<PathBuf>,
    /// Print every match and every member (text shows the first 20 classes and 8 members).
    #[arg(long)]
    all: bool,
    /// Print a JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Take the 2-D slice of a 3-D table where an axis has one coordinate, e.g. `z=5`.
    #[arg(long, value_name = "AXIS=COORD")]
    slice: Option<String>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

/// Classes and members printed in text unless `--all`.
const SHOWN_CLASSES: usize = 20;
const SHOWN_MEMBERS: usize = 8;

pub(crate) fn run(args: Args, runtime: &Runtime) -> Result<ExitCode> {
    let (what, query) = query(&args, runtime)?;
    let read;
    let index = match &args.index {
        Some(path) => {
            let file = std::fs::File::open(path)
                .with_context(|| format!("cannot read index {}", path.display()))?;
            read = Index::read(std::io::BufReader::new(file))
                .with_context(|| format!("index {}", path.display()))?;
            &read
        }
        None => Index::builtin(),
    };
    let found = index.identify(&query, args.shift);
    let mut out = crate::output::stdout()?;
    if args.json {
        let json = IdentifyJson {
            sequence: &what,
            values: query.values.len(),
            found: &found,
            index: &index.header,
        };
        write_json_line(&mut out, &json)?;
    } else {
        print(&mut out, &args, &what, &query, &found, index)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The sequence the arguments name, and how to call it.
fn query(args: &Args, runtime: &Runtime) -> Result<(String, Sequence)> {
    let line = match (args.row, args.column, args.diagonal) {
        (Some(r), _, _) => Some(Line::Row(r)),
        (_, Some(c), _) => Some(Line::Column(c)),
        (_, _, Some(d)) => Some(Line::Diagonal(d)),
        _ => None,
    };
    let source = args.source.as_deref().unwrap_or("-");
    if let Some(field) = &args.field {
        if line.is_some() || args.size.is_some() {
            bail!("--field reads a column of numbers; --row, --column, --diagonal and --size do not apply");
        }
        let values = read_field(source, field, most_values(runtime))?;
        let what = format!("{source}, column {field}");
        return Ok((what, Sequence::of(args.from, values)));
    }
    if source == "-" {
        if line.is_some() || args.size.is_some() {
            bail!("numbers on standard input are one sequence; --row, --column, --diagonal and --size apply to tables and games");
        }
        let values = read_numbers(std::io::stdin().lock(), most_values(runtime))?;
        return Ok(("standard input".into(), Sequence::of(args.from, values)));
    }
    let bar = Bar::waiting(args.quiet || args.json);
    if !is_table_file(source) {
        let game = load_game(source)?;
        let size = match (&args.size, game.dims()) {
            (Some(size), _) => parse_coords(size, "size")?,
            (None, 1) => vec![4095],
            (None, _) => bail!("--size is needed to compute {} (e.g. --size 300x300)", game.name()),
        };
        let what = match line {
            Some(line) if game.dims() == 2 => {
                let axes = game.axes();
                format!("{} {}", game.name(), line.describe([&axes[0].name, &axes[1].name]))
            }
            _ => game.name().to_string(),
        };
        let sequence = game_sequence(&game, &size, line, args.limit, runtime, &bar, &mut |cells| {
            bar.start(u64::try_from(cells).unwrap_or(u64::MAX));
        });
        bar.finish();
        return Ok((what, sequence?));
    }
    let table = TableArgs {
        source: source.to_string(),
        size: args.size.clone(),
        quiet: args.quiet || args.json,
        slice: args.slice.clone(),
        play: crate::play::PlayArg::default(),
    };
    let loaded = runtime.install(|| table.load(runtime, &bar, Analysis::None))?;
    if loaded.kind() == CellKind::Outcomes {
        bail!(
            "{} holds only outcomes (P/N), and identify compares values: give a table of values",
            loaded.name()
        );
    }
    let data = loaded.data();
    match (data.axes(), line) {
        ([axis], None) => {
            let values = data.cells().to_u32_vec();
            Ok((loaded.name().to_string(), heap_sequence(None, values, axis.min)))
        }
        ([_], Some(_)) => {
            bail!("{} is a sequence: it has no rows, columns or diagonals", loaded.name())
        }
        ([x, y], Some(line)) => {
            let what = format!("{} {}", loaded.name(), line.describe([&x.name, &y.name]));
            Ok((what, line_of(data, line)?))
        }
        ([_, _], None) => bail!(
            "{} is a 2-D table: name a line of it with --row, --column or --diagonal",
            loaded.name()
        ),
        (axes, _) => bail!(
            "{} has {}: take a 2-D slice with --slice AXIS=COORD and a line of it",
            loaded.name(),
            grundy_core::counted(axes.len(), "axis", "axes")
        ),
    }
}

/// The most values read from standard input or a CSV column: four bytes each, within the
/// memory budget.
fn most_values(runtime: &Runtime) -> u64 {
    runtime.memory().read_budget() / 4
}

/// Adds `value` to `values` read from `source`, refusing more than `most`.
fn keep(values: &mut Vec<u32>, value: u32, most: u64, source: &str) -> Result<()> {
    if values.len() as u64 >= most {
        bail!("{source} holds more than the {most} values that fit in memory");
    }
    values.push(value);
    Ok(())
}

/// Whole numbers separated by white space, commas or semicolons; `#` starts a comment.
fn read_numbers(input: impl BufRead, most: u64) -> Result<Vec<u32>> {
    let mut values = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read standard input, line {}", i + 1))?;
        let text = line.split('#').next().unwrap_or("");
        for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
            if word.is_empty() {
                continue;
            }
            let Ok(value) = word.parse::<u32>() else {
                bail!(
                    "standard input, line {}: `{word}` is not a value (whole numbers from 0 to {}, \
                     separated by spaces, commas or new lines)",
                    i + 1,
                    u32::MAX
                )
            };
            keep(&mut values, value, most, "standard input")?;
        }
    }
    if values.is_empty() {
        bail!("standard input holds no values: give whole numbers separated by spaces, commas or new lines");
    }
    Ok(values)
}

/// The column `field` (a header's name, or a number from 1) of the CSV file `source` (`-`:
/// standard input).
fn read_field(source: &str, field: &str, most: u64) -> Result<Vec<u32>> {
    let input: Box<dyn std::io::Read> = if source == "-" {
        Box::new(std::io::stdin())
    } else {
        let file = std::fs::File::open(source).with_context(|| format!("cannot read {source}"))?;
        if source.ends_with(".gz") {
            Box::new(flate2::read::MultiGzDecoder::new(file))
        } else {
            Box::new(file)
        }
    };
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(input);
    let headers = reader.headers().with_context(|| format!("cannot read {source} as CSV"))?.clone();
    let column = match headers.iter().position(|h| h.trim() == field) {
        Some(column) => column,
        None => match field.parse::<usize>() {
            Ok(number) if (1..=headers.len()).contains(&number) => number - 1,
            _ => bail!(
                "{source} has no column `{field}` (its columns: {})",
                headers.iter().collect::<Vec<_>>().join(", ")
            ),
        },
    };
    let mut values = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.with_context(|| format!("{source}: cannot read line {line} as CSV"))?;
        let cell = record.get(column).unwrap_or("").trim();
        let Ok(value) = cell.parse::<u32>() else {
            bail!("{source}, line {line}: `{cell}` in column {field} is not a value (a whole number from 0)")
        };
        keep(&mut values, value, most, source)?;
    }
    if values.is_empty() {
        bail!("{source} has no values in column {field}");
    }
    Ok(values)
}

fn print(
    out: &mut impl Write,
    args: &Args,
    what: &str,
    query: &Sequence,
    found: &Identification,
    index: &Index,
) -> std::io::Result<()> {
    let range = match query.last() {
        Some(last) => format!("n = {}..={last}", query.start),
        None => format!("n >= {}", query.start),
    };
    let law = match &query.law {
        Some(law) if query.last().is_none() => format!(
            ", period {} from n = {}, proved ({})",
            law.period,
            query.start + law.preperiod as Coord,
            law.theorem
        ),
        _ => String::new(),
    };
    // A game's values are computed; a file's or standard input's are read.
    let got = if args.field.is_none()
        && args.source.as_deref().is_some_and(|s| s != "-" && !is_table_file(s))
    {
        "computed"
    } else {
        "read"
    };
    writeln!(out, "{what}: {range} ({} values {got}{law})", query.values.len())?;
    let header = &index.header;
    writeln!(
        out,
        "searched {} classes of {} known games and sequences for a(n) = b(n + k), |k| <= {}",
        header.classes, header.members, found.max_shift
    )?;
    section(out, args, "same values", &found.same_values)?;
    section(out, args, "same P-positions only (the values differ)", &found.same_p_positions)?;
    Ok(())
}

fn section(
    out: &mut impl Write,
    args: &Args,
    title: &str,
    matches: &[Match],
) -> std::io::Result<()> {
    writeln!(out)?;
    if matches.is_empty() {
        return writeln!(out, "{title}: none");
    }
    writeln!(out, "{title}: {}", grundy_core::counted(matches.len(), "class", "classes"))?;
    let shown = if args.all { matches.len() } else { matches.len().min(SHOWN_CLASSES) };
    for m in &matches[..shown] {
        let status = agreement(m.from, m.to);
        writeln!(out, "  {} with k = {}: {status}", m.class, signed(m.shift))?;
        let others: Vec<String> = m.members[1..]
            .iter()
            .map(|member| {
                let mut text = member.game.clone();
                if member.to != m.to {
                    text += &format!(" ({})", agreement(m.from, member.to));
                }
                if let Some(note) = &member.note {
                    text += &format!(" [{note}]");
                }
                text
            })
            .collect();
        if let Some(note) = &m.members[0].note {
            writeln!(out, "      {note}")?;
        }
        if !others.is_empty() {
            let shown = if args.all { others.len() } else { others.len().min(SHOWN_MEMBERS) };
            let more = match others.len() - shown {
                0 => String::new(),
                n => format!(", and {n} more (--all lists them)"),
            };
            writeln!(out, "      also {}{more}", others[..shown].join(", "))?;
        }
    }
    if shown < matches.len() {
        writeln!(out, "  and {} more (--all lists them)", matches.len() - shown)?;
    }
    Ok(())
}

fn agreement(from: Coord, to: Option<Coord>) -> String {
    match to {
        None => format!("proved for every n >= {from}"),
        Some(to) => format!("agrees on n = {from}..={to}"),
    }
}

fn signed(k: i64) -> String {
    if k > 0 {
        format!("+{k}")
    } else {
        k.to_string()
    }
}
