//! The sparse-space columns of a heap game's records: the mask the engine's review settles on
//! over a whole sequence, and its rare positions.

use super::*;

/// The sparse-space columns of the records (Flammenkamp's tables) of a heap game's sequence: the
/// mask that makes the fewest positions rare over the whole sequence, and those positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SparseRecords {
    /// The mask over extended values (value·2 + heap parity): bit 0 reads the heap's parity,
    /// bit i + 1 the value's bit i. 0 when no mask makes any position common.
    pub mask: u64,
    /// The class (popcount of the masked extended value, mod 2) of the rare positions.
    pub rare_class: u32,
    /// Rare positions (heap sizes from 1).
    pub rare: u64,
    /// The largest rare position (0 when there is none).
    pub last_rare: u64,
}

impl SparseRecords {
    /// Whether the heap of size `heap` with value `value` is one of the rare positions these
    /// records count (heap sizes from 1).
    pub fn is_rare(&self, heap: u64, value: u32) -> bool {
        heap >= 1 && class(self.mask, value, (heap & 1) as usize) == self.rare_class
    }
}

/// Whether `game` over `shape` has sparse-space records (see [`sparse_records`]): why not, if not.
pub fn has_sparse_records(game: &Game, shape: &TableShape) -> Result<(), NotSparse> {
    HeapMoves::new(game, shape).map(|_| ())
}

/// The records of the sequence `values` (heap sizes 0, 1, …) of a game the sparse-space engine
/// computes (see [`crate::engine::Engine::Sparse`]): what the engine's mask review settles on when it
/// has seen every value, whatever engine computed them.
pub fn sparse_records(
    game: &Game,
    shape: &TableShape,
    values: &GrundyTable,
) -> Result<SparseRecords, NotSparse> {
    let moves = HeapMoves::new(game, shape)?;
    let filled = values.len();
    let mut state =
        grundy_core::with_cells!(values.cells(), |v| SparseState::rebuild(&moves, v, filled));
    if filled < FIRST_REVIEW {
        // Too short for the engine to have chosen; the records still name the best mask.
        (state.mask, state.rare_class) = best_mask(&state.histogram, state.odd_masks);
        grundy_core::with_cells!(values.cells(), |v| state.rebuild_rare(v));
    }
    Ok(SparseRecords {
        mask: state.mask,
        rare_class: state.rare_class,
        rare: state.rare.len() as u64,
        last_rare: state.rare.last().map_or(0, |&x| x.into()),
    })
}

/// [`sparse_records`] of a sequence that repeats after a preperiod (a heap game's values past a
/// proved period), counted from its repeating part: the same records as for its values written
/// out, since the mask review reads only the histogram of extended values.
pub(crate) fn sparse_records_repeating(
    game: &Game,
    shape: &TableShape,
    values: &Repeating<'_>,
) -> Result<SparseRecords, NotSparse> {
    let moves = HeapMoves::new(game, shape)?;
    let odd_masks = SparseState::new(&moves).odd_masks;
    let (mask, rare_class) = best_mask(&values.extended_histogram(), odd_masks);
    let rare = |value: u32, parity: usize| class(mask, value, parity) == rare_class;
    Ok(SparseRecords {
        mask,
        rare_class,
        // Rare positions are counted from heap size 1, as the engine keeps them.
        rare: values.count_where(1, rare),
        last_rare: values.last_where(rare).unwrap_or(0),
    })
}
