//! [`Table`]: a game's table with what it holds and where it comes from, the one type the
//! analyses, checks, pictures and CSV writers take, whatever the play convention: a loopy
//! game's generalized values ride in the same type ([`LoopyCells`]), so that every consumer
//! has one entry and dispatches inside.

use super::{CellKind, GrundyTable};
use crate::game::{Coord, Game};
use crate::loopy::{LoopyOutcome, LoopyValue};
use std::fmt;
use std::sync::Arc;

/// The label of an ∞ position among a loopy table's cells ([`Table::data`]).
pub const INFINITE_LABEL: u32 = u32::MAX;

/// What a loopy game's table knows besides its labels: each position's generalized value (its
/// K when ∞) and outcome, by row-major index. The retrograde kernel's table is one.
pub trait LoopyCells: Send + Sync {
    /// The value of the position at `index`, with its K when ∞.
    fn value_at(&self, index: usize) -> LoopyValue;
    /// Its outcome (without building its K).
    fn outcome_at(&self, index: usize) -> LoopyOutcome;
}

/// Cells of a loopy game handed over without their generalized values ([`Table::of_values`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelsOnly {
    /// The game.
    pub game: String,
}

impl fmt::Display for LabelsOnly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is loopy: its cells alone hold ∞ as a label and no K", self.game)
    }
}

impl std::error::Error for LabelsOnly {}

/// A table with what it is: its cells, whether they hold values or only P/N outcomes, the game
/// they were computed for (unknown for a table read from a file, and for a slice, which is no
/// game of its own) and the name reports give it; for a loopy game, its generalized values.
#[derive(Clone)]
pub struct Table {
    data: GrundyTable,
    kind: CellKind,
    game: Option<Game>,
    name: String,
    loopy: Option<Arc<dyn LoopyCells>>,
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("data", &self.data)
            .field("kind", &self.kind)
            .field("game", &self.game)
            .field("name", &self.name)
            .field("loopy", &self.loopy.is_some())
            .finish()
    }
}

impl Table {
    /// The values of `game`, computed over `data`'s box; named after the game.
    ///
    /// # Panics
    /// If `data` has other axes than `game`.
    pub fn of_game(game: Game, data: GrundyTable) -> Table {
        assert_eq!(game.axes(), data.axes(), "the table belongs to another game");
        let name = game.name().to_string();
        Table { data, kind: CellKind::Values, game: Some(game), name, loopy: None }
    }

    /// The values of `game` that a caller hands over as plain cells (an array): refused for a
    /// loopy game, whose cells alone are labels without the values ∞ stands for.
    ///
    /// # Errors
    /// [`LabelsOnly`] for a loopy game.
    ///
    /// # Panics
    /// If `data` has other axes than `game`.
    pub fn of_values(game: Game, data: GrundyTable) -> Result<Table, LabelsOnly> {
        if game.is_loopy() {
            return Err(LabelsOnly { game: game.name().to_string() });
        }
        Ok(Table::of_game(game, data))
    }

    /// A loopy game's table: `labels` holds each position's finite value or [`INFINITE_LABEL`],
    /// `cells` its generalized values and outcomes.
    ///
    /// # Panics
    /// If `labels` has other axes than `game`.
    pub fn of_loopy(game: Game, labels: GrundyTable, cells: Arc<dyn LoopyCells>) -> Table {
        let table = Table::of_game(game, labels);
        Table { loopy: Some(cells), ..table }
    }

    /// A table whose game is not known (one read from a file), holding `kind`, named `name`.
    pub fn without_game(data: GrundyTable, kind: CellKind, name: impl Into<String>) -> Table {
        Table { data, kind, game: None, name: name.into(), loopy: None }
    }

    /// The cells: Grundy values (or outcomes, as [`Table::kind`] says); a loopy game's labels,
    /// its finite values and [`INFINITE_LABEL`] for ∞ ([`Table::loopy`] has the rest).
    pub fn data(&self) -> &GrundyTable {
        &self.data
    }

    /// A loopy game's generalized values; `None` for a table of Grundy values.
    pub fn loopy(&self) -> Option<&dyn LoopyCells> {
        self.loopy.as_deref()
    }

    /// A loopy table's values as integers, row-major, as its CSV's `g` column has them (∞ as
    /// [`crate::loopy::INFINITE_G`]); `None` for a table of Grundy values, whose cells are its values.
    pub fn g_values(&self) -> Option<Vec<i64>> {
        let labels = self.loopy.as_ref().map(|_| self.data.cells().to_u32_vec())?;
        let g = |label: u32| match label {
            INFINITE_LABEL => crate::loopy::INFINITE_G,
            finite => i64::from(finite),
        };
        Some(labels.into_iter().map(g).collect())
    }

    /// The generalized value of the cell at row-major `index`: a Grundy value is a finite one.
    pub fn value_at(&self, index: usize) -> LoopyValue {
        match &self.loopy {
            Some(cells) => cells.value_at(index),
            None => LoopyValue::Finite(self.data.get_flat(index).value()),
        }
    }

    /// The outcome of the cell at row-major `index`.
    pub fn outcome_at(&self, index: usize) -> LoopyOutcome {
        match &self.loopy {
            Some(cells) => cells.outcome_at(index),
            None if self.data.get_flat(index).is_p() => LoopyOutcome::P,
            None => LoopyOutcome::N,
        }
    }

    /// Cell count, sum, maximum and P-positions: of a loopy table, its finite values'.
    pub fn stats(&self) -> super::TableStats {
        match &self.loopy {
            None => self.data.stats(),
            Some(_) => {
                let labels = self.data.cells().to_u32_vec();
                let finite: Vec<u32> =
                    labels.into_iter().filter(|&l| l != INFINITE_LABEL).collect();
                let mut stats = super::TableStats::of(&finite);
                stats.cells = self.data.len() as u64;
                stats
            }
        }
    }

    /// The generalized value of `pos` (`None` outside the table).
    pub fn value(&self, pos: &[Coord]) -> Option<LoopyValue> {
        let index = self.data.shape().index_of(pos)?;
        Some(self.value_at(index))
    }

    /// Values, or only P/N outcomes.
    pub fn kind(&self) -> CellKind {
        self.kind
    }

    /// The game, when it is known.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The name reports give the table.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The table of one fewer axis where axis `axis` is fixed at `at` (see
    /// [`GrundyTable::slice`]), named `NAME at AXIS = AT`, without a game.
    /// A loopy game's table has no slices here (its generalized values are by the whole
    /// table's index): `None`.
    pub fn slice(&self, axis: usize, at: Coord) -> Option<Table> {
        if self.loopy.is_some() {
            return None;
        }
        let data = self.data.slice(axis, at)?;
        let name = format!("{} at {} = {at}", self.name, self.data.axes()[axis].name);
        Some(Table { data, kind: self.kind, game: None, name, loopy: None })
    }

    /// The cells, giving up the rest.
    pub fn into_data(self) -> GrundyTable {
        self.data
    }
}
