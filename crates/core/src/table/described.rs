//! [`Table`]: a Grundy table with what it holds and where it comes from, the one type the
//! analyses, checks and pictures take.

use super::{CellKind, GrundyTable};
use crate::game::{Coord, Game};

/// A table with what it is: its cells, whether they hold values or only P/N outcomes, the game
/// they were computed for (unknown for a table read from a file, and for a slice, which is no
/// game of its own) and the name reports give it.
#[derive(Clone, Debug)]
pub struct Table {
    data: GrundyTable,
    kind: CellKind,
    game: Option<Game>,
    name: String,
}

impl Table {
    /// The values of `game`, computed over `data`'s box; named after the game.
    ///
    /// # Panics
    /// If `data` has other axes than `game`.
    pub fn of_game(game: Game, data: GrundyTable) -> Table {
        assert_eq!(game.axes(), data.axes(), "the table belongs to another game");
        let name = game.name().to_string();
        Table { data, kind: CellKind::Values, game: Some(game), name }
    }

    /// A table whose game is not known (one read from a file), holding `kind`, named `name`.
    pub fn without_game(data: GrundyTable, kind: CellKind, name: impl Into<String>) -> Table {
        Table { data, kind, game: None, name: name.into() }
    }

    /// The cells.
    pub fn data(&self) -> &GrundyTable {
        &self.data
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
    pub fn slice(&self, axis: usize, at: Coord) -> Option<Table> {
        let data = self.data.slice(axis, at)?;
        let name = format!("{} at {} = {at}", self.name, self.data.axes()[axis].name);
        Some(Table { data, kind: self.kind, game: None, name })
    }

    /// The cells, giving up the rest.
    pub fn into_data(self) -> GrundyTable {
        self.data
    }
}
