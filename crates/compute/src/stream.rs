//! The streaming fill: a 2-D table row by row, keeping only the rows the moves reach back and the
//! line accumulators, for tables larger than memory. Each finished row goes to a sink (a CSV
//! writer, a summary) and is forgotten.

use crate::compiled::{Cells, CompiledGame, NO_LINE};
use grundy_core::{mex_of_union, Game, MexSet, Nimber, PrefixSet, TableShape};

/// Why a table cannot be filled row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoStream {
    /// Only 2-D tables stream; this one has `dims` axes.
    Axes {
        /// The table's number of axes.
        dims: usize,
    },
    /// A rule (1-based, with its kind), or the moves together when `rule` is `None`, reach back
    /// through whole columns (a split of the first axis), so every row must be kept.
    WholeColumns {
        /// The rule's number and kind.
        rule: Option<(usize, &'static str)>,
    },
}

impl std::fmt::Display for NoStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoStream::Axes { dims } => {
                write!(f, "only 2-D tables stream row by row; this one has {dims} axes")
            }
            NoStream::WholeColumns { rule } => {
                match rule {
                    Some((index, kind)) => write!(f, "rule {index} ({kind})")?,
                    None => f.write_str("its moves together")?,
                }
                f.write_str(
                    " reaches back through whole columns (a split of the first axis reads pieces \
                     from anywhere in its column), so every row must be kept",
                )
            }
        }
    }
}

impl std::error::Error for NoStream {}

/// The rows a row-by-row fill of `game` over `shape` keeps, or why it cannot stream.
pub fn streaming_rows(game: &Game, shape: &TableShape) -> Result<usize, NoStream> {
    if shape.lens().len() != 2 {
        return Err(NoStream::Axes { dims: shape.lens().len() });
    }
    let rows = shape.lens()[0];
    let needed = |game: &Game| {
        CompiledGame::new(game, shape, true).rows_needed().filter(|&needed| needed < rows)
    };
    if let Some(needed) = needed(game) {
        return Ok(needed + 1);
    }
    // Name the rule that keeps every row: compile each rule alone.
    let culprit = game.rules().iter().enumerate().find(|(_, rule)| {
        Game::new(game.name(), "", game.axes().to_vec(), vec![(*rule).clone()])
            .is_ok_and(|alone| needed(&alone).is_none())
    });
    Err(NoStream::WholeColumns { rule: culprit.map(|(index, rule)| (index + 1, rule.kind())) })
}

/// The last rows of the table, in a ring.
struct Ring {
    cells: Vec<u32>,
    cols: usize,
    kept: usize,
}

impl Cells for Ring {
    type Cell = u32;

    #[inline]
    fn at(&self, index: usize) -> Nimber {
        let (row, col) = (index / self.cols, index % self.cols);
        Nimber(self.cells[(row % self.kept) * self.cols + col])
    }

    #[inline]
    fn run(&self, start: usize, len: usize) -> Option<&[u32]> {
        let row = start / self.cols;
        if len == 0 || (start + len - 1) / self.cols != row {
            return None;
        }
        let at = (row % self.kept) * self.cols + start % self.cols;
        Some(&self.cells[at..at + len])
    }
}

/// Fills the table of `game` over `shape` row by row and hands each finished row (the values
/// along the second axis) to `sink`, in order.
///
/// # Panics
/// If the table cannot stream (check [`streaming_rows`] first).
pub fn stream_rows<E>(
    game: &Game,
    shape: &TableShape,
    mut sink: impl FnMut(&[u32]) -> Result<(), E>,
) -> Result<(), E> {
    let kept = streaming_rows(game, shape).expect("the table streams");
    let compiled = CompiledGame::new(game, shape, true);
    let lens = shape.lens();
    let (rows, cols) = (lens[0], lens[1]);
    let kinds = compiled.lines().to_vec();
    let sized =
        |store: usize, len: usize| if kinds.iter().any(|k| k.store() == store) { len } else { 0 };
    // One row set suffices: a row's line is only read while that row is filled.
    let mut lines = [
        vec![PrefixSet::new(); sized(0, 1)],
        vec![PrefixSet::new(); sized(1, cols)],
        vec![PrefixSet::new(); sized(2, rows + cols - 1)],
    ];
    let mut ring = Ring { cells: vec![0; kept * cols], cols, kept };
    let mut mex = MexSet::new();
    for i in 0..rows {
        if let Some(row_line) = lines[0].first_mut() {
            *row_line = PrefixSet::new();
        }
        for j in 0..cols {
            let flat = i * cols + j;
            let low = compiled.insert_options(&ring, &[i, j, 0], flat, &mut mex);
            let value = if kinds.is_empty() {
                mex.mex_with_low(low)
            } else {
                let mut spots = [(0usize, 0usize); 3];
                for (spot, kind) in spots.iter_mut().zip(&kinds) {
                    let (store, line) = kind.locate(i, j, cols);
                    *spot = (store, if store == 0 { 0 } else { line });
                }
                let spots = &spots[..kinds.len()];
                let mut refs = [&NO_LINE; 3];
                for (slot, &(store, line)) in refs.iter_mut().zip(spots) {
                    *slot = &lines[store][line];
                }
                let value = mex_of_union(&mex, low, &refs[..spots.len()]);
                for &(store, line) in spots {
                    lines[store][line].insert(value);
                }
                value
            };
            mex.clear();
            ring.cells[(i % kept) * cols + j] = value.value();
        }
        let start = (i % kept) * cols;
        sink(&ring.cells[start..start + cols])?;
    }
    Ok(())
}
