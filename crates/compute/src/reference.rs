//! The reference fill: row-major, one cell at a time, options spelt out by [`Game::options`].
//!
//! It is deliberately plain and shares nothing with the compiled engine but the game model and
//! `mex`, so that agreement between the two means something.

use crate::error::FillError;
use crate::progress::{NoProgress, Progress};
use grundy_core::{mex, Coord, Game, GrundyTable, TableShape};
use ndarray::{Dimension, IxDyn};

/// Fills the table of `game` over `shape` sequentially, in row-major order.
///
/// Row-major order is a valid order because no move raises a coordinate (a model invariant), so
/// every option of a cell comes earlier.
///
/// Under misère play a cell's value is its misère Grundy value ([`grundy_core::Play`]).
///
/// # Panics
/// If `shape` was made for a game with other axes, or if the game is played misère and its
/// moves leave sums (whose misère values the table cannot give).
pub fn fill_reference(game: &Game, shape: &TableShape) -> GrundyTable {
    fill_reference_with(game, shape, &NoProgress).expect("nothing cancels it")
}

/// [`fill_reference`], reporting to `progress` every few cells and stopping with
/// [`FillError::Cancelled`] when it asks.
pub(crate) fn fill_reference_with(
    game: &Game,
    shape: &TableShape,
    progress: &dyn Progress,
) -> Result<GrundyTable, FillError> {
    assert_eq!(game.axes(), shape.axes(), "the shape belongs to another game");
    assert!(
        game.values_are_local(),
        "misère values of sums are not a function of the components' values"
    );
    let mut table = GrundyTable::zeroed(shape.clone());
    let lens = shape.lens();
    // Cancellation is asked every few cells, not only once a row: a heap game's table is one
    // row, and a caller answers Ctrl-C within a second (issue 28: 1.56 s).
    const CHECK_EVERY: usize = 256;
    let mut reported = 0;
    for (flat, index) in ndarray::indices(IxDyn(&lens)).into_iter().enumerate() {
        if flat % CHECK_EVERY == 0 {
            if progress.cancelled() {
                return Err(FillError::Cancelled);
            }
            progress.advance((flat - reported) as u64);
            reported = flat;
        }
        let pos: Vec<Coord> =
            index.slice().iter().zip(game.axes()).map(|(&i, axis)| axis.min + i as Coord).collect();
        let options = game.options(&pos);
        let play = game.play();
        let value = mex(options.iter().map(|option| {
            play.option_value(
                option
                    .iter()
                    .map(|component| table.get(component).expect("options lie inside the table")),
            )
        }));
        let value = play.value(value, || options.is_empty());
        table.typed_mut::<u32>().expect("a u32 table")[flat] = value.value();
    }
    progress.advance((shape.cells() - reported as u128) as u64);
    Ok(table.narrowed())
}
