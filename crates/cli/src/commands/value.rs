use super::{fill_table, load_game};
use crate::output::write_json_line;
use anyhow::{bail, Result};
use grundy_compute::Engine;
use grundy_core::{table::check_position, Coord, Game, GrundyTable, Nimber, TableShape};
use grundy_patterns::certificate::reach;
use grundy_patterns::proofs::{
    has_periodicity_theorem, proved_law, strip_law, ProvedLaw, StripLaw,
};
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;

/// Print the Grundy value of each position, of their sum (XOR) and the outcome.
///
/// `grundy value subtraction:2,5 5 12` is S-Nim with heaps 5 and 12; `grundy value cutting 4x2`
/// is a 4×2 paper; `grundy value kayles 10 + wythoff 3x5` is a sum of different games. A heap
/// game whose period a theorem proves (octal games, subtraction games with finite sets) is
/// computed only as far as the proof needs, so every heap size has a value:
/// `grundy value kayles 10^18`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// `GAME POS [POS ...] [+ GAME POS [POS ...]] ...`: a catalog game (see `grundy games`) or a
    /// spec file, then its positions (`7` or `10^18` for heap games, `3x2` for boards); several
    /// positions are a sum of games, and `+` adds positions of another game to the sum.
    #[arg(required = true, value_name = "GAME POS")]
    terms: Vec<String>,
    /// Print a JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: one per core; at most four per core are started, as more only
    /// slow a fill down).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

/// Heap sizes computed first when looking for a proved period; the table doubles from here.
const FIRST_SEARCH: i64 = 4096;
/// How far the search for a proved period goes when the heap asked for is beyond any table.
const SEARCH_LIMIT: i64 = 1 << 17;
/// Tables stop below this coordinate (as `--size` does).
const TABLE_LIMIT: Coord = grundy_core::COORD_LIMIT;

/// Whether `game` is a board whose moves have a bounded reach: its strips repeat
/// (`grundy_patterns::proofs::strip_law`), so its positions are answered one strip at a time.
fn is_bounded_board(game: &Game) -> bool {
    game.dims() == 2 && reach(game).is_ok()
}

#[derive(Serialize)]
struct Component {
    game: String,
    position: Vec<Coord>,
    value: u32,
}

/// A strip of a board that repeats, which answered positions beyond its table.
#[derive(Serialize)]
struct Strip {
    game: String,
    /// The axis along which the strip repeats.
    axis: String,
    period: usize,
    from: Coord,
    argument: String,
    /// Cells computed to find it.
    cells_computed: usize,
}

/// A period that answered heap sizes, with its proof.
#[derive(Serialize)]
struct Law {
    game: String,
    period: usize,
    preperiod: usize,
    from: Coord,
    argument: String,
    /// Heap sizes computed to find and prove it.
    values_computed: usize,
}

#[derive(Serialize)]
struct Report {
    game: String,
    components: Vec<Component>,
    value: u32,
    outcome: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    laws: Vec<Law>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    strips: Vec<Strip>,
}

/// One game of the sum and the positions of it, as the user wrote them.
struct Term<'a> {
    game: Game,
    positions: Vec<(&'a str, Vec<Coord>)>,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let terms = parse_terms(&args.terms)?;
    let threads = args.threads.map(usize::from);
    let mut components = Vec::new();
    let mut laws = Vec::new();
    let mut strips = Vec::new();
    let mut texts = Vec::new();
    for term in &terms {
        let mut values = vec![0; term.positions.len()];
        for group in groups(term) {
            let part = Term {
                game: term.game.clone(),
                positions: group.iter().map(|&i| term.positions[i].clone()).collect(),
            };
            for (&i, value) in
                group.iter().zip(part_values(&part, threads, args.json, &mut laws, &mut strips)?)
            {
                values[i] = value;
            }
        }
        for ((text, position), value) in term.positions.iter().zip(values) {
            let game = term.game.name().to_string();
            texts.push(if terms.len() > 1 { format!("{game} {text}") } else { text.to_string() });
            components.push(Component { game, position: position.clone(), value });
        }
    }
    let sum = components.iter().fold(Nimber::ZERO, |sum, c| sum ^ Nimber(c.value));
    let names: Vec<&str> = terms.iter().map(|t| t.game.name()).collect();
    let report = Report {
        game: names.join(" + "),
        components,
        value: sum.value(),
        outcome: if sum.is_p() { "P" } else { "N" },
        laws,
        strips,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        write_json_line(&mut out, &report)?;
        return Ok(ExitCode::SUCCESS);
    }
    for (text, component) in texts.iter().zip(&report.components) {
        writeln!(out, "{text}: {}", component.value)?;
    }
    if report.components.len() > 1 {
        writeln!(out, "sum: {}", report.value)?;
    }
    let meaning = if sum.is_p() { "the player to move loses" } else { "the player to move wins" };
    writeln!(out, "outcome: {} ({meaning})", report.outcome)?;
    for law in &report.laws {
        writeln!(
            out,
            "{}: period {} from n = {}, from {} values computed; proved: {}",
            law.game, law.period, law.from, law.values_computed, law.argument
        )?;
    }
    for strip in &report.strips {
        writeln!(
            out,
            "{}: the strip repeats along {} with period {} from {} = {}, from {} cells computed; \
             proved: {}",
            strip.game,
            strip.axis,
            strip.period,
            strip.axis,
            strip.from,
            strip.cells_computed,
            strip.argument
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The values of `term`'s positions, recording the laws and strips that answered them.
fn part_values(
    term: &Term<'_>,
    threads: Option<usize>,
    quiet: bool,
    laws: &mut Vec<Law>,
    strips: &mut Vec<Strip>,
) -> Result<Vec<u32>> {
    Ok(match answer(term, threads, quiet)? {
        Answer::Law(law, computed) => {
            let values = term.positions.iter().map(|(_, pos)| law.value(pos[0])).collect();
            laws.push(Law {
                game: term.game.name().to_string(),
                period: law.period.period,
                preperiod: law.period.preperiod,
                from: law.min + law.period.preperiod as Coord,
                argument: law.argument,
                values_computed: computed,
            });
            values
        }
        Answer::Strip(law, table) => {
            strips.push(Strip {
                game: term.game.name().to_string(),
                axis: term.game.axes()[law.axis()].name.clone(),
                period: law.period(),
                from: law.from(),
                argument: law.argument.clone(),
                cells_computed: table.len(),
            });
            let value = |pos: &[Coord]| match table.get(pos) {
                Some(value) => value.value(),
                None => law.value(pos),
            };
            term.positions.iter().map(|(_, pos)| value(pos)).collect()
        }
        Answer::Table(table) => {
            let value = |pos: &[Coord]| table.get(pos).expect("the table covers it").value();
            term.positions.iter().map(|(_, pos)| value(pos)).collect::<Vec<u32>>()
        }
    })
}

/// The positions of `term` in the groups that are answered together: for a board with bounded
/// moves, those whose far coordinate is the first and those whose far coordinate is the second
/// (each group is one strip); otherwise all of them.
fn groups(term: &Term<'_>) -> Vec<Vec<usize>> {
    let game = &term.game;
    if !is_bounded_board(game) {
        return vec![(0..term.positions.len()).collect()];
    }
    let mins = [game.axes()[0].min, game.axes()[1].min];
    let (first, second): (Vec<usize>, Vec<usize>) = (0..term.positions.len()).partition(|&i| {
        let pos = &term.positions[i].1;
        pos[0] - mins[0] >= pos[1] - mins[1]
    });
    [first, second].into_iter().filter(|group| !group.is_empty()).collect()
}

/// Splits `GAME POS... + GAME POS...` into terms and parses each position against its game.
fn parse_terms(words: &[String]) -> Result<Vec<Term<'_>>> {
    words
        .split(|word| word == "+")
        .map(|group| {
            let Some((name, positions)) = group.split_first() else {
                bail!("`+` must stand between two games with their positions, e.g. kayles 10 + nim 3x5")
            };
            if positions.is_empty() {
                bail!("no position given for {name}; write e.g. `{name} 7` or `{name} 3x2`");
            }
            let game = load_game(name)?;
            let positions = positions
                .iter()
                .map(|text| {
                    let pos = parse_position(text)?;
                    check_position(&game, &pos, text)?;
                    Ok((text.as_str(), pos))
                })
                .collect::<Result<_>>()?;
            Ok(Term { game, positions })
        })
        .collect()
}

/// A position: coordinates separated by `x`, each a whole number or a power such as `10^18`.
fn parse_position(text: &str) -> Result<Vec<Coord>> {
    text.split('x')
        .map(|part| {
            let number = |digits: &str| -> Result<u128> {
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    bail!(
                        "malformed position `{text}`: `{part}` is not a whole number >= 0 or a \
                         power such as 10^18; write e.g. 7, 10^18 or 3x2"
                    );
                }
                digits
                    .parse()
                    .map_err(|_| anyhow::anyhow!("position `{text}`: `{part}` is too large"))
            };
            let value = match part.split_once('^') {
                Some((base, exponent)) => u32::try_from(number(exponent)?)
                    .ok()
                    .and_then(|e| number(base).ok()?.checked_pow(e)),
                None => Some(number(part)?),
            };
            value.and_then(|v| Coord::try_from(v).ok()).ok_or_else(|| {
                anyhow::anyhow!("position `{text}`: `{part}` is too large (at most 2^63 - 1)")
            })
        })
        .collect()
}

/// Where the values of a term come from.
enum Answer {
    /// A period proved by a theorem, found on this many values.
    Law(ProvedLaw, usize),
    /// A board's strip that repeats along one axis, found on this table (which answers the
    /// positions before the repetition).
    Strip(StripLaw, GrundyTable),
    /// A table that holds every position.
    Table(GrundyTable),
}

/// The most cells of a strip searched for a repetition when the position is beyond a table.
const STRIP_SEARCH_CELLS: i64 = 1 << 26;

/// The values of `term`'s positions. A heap game that a periodicity theorem covers, whose largest
/// position is past the first search table, is computed in tables that double until its period is
/// proved (then the law answers) or they reach the largest position; anything else is one table
/// over the box of its positions.
fn answer(term: &Term<'_>, threads: Option<usize>, quiet: bool) -> Result<Answer> {
    let game = &term.game;
    if is_bounded_board(game) {
        return strip_answer(term, threads, quiet);
    }
    if game.dims() != 1 || !has_periodicity_theorem(game) {
        return table_over(term, threads, quiet).map(Answer::Table);
    }
    let min = game.axes()[0].min;
    let largest = term.positions.iter().map(|(_, pos)| pos[0]).max().expect("positions");
    let needed = largest - min + 1;
    if needed <= FIRST_SEARCH {
        return table_over(term, threads, quiet).map(Answer::Table);
    }
    let limit = if largest < TABLE_LIMIT { needed } else { SEARCH_LIMIT };
    let mut len = FIRST_SEARCH;
    loop {
        let shape = TableShape::from_axes(game.axes().to_vec(), vec![min + len - 1]);
        let table = fill_table(game, &shape, Engine::Auto, threads, quiet)?;
        let values = table.cells().to_u32_vec();
        if let Some(law) = proved_law(game, &values, min) {
            return Ok(Answer::Law(law, values.len()));
        }
        if len >= limit {
            if len >= needed {
                return Ok(Answer::Table(table));
            }
            bail!(
                "no period of {} is proved within its first {len} values, and n = {largest} is \
                 beyond what a table can hold (2^31)",
                game.name()
            );
        }
        len = (2 * len).min(limit);
    }
}

/// A board with bounded moves: when one coordinate of the positions is far beyond the other, the
/// strip along it is computed in tables that double until r consecutive lines repeat (a proof
/// that the strip repeats from there, `grundy_patterns::proofs::strip_law`) or they reach the
/// positions; otherwise one table over the box.
fn strip_answer(term: &Term<'_>, threads: Option<usize>, quiet: bool) -> Result<Answer> {
    let game = &term.game;
    let mins = [game.axes()[0].min, game.axes()[1].min];
    let extent = |d: usize| term.positions.iter().map(|(_, pos)| pos[d] - mins[d] + 1).max();
    let extents = [extent(0).expect("positions"), extent(1).expect("positions")];
    let axis = if extents[0] >= extents[1] { 0 } else { 1 };
    let width = extents[1 - axis];
    if extents[axis] <= FIRST_SEARCH || width.saturating_mul(FIRST_SEARCH) > STRIP_SEARCH_CELLS {
        return table_over(term, threads, quiet).map(Answer::Table);
    }
    let limit = (STRIP_SEARCH_CELLS / width).min(extents[axis]);
    let mut len = FIRST_SEARCH;
    loop {
        let mut max = [mins[0] + width - 1, mins[1] + width - 1];
        max[axis] = mins[axis] + len - 1;
        let shape = TableShape::from_axes(game.axes().to_vec(), max.to_vec());
        let table = fill_table(game, &shape, Engine::Auto, threads, quiet)?;
        if let Some(law) = strip_law(game, &table, axis) {
            return Ok(Answer::Strip(law, table));
        }
        if len >= limit {
            if len >= extents[axis] {
                return Ok(Answer::Table(table));
            }
            // No repetition within the search: the whole box, if a table can hold it.
            return table_over(term, threads, quiet).map(Answer::Table);
        }
        len = (2 * len).min(limit);
    }
}

/// The table over the box that holds every position of `term`.
fn table_over(term: &Term<'_>, threads: Option<usize>, quiet: bool) -> Result<GrundyTable> {
    let game = &term.game;
    let max: Vec<Coord> = (0..game.dims())
        .map(|d| term.positions.iter().map(|(_, pos)| pos[d]).max().expect("positions"))
        .collect();
    if let Some((text, _)) =
        term.positions.iter().find(|(_, pos)| pos.iter().any(|&c| c >= TABLE_LIMIT))
    {
        let why = if game.dims() == 1 {
            "no periodicity theorem covers it, so its values come from a table"
        } else {
            "its values come from a table"
        };
        bail!(
            "position `{text}` of {} is too large: {why}, and tables stop below 2^31",
            game.name()
        );
    }
    let text: Vec<String> = max.iter().map(Coord::to_string).collect();
    let shape = TableShape::new(game, &max, &text.join("x"))?;
    fill_table(game, &shape, Engine::Auto, threads, quiet)
}
