//! Map tiles of a 2-D table for the interactive view (`grundy view`): square PNG pictures of
//! [`TILE_PIXELS`] pixels a side, at zoom levels that halve or double the cells per pixel, in the
//! colours of `plot_png`: values on viridis with 0 (P) red, or the P/N mask.
//!
//! A tile at level `z >= 0` draws each cell as a square of 2^z pixels; at `z < 0` each pixel
//! stands for a block of 2^-z × 2^-z cells and shows its smallest value (values) or its share
//! of P-positions (the mask), as the downsampled PNG does, so P-positions never fade away. So
//! that a zoomed-out tile of a 16384² table costs no more than a close one, [`Tiles::new`] keeps
//! a pyramid of block summaries (each block's smallest value and number of zeros) at 8, 32, 128,
//! … cells a side; a tile reads at most 16 blocks of the finest level that fits per pixel.
//!
//! Tiles are indexed from the table's smallest coordinates: tile (row, col) covers the cells
//! whose offsets along the first axis are in `row·C .. (row + 1)·C` and along the second in
//! `col·C .. (col + 1)·C`, C being the cells per tile side. As in the PNG, the first axis runs up:
//! a tile's top pixel row is its largest first coordinate. Pixels beyond the table are
//! transparent.

use crate::colours::p_shade;
use crate::colours::value_colour;
use grundy_core::{Cell, GrundyTable};
use plotters::style::RGBColor;

/// Pixels per tile side.
pub const TILE_PIXELS: usize = 256;
/// The closest zoom: a cell is 2^MAX_LEVEL pixels a side.
pub const MAX_LEVEL: i32 = 5;
/// Cells per side of the pyramid's finest blocks.
const FINEST: usize = 8;
/// Each pyramid level's blocks are this many of the level below per side.
const STEP: usize = 4;

/// A 2-D table ready to be cut into tiles: its summaries and largest value.
#[derive(Debug)]
pub struct Tiles {
    rows: usize,
    cols: usize,
    max: u32,
    levels: Vec<Summary>,
}

/// Blocks of `factor` × `factor` cells: the smallest value and the number of zeros of each.
#[derive(Debug)]
struct Summary {
    factor: usize,
    rows: usize,
    cols: usize,
    min: Vec<u32>,
    zeros: Vec<u32>,
}

/// How a tile's pixels are coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileColours {
    /// By value (the smallest of a block).
    Values,
    /// P red, N dark; a block by its share of P-positions.
    Outcomes,
}

/// A tile that does not exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TileError {
    /// The level is outside `min_level ..= MAX_LEVEL`.
    Level {
        /// The level asked for.
        level: i64,
        /// The farthest zoom out of this table.
        min_level: i32,
    },
    /// The tile lies outside the table.
    Outside {
        /// The tile's row.
        row: u64,
        /// The tile's column.
        col: u64,
        /// Tiles per axis at that level.
        rows: u64,
        /// Tiles per axis at that level.
        cols: u64,
    },
}

impl std::fmt::Display for TileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TileError::Level { level, min_level } => write!(
                f,
                "zoom level {level} does not exist: levels run from {min_level} (the whole table \
                 in one tile) to {MAX_LEVEL} ({} pixels per cell)",
                1 << MAX_LEVEL
            ),
            TileError::Outside { row, col, rows, cols } => write!(
                f,
                "tile ({row}, {col}) lies outside the table: this level has {rows} × {cols} tiles"
            ),
        }
    }
}

impl std::error::Error for TileError {}

/// The bytes [`Tiles::new`] holds for a table of `rows` × `cols` cells (its pyramid).
pub fn tiles_bytes(rows: usize, cols: usize) -> u128 {
    let mut bytes = 0u128;
    let mut factor = FINEST;
    loop {
        let blocks = rows.div_ceil(factor) as u128 * cols.div_ceil(factor) as u128;
        bytes += blocks * 8;
        if blocks <= 1 {
            return bytes;
        }
        factor *= STEP;
    }
}

impl Tiles {
    /// Summarises `table` (2-D) for tiles: one pass over its cells, then over ever coarser
    /// blocks.
    ///
    /// # Panics
    /// If the table is not 2-D.
    pub fn new(table: &GrundyTable) -> Tiles {
        let lens = table.shape().lens();
        assert_eq!(lens.len(), 2, "tiles are cut from 2-D tables");
        let (rows, cols) = (lens[0], lens[1]);
        let finest = grundy_core::with_cells!(table.cells(), |cells| summarise(cells, rows, cols));
        let mut levels = vec![finest];
        while levels.last().is_some_and(|l| l.rows > 1 || l.cols > 1) {
            let next = coarser(levels.last().expect("a level"));
            levels.push(next);
        }
        Tiles { rows, cols, max: table.stats().max, levels }
    }

    /// The farthest zoom out: the level at which the whole table fits one tile.
    pub fn min_level(&self) -> i32 {
        let side = self.rows.max(self.cols);
        let mut level = 0;
        while (TILE_PIXELS << (-level) as u32) < side {
            level -= 1;
        }
        level
    }

    /// Cells per tile side at `level`.
    pub fn cells_per_tile(level: i32) -> u64 {
        if level >= 0 {
            (TILE_PIXELS >> level) as u64
        } else {
            (TILE_PIXELS as u64) << (-level) as u32
        }
    }

    /// The largest value of the table (the top of the colour scale).
    pub fn max(&self) -> u32 {
        self.max
    }

    /// The tile at (`row`, `col`) of `level` as a PNG (RGBA, fast compression).
    pub fn png(
        &self,
        table: &GrundyTable,
        level: i64,
        row: u64,
        col: u64,
        colours: TileColours,
    ) -> Result<Vec<u8>, TileError> {
        let min_level = self.min_level();
        if level < i64::from(min_level) || level > i64::from(MAX_LEVEL) {
            return Err(TileError::Level { level, min_level });
        }
        let level = level as i32;
        let side = Tiles::cells_per_tile(level);
        let (tile_rows, tile_cols) =
            ((self.rows as u64).div_ceil(side), (self.cols as u64).div_ceil(side));
        if row >= tile_rows || col >= tile_cols {
            return Err(TileError::Outside { row, col, rows: tile_rows, cols: tile_cols });
        }
        let pixels = grundy_core::with_cells!(table.cells(), |cells| {
            self.pixels(
                cells,
                level,
                row as usize * side as usize,
                col as usize * side as usize,
                colours,
            )
        });
        let mut png = Vec::new();
        let mut encoder = png::Encoder::new(&mut png, TILE_PIXELS as u32, TILE_PIXELS as u32);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header().expect("a valid header");
        writer.write_image_data(&pixels).expect("the pixels fit the header");
        writer.finish().expect("writing to memory succeeds");
        Ok(png)
    }

    /// The RGBA pixels of the tile whose lowest cell is (`i0`, `j0`).
    fn pixels<C: Cell>(
        &self,
        cells: &[C],
        level: i32,
        i0: usize,
        j0: usize,
        colours: TileColours,
    ) -> Vec<u8> {
        let mut out = vec![0u8; TILE_PIXELS * TILE_PIXELS * 4];
        let colour = |min: u32, zeros: u32, count: u32| match colours {
            TileColours::Values => value_colour(min, self.max),
            TileColours::Outcomes => p_shade(zeros as f32 / count as f32),
        };
        let mut put = |x: usize, y: usize, c: RGBColor| {
            let at = (y * TILE_PIXELS + x) * 4;
            out[at..at + 4].copy_from_slice(&[c.0, c.1, c.2, 255]);
        };
        if level >= 0 {
            let size = 1usize << level;
            let side = TILE_PIXELS / size;
            for di in 0..side.min(self.rows.saturating_sub(i0)) {
                for dj in 0..side.min(self.cols.saturating_sub(j0)) {
                    let value: u32 = cells[(i0 + di) * self.cols + j0 + dj].into();
                    let c = colour(value, u32::from(value == 0), 1);
                    for y in 0..size {
                        for x in 0..size {
                            put(dj * size + x, TILE_PIXELS - 1 - (di * size + y), c);
                        }
                    }
                }
            }
            return out;
        }
        let factor = 1usize << (-level) as u32;
        // The coarsest summary whose blocks fit a pixel's block, if any (else the cells).
        let summary = self.levels.iter().rev().find(|s| s.factor <= factor);
        for y in 0..TILE_PIXELS {
            let i = i0 + (TILE_PIXELS - 1 - y) * factor;
            if i >= self.rows {
                continue;
            }
            for x in 0..TILE_PIXELS {
                let j = j0 + x * factor;
                if j >= self.cols {
                    break;
                }
                let (i_end, j_end) = ((i + factor).min(self.rows), (j + factor).min(self.cols));
                let (mut min, mut zeros) = (u32::MAX, 0u32);
                match summary {
                    Some(s) => {
                        for bi in i / s.factor..i_end.div_ceil(s.factor) {
                            for bj in j / s.factor..j_end.div_ceil(s.factor) {
                                min = min.min(s.min[bi * s.cols + bj]);
                                zeros += s.zeros[bi * s.cols + bj];
                            }
                        }
                    }
                    None => {
                        for r in i..i_end {
                            for &cell in &cells[r * self.cols + j..r * self.cols + j_end] {
                                let value: u32 = cell.into();
                                min = min.min(value);
                                zeros += u32::from(value == 0);
                            }
                        }
                    }
                }
                let count = ((i_end - i) * (j_end - j)) as u32;
                put(x, y, colour(min, zeros, count));
            }
        }
        out
    }
}

/// The colour scale of tiles as a PNG strip `width` pixels wide and 12 high: value 0 (red) on
/// the left to `max` on the right, or for the mask N (left half) and P (right half).
pub fn legend_png(max: u32, colours: TileColours, width: u32) -> Vec<u8> {
    let (width, height) = (width.clamp(2, 2048), 12u32);
    let mut pixels = Vec::with_capacity((width * height * 3) as usize);
    for _ in 0..height {
        for x in 0..width {
            let c = match colours {
                TileColours::Values => {
                    let value = (u64::from(x) * u64::from(max) / u64::from(width - 1)) as u32;
                    value_colour(value, max)
                }
                TileColours::Outcomes if x < width / 2 => p_shade(0.0),
                TileColours::Outcomes => p_shade(1.0),
            };
            pixels.extend_from_slice(&[c.0, c.1, c.2]);
        }
    }
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("a valid header");
    writer.write_image_data(&pixels).expect("the pixels fit the header");
    writer.finish().expect("writing to memory succeeds");
    png
}

/// The finest summary: blocks of [`FINEST`] cells a side.
fn summarise<C: Cell>(cells: &[C], rows: usize, cols: usize) -> Summary {
    let (block_rows, block_cols) = (rows.div_ceil(FINEST), cols.div_ceil(FINEST));
    let mut min = vec![u32::MAX; block_rows * block_cols];
    let mut zeros = vec![0u32; block_rows * block_cols];
    for (i, row) in cells.chunks(cols).enumerate() {
        let at = (i / FINEST) * block_cols;
        for (b, run) in row.chunks(FINEST).enumerate() {
            for &cell in run {
                let value: u32 = cell.into();
                min[at + b] = min[at + b].min(value);
                zeros[at + b] += u32::from(value == 0);
            }
        }
    }
    Summary { factor: FINEST, rows: block_rows, cols: block_cols, min, zeros }
}

/// The next coarser summary: blocks of [`STEP`] × [`STEP`] blocks.
fn coarser(fine: &Summary) -> Summary {
    let (rows, cols) = (fine.rows.div_ceil(STEP), fine.cols.div_ceil(STEP));
    let mut min = vec![u32::MAX; rows * cols];
    let mut zeros = vec![0u32; rows * cols];
    for bi in 0..fine.rows {
        for bj in 0..fine.cols {
            let (from, to) = (bi * fine.cols + bj, (bi / STEP) * cols + bj / STEP);
            min[to] = min[to].min(fine.min[from]);
            zeros[to] += fine.zeros[from];
        }
    }
    Summary { factor: fine.factor * STEP, rows, cols, min, zeros }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::{Axis, Nimber, TableShape};

    fn table(rows: usize, cols: usize, value: impl Fn(usize, usize) -> u32) -> GrundyTable {
        let shape = TableShape::from_axes(
            vec![Axis::new("a", 0), Axis::new("b", 0)],
            vec![rows as i64 - 1, cols as i64 - 1],
        );
        let values: Vec<Nimber> =
            (0..rows * cols).map(|k| Nimber(value(k / cols, k % cols))).collect();
        GrundyTable::from_nimbers(shape, &values)
    }

    fn decode(png: &[u8]) -> Vec<u8> {
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut buf).unwrap();
        buf
    }

    fn pixel(rgba: &[u8], x: usize, y: usize) -> [u8; 4] {
        let at = (y * TILE_PIXELS + x) * 4;
        rgba[at..at + 4].try_into().unwrap()
    }

    const RED: [u8; 4] =
        [crate::colours::ZERO.0, crate::colours::ZERO.1, crate::colours::ZERO.2, 255];

    /// Every level shows the one P-position of a table in red, at its place, whether the tile
    /// reads cells or summaries; a zoomed-out pixel agrees with a brute force over its block.
    #[test]
    fn a_p_position_is_red_at_every_level() {
        let (rows, cols) = (3000, 1700);
        let (pi, pj) = (1234usize, 987usize);
        let t =
            table(rows, cols, |i, j| if (i, j) == (pi, pj) { 0 } else { 1 + (i + j) as u32 % 5 });
        let tiles = Tiles::new(&t);
        assert_eq!(tiles.min_level(), -4, "3000 cells fit 256 pixels at 16 cells a pixel");
        for level in tiles.min_level()..=MAX_LEVEL {
            let side = Tiles::cells_per_tile(level) as usize;
            let (row, col) = (pi / side, pj / side);
            let png = tiles.png(&t, level.into(), row as u64, col as u64, TileColours::Values);
            let rgba = decode(&png.unwrap());
            let (di, dj) = (pi - row * side, pj - col * side);
            let (x, y) = if level >= 0 {
                (dj << level, TILE_PIXELS - 1 - (di << level))
            } else {
                (dj >> -level, TILE_PIXELS - 1 - (di >> -level))
            };
            assert_eq!(pixel(&rgba, x, y), RED, "level {level}");
            // A pixel away from it is not red.
            let other = pixel(&rgba, (x + (3 << level.max(0))) % TILE_PIXELS, y);
            assert_ne!(other, RED, "level {level}");
        }
    }

    #[test]
    fn pixels_beyond_the_table_are_transparent_and_bad_tiles_are_refused() {
        let t = table(300, 20, |i, j| (i ^ j) as u32);
        let tiles = Tiles::new(&t);
        let rgba = decode(&tiles.png(&t, 0, 0, 0, TileColours::Outcomes).unwrap());
        assert_eq!(pixel(&rgba, 100, 255)[3], 0, "column 100 is beyond the table");
        assert_eq!(pixel(&rgba, 0, 255), RED, "cell (0, 0) has value 0");
        assert!(matches!(
            tiles.png(&t, 6, 0, 0, TileColours::Values),
            Err(TileError::Level { .. })
        ));
        assert!(matches!(
            tiles.png(&t, -9, 0, 0, TileColours::Values),
            Err(TileError::Level { .. })
        ));
        assert!(matches!(
            tiles.png(&t, 0, 2, 0, TileColours::Values),
            Err(TileError::Outside { .. })
        ));
        assert!(matches!(
            tiles.png(&t, 0, 0, 1, TileColours::Values),
            Err(TileError::Outside { .. })
        ));
    }
}
