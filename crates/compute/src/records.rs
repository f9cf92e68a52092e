//! The records of a heap game's sequence, as the published tables give them.

use grundy_core::{Game, GrundyTable, Repeating, TableShape};

/// The columns of the published tables of heap games (Flammenkamp's): where the largest value
/// first appears and, for games the sparse-space engine computes, its rare positions. Written by
/// `compute --format summary` and `patterns`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SequenceRecords {
    /// The largest value (in the text only: the summary of `compute` has it already).
    #[serde(skip)]
    pub max: u32,
    /// Where it first appears.
    pub max_first_at: i64,
    /// The sparse-space mask over extended values that leaves the fewest rare heaps (games the
    /// sparse-space engine computes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rare_mask: Option<u64>,
    /// The class (parity of the masked bits) of the rare heaps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rare_class: Option<u32>,
    /// Rare heaps (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rare: Option<u64>,
    /// The last rare heap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_rare: Option<u64>,
}

impl SequenceRecords {
    /// The records of `table` if it is a heap game's sequence; the rare columns need the game.
    pub fn of(game: Option<&Game>, table: &GrundyTable) -> Option<SequenceRecords> {
        let shape = table.shape();
        if shape.lens().len() != 1 {
            return None;
        }
        let max = table.stats().max;
        let first = (0..table.len()).find(|&n| table.get_flat(n).value() == max).unwrap_or(0);
        let records =
            game.and_then(|game| crate::sparse::records::sparse_records(game, shape, table).ok());
        Some(SequenceRecords::assemble(shape, max, first as u64, records))
    }

    /// The records of the heap game sequence `values` over `shape` (a table's values that repeat
    /// after a preperiod), counted from the repeating part: the records [`SequenceRecords::of`]
    /// gives the same values written out, in the time of their first period.
    pub fn of_repeating(
        game: Option<&Game>,
        shape: &TableShape,
        values: &Repeating<'_>,
    ) -> Option<SequenceRecords> {
        if shape.lens().len() != 1 {
            return None;
        }
        let max = values.stats().max;
        let first = values.first(max).unwrap_or(0);
        let records = game.and_then(|game| {
            crate::sparse::records::sparse_records_repeating(game, shape, values).ok()
        });
        Some(SequenceRecords::assemble(shape, max, first, records))
    }

    /// The records of a sequence over `shape` whose largest value `max` is first at index
    /// `first`, with the sparse-space records when the game has them.
    fn assemble(
        shape: &TableShape,
        max: u32,
        first: u64,
        records: Option<crate::sparse::records::SparseRecords>,
    ) -> SequenceRecords {
        SequenceRecords {
            max,
            max_first_at: shape.axes()[0].min + first as i64,
            rare_mask: records.map(|r| r.mask),
            rare_class: records.map(|r| r.rare_class),
            rare: records.map(|r| r.rare),
            last_rare: records.map(|r| r.last_rare),
        }
    }

    /// One line of text for the report of `patterns`.
    pub fn describe(&self, axis: &str) -> String {
        let mut line =
            format!("records: largest value {}, first at {axis} = {}", self.max, self.max_first_at);
        if let (Some(mask), Some(class), Some(rare), Some(last)) =
            (self.rare_mask, self.rare_class, self.rare, self.last_rare)
        {
            line += &format!(
                "; rare mask {mask} over value·2 + parity (rare class {class}): {rare} rare \
                 heaps, the last at {axis} = {last}"
            );
        }
        line
    }
}
