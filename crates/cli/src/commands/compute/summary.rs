//! `--format summary`: a table's sums as one JSON line, and the sums a streamed checkpoint keeps
//! beside its ring.

use grundy_compute::SequenceRecords;
use grundy_core::{Game, TableStats};
use serde::Serialize;

#[derive(Serialize)]
pub(super) struct Summary<'a> {
    game: &'a str,
    /// `misere` under misère play (the values are misère Grundy values); absent under normal
    /// play.
    #[serde(skip_serializing_if = "Option::is_none")]
    play: Option<&'static str>,
    size: &'a [i64],
    cells: u64,
    sum: u64,
    max: u32,
    p_positions: u64,
    seconds: f64,
    /// Heap games only: the records of the sequence.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub(super) sequence: Option<SequenceRecords>,
    /// Heap games answered by a proved period: the period and the first heap it answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) by_period: Option<grundy_laws::answered::ByPeriod>,
    /// Heap games under misère play: what their genera say.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub(super) genera: Option<grundy_compute::misere::GeneraCount>,
}

impl<'a> Summary<'a> {
    pub(super) fn new(
        game: &'a Game,
        size: &'a [i64],
        stats: TableStats,
        seconds: f64,
    ) -> Summary<'a> {
        Summary {
            game: game.name(),
            play: game.play().tag(),
            size,
            cells: stats.cells,
            sum: stats.sum,
            max: stats.max,
            p_positions: stats.p_positions,
            seconds,
            sequence: None,
            by_period: None,
            genera: None,
        }
    }
}

/// The sums of the rows a streamed or distributed fill hands out, as they come.
#[derive(Clone, Copy, Debug)]
pub(super) struct RowSums {
    pub(super) stats: TableStats,
}

impl RowSums {
    pub(super) fn new(stats: TableStats) -> RowSums {
        RowSums { stats }
    }

    /// Adds a finished row; `lower_half` when the fill gives a symmetric table's rows as their
    /// lower halves (columns 0 to i of row i): the cells left of the diagonal stand for their
    /// mirrors too.
    pub(super) fn add(&mut self, row: &[u32], lower_half: bool) {
        self.stats = self.stats.merge(TableStats::of(row));
        if lower_half {
            self.stats = self.stats.merge(TableStats::of(&row[..row.len() - 1]));
        }
    }

    /// The sums as a streamed checkpoint keeps them: cells, sum, max and P-positions as
    /// little-endian u64s.
    pub(super) fn to_bytes(self) -> Vec<u8> {
        let TableStats { cells, sum, max, p_positions } = self.stats;
        [cells, sum, max.into(), p_positions].iter().flat_map(|n| n.to_le_bytes()).collect()
    }

    /// The sums [`RowSums::to_bytes`] wrote, if `bytes` are such sums for `cells` cells.
    pub(super) fn from_bytes(bytes: &[u8], cells: u64) -> Option<RowSums> {
        let numbers: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|chunk| u64::from_le_bytes(chunk.try_into().expect("8 bytes")))
            .collect();
        match numbers[..] {
            [cells_seen, sum, max, p_positions] if bytes.len() == 32 && cells_seen == cells => {
                let max = u32::try_from(max).ok()?;
                Some(RowSums::new(TableStats { cells, sum, max, p_positions }))
            }
            _ => None,
        }
    }
}
