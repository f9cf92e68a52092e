//! Structure of 2-D tables: periods in both directions, symmetry, separable P-sets, and the
//! periodicity of every row, column and diagonal.

use crate::periodicity::{find_lasting_period, lasting_length, tail_period, Period};
use ndarray::{s, ArrayView2, Axis};
use rayon::prelude::*;

/// A row-major 2-D view of a table's cells: an ndarray view whose rows are contiguous (the whole
/// table, or its top-left corner), so a row can be compared as a slice.
#[derive(Clone, Copy, Debug)]
pub struct Grid<'a, T> {
    view: ArrayView2<'a, T>,
    rows: usize,
    cols: usize,
}

impl<'a, T: Copy + PartialEq> Grid<'a, T> {
    /// A view of `cells` as `rows` rows of `cols` cells.
    ///
    /// # Panics
    /// If `cells.len() != rows * cols`.
    pub fn new(cells: &'a [T], rows: usize, cols: usize) -> Grid<'a, T> {
        let view = ArrayView2::from_shape((rows, cols), cells).expect("rows * cols cells");
        Grid { view, rows, cols }
    }

    /// The first `rows` rows and `cols` columns.
    ///
    /// # Panics
    /// If the corner is larger than the grid.
    pub fn top_left(&self, rows: usize, cols: usize) -> Grid<'a, T> {
        assert!(rows <= self.rows && cols <= self.cols);
        Grid { view: self.view.slice_move(s![..rows, ..cols]), rows, cols }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> &'a [T] {
        self.view.index_axis_move(Axis(0), i).to_slice().expect("rows are contiguous")
    }

    /// The cell at row `i`, column `j`.
    pub fn at(&self, i: usize, j: usize) -> T {
        self.view[[i, j]]
    }

    /// Whether row `i` breaks the period `[p, q]` in columns `b..`: T(i+p, j) ≠ T(i, j) or
    /// T(i, j+q) ≠ T(i, j) for some such j with both cells inside.
    fn row_breaks(&self, i: usize, p: usize, q: usize, b: usize) -> bool {
        let row = self.row(i);
        (i + p < self.rows && row[b..] != self.row(i + p)[b..])
            || (b + q < self.cols && row[b..self.cols - q] != row[b + q..])
    }

    /// The last column of row `i` that breaks the period `[p, q]`, if any.
    fn last_breaking_column(&self, i: usize, p: usize, q: usize) -> Option<usize> {
        let row = self.row(i);
        let vertical = (i + p < self.rows).then(|| {
            let below = self.row(i + p);
            (0..self.cols).rev().find(|&j| row[j] != below[j])
        });
        let horizontal =
            (q < self.cols).then(|| (0..self.cols - q).rev().find(|&j| row[j] != row[j + q]));
        vertical.flatten().max(horizontal.flatten())
    }
}

/// A 2-D period: T(i+p, j) = T(i, j) and T(i, j+q) = T(i, j) for every i ≥ a, j ≥ b (indices from
/// the table's first row and column) with both cells inside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period2d {
    /// `[p, q]`.
    pub period: [usize; 2],
    /// `[a, b]`, as indices.
    pub from: [usize; 2],
}

/// The largest preperiod the three-period rule allows for period `p` in a length `len`.
fn allowed_preperiod(len: usize, p: usize) -> usize {
    (len / 2).min(len - 3 * p)
}

/// The smallest `[p, q]` and then the smallest `[a, b]` (a first) under the three-period rule on
/// each axis, found alike in the whole table and in its top-left three quarters on each axis; or
/// `None`.
///
/// The second search keeps out periods that exist only inside the table: where the P-positions
/// run along lines that leave the table through its edges (slopes other than 1, as in games with
/// diagonal slides), the cone between two such lines is empty up to the table's edge, and the
/// first search finds a period whose start grows with the table. A real period starts where it
/// starts, whatever the size of the table that shows it.
pub fn find_period_2d<T: Copy + PartialEq + Sync>(grid: &Grid<'_, T>) -> Option<Period2d> {
    let found = find_period_2d_in(grid)?;
    let corner = grid.top_left(grid.rows - grid.rows / 4, grid.cols - grid.cols / 4);
    (find_period_2d_in(&corner) == Some(found)).then_some(found)
}

/// [`find_period_2d`] in one table.
///
/// p is the smallest period of the rows' sequence in the bottom-right region the rule allows, q
/// likewise for the columns; then a is the first row from which both hold (in the columns the
/// rule allows for q), and b the first column from which both hold in the rows from a.
fn find_period_2d_in<T: Copy + PartialEq + Sync>(grid: &Grid<'_, T>) -> Option<Period2d> {
    let (rows, cols) = (grid.rows, grid.cols);
    let p = (1..=rows / 3).find(|&p| {
        let a = allowed_preperiod(rows, p);
        (a..rows - p).all(|i| grid.row(i)[cols / 2..] == grid.row(i + p)[cols / 2..])
    })?;
    let q = (1..=cols / 3).find(|&q| {
        let b = allowed_preperiod(cols, q);
        (rows / 2..rows).all(|i| grid.row(i)[b..cols - q] == grid.row(i)[b + q..])
    })?;
    let b_allowed = allowed_preperiod(cols, q);
    let a = (0..rows).rev().find(|&i| grid.row_breaks(i, p, q, b_allowed)).map_or(0, |i| i + 1);
    if a > allowed_preperiod(rows, p) {
        return None;
    }
    let b = (a..rows)
        .into_par_iter()
        .filter_map(|i| grid.last_breaking_column(i, p, q))
        .max()
        .map_or(0, |j| j + 1);
    debug_assert!(b <= b_allowed);
    Some(Period2d { period: [p, q], from: [a, b] })
}

/// Whether T(x, y) = T(y, x) for every pair of coordinates on both axes' common range.
pub fn is_symmetric<T: Copy + PartialEq>(grid: &Grid<'_, T>, mins: [i64; 2]) -> bool {
    let low = mins[0].max(mins[1]);
    let high = (mins[0] + grid.rows as i64 - 1).min(mins[1] + grid.cols as i64 - 1);
    (low..=high).all(|x| {
        (x..=high).all(|y| {
            let (xr, yc) = ((x - mins[0]) as usize, (y - mins[1]) as usize);
            let (yr, xc) = ((y - mins[0]) as usize, (x - mins[1]) as usize);
            grid.at(xr, yc) == grid.at(yr, xc)
        })
    })
}

/// Whether the marked cells are exactly (rows with a mark) × (columns with a mark), with at least
/// one mark.
pub fn is_separable(mask: &Grid<'_, bool>) -> bool {
    let row_has: Vec<bool> = (0..mask.rows).map(|i| mask.row(i).contains(&true)).collect();
    let col_has: Vec<bool> =
        (0..mask.cols).map(|j| (0..mask.rows).any(|i| mask.at(i, j))).collect();
    row_has.contains(&true)
        && (0..mask.rows)
            .all(|i| (0..mask.cols).all(|j| mask.at(i, j) == (row_has[i] && col_has[j])))
}

/// The period of one line of a table (a row, a column or a diagonal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinePeriod {
    /// The row or column coordinate, or x − y for a diagonal.
    pub index: i64,
    /// The coordinate (along the line) of the line's first cell.
    pub start: i64,
    /// The line's period, if it has one.
    pub period: Option<Period>,
    /// For a line without one: the coordinate (along the line) that a longer line must reach to
    /// show the period its end suggests ([`tail_period`], [`lasting_length`]), if it suggests one.
    pub visible_at: Option<i64>,
}

impl LinePeriod {
    /// The period of the line of `values` starting at coordinate `start`, or where a longer line
    /// would show one.
    fn of<C: Copy + Into<i64>>(index: i64, start: i64, values: &[C]) -> LinePeriod {
        let period = find_lasting_period(values);
        let visible_at = match period {
            Some(_) => None,
            None => tail_period(values)
                .map(lasting_length)
                .filter(|&len| len > values.len())
                .map(|len| start + len as i64 - 1),
        };
        LinePeriod { index, start, period, visible_at }
    }
}

/// The rows, columns and diagonals (x − y constant) of a table of values, each analysed as a
/// sequence ([`find_lasting_period`]: the table's edge decides a line's length, so a period must
/// also hold in the line's first three quarters). `mins` are the coordinates of the first row
/// and column. Each line's period is passed through `report` as it is found, so that a caller
/// that keeps another form of it holds only that (a 1 × 3·10^6 board has 6·10^6 lines:
/// [`grundy_core::board_lines`]).
pub fn line_periods_with<C: Copy + PartialEq + Into<i64> + Sync, T: Send>(
    grid: &Grid<'_, C>,
    mins: [i64; 2],
    report: impl Fn(LinePeriod) -> T + Sync,
) -> [Vec<T>; 3] {
    let (rows, cols) = (grid.rows, grid.cols);
    let rows_out = (0..rows)
        .into_par_iter()
        .map(|i| report(LinePeriod::of(mins[0] + i as i64, mins[1], grid.row(i))))
        .collect();
    let cols_out = (0..cols)
        .into_par_iter()
        .map(|j| {
            let column: Vec<C> = (0..rows).map(|i| grid.at(i, j)).collect();
            report(LinePeriod::of(mins[1] + j as i64, mins[0], &column))
        })
        .collect();
    // Index difference k = i − j runs from −(cols − 1) to rows − 1.
    let diagonals = (-(cols as i64 - 1)..rows as i64)
        .into_par_iter()
        .map(|k| {
            let (i0, j0) = if k >= 0 { (k as usize, 0) } else { (0, (-k) as usize) };
            let len = (rows - i0).min(cols - j0);
            let diagonal: Vec<C> = (0..len).map(|t| grid.at(i0 + t, j0 + t)).collect();
            report(LinePeriod::of(k + mins[0] - mins[1], mins[0] + i0 as i64, &diagonal))
        })
        .collect();
    [rows_out, cols_out, diagonals]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_of(f: impl Fn(usize, usize) -> u32, rows: usize, cols: usize) -> Vec<u32> {
        (0..rows).flat_map(|i| (0..cols).map(move |j| (i, j))).map(|(i, j)| f(i, j)).collect()
    }

    #[test]
    fn finds_periods_and_preperiods() {
        let cells = grid_of(|i, j| ((i % 3) * 10 + j % 2) as u32, 30, 20);
        assert_eq!(
            find_period_2d(&Grid::new(&cells, 30, 20)),
            Some(Period2d { period: [3, 2], from: [0, 0] })
        );
        // A disturbance in row 1, column 4: the smallest a is 0 (with b = 5).
        let mut cells = cells;
        cells[20 + 4] = 99;
        assert_eq!(
            find_period_2d(&Grid::new(&cells, 30, 20)),
            Some(Period2d { period: [3, 2], from: [0, 5] })
        );
        // A whole disturbed row 1: now a = 2.
        cells[20..40].fill(99);
        assert_eq!(
            find_period_2d(&Grid::new(&cells, 30, 20)),
            Some(Period2d { period: [3, 2], from: [2, 0] })
        );
        // Not periodic: values grow.
        let growing = grid_of(|i, j| (i + j) as u32, 30, 30);
        assert_eq!(find_period_2d(&Grid::new(&growing, 30, 30)), None);
    }

    /// Issue 11, item 2: P-positions along two lines of slope 12/5 and 5/12 (as in games with
    /// diagonal slides) leave an empty cone between them; the plain search reports a period [1, 1]
    /// from a start that grows with the table.
    #[test]
    fn a_cone_between_lines_of_p_positions_is_not_a_period() {
        for side in [100, 300] {
            let on_line = |i: usize, j: usize| 5 * i.max(j) / 12 == i.min(j);
            let mask: Vec<bool> =
                grid_of(|i, j| on_line(i, j) as u32, side, side).iter().map(|&v| v == 1).collect();
            let grid = Grid::new(&mask, side, side);
            let inside = find_period_2d_in(&grid).expect("the cone looks periodic inside");
            assert!(inside.from[0] > side / 3, "{inside:?}");
            assert_eq!(find_period_2d(&grid), None);
        }
    }

    #[test]
    fn symmetry_and_separability() {
        let xor = grid_of(|i, j| (i ^ j) as u32, 10, 12);
        assert!(is_symmetric(&Grid::new(&xor, 10, 12), [0, 0]));
        assert!(!is_symmetric(&Grid::new(&xor, 10, 12), [0, 1]));
        let product: Vec<bool> = grid_of(|i, j| (i % 3 == 0 && j % 4 == 1) as u32, 9, 9)
            .iter()
            .map(|&v| v == 1)
            .collect();
        assert!(is_separable(&Grid::new(&product, 9, 9)));
        let diagonal: Vec<bool> =
            grid_of(|i, j| (i == j) as u32, 9, 9).iter().map(|&v| v == 1).collect();
        assert!(!is_separable(&Grid::new(&diagonal, 9, 9)));
    }

    #[test]
    fn lines() {
        let cells = grid_of(|i, j| (i + 2 * j) as u32, 4, 9);
        let [rows, cols, diagonals] = line_periods_with(&Grid::new(&cells, 4, 9), [1, 0], |l| l);
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[0].index, 1);
        assert_eq!(rows[0].period, Some(Period { period: 1, saltus: 2, preperiod: 0 }));
        assert_eq!(cols[3].period, Some(Period { period: 1, saltus: 1, preperiod: 0 }));
        assert_eq!(diagonals.len(), 4 + 9 - 1);
        assert_eq!(diagonals[0].index, -8 + 1);
        assert_eq!(diagonals[8].index, 1);
        assert_eq!(diagonals[8].period, Some(Period { period: 1, saltus: 3, preperiod: 0 }));
    }
}
