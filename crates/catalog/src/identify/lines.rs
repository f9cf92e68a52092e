//! The sequences a table holds: a heap game's values, and a board's rows, columns and
//! diagonals, each indexed by a coordinate so that shifts mean the same everywhere.

use super::sequence::{Law, Sequence};
use grundy_compute::{FillRequest, Progress, Runtime};
use grundy_core::{Coord, Game, GrundyTable, TableShape};
use grundy_laws::periodicity::find_period;
use grundy_laws::proof::theorems::{has_periodicity_theorem, prove_sequence};
use grundy_laws::until_proved::{ProofSearch, SearchError};
use std::fmt;

/// A line of a 2-D table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// The cells whose first coordinate is this, indexed by the second.
    Row(Coord),
    /// The cells whose second coordinate is this, indexed by the first.
    Column(Coord),
    /// The cells with x − y equal to this, indexed by the smaller coordinate (y when x − y ≥ 0,
    /// x otherwise): the position along the diagonal.
    Diagonal(Coord),
}

impl Line {
    /// The line as `patterns` and the index name it: `row a = 3`, `column b = 3`,
    /// `diagonal a - b = -2`.
    pub fn describe(&self, axes: [&str; 2]) -> String {
        match *self {
            Line::Row(r) => format!("row {} = {r}", axes[0]),
            Line::Column(c) => format!("column {} = {c}", axes[1]),
            Line::Diagonal(d) => format!("diagonal {} - {} = {d}", axes[0], axes[1]),
        }
    }
}

/// Why a line cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError(String);

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LineError {}

/// The values of `line` in the 2-D `table`, as a sequence indexed by its coordinate.
///
/// # Errors
/// The table is not 2-D, or the line misses it.
pub fn line_of(table: &GrundyTable, line: Line) -> Result<Sequence, LineError> {
    let axes = table.axes();
    let [x, y] = axes else {
        return Err(LineError(format!(
            "rows, columns and diagonals are lines of 2-D tables; this one has {}",
            grundy_core::counted(axes.len(), "axis", "axes")
        )));
    };
    let max = table.shape().max();
    let (lo, hi) = ([x.min, y.min], [max[0], max[1]]);
    let outside = |what: &str, at: Coord, from: Coord, to: Coord| {
        LineError(format!("{what} {at} is outside the table ({what} runs from {from} to {to})"))
    };
    // Cells by their flat index (row-major), not through the n-dimensional lookup.
    let (cells, columns) = (table.cells(), (hi[1] - lo[1] + 1) as usize);
    let at =
        |p: Coord, q: Coord| cells.get((p - lo[0]) as usize * columns + (q - lo[1]) as usize).0;
    let (start, values): (Coord, Vec<u32>) = match line {
        Line::Row(r) => {
            if !(lo[0]..=hi[0]).contains(&r) {
                return Err(outside(&format!("row {}", x.name), r, lo[0], hi[0]));
            }
            (lo[1], (lo[1]..=hi[1]).map(|q| at(r, q)).collect())
        }
        Line::Column(c) => {
            if !(lo[1]..=hi[1]).contains(&c) {
                return Err(outside(&format!("column {}", y.name), c, lo[1], hi[1]));
            }
            (lo[0], (lo[0]..=hi[0]).map(|p| at(p, c)).collect())
        }
        Line::Diagonal(d) => {
            // Cells (y + d, y): the smaller coordinate is y when d ≥ 0, x = y + d otherwise.
            let ys = lo[1].max(lo[0] - d)..=hi[1].min(hi[0] - d);
            if ys.is_empty() {
                let (from, to) = (lo[0] - hi[1], hi[0] - lo[1]);
                return Err(outside(&format!("diagonal {} - {}", x.name, y.name), d, from, to));
            }
            let start = if d >= 0 { *ys.start() } else { ys.start() + d };
            (start, ys.map(|q| at(q + d, q)).collect())
        }
    };
    Ok(Sequence::of(start, values))
}

/// A heap game's `values` from heap size `min`, with its law when a periodicity theorem proves
/// the period found in them.
pub fn heap_sequence(game: Option<&Game>, values: Vec<u32>, min: Coord) -> Sequence {
    let law = find_period(&values).and_then(|period| {
        let proof = prove_sequence(game, &period, values.len(), min).proof;
        Some(Law {
            preperiod: period.preperiod,
            period: period.period,
            saltus: u32::try_from(period.saltus).ok()?,
            theorem: proof.theorem()?.name().to_string(),
        })
    });
    Sequence { start: min, values, law }
}

/// Why a game's sequence cannot be had.
#[derive(Debug)]
#[non_exhaustive]
pub enum GameSequenceError {
    /// A board needs a line, a heap game has none, or a 3-D game was given.
    Line(LineError),
    /// The computation (a search's round or the board's fill).
    Compute(SearchError),
}

impl fmt::Display for GameSequenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSequenceError::Line(err) => write!(f, "{err}"),
            GameSequenceError::Compute(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for GameSequenceError {}

impl From<SearchError> for GameSequenceError {
    fn from(err: SearchError) -> Self {
        GameSequenceError::Compute(err)
    }
}

/// The sequence of `game` to identify: a heap game computed from heap size `size[0]` until a
/// periodicity theorem proves its period (at most to `limit`) when one covers it, otherwise up
/// to `size[0]`; for a board, `line` of its table up to `size`. Every table's memory is
/// checked before it is made; fills run on `threads`, and `round` is told each table's cells
/// before it is computed (a search computes several).
///
/// # Errors
/// A board without a line or a heap game with one, a line outside the table, or the
/// computation's error.
pub fn game_sequence(
    game: &Game,
    size: &[Coord],
    line: Option<Line>,
    limit: u64,
    runtime: &Runtime,
    progress: &dyn Progress,
    round: &mut dyn FnMut(u128),
) -> Result<Sequence, GameSequenceError> {
    let name = game.name();
    let refuse = |why: String| GameSequenceError::Line(LineError(why));
    match (game.dims(), line) {
        (1, Some(_)) => {
            return Err(refuse(format!(
                "{name} is a heap game: its values are one sequence, with no rows or columns"
            )))
        }
        (2, None) => {
            return Err(refuse(format!(
                "{name} is a board: name a line of it (a row, a column or a diagonal)"
            )))
        }
        (1 | 2, _) => {}
        (dims, _) => {
            return Err(refuse(format!(
                "{name} has {}: only heap games and lines of boards are sequences",
                grundy_core::counted(dims, "axis", "axes")
            )))
        }
    }
    let min = game.axes()[0].min;
    if game.dims() == 1 && has_periodicity_theorem(game) {
        let mut search = ProofSearch::new(game, size.first().copied(), limit, runtime.clone())?;
        loop {
            round(search.next_shape()?.cells());
            if search.round(progress)?.is_some() {
                break;
            }
        }
        let table = search.last_table().expect("a round ran");
        return Ok(heap_sequence(Some(game), table.cells().to_u32_vec(), min));
    }
    let text: Vec<String> = size.iter().map(Coord::to_string).collect();
    let shape = TableShape::new(game, size, &text.join("x")).map_err(SearchError::Size)?;
    round(shape.cells());
    let table = runtime.install(|| -> Result<GrundyTable, SearchError> {
        let request = FillRequest { runtime: runtime.clone(), ..FillRequest::new(game, &shape) };
        let fill = request
            .table(&grundy_compute::memory::Besides::NOTHING)
            .map_err(SearchError::Request)?;
        fill.fill(progress).map_err(SearchError::Fill)
    })?;
    match line {
        None => Ok(heap_sequence(Some(game), table.cells().to_u32_vec(), min)),
        Some(line) => line_of(&table, line).map_err(GameSequenceError::Line),
    }
}
