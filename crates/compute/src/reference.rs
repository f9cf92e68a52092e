//! The reference fill: row-major, one cell at a time, options spelt out by [`Game::options`].
//!
//! It is deliberately plain and shares nothing with the compiled engine but the game model and
//! `mex`, so that agreement between the two means something.

use grundy_core::table::advance_row_major;
use grundy_core::{mex, Coord, Game, GrundyTable, Nimber, TableShape};

/// Fills the table of `game` over `shape` sequentially, in row-major order.
///
/// Row-major order is a valid order because no move raises a coordinate (a model invariant), so
/// every option of a cell comes earlier.
///
/// # Panics
/// If `shape` was made for a game with other axes.
pub fn fill_reference(game: &Game, shape: &TableShape) -> GrundyTable {
    assert_eq!(game.axes(), shape.axes(), "the shape belongs to another game");
    let mut table = GrundyTable::zeroed(shape.clone());
    let lens = shape.lens();
    let mut index = vec![0usize; lens.len()];
    for flat in 0..table.len() {
        let pos: Vec<Coord> =
            index.iter().zip(game.axes()).map(|(&i, axis)| axis.min + i as Coord).collect();
        let value = mex(game.options(&pos).iter().map(|option| {
            option.iter().fold(Nimber::ZERO, |sum, component| {
                sum ^ table.get(component).expect("options lie inside the table")
            })
        }));
        table.typed_mut::<u32>().expect("a u32 table")[flat] = value.value();
        advance_row_major(&mut index, &lens);
    }
    table.narrowed()
}
