//! The values of positions, however far out (`grundy value`, and `value` in the Python package).
//!
//! A heap game that a periodicity theorem covers, whose largest position is past the first
//! search table, is computed in tables that double until its period is proved (then the law
//! answers every heap size, `10^18` included) or they reach the largest position. A board with
//! bounded moves whose positions lie far out along one axis is computed one strip at a time,
//! doubling, until r consecutive lines repeat (`proofs::strip_law`). Anything else is one table
//! over the positions. The caller fills the tables (with its own progress display, threads and
//! memory check), through the `fill` it passes.

use crate::certificate::reach;
use crate::proofs::{has_periodicity_theorem, proved_law, strip_law, ProvedLaw, StripLaw};
use grundy_core::{Coord, Game, GrundyTable, ModelError, TableShape};
use serde::Serialize;
use std::fmt;

/// Heap sizes computed first when looking for a proved period; the table doubles from here.
pub const FIRST_SEARCH: Coord = 4096;
/// How far the search for a proved period goes when the heap asked for is beyond any table.
const SEARCH_LIMIT: Coord = 1 << 17;
/// Tables stop below this coordinate.
const TABLE_LIMIT: Coord = grundy_core::COORD_LIMIT;
/// The most cells of a strip searched for a repetition when the position is beyond a table.
const STRIP_SEARCH_CELLS: Coord = 1 << 26;

/// A period that answered heap sizes, with its proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Law {
    /// The game's name.
    pub game: String,
    /// The period.
    pub period: usize,
    /// The preperiod (values before the period starts).
    pub preperiod: usize,
    /// The first heap size of the periodic part.
    pub from: Coord,
    /// The theorem and its check.
    pub argument: String,
    /// Heap sizes computed to find and prove it.
    pub values_computed: usize,
}

/// A strip of a board that repeats, which answered positions beyond its table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Strip {
    /// The game's name.
    pub game: String,
    /// The axis along which the strip repeats.
    pub axis: String,
    /// The period along it.
    pub period: usize,
    /// Where the repetition starts on that axis.
    pub from: Coord,
    /// Why the strip repeats for ever.
    pub argument: String,
    /// Cells computed to find it.
    pub cells_computed: usize,
}

/// The values of a game's positions (in the order given), and the laws and strips that answered
/// the ones beyond the tables computed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Values {
    /// One value per position.
    pub values: Vec<u32>,
    /// The proved periods used.
    pub laws: Vec<Law>,
    /// The repeating strips used.
    pub strips: Vec<Strip>,
}

/// Why the positions have no values here.
#[derive(Debug)]
pub enum ValuesError<E> {
    /// A position is beyond any table and no law reaches it (the message names it).
    TooFar(String),
    /// A table's box is not one of the game's.
    Shape(ModelError),
    /// The caller's fill failed.
    Fill(E),
}

impl<E: fmt::Display> fmt::Display for ValuesError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValuesError::TooFar(message) => f.write_str(message),
            ValuesError::Shape(err) => write!(f, "{err}"),
            ValuesError::Fill(err) => write!(f, "{err}"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for ValuesError<E> {}

/// A position as the user wrote it (for messages), and its coordinates (checked against the
/// game: `grundy_core::check_position`).
pub type Position<'a> = (&'a str, Vec<Coord>);

/// The values of `positions` of `game`, computing tables with `fill`.
pub fn values_of<E>(
    game: &Game,
    positions: &[Position<'_>],
    fill: &mut dyn FnMut(&TableShape) -> Result<GrundyTable, E>,
) -> Result<Values, ValuesError<E>> {
    let mut answered = Values { values: vec![0; positions.len()], ..Values::default() };
    for group in groups(game, positions) {
        let part: Vec<Position<'_>> = group.iter().map(|&i| positions[i].clone()).collect();
        let values = match answer(game, &part, fill)? {
            Answer::Law(law, computed) => {
                answered.laws.push(Law {
                    game: game.name().to_string(),
                    period: law.period.period,
                    preperiod: law.period.preperiod,
                    from: law.min + law.period.preperiod as Coord,
                    argument: law.argument.clone(),
                    values_computed: computed,
                });
                part.iter().map(|(_, pos)| law.value(pos[0])).collect::<Vec<u32>>()
            }
            Answer::Strip(law, table) => {
                answered.strips.push(Strip {
                    game: game.name().to_string(),
                    axis: game.axes()[law.axis()].name.clone(),
                    period: law.period(),
                    from: law.from(),
                    argument: law.argument.clone(),
                    cells_computed: table.len(),
                });
                let value = |pos: &[Coord]| match table.get(pos) {
                    Some(value) => value.value(),
                    None => law.value(pos),
                };
                part.iter().map(|(_, pos)| value(pos)).collect()
            }
            Answer::Table(table) => {
                let value = |pos: &[Coord]| table.get(pos).expect("the table covers it").value();
                part.iter().map(|(_, pos)| value(pos)).collect()
            }
        };
        for (&i, value) in group.iter().zip(values) {
            answered.values[i] = value;
        }
    }
    Ok(answered)
}

/// Whether `game` is a board whose moves have a bounded reach: its strips repeat
/// (`proofs::strip_law`), so its positions are answered one strip at a time.
fn is_bounded_board(game: &Game) -> bool {
    game.dims() == 2 && reach(game).is_ok()
}

/// The positions in the groups that are answered together: for a board with bounded moves,
/// those whose far coordinate is the first and those whose far coordinate is the second (each
/// group is one strip); otherwise all of them.
fn groups(game: &Game, positions: &[Position<'_>]) -> Vec<Vec<usize>> {
    if !is_bounded_board(game) {
        return vec![(0..positions.len()).collect()];
    }
    let mins = [game.axes()[0].min, game.axes()[1].min];
    let (first, second): (Vec<usize>, Vec<usize>) = (0..positions.len()).partition(|&i| {
        let pos = &positions[i].1;
        pos[0] - mins[0] >= pos[1] - mins[1]
    });
    [first, second].into_iter().filter(|group| !group.is_empty()).collect()
}

/// Where the values of a group come from.
enum Answer {
    /// A period proved by a theorem, found on this many values.
    Law(ProvedLaw, usize),
    /// A board's strip that repeats along one axis, found on this table (which answers the
    /// positions before the repetition).
    Strip(StripLaw, GrundyTable),
    /// A table that holds every position.
    Table(GrundyTable),
}

fn answer<E>(
    game: &Game,
    positions: &[Position<'_>],
    fill: &mut dyn FnMut(&TableShape) -> Result<GrundyTable, E>,
) -> Result<Answer, ValuesError<E>> {
    if is_bounded_board(game) {
        return strip_answer(game, positions, fill);
    }
    if game.dims() != 1 || !has_periodicity_theorem(game) {
        return table_over(game, positions, fill).map(Answer::Table);
    }
    let min = game.axes()[0].min;
    let largest = positions.iter().map(|(_, pos)| pos[0]).max().expect("positions");
    let needed = largest - min + 1;
    if needed <= FIRST_SEARCH {
        return table_over(game, positions, fill).map(Answer::Table);
    }
    let limit = if largest < TABLE_LIMIT { needed } else { SEARCH_LIMIT };
    let mut len = FIRST_SEARCH;
    loop {
        let shape = TableShape::from_axes(game.axes().to_vec(), vec![min + len - 1]);
        let table = fill(&shape).map_err(ValuesError::Fill)?;
        let values = table.cells().to_u32_vec();
        if let Some(law) = proved_law(game, &values, min) {
            return Ok(Answer::Law(law, values.len()));
        }
        if len >= limit {
            if len >= needed {
                return Ok(Answer::Table(table));
            }
            return Err(ValuesError::TooFar(format!(
                "no period of {} is proved within its first {len} values, and n = {largest} is \
                 beyond what a table can hold (2^31)",
                game.name()
            )));
        }
        len = (2 * len).min(limit);
    }
}

/// A board with bounded moves: when one coordinate of the positions is far beyond the other, the
/// strip along it is computed in tables that double until r consecutive lines repeat or they
/// reach the positions; otherwise one table over the box.
fn strip_answer<E>(
    game: &Game,
    positions: &[Position<'_>],
    fill: &mut dyn FnMut(&TableShape) -> Result<GrundyTable, E>,
) -> Result<Answer, ValuesError<E>> {
    let mins = [game.axes()[0].min, game.axes()[1].min];
    let extent = |d: usize| positions.iter().map(|(_, pos)| pos[d] - mins[d] + 1).max();
    let extents = [extent(0).expect("positions"), extent(1).expect("positions")];
    let axis = if extents[0] >= extents[1] { 0 } else { 1 };
    let width = extents[1 - axis];
    if extents[axis] <= FIRST_SEARCH || width.saturating_mul(FIRST_SEARCH) > STRIP_SEARCH_CELLS {
        return table_over(game, positions, fill).map(Answer::Table);
    }
    let limit = (STRIP_SEARCH_CELLS / width).min(extents[axis]);
    let mut len = FIRST_SEARCH;
    loop {
        let mut max = [mins[0] + width - 1, mins[1] + width - 1];
        max[axis] = mins[axis] + len - 1;
        let shape = TableShape::from_axes(game.axes().to_vec(), max.to_vec());
        let table = fill(&shape).map_err(ValuesError::Fill)?;
        if let Some(law) = strip_law(game, &table, axis) {
            return Ok(Answer::Strip(law, table));
        }
        if len >= limit {
            if len >= extents[axis] {
                return Ok(Answer::Table(table));
            }
            // No repetition within the search: the whole box, if a table can hold it.
            return table_over(game, positions, fill).map(Answer::Table);
        }
        len = (2 * len).min(limit);
    }
}

/// The table over the box that holds every position.
fn table_over<E>(
    game: &Game,
    positions: &[Position<'_>],
    fill: &mut dyn FnMut(&TableShape) -> Result<GrundyTable, E>,
) -> Result<GrundyTable, ValuesError<E>> {
    let max: Vec<Coord> = (0..game.dims())
        .map(|d| positions.iter().map(|(_, pos)| pos[d]).max().expect("positions"))
        .collect();
    if let Some((text, _)) = positions.iter().find(|(_, pos)| pos.iter().any(|&c| c >= TABLE_LIMIT))
    {
        let why = if game.dims() == 1 {
            "no periodicity theorem covers it, so its values come from a table"
        } else {
            "its values come from a table"
        };
        return Err(ValuesError::TooFar(format!(
            "position `{text}` of {} is too large: {why}, and tables stop below 2^31",
            game.name()
        )));
    }
    let text: Vec<String> = max.iter().map(Coord::to_string).collect();
    let shape = TableShape::new(game, &max, &text.join("x")).map_err(ValuesError::Shape)?;
    fill(&shape).map_err(ValuesError::Fill)
}
