//! The Grundy table: one nimber per position of a box of positions.

mod csv;

pub use self::csv::{read_csv, write_csv, CellKind, CsvLayout, CsvReadError};

use crate::game::{Axis, Coord, Game};
use crate::{ModelError, Nimber};
use ndarray::{ArrayD, IxDyn};

/// The box of positions a table covers: on each axis, from the axis' smallest coordinate up to a
/// largest coordinate, inclusive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableShape {
    axes: Vec<Axis>,
    max: Vec<Coord>,
}

impl TableShape {
    /// The box of `game`'s positions up to `max` on each axis.
    ///
    /// `text` is how the user wrote `max`, for the error message.
    pub fn new(game: &Game, max: &[Coord], text: &str) -> Result<TableShape, ModelError> {
        let out_of_range = |reason: String| ModelError::OutOfRange {
            what: "size",
            text: text.to_string(),
            game: game.name().to_string(),
            reason,
        };
        check_fits(game, max).map_err(out_of_range)?;
        Ok(TableShape { axes: game.axes().to_vec(), max: max.to_vec() })
    }

    /// The box from each axis' smallest coordinate up to `max`, for a table that has no game
    /// (one read from a file).
    ///
    /// # Panics
    /// If `max` has another length than `axes` or lies below an axis' smallest coordinate.
    pub fn from_axes(axes: Vec<Axis>, max: Vec<Coord>) -> TableShape {
        assert_eq!(axes.len(), max.len());
        assert!(axes.iter().zip(&max).all(|(a, &m)| m >= a.min));
        TableShape { axes, max }
    }

    /// The axes (names and smallest coordinates).
    pub fn axes(&self) -> &[Axis] {
        &self.axes
    }

    /// The largest coordinate on each axis.
    pub fn max(&self) -> &[Coord] {
        &self.max
    }

    /// The number of coordinates on each axis.
    pub fn lens(&self) -> Vec<usize> {
        self.axes.iter().zip(&self.max).map(|(axis, &max)| (max - axis.min + 1) as usize).collect()
    }

    /// The number of cells, without overflow however large the box.
    pub fn cells(&self) -> u128 {
        self.lens().iter().map(|&len| len as u128).product()
    }

    /// The bytes the table's values take in memory.
    pub fn value_bytes(&self) -> u128 {
        self.cells() * std::mem::size_of::<Nimber>() as u128
    }
}

/// Checks that `pos` has the game's dimension and lies on its board.
fn check_fits(game: &Game, pos: &[Coord]) -> Result<(), String> {
    if pos.len() != game.dims() {
        let expected = match game.dims() {
            1 => "N",
            2 => "RxC",
            _ => "AxBxC",
        };
        return Err(format!("the game has {} axes, so write it as {expected}", game.dims()));
    }
    for (&c, axis) in pos.iter().zip(game.axes()) {
        if c < axis.min {
            return Err(format!("axis `{}` starts at {}", axis.name, axis.min));
        }
    }
    Ok(())
}

/// Parses `7`, `3x2` or `4x5x6` into coordinates. `what` (`size` or `position`) names the thing
/// in error messages.
pub fn parse_coords(text: &str, what: &'static str) -> Result<Vec<Coord>, ModelError> {
    let error = |reason: String| ModelError::Coordinates { what, text: text.to_string(), reason };
    text.split('x')
        .map(|part| {
            if part.is_empty() {
                return Err(error("a coordinate is missing; write e.g. 7, 3x2 or 4x5x6".into()));
            }
            if !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(error(format!("`{part}` is not a whole number >= 0")));
            }
            // 2^31 is far beyond any table that fits in memory; larger numbers would only
            // overflow the arithmetic on coordinates.
            part.parse::<Coord>()
                .ok()
                .filter(|&c| c < 1 << 31)
                .ok_or_else(|| error(format!("`{part}` is too large")))
        })
        .collect()
}

/// Checks a position (as parsed by [`parse_coords`]) against a game.
pub fn check_position(game: &Game, pos: &[Coord], text: &str) -> Result<(), ModelError> {
    check_fits(game, pos).map_err(|reason| ModelError::OutOfRange {
        what: "position",
        text: text.to_string(),
        game: game.name().to_string(),
        reason,
    })
}

/// Sums that describe a table without listing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableStats {
    /// Number of cells.
    pub cells: u64,
    /// Sum of all values.
    pub sum: u64,
    /// Largest value.
    pub max: u32,
    /// Number of cells of value 0.
    pub p_positions: u64,
}

/// A Grundy table: the nimber of every position of a [`TableShape`], stored row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrundyTable {
    shape: TableShape,
    values: ArrayD<Nimber>,
}

impl GrundyTable {
    /// A table of zeros. Callers check [`TableShape::value_bytes`] against the memory first.
    pub fn zeroed(shape: TableShape) -> GrundyTable {
        let cells = shape.lens().iter().product();
        // Zeroed memory from the allocator: the operating system hands out zero pages as they are
        // first written, instead of the table being written twice.
        let zeros: Vec<Nimber> = bytemuck::allocation::zeroed_vec(cells);
        let values = ArrayD::from_shape_vec(IxDyn(&shape.lens()), zeros)
            .expect("the length matches the shape");
        GrundyTable { shape, values }
    }

    /// The table's box.
    pub fn shape(&self) -> &TableShape {
        &self.shape
    }

    /// The axes (names and smallest coordinates).
    pub fn axes(&self) -> &[Axis] {
        &self.shape.axes
    }

    /// The values as an n-dimensional array, indexed from 0 on each axis (index = coordinate −
    /// the axis' smallest coordinate).
    pub fn values(&self) -> &ArrayD<Nimber> {
        &self.values
    }

    /// The values in row-major order.
    pub fn as_slice(&self) -> &[Nimber] {
        self.values.as_slice().expect("tables are stored in standard layout")
    }

    /// The values in row-major order, for the engines that fill them.
    pub fn as_mut_slice(&mut self) -> &mut [Nimber] {
        self.values.as_slice_mut().expect("tables are stored in standard layout")
    }

    /// The value at the position `pos` (coordinates, not indices), if it lies in the table.
    pub fn get(&self, pos: &[Coord]) -> Option<Nimber> {
        if pos.len() != self.shape.axes.len() {
            return None;
        }
        let mut index = Vec::with_capacity(pos.len());
        for ((&c, axis), &max) in pos.iter().zip(&self.shape.axes).zip(&self.shape.max) {
            if c < axis.min || c > max {
                return None;
            }
            index.push((c - axis.min) as usize);
        }
        self.values.get(IxDyn(&index)).copied()
    }

    /// Cell count, sum, maximum and number of P-positions.
    pub fn stats(&self) -> TableStats {
        let values = self.as_slice();
        TableStats {
            cells: values.len() as u64,
            sum: values.iter().map(|v| u64::from(v.0)).sum(),
            max: values.iter().map(|v| v.0).max().unwrap_or(0),
            p_positions: values.iter().filter(|v| v.is_p()).count() as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::lookup;

    #[test]
    fn coordinates_parse_or_say_why() {
        assert_eq!(parse_coords("7", "size").unwrap(), vec![7]);
        assert_eq!(parse_coords("3x2", "size").unwrap(), vec![3, 2]);
        assert_eq!(parse_coords("4x5x6", "size").unwrap(), vec![4, 5, 6]);
        for bad in ["", "5x", "x5", "-3", "abc", "1e9x1e9", "3 x2", "99999999999"] {
            assert!(parse_coords(bad, "size").is_err(), "{bad:?}");
        }
    }

    #[test]
    fn shapes_check_the_game() {
        let cutting = lookup("cutting").unwrap();
        let shape = TableShape::new(&cutting, &[200, 200], "200x200").unwrap();
        assert_eq!(shape.lens(), vec![199, 199]);
        assert_eq!(shape.value_bytes(), 199 * 199 * 4);
        let err = TableShape::new(&cutting, &[1, 5], "1x5").unwrap_err().to_string();
        assert_eq!(err, "size 1x5 does not fit game `cutting`: axis `w` starts at 2");
        let err = TableShape::new(&cutting, &[5], "5").unwrap_err().to_string();
        assert!(err.contains("write it as RxC"), "{err}");
    }

    #[test]
    fn get_uses_coordinates() {
        let kiki = lookup("kiki").unwrap();
        let mut table = GrundyTable::zeroed(TableShape::new(&kiki, &[3, 4], "3x4").unwrap());
        table.as_mut_slice()[4 + 1] = Nimber(7); // index (1, 1) is position (2, 2)
        assert_eq!(table.get(&[2, 2]), Some(Nimber(7)));
        assert_eq!(table.get(&[0, 2]), None);
        assert_eq!(table.get(&[3, 5]), None);
        assert_eq!(table.stats().p_positions, 11);
    }
}
