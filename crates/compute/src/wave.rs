//! The wave fill: cells with equal index sum are computed in parallel, wave after wave.
//!
//! It shares the compiled per-cell rule (`CompiledGame::insert_options`) with the tiled fill, so
//! it checks the tiled engine's order, tiling, line sets and widening, not the compiled moves:
//! the independent oracle is the reference fill, which reads `Game::options`.
//!
//! Every move lowers the coordinate sum, so the options of a cell in wave `d` all lie in waves
//! before `d`. A wave's values are computed in parallel from a shared read-only view of the table
//! (an indexed parallel map that keeps the order), then written back sequentially: no locks and
//! no `unsafe`.

use crate::compiled::CompiledGame;
use crate::{FillError, Progress};
use grundy_core::{Game, GrundyTable, MexSet, Nimber, TableShape};
use rayon::prelude::*;

/// Waves shorter than this are computed on the calling thread: splitting them costs more than it
/// saves. The result does not depend on it.
const PARALLEL_WAVE: usize = 64;

/// Fills the table of `game` over `shape` in anti-diagonal waves on the current rayon pool;
/// stops with [`FillError::Cancelled`] when `progress` asks between waves.
pub(crate) fn fill_waves(
    game: &Game,
    shape: &TableShape,
    progress: &dyn Progress,
) -> Result<GrundyTable, FillError> {
    let compiled = CompiledGame::new(game, shape, false);
    let mut table = GrundyTable::zeroed(shape.clone());
    let lens = compiled.lens().to_vec();
    let strides: Vec<usize> = (0..lens.len()).map(|d| lens[d + 1..].iter().product()).collect();
    let last_wave: usize = lens.iter().map(|len| len - 1).sum();
    let mut wave_values: Vec<Nimber> = Vec::new();
    let mut mex = MexSet::new();
    for d in 0..=last_wave {
        if progress.cancelled() {
            return Err(FillError::Cancelled);
        }
        let cells = index_tuples(&lens, d);
        let values = table.typed::<u32>().expect("a u32 table");
        let flat_of =
            |index: &[usize; 3]| index.iter().zip(&strides).map(|(i, s)| i * s).sum::<usize>();
        if cells.len() < PARALLEL_WAVE {
            wave_values.clear();
            wave_values.extend(
                cells
                    .iter()
                    .map(|index| compiled.cell_value(values, index, flat_of(index), &mut mex)),
            );
        } else {
            cells
                .par_iter()
                .map_init(MexSet::new, |mex, index| {
                    compiled.cell_value(values, index, flat_of(index), mex)
                })
                .collect_into_vec(&mut wave_values);
        }
        let slice = table.typed_mut::<u32>().expect("a u32 table");
        for (index, &value) in cells.iter().zip(&wave_values) {
            slice[flat_of(index)] = value.value();
        }
        progress.advance(cells.len() as u64);
    }
    Ok(table.narrowed())
}

/// The index tuples (unused axes 0) below `lens` whose indices sum to `d`, in row-major order:
/// the cells of a wave, or the tiles of a tile-wave.
pub(crate) fn index_tuples(lens: &[usize], d: usize) -> Vec<[usize; 3]> {
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

    #[test]
    fn waves_cover_every_cell_once() {
        for lens in [vec![5], vec![3, 4], vec![4, 1], vec![2, 3, 4], vec![1, 1, 1]] {
            let last: usize = lens.iter().map(|l| l - 1).sum();
            let mut all: Vec<[usize; 3]> =
                (0..=last).flat_map(|d| index_tuples(&lens, d)).collect();
            let total: usize = lens.iter().product();
            assert_eq!(all.len(), total, "{lens:?}");
            all.sort();
            all.dedup();
            assert_eq!(all.len(), total, "{lens:?}");
        }
    }
}
