//! The values of positions, however far out (`grundy value`, and `value` in the Python package).
//!
//! A heap game that a periodicity theorem covers, whose largest position is past the first
//! search table, is computed in tables that double until its period is proved (then the law
//! answers every heap size, `10^18` included) or they reach the largest position. A board with
//! bounded moves whose positions lie far out along one axis is computed one strip at a time,
//! doubling, until r consecutive lines repeat (`proofs::strip_law`). Anything else is one table
//! over the positions. The caller fills the tables (with its own progress display, threads and
//! memory check), through the `fill` it passes.

use grundy_compute::retrograde::board_for;
use grundy_core::{Coord, Game, GrundyTable, ModelError, SumValue, Table, TableShape};
use grundy_laws::proof::certificate::reach;
use grundy_laws::proof::theorems::{
    has_periodicity_theorem, proved_law, strip_law, ProvedLaw, StripLaw,
};
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

/// A position of a board too far out for a table, answered by a law of the game that a theorem
/// proves for every board: its outcome, and its value when the law is a values law.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LawAnswer {
    /// The game's name.
    pub game: String,
    /// The law's kind: `p-set` or `values`.
    pub claim: grundy_laws::conjecture::ClaimKind,
    /// The law, a `grundy check` claim.
    pub law: String,
    /// The proof.
    pub argument: String,
    /// `P` or `N`.
    pub outcome: char,
    /// The value, when a values law answered (or the position is P).
    pub value: Option<i64>,
    /// Cells of the table the law was found on.
    pub cells_computed: usize,
}

/// The side of the table on which a board's laws are looked for.
pub const LAW_SEARCH_SIDE: Coord = 64;

/// The most cells of a box that [`answered_by_law`] leaves to a table: past it, a board's
/// position is answered by a proved law when one is found.
pub const LAW_BEYOND_CELLS: u128 = 1 << 26;

/// Whether a board's far positions may be answered by its laws: a board whose table is filled
/// position by position under its play (not loopy; under misère play, no move leaves a sum), so
/// that a law found on the table and proved (the automata take misère play) says its values.
fn reads_laws(game: &Game) -> bool {
    game.dims() == 2 && !game.is_loopy() && game.values_are_local()
}

/// Whether `pos` of `game` is for [`answered_by_law`]: a board position whose box holds more
/// than [`LAW_BEYOND_CELLS`] cells, and which no strip answers (a board with bounded moves whose
/// position is far along one axis only: [`values_of`] reads it from a strip that repeats).
pub fn wants_a_law(game: &Game, pos: &[Coord]) -> bool {
    if !reads_laws(game) {
        return false;
    }
    let extents: Vec<u128> = pos
        .iter()
        .zip(game.axes())
        .map(|(&c, a)| (i128::from(c) - i128::from(a.min)) as u128 + 1)
        .collect();
    let cells = extents[0].saturating_mul(extents[1]);
    let narrow = extents[0].min(extents[1]);
    let strip = is_bounded_board(game)
        && narrow.saturating_mul(FIRST_SEARCH as u128) <= STRIP_SEARCH_CELLS as u128;
    cells > LAW_BEYOND_CELLS && !strip
}

/// `pos` of the board `game`, answered by a law found on a table of [`LAW_SEARCH_SIDE`]² (filled
/// by `fill`) and proved for every board (the finite box, the sum theorem or the automata), read
/// exactly at `pos` (`grundy_laws::conjecture::Conjecture::exactly_at`): a values law first,
/// else a P-set law. `None` when the game is not a board or no proved law reads `pos` exactly.
pub fn answered_by_law<E>(
    game: &Game,
    pos: &[Coord],
    fill: &mut dyn FnMut(&TableShape) -> Result<Table, E>,
) -> Result<Option<LawAnswer>, ValuesError<E>> {
    use grundy_laws::conjecture::{ClaimKind, Conjecture, Exactly};
    if !reads_laws(game) {
        return Ok(None);
    }
    let max: Vec<Coord> = game.axes().iter().map(|a| a.min + LAW_SEARCH_SIDE - 1).collect();
    let described =
        fill(&TableShape::from_axes(game.axes().to_vec(), max)).map_err(ValuesError::Fill)?;
    let cells_computed = described.data().len();
    let Ok(report) = grundy_laws::analyze(&described) else { return Ok(None) };
    let Some(laws) = report.laws() else { return Ok(None) };
    let names: Vec<&str> = game.axes().iter().map(|a| a.name.as_str()).collect();
    for kind in [ClaimKind::Values, ClaimKind::PSet] {
        for law in laws.laws.iter().filter(|l| l.kind == kind && l.proof.is_proved()) {
            let Ok(conjecture) = Conjecture::parse(kind, &law.expression, &names) else { continue };
            let (outcome, value) = match conjecture.exactly_at(game, pos) {
                Some(Exactly::Value(v)) if v >= 0 => (if v == 0 { 'P' } else { 'N' }, Some(v)),
                Some(Exactly::Outcome(true)) => ('P', Some(0)),
                Some(Exactly::Outcome(false)) => ('N', None),
                _ => continue,
            };
            return Ok(Some(LawAnswer {
                game: game.name().to_string(),
                claim: kind,
                law: law.expression.clone(),
                argument: law.proof.argument().to_string(),
                outcome,
                value,
                cells_computed,
            }));
        }
    }
    Ok(None)
}

/// The values of a game's positions (in the order given), and the laws and strips that answered
/// the ones beyond the tables computed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Values<V = u32> {
    /// One value per position.
    pub values: Vec<V>,
    /// The proved periods used.
    pub laws: Vec<Law>,
    /// The repeating strips used.
    pub strips: Vec<Strip>,
}

/// Why the positions have no values here.
#[derive(Debug)]
pub enum ValuesError<E> {
    /// A heap size is beyond any table, and no period of the game is proved within the values
    /// a table can hold.
    NoProvedPeriod {
        /// The game.
        game: String,
        /// The values searched.
        values: Coord,
        /// The largest heap size asked for.
        largest: Coord,
    },
    /// A position is beyond any table, and no law covers the game (no periodicity theorem for a
    /// heap game; moves without a bounded reach for a board).
    BeyondTables {
        /// The game.
        game: String,
        /// The position, as written.
        position: String,
        /// Whether the game is a heap game.
        heap_game: bool,
    },
    /// A table's box is not one of the game's.
    Shape(ModelError),
    /// A loopy game's position whose value is ∞, asked for as a Grundy value.
    Infinite {
        /// The game.
        game: String,
        /// The position, as written.
        position: String,
    },
    /// The caller's fill failed.
    Fill(E),
}

impl<E: fmt::Display> fmt::Display for ValuesError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValuesError::NoProvedPeriod { game, values, largest } => write!(
                f,
                "no period of {game} is proved within its first {values} values, and n = \
                 {largest} is beyond what a table can hold (2^31)"
            ),
            ValuesError::BeyondTables { game, position, heap_game } => {
                let why = if *heap_game {
                    "no periodicity theorem covers it, so its values come from a table"
                } else {
                    "its values come from a table"
                };
                write!(
                    f,
                    "position `{position}` of {game} is too large: {why}, and tables stop below \
                     2^31"
                )
            }
            ValuesError::Shape(err) => write!(f, "{err}"),
            ValuesError::Infinite { game, position } => write!(
                f,
                "position `{position}` of {game} has the value ∞ (play from it may go on \
                 forever), which no Grundy value is"
            ),
            ValuesError::Fill(err) => write!(f, "{err}"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for ValuesError<E> {}

/// A position as the user wrote it (for messages), and its coordinates (checked against the
/// game: `grundy_core::check_position`).
pub type Position<'a> = (&'a str, Vec<Coord>);

/// The values of `positions` of `game`, computing tables with `fill`: a loopy game's from its
/// whole board ([`board_for`]), with their K when ∞; any other game's from its answers (tables,
/// strips or proved periods). `V` is `u32` (Grundy values: a loopy game's ∞ is refused) or
/// [`grundy_core::LoopyValue`] (any game, for a sum with a loopy component).
pub fn values_of<V: SumValue, E>(
    game: &Game,
    positions: &[Position<'_>],
    fill: &mut dyn FnMut(&TableShape) -> Result<Table, E>,
) -> Result<Values<V>, ValuesError<E>> {
    if game.is_loopy() {
        let coords: Vec<Vec<Coord>> = positions.iter().map(|(_, p)| p.clone()).collect();
        let shape = board_for(game, &coords).map_err(ValuesError::Shape)?;
        let table = fill(&shape).map_err(ValuesError::Fill)?;
        let values = positions
            .iter()
            .map(|(text, p)| {
                let value = table.value(p).expect("the board holds the positions");
                V::from_loopy(value).ok_or_else(|| ValuesError::Infinite {
                    game: game.name().to_string(),
                    position: text.to_string(),
                })
            })
            .collect::<Result<_, _>>()?;
        return Ok(Values { values, laws: Vec::new(), strips: Vec::new() });
    }
    let mut grundy = |shape: &TableShape| fill(shape).map(Table::into_data);
    let (groups, laws, strips) = answers_of(game, positions, &mut grundy)?;
    let mut values = vec![V::finite(0); positions.len()];
    for (group, answer) in &groups {
        for &i in group {
            values[i] = V::finite(answer.value(&positions[i].1));
        }
    }
    Ok(Values { values, laws, strips })
}

/// The groups of positions answered together, each with its answer (which also answers every
/// position in the box below its positions: their options), and the laws and strips used.
pub(crate) type Answers = (Vec<(Vec<usize>, Answer)>, Vec<Law>, Vec<Strip>);

/// The answers of `positions` of `game`, computing tables with `fill`.
pub(crate) fn answers_of<E>(
    game: &Game,
    positions: &[Position<'_>],
    fill: &mut dyn FnMut(&TableShape) -> Result<GrundyTable, E>,
) -> Result<Answers, ValuesError<E>> {
    let (mut laws, mut strips, mut answers) = (Vec::new(), Vec::new(), Vec::new());
    for group in groups(game, positions) {
        let part: Vec<Position<'_>> = group.iter().map(|&i| positions[i].clone()).collect();
        let answer = answer(game, &part, fill)?;
        match &answer {
            Answer::Law(law, computed) => laws.push(Law {
                game: game.name().to_string(),
                period: law.period.period,
                preperiod: law.period.preperiod,
                from: law.min + law.period.preperiod as Coord,
                argument: law.argument.clone(),
                values_computed: *computed,
            }),
            Answer::Strip(law, table) => strips.push(Strip {
                game: game.name().to_string(),
                axis: game.axes()[law.axis()].name.clone(),
                period: law.period(),
                from: law.from(),
                argument: law.argument.clone(),
                cells_computed: table.len(),
            }),
            Answer::Table(_) => {}
        }
        answers.push((group, answer));
    }
    Ok((answers, laws, strips))
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
pub(crate) enum Answer {
    /// A period proved by a theorem, found on this many values.
    Law(ProvedLaw, usize),
    /// A board's strip that repeats along one axis, found on this table (which answers the
    /// positions before the repetition).
    Strip(StripLaw, GrundyTable),
    /// A table that holds every position.
    Table(GrundyTable),
}

impl Answer {
    /// The value of `pos`: one of the group's positions or a position below them in every
    /// coordinate (so one of their options).
    ///
    /// # Panics
    /// If `pos` is outside what the answer covers.
    pub(crate) fn value(&self, pos: &[Coord]) -> u32 {
        match self {
            Answer::Law(law, _) => law.value(pos[0]),
            Answer::Strip(law, table) => match table.get(pos) {
                Some(value) => value.value(),
                None => law.value(pos),
            },
            Answer::Table(table) => table.get(pos).expect("the table covers it").value(),
        }
    }

    /// For a heap game's proved law: the first heap of the periodic part and the period.
    pub(crate) fn period(&self) -> Option<(Coord, usize)> {
        match self {
            Answer::Law(law, _) => {
                Some((law.min + law.period.preperiod as Coord, law.period.period))
            }
            Answer::Strip(..) | Answer::Table(_) => None,
        }
    }
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
    // Saturating: a heap of 2^63 − 1 is a position the parser accepts (issue 28: it overflowed).
    let needed = largest.saturating_sub(min).saturating_add(1);
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
            let game = game.name().to_string();
            return Err(ValuesError::NoProvedPeriod { game, values: len, largest });
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
    let extent = |d: usize| {
        positions.iter().map(|(_, pos)| pos[d].saturating_sub(mins[d]).saturating_add(1)).max()
    };
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
        return Err(ValuesError::BeyondTables {
            game: game.name().to_string(),
            position: text.to_string(),
            heap_game: game.dims() == 1,
        });
    }
    let text: Vec<String> = max.iter().map(Coord::to_string).collect();
    let shape = TableShape::new(game, &max, &text.join("x")).map_err(ValuesError::Shape)?;
    fill(&shape).map_err(ValuesError::Fill)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_compute::{FillRequest, NoProgress};
    use grundy_core::lookup;

    /// A fill of the default engine, counting the tables it is asked for and their cells.
    fn counted_fill<'a>(
        game: &'a Game,
        tables: &'a mut Vec<u128>,
    ) -> impl FnMut(&TableShape) -> Result<Table, String> + 'a {
        move |shape: &TableShape| {
            tables.push(shape.cells());
            let fill = FillRequest::new(game, shape)
                .whole(&grundy_compute::memory::Besides::NOTHING)
                .map_err(|e| e.to_string())?;
            fill.fill(&NoProgress).map_err(|e| e.to_string())
        }
    }

    fn table_value(game: &Game, pos: &[Coord]) -> u32 {
        let shape = TableShape::from_axes(game.axes().to_vec(), pos.to_vec());
        let table = FillRequest::new(game, &shape)
            .table(&grundy_compute::memory::Besides::NOTHING)
            .unwrap()
            .fill(&NoProgress)
            .unwrap();
        table.get(pos).unwrap().value()
    }

    /// A heap game with a proved period: far heaps from the law, near ones agree with a table,
    /// and the law says which theorem and from how many values.
    #[test]
    fn heaps_beyond_the_tables_come_from_a_proved_period() {
        let kayles = lookup("kayles").unwrap();
        let mut tables = Vec::new();
        let positions: Vec<Position<'_>> =
            vec![("10^18", vec![10i64.pow(18)]), ("70", vec![70]), ("5000", vec![5000])];
        let answered =
            values_of::<u32, _>(&kayles, &positions, &mut counted_fill(&kayles, &mut tables))
                .unwrap();
        assert_eq!(answered.values[1], table_value(&kayles, &[70]));
        assert_eq!(answered.values[2], table_value(&kayles, &[5000]));
        // Kayles has period 12 from heap 71, and 10^18 ≡ 5008 (mod 12).
        assert_eq!((10i64.pow(18) - 5008) % 12, 0);
        assert_eq!(answered.values[0], table_value(&kayles, &[5008]));
        let [law] = &answered.laws[..] else { panic!("one law: {:?}", answered.laws) };
        assert_eq!((law.period, law.preperiod, law.from), (12, 71, 71));
        assert!(law.argument.starts_with("Octal Periodicity Theorem"), "{}", law.argument);
        // One table of the first search size was enough: no doubling up to 10^18.
        assert_eq!(tables, [u128::from(FIRST_SEARCH as u64)]);
    }

    /// A board with bounded moves: a far position from a strip whose lines repeat, checked
    /// against a table of the whole box.
    #[test]
    fn far_board_positions_come_from_a_strip_that_repeats() {
        let kiki = lookup("kiki").unwrap();
        let mut tables = Vec::new();
        let far = vec![3, 100_000];
        let positions: Vec<Position<'_>> = vec![("3x100000", far.clone()), ("2x7", vec![2, 7])];
        let answered =
            values_of::<u32, _>(&kiki, &positions, &mut counted_fill(&kiki, &mut tables)).unwrap();
        assert_eq!(answered.values, [table_value(&kiki, &far), table_value(&kiki, &[2, 7])]);
        assert_eq!(answered.strips.len(), 1, "the far position came from a strip");
        assert!(tables.iter().all(|&cells| cells < 3 * 100_000), "{tables:?}");
    }

    /// What no table and no law reaches is refused, saying why.
    #[test]
    fn positions_beyond_every_table_and_law_are_refused() {
        let grundy = lookup("grundys-game").unwrap();
        let positions: Vec<Position<'_>> = vec![("10^12", vec![10i64.pow(12)])];
        let err =
            values_of::<u32, _>(&grundy, &positions, &mut counted_fill(&grundy, &mut Vec::new()))
                .unwrap_err();
        assert!(matches!(err, ValuesError::BeyondTables { heap_game: true, .. }), "{err}");
        assert!(err.to_string().contains("no periodicity theorem covers it"), "{err}");
    }
}
