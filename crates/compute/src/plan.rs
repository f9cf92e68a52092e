//! The plan: what an engine will compute, in which order, and what each piece of work reads.
//!
//! A plan cuts a table into rectangular **units** (tiles; single cells for the cell-wave engine;
//! whole rows for the streaming fill) and orders them in **waves**: unit (I, J) belongs to wave
//! I + J (in 3-D, I + J + K). No move raises a coordinate, so every option of a cell lies in a unit
//! that is componentwise at most the cell's own: an earlier wave, or the same unit, earlier in
//! row-major order. The units of one wave therefore depend only on earlier waves and may run
//! anywhere, in any order; a position in the plan (a [`WaveMark`]) is all a fill needs to go on.
//!
//! A plan is plain data (it serialises with serde): it knows the table's lengths, the unit sides,
//! whether the table is mirrored, and what a unit [`Reads`], but nothing of values or threads.

use serde::{Deserialize, Serialize};

/// A line along which a slide reaches every earlier cell: its values so far are kept as a summary
/// (a [`grundy_core::PrefixSet`]) instead of being read one by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LineKind {
    /// Cells with the same first index (a slide along (0, −1)).
    Row,
    /// Cells with the same second index (a slide along (−1, 0)).
    Column,
    /// Cells with the same index difference (a slide along (−1, −1)).
    Diagonal,
}

impl LineKind {
    /// Which line of this kind the cell (i, j) of a table with `cols` columns lies on: its row,
    /// its column, or its diagonal (numbered from the top right corner).
    #[inline]
    pub(crate) fn locate(self, i: usize, j: usize, cols: usize) -> usize {
        match self {
            LineKind::Row => i,
            LineKind::Column => j,
            LineKind::Diagonal => i + cols - 1 - j,
        }
    }
}

/// What a unit reads besides its own earlier cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reads {
    /// For each axis, how far back along it a cell's options reach, or `None` when they may reach
    /// the whole axis (splits, take-and-break moves).
    pub halo: Vec<Option<usize>>,
    /// The line summaries a cell reads and adds its value to.
    pub lines: Vec<LineKind>,
}

impl Reads {
    /// Whether a cell reads only cells a few steps back along each axis (at most 8) and no line
    /// summary, as kiki's game does.
    pub fn is_local(&self) -> bool {
        self.lines.is_empty() && self.halo.iter().all(|reach| reach.is_some_and(|r| r <= 8))
    }
}

/// Tile shape for 2-D tables (rows × columns): short, wide tiles. A tile's rows lie one table row
/// apart in memory, so each costs its own pages and cache sets; few long rows keep the tile's
/// working set (and its row, column and diagonal line state) in the first cache levels.
const TILE_2D: [usize; 2] = [16, 256];

/// Tile shape for 2-D tables whose moves are short steps ([`Reads::is_local`]) computed whole: a
/// strip of 64 rows is what the bit-sliced sweep computes at once (a word's lanes), and its
/// w + 63 steps waste little of a row of 1024; the row loop gains from long rows too. Kiki
/// 15000² on two threads (hyperfine, 10 runs each): 252 ms with 64 × 256, 192 ms with 64 × 512,
/// 175 ms with 64 × 1024.
const TILE_2D_LOCAL: [usize; 2] = [64, 1024];

/// Tile side for symmetric 2-D tables, whose tiles must be square to be mirrored.
const TILE_SQUARE: usize = 64;

/// Tile side for symmetric 2-D tables whose moves are short steps ([`Reads::is_local`]): a
/// cell costs a few nanoseconds there, so the per-row work of a tile (finding the earlier rows,
/// writing the mirror) is amortised over longer rows. Kiki 15000²: 398 ms with 64, 361 ms with
/// 128, 357 ms with 256 (fewer, larger tiles leave less to share among threads on small tables).
const TILE_SQUARE_LOCAL: usize = 128;

/// Tile side for 3-D tables (16³ = 4096 cells, as in 2-D).
const TILE_3D: usize = 16;

/// Tile side for heap games. Their cells depend on each other in order, so the waves have one
/// tile each and there is no parallelism to gain from size; short tiles give a checkpoint
/// something to stop between, and a table whose values outgrow its cells is widened after at most
/// one tile, so the values that did not fit are looked up by hash for at most one tile's cells
/// (a whole heap game as one tile read every option of every later cell that way: issue 11).
pub(crate) const TILE_1D: usize = 1024;

/// A table cut into units and ordered in waves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    lens: Vec<usize>,
    sides: [usize; 3],
    mirror: bool,
    reads: Reads,
}

/// One unit of work: the cells from `lo` (inclusive) to `hi` (exclusive) on every axis (0 and 1
/// on the axes a table does not have), in row-major order. With `lower_only`, only the cells with
/// j ≤ i are computed (a diagonal tile of a mirrored table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// The first cell.
    pub lo: [usize; 3],
    /// One past the last cell, on every axis.
    pub hi: [usize; 3],
    /// Compute only the cells on or below the diagonal.
    pub lower_only: bool,
}

impl Unit {
    /// The cells the unit computes.
    pub fn cells(&self) -> u64 {
        let [a, b, c] = [0, 1, 2].map(|d| (self.hi[d] - self.lo[d]) as u64);
        if self.lower_only {
            // A square diagonal tile: its lower triangle with the diagonal.
            a * (a + 1) / 2
        } else {
            a * b * c
        }
    }
}

/// Where a fill stands in its plan: its table is final in the first `done` of `total` waves of
/// units with sides `tile_sides`. Together with the table, this is all a fill needs to go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveMark {
    /// Waves whose cells are final.
    pub done: usize,
    /// Waves of the whole table.
    pub total: usize,
    /// The sides of the units (1 on the axes a table does not have).
    pub tile_sides: [usize; 3],
}

impl WaveMark {
    /// Whether every wave is final.
    pub fn is_complete(&self) -> bool {
        self.done == self.total
    }

    /// The heaps final after these waves of a heap game's table of `len` heaps (a 1-D plan's
    /// waves are its tiles, in order).
    pub fn heaps_final(&self, len: usize) -> usize {
        if self.is_complete() {
            len
        } else {
            (self.done * self.tile_sides[0]).min(len)
        }
    }
}

/// Whether a tiled plan computes a symmetric table by halves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halves {
    /// Only the tiles on and below the diagonal; the store writes each cell's mirror too
    /// (square tables of moves symmetric in the two axes).
    Mirrored,
    /// Every tile.
    Whole,
}

impl Plan {
    /// Tiles of the default sides for a table of `lens` (or squares of `side`), computed by
    /// halves as `halves` says (then the default tiles are square).
    pub(crate) fn tiles(
        lens: Vec<usize>,
        reads: Reads,
        side: Option<usize>,
        halves: Halves,
    ) -> Plan {
        let symmetric = halves == Halves::Mirrored;
        let sides = match (side, lens.len()) {
            (Some(side), _) => [side.max(1); 3],
            (None, 1) => [TILE_1D, 1, 1],
            // Mirroring needs square tiles.
            (None, 2) if symmetric => {
                let side = if reads.is_local() { TILE_SQUARE_LOCAL } else { TILE_SQUARE };
                [side, side, 1]
            }
            (None, 2) if reads.is_local() => [TILE_2D_LOCAL[0], TILE_2D_LOCAL[1], 1],
            (None, 2) => [TILE_2D[0], TILE_2D[1], 1],
            (None, _) => [TILE_3D; 3],
        };
        let mirror = symmetric && sides[0] == sides[1];
        Plan { lens, sides, mirror, reads }
    }

    /// One cell per unit, nothing mirrored: the cell-wave engine's plan.
    pub(crate) fn cells(lens: Vec<usize>, reads: Reads) -> Plan {
        Plan { lens, sides: [1; 3], mirror: false, reads }
    }

    /// One row of a 2-D table per unit (so one unit per wave): the streaming fill's plan.
    pub(crate) fn rows(lens: Vec<usize>, reads: Reads) -> Plan {
        debug_assert_eq!(lens.len(), 2);
        let sides = [1, lens[1], 1];
        Plan { lens, sides, mirror: false, reads }
    }

    /// The table's lengths.
    pub fn lens(&self) -> &[usize] {
        &self.lens
    }

    /// The sides of the units (1 on the axes a table does not have).
    pub fn tile_sides(&self) -> [usize; 3] {
        self.sides
    }

    /// Whether only the cells with i ≥ j are computed, each also written at its mirror (j, i).
    pub fn mirror(&self) -> bool {
        self.mirror
    }

    /// What the units read besides their own earlier cells.
    pub fn reads(&self) -> &Reads {
        &self.reads
    }

    /// The number of waves.
    pub fn waves(&self) -> usize {
        self.unit_counts().iter().map(|count| count - 1).sum::<usize>() + 1
    }

    /// The position before any wave.
    pub fn start(&self) -> WaveMark {
        self.mark(0)
    }

    /// The position after `done` waves.
    pub fn mark(&self, done: usize) -> WaveMark {
        WaveMark { done, total: self.waves(), tile_sides: self.sides }
    }

    /// The units along each axis (1 on the axes a table does not have). On the stack: this is
    /// asked for every wave.
    fn unit_counts(&self) -> [usize; 3] {
        let mut counts = [1; 3];
        for ((count, len), side) in counts.iter_mut().zip(&self.lens).zip(&self.sides) {
            *count = len.div_ceil(*side);
        }
        counts
    }

    /// The units of wave `wave`, in row-major order of their corners.
    pub fn units(&self, wave: usize) -> Vec<Unit> {
        let mut units = Vec::new();
        self.units_into(wave, &mut units);
        units
    }

    /// [`Plan::units`] into `units` (emptied first), so that one buffer serves every wave: a
    /// wave of single cells can hold thousands of units, and a fresh buffer of that size per wave
    /// goes back and forth to the operating system.
    pub fn units_into(&self, wave: usize, units: &mut Vec<Unit>) {
        let dims = self.lens.len();
        units.clear();
        let tiles = index_tuples(&self.unit_counts()[..dims], wave);
        units.extend(tiles.into_iter().filter(|tile| !self.mirror || tile[0] >= tile[1]).map(
            |tile| {
                let mut unit = Unit { lo: [0; 3], hi: [1; 3], lower_only: false };
                for (d, &len) in self.lens.iter().enumerate() {
                    unit.lo[d] = tile[d] * self.sides[d];
                    unit.hi[d] = (unit.lo[d] + self.sides[d]).min(len);
                }
                unit.lower_only = self.mirror && tile[0] == tile[1];
                unit
            },
        ));
    }

    /// The cells that are final after `done` waves (mirrored cells included).
    pub fn cells_done(&self, done: usize) -> u64 {
        let sides = self.sides;
        let span = |tile: &[usize; 3], axis: usize| {
            let lo = tile[axis] * sides[axis];
            ((lo + sides[axis]).min(self.lens.get(axis).copied().unwrap_or(1)) - lo) as u64
        };
        let counts = self.unit_counts();
        (0..done.min(self.waves()))
            .flat_map(|d| index_tuples(&counts[..self.lens.len()], d))
            .map(|tile| span(&tile, 0) * span(&tile, 1) * span(&tile, 2))
            .sum()
    }

    /// How many columns of 2-D row `i` are final after `done` waves: cell (i, j) is final when
    /// its wave i / h + j / w is below `done` (mirrored cells too, whose tiles share the wave).
    pub(crate) fn row_end(&self, i: usize, done: usize) -> usize {
        (done.saturating_sub(i / self.sides[0]) * self.sides[1]).min(self.lens[1])
    }

    /// How many rows of 2-D column `j` are final after `done` waves.
    pub(crate) fn column_end(&self, j: usize, done: usize) -> usize {
        (done.saturating_sub(j / self.sides[1]) * self.sides[0]).min(self.lens[0])
    }
}

/// The index tuples (unused axes 0) below `lens` whose indices sum to `d`, in row-major order:
/// the units of a wave.
fn index_tuples(lens: &[usize], d: usize) -> Vec<[usize; 3]> {
    let range =
        |len: usize, rest_max: usize, d: usize| d.saturating_sub(rest_max)..=(len - 1).min(d);
    match lens {
        [_] => vec![[d, 0, 0]],
        [rows, cols] => range(*rows, cols - 1, d).map(|i| [i, d - i, 0]).collect(),
        [a, b, c] => range(*a, b - 1 + c - 1, d)
            .flat_map(|i| range(*b, c - 1, d - i).map(move |j| [i, j, d - i - j]))
            .collect(),
        _ => unreachable!("games have 1, 2 or 3 axes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn halves(symmetric: bool) -> Halves {
        if symmetric {
            Halves::Mirrored
        } else {
            Halves::Whole
        }
    }

    fn no_reads(dims: usize) -> Reads {
        Reads { halo: vec![Some(1); dims], lines: Vec::new() }
    }

    /// Every cell is computed exactly once, by a unit of the wave the module docs give it, and
    /// `cells_done` counts them; mirrored plans compute the lower triangle.
    #[test]
    fn units_cover_every_cell_once() {
        for (lens, side, symmetric) in [
            (vec![5], Some(2), false),
            (vec![3, 4], Some(1), false),
            (vec![4, 1], None, false),
            (vec![7, 7], Some(3), true),
            (vec![2, 3, 4], Some(2), false),
            (vec![1, 1, 1], None, false),
            (vec![130, 130], None, true),
        ] {
            let plan = Plan::tiles(lens.clone(), no_reads(lens.len()), side, halves(symmetric));
            let mut seen = std::collections::HashMap::new();
            for wave in 0..plan.waves() {
                for unit in plan.units(wave) {
                    let mut count = 0;
                    for i in unit.lo[0]..unit.hi[0] {
                        for j in unit.lo[1]..unit.hi[1] {
                            if unit.lower_only && j > i {
                                continue;
                            }
                            for k in unit.lo[2]..unit.hi[2] {
                                assert!(seen.insert([i, j, k], wave).is_none(), "{lens:?}");
                                count += 1;
                            }
                        }
                    }
                    assert_eq!(count, unit.cells(), "{lens:?} {unit:?}");
                }
            }
            let total: usize = lens.iter().product();
            let computed = if plan.mirror() { lens[0] * (lens[0] + 1) / 2 } else { total };
            assert_eq!(seen.len(), computed, "{lens:?}");
            assert_eq!(plan.cells_done(plan.waves()), total as u64, "{lens:?}");
            if lens.len() == 2 {
                for (&[i, j, _], &wave) in &seen {
                    for done in 0..=plan.waves() {
                        assert_eq!(j < plan.row_end(i, done), wave < done, "{lens:?}");
                        assert_eq!(i < plan.column_end(j, done), wave < done, "{lens:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_plan_is_data() {
        let plan = Plan::tiles(
            vec![100, 80],
            Reads { halo: vec![Some(2), None], lines: vec![LineKind::Row] },
            None,
            Halves::Whole,
        );
        let text = serde_json::to_string(&plan).unwrap();
        assert_eq!(serde_json::from_str::<Plan>(&text).unwrap(), plan);
        assert_eq!(plan.start(), WaveMark { done: 0, total: 7, tile_sides: [16, 256, 1] });
    }
}
