//! Pictures of Grundy tables, as PNG, SVG or PDF images in memory (the caller writes them).
//!
//! - The formats hold the same picture. In SVG the title, labels and legend are text and
//!   shapes, and the heatmap itself (one pixel a cell or block) is embedded as the same PNG
//!   image, drawn without smoothing, so a picture of a million cells stays a small file. A PDF
//!   is that SVG converted (`pdf.rs`), its text still text.
//! - A 2-D table is a heatmap: the first axis runs up, the second to the right, each labelled
//!   with its name and coordinates. Values above zero take the perceptual viridis colour map;
//!   value 0 (a P-position) is red, which viridis never is. A colour bar explains the values.
//! - With `outcome`, the picture is the P/N mask: P-positions red, N-positions dark.
//! - A table with more cells per axis than [`PlotOptions::max_side`] is downsampled: a pixel
//!   stands for a square block of cells and shows its *smallest* value, so P-positions stay
//!   visible. In the mask a block with any P-position is at least half-way to red and its share
//!   of P-positions sets the rest of the shade, so a sparse P-set never fades into the N colour.
//! - A 1-D table is its sequence plotted against n, P-positions in red.
//! - A loopy game's board (a loopy game's [`Table`]) holds generalized values: ∞ is light grey among
//!   the values, and in the mask a draw takes its own colour, amber, beside P and N.
//!
//! The text is set in DejaVu Sans, embedded (its licence is in `assets/`), so pictures look the
//! same on every machine and need no system fonts.

pub mod tiles;

use grundy_core::{CellKind, GrundyTable, Table};
use plotters::backend::RGBPixel;
use plotters::coord::Shift;
use plotters::prelude::*;

mod colours;
mod error;
mod font;
mod pdf;

use colours::{pnd_shade, value_colour, INFINITE_LABEL};
pub use colours::{DRAW, INFINITE, N_POSITION, ZERO};
use error::drawing;
pub use error::{PlotError, PlotErrorKind};
use font::{register_font, FONT};

/// A small table's cells are drawn as squares of up to this many pixels a side.
const MAX_CELL_PIXELS: usize = 24;
/// Small tables are scaled up towards this many pixels on their longer side.
const TARGET_SIDE: usize = 640;

/// How to draw a table.
#[derive(Clone, Debug)]
pub struct PlotOptions {
    /// Draw the P/N mask instead of the values.
    pub outcome: bool,
    /// The most cells drawn one pixel each along an axis; longer axes are downsampled.
    pub max_side: usize,
}

impl Default for PlotOptions {
    fn default() -> PlotOptions {
        PlotOptions { outcome: false, max_side: 1000 }
    }
}

/// The options with the title, the table's name: what the drawing functions read.
struct Style<'a> {
    max_side: usize,
    title: &'a str,
    /// A loopy game's draws, cell by cell (its table holds labels, ∞ as `u32::MAX`).
    draws: Option<&'a [bool]>,
}

/// The file format of a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    /// A PNG image.
    Png,
    /// An SVG document: text as text, the heatmap as an embedded PNG.
    Svg,
    /// A PDF document: the SVG's picture, its text as text in the embedded font.
    Pdf,
}

impl ImageFormat {
    /// The format a file name's extension asks for (`.png`, `.svg` or `.pdf`, any case).
    pub fn of_extension(extension: &str) -> Option<ImageFormat> {
        match extension.to_ascii_lowercase().as_str() {
            "png" => Some(ImageFormat::Png),
            "svg" => Some(ImageFormat::Svg),
            "pdf" => Some(ImageFormat::Pdf),
            _ => None,
        }
    }
}

/// The bytes [`plot`] holds per cell of the table, at most: the picture and its rows (measured:
/// 0.35 bytes a cell on kiki 8000², rounded up).
pub const PLOT_BYTES_PER_CELL: u64 = 1;

/// The bytes [`plot`] holds besides a table of `lens` cells per axis, for the caller's memory
/// check before the table is computed.
pub fn plot_bytes(lens: &[usize]) -> u128 {
    lens.iter().map(|&len| len as u128).product::<u128>() * u128::from(PLOT_BYTES_PER_CELL)
}

/// Draws `table` (holding values, or only outcomes) as a PNG image, titled with its name.
///
/// # Errors
/// As [`plot`].
pub fn plot_png(described: &Table, options: &PlotOptions) -> Result<Vec<u8>, PlotError> {
    plot(described, options, ImageFormat::Png)
}

/// Draws `table` (holding values, or only outcomes) as an image of `format`, titled with its
/// name.
///
/// # Errors
/// A 3-D table, an outcome mask asked of a heap game, a table of outcomes plotted as values, or a
/// failure of the drawing library.
pub fn plot(
    described: &Table,
    options: &PlotOptions,
    format: ImageFormat,
) -> Result<Vec<u8>, PlotError> {
    if format == ImageFormat::Pdf {
        return pdf::from_svg(&plot(described, options, ImageFormat::Svg)?);
    }
    let (table, kind) = (described.data(), described.kind());
    // A loopy game's board: its labels (∞ in light grey) and its draws, amber in the mask.
    let draws: Option<Vec<bool>> = described.loopy().map(|loopy| {
        (0..table.len()).map(|i| loopy.outcome_at(i) == grundy_core::LoopyOutcome::D).collect()
    });
    let style =
        Style { max_side: options.max_side, title: described.name(), draws: draws.as_deref() };
    register_font();
    let outcome = options.outcome || kind == CellKind::Outcomes;
    match table.shape().lens().len() {
        // A loopy game is drawn as a board only.
        1 if draws.is_some() => Err(PlotError { kind: PlotErrorKind::LoopySequence }),
        1 if options.outcome => Err(PlotError { kind: PlotErrorKind::MaskOfSequence }),
        1 if kind == CellKind::Outcomes => Err(PlotError { kind: PlotErrorKind::OutcomeSequence }),
        1 => sequence(table, &style, format),
        2 => heatmap(table, outcome, &style, format),
        dims => Err(PlotError { kind: PlotErrorKind::Axes { dims } }),
    }
}

fn encode(width: u32, height: u32, pixels: &[u8]) -> Result<Vec<u8>, PlotError> {
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header().map_err(drawing)?;
    writer.write_image_data(pixels).map_err(drawing)?;
    writer.finish().map_err(drawing)?;
    Ok(png)
}

/// A table reduced to at most `max_side` blocks per axis: each block's smallest value and its
/// share of zeros, rows first.
#[derive(Debug, PartialEq)]
struct Blocks {
    rows: usize,
    cols: usize,
    /// Cells per block side (1: no downsampling).
    factor: usize,
    min: Vec<u32>,
    zero_share: Vec<f32>,
    /// Each block's share of draws (all zero but in a loopy game's table).
    draw_share: Vec<f32>,
}

fn blocks(table: &GrundyTable, max_side: usize, draws: Option<&[bool]>) -> Blocks {
    let lens = table.shape().lens();
    let (rows, cols) = (lens[0], lens[1]);
    let factor = rows.max(cols).div_ceil(max_side.max(1)).max(1);
    let (block_rows, block_cols) = (rows.div_ceil(factor), cols.div_ceil(factor));
    let mut min = vec![u32::MAX; block_rows * block_cols];
    let mut zeros = vec![0u32; block_rows * block_cols];
    let mut drawn = vec![0u32; block_rows * block_cols];
    let cells = table.cells();
    for i in 0..rows {
        let row = (i / factor) * block_cols;
        for j in 0..cols {
            let value = cells.get(i * cols + j).value();
            let block = row + j / factor;
            min[block] = min[block].min(value);
            zeros[block] += u32::from(value == 0);
            drawn[block] += u32::from(draws.is_some_and(|d| d[i * cols + j]));
        }
    }
    let share = |counts: &[u32]| -> Vec<f32> {
        (0..block_rows * block_cols)
            .map(|b| {
                let (bi, bj) = (b / block_cols, b % block_cols);
                let height = factor.min(rows - bi * factor);
                let width = factor.min(cols - bj * factor);
                counts[b] as f32 / (height * width) as f32
            })
            .collect()
    };
    let (zero_share, draw_share) = (share(&zeros), share(&drawn));
    Blocks { rows: block_rows, cols: block_cols, factor, min, zero_share, draw_share }
}

/// A heatmap's cells as an RGB image placed on the picture: its top left pixel, its size and its
/// pixels, rows first.
struct Cells {
    at: (i32, i32),
    size: (u32, u32),
    pixels: Vec<u8>,
}

fn heatmap(
    table: &GrundyTable,
    outcome: bool,
    style: &Style<'_>,
    format: ImageFormat,
) -> Result<Vec<u8>, PlotError> {
    let blocks = blocks(table, style.max_side, style.draws);
    // The largest finite value (a loopy game's ∞ is not one).
    let max = match style.draws {
        None => table.stats().max,
        Some(_) => {
            let cells = table.cells();
            let finite = (0..cells.len()).map(|k| cells.get(k).value());
            finite.filter(|&v| v != INFINITE_LABEL).max().unwrap_or(0)
        }
    };
    // Square cells of `scale` pixels, but no axis shorter than MIN_SIDE pixels.
    let scale = (TARGET_SIDE / blocks.rows.max(blocks.cols)).clamp(1, MAX_CELL_PIXELS);
    let scale_x = scale.max(MIN_SIDE.div_ceil(blocks.cols));
    let scale_y = scale.max(MIN_SIDE.div_ceil(blocks.rows));
    let area = ((blocks.cols * scale_x) as u32, (blocks.rows * scale_y) as u32);
    // Draw once to learn what the labels and title take, then at the size that makes the
    // plotting area exactly `area`, so every block gets the same number of pixels.
    let first = (area.0 + 100 + LEGEND, area.1 + 110);
    let drawn = {
        let mut pixels = vec![255u8; first.0 as usize * first.1 as usize * 3];
        let root = BitMapBackend::with_buffer(&mut pixels, first).into_drawing_area();
        draw_heatmap(&root, table, &blocks, max, outcome, style)?.size
    };
    let size = (first.0 + area.0 - drawn.0, first.1 + area.1 - drawn.1);
    match format {
        ImageFormat::Png => {
            let mut pixels = vec![255u8; size.0 as usize * size.1 as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
                let cells = draw_heatmap(&root, table, &blocks, max, outcome, style)?;
                let element = BitMapElement::<_, RGBPixel>::with_owned_buffer(
                    cells.at,
                    cells.size,
                    cells.pixels,
                )
                .expect("the buffer matches its size");
                root.draw(&element).map_err(drawing)?;
                root.present().map_err(drawing)?;
            }
            encode(size.0, size.1, &pixels)
        }
        // A PDF is drawn as an SVG, then converted (`plot`).
        ImageFormat::Svg | ImageFormat::Pdf => {
            let mut svg = String::new();
            let cells = {
                let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
                let cells = draw_heatmap(&root, table, &blocks, max, outcome, style)?;
                root.present().map_err(drawing)?;
                cells
            };
            let png = encode(cells.size.0, cells.size.1, &cells.pixels)?;
            Ok(embed_image(svg, cells.at, cells.size, &png).into_bytes())
        }
    }
}

/// `svg` with `png` drawn at `at`, `size` pixels, unsmoothed, as the last element.
fn embed_image(mut svg: String, at: (i32, i32), size: (u32, u32), png: &[u8]) -> String {
    use base64::Engine as _;
    let data = base64::engine::general_purpose::STANDARD.encode(png);
    let image = format!(
        "<image x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
         style=\"image-rendering:pixelated;image-rendering:crisp-edges\" \
         href=\"data:image/png;base64,{data}\"/>\n",
        at.0, at.1, size.0, size.1
    );
    let end = svg.rfind("</svg>").expect("an SVG document ends with </svg>");
    svg.insert_str(end, &image);
    svg
}

/// The legend's width in pixels.
const LEGEND: u32 = 130;
/// The shortest side of a heatmap's plotting area, in pixels.
const MIN_SIDE: usize = 240;

/// Draws the heatmap's title, axes and legend on `root`; returns its cells as an image for the
/// plotting area, which the caller puts there (pixels in a PNG, an embedded image in an SVG).
fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    table: &GrundyTable,
    blocks: &Blocks,
    max: u32,
    outcome: bool,
    style: &Style<'_>,
) -> Result<Cells, PlotError>
where
    DB::ErrorType: 'static,
{
    let axes = table.shape().axes();
    let lens = table.shape().lens();
    let (width, _) = root.dim_in_pixel();
    let (main, legend) = root.split_horizontally(width - LEGEND);
    let title = heatmap_title(table, blocks, outcome, style);
    let (x_min, y_min) = (axes[1].min as f64, axes[0].min as f64);
    let x_range = x_min - 0.5..x_min + lens[1] as f64 - 0.5;
    let y_range = y_min - 0.5..y_min + lens[0] as f64 - 0.5;
    let mut chart = ChartBuilder::on(&main)
        .caption(title.trim(), (FONT, 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(x_range, y_range)
        .map_err(drawing)?;
    let whole = |v: &f64| if v.fract() == 0.0 { format!("{v:.0}") } else { String::new() };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(lens[1].min(10))
        .y_labels(lens[0].min(10))
        .x_label_formatter(&whole)
        .y_label_formatter(&whole)
        .x_desc(axes[1].name.as_str())
        .y_desc(axes[0].name.as_str())
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 15))
        .draw()
        .map_err(drawing)?;
    // The plotting area pixel by pixel: the first axis runs up.
    let area = chart.plotting_area();
    let (w, h) = area.dim_in_pixel();
    let colours: Vec<RGBColor> = (0..blocks.min.len())
        .map(|b| {
            if outcome {
                pnd_shade(blocks.zero_share[b], blocks.draw_share[b])
            } else {
                value_colour(blocks.min[b], max)
            }
        })
        .collect();
    let mut pixels = vec![0u8; w as usize * h as usize * 3];
    for y in 0..h as usize {
        let block_row = blocks.rows - 1 - (y * blocks.rows / h as usize);
        for x in 0..w as usize {
            let block_col = x * blocks.cols / w as usize;
            let c = colours[block_row * blocks.cols + block_col];
            let at = (y * w as usize + x) * 3;
            pixels[at..at + 3].copy_from_slice(&[c.0, c.1, c.2]);
        }
    }
    let loopy = style.draws.is_some();
    if outcome {
        outcome_legend(&legend, loopy)?;
    } else {
        value_legend(&legend, max, loopy)?;
    }
    Ok(Cells { at: area.get_base_pixel(), size: (w, h), pixels })
}

/// The title of a heatmap: the name, the size as `--size` states it (the largest coordinates,
/// not the cell counts) and how the picture was made.
fn heatmap_title(table: &GrundyTable, blocks: &Blocks, outcome: bool, style: &Style<'_>) -> String {
    let size = table.shape().max();
    let mut title = format!("{} {}×{}", style.title, size[0], size[1]);
    let loopy = style.draws.is_some();
    match (outcome, loopy) {
        (true, false) => title.push_str(", P-positions"),
        (true, true) => title.push_str(", P, N and draws"),
        (false, true) => title.push_str(", generalized values"),
        (false, false) => {}
    }
    if blocks.factor > 1 {
        title.push_str(&format!(
            " ({}×{} blocks: {})",
            blocks.factor,
            blocks.factor,
            match (outcome, loopy) {
                (true, false) => "any P shown, shade by share of P",
                (true, true) => "any P shown, else any draw, shade by share",
                (false, _) => "smallest value",
            }
        ));
    }
    title
}

/// A colour bar from 1 to `max`, with a box for 0 beneath it (and one for ∞ in a loopy game).
fn value_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    max: u32,
    loopy: bool,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let (_, height) = area.dim_in_pixel();
    let (top, left, bar_w) = (50i32, 16i32, 22i32);
    let bar_h = (height as i32 - 160).max(40);
    let label = (FONT, 13).into_font();
    if max >= 1 {
        for y in 0..bar_h {
            let value = max as f32 - (max as f32 - 1.0) * y as f32 / (bar_h - 1).max(1) as f32;
            let colour = value_colour(value.round().max(1.0) as u32, max);
            area.draw(&Rectangle::new(
                [(left, top + y), (left + bar_w, top + y + 1)],
                colour.filled(),
            ))
            .map_err(drawing)?;
        }
        let ticks: Vec<u32> =
            if max <= 6 { (1..=max).rev().collect() } else { vec![max, max.div_ceil(2), 1] };
        for tick in ticks {
            let y =
                top + ((max - tick) as f32 / (max - 1).max(1) as f32 * (bar_h - 1) as f32) as i32;
            area.draw(&Text::new(tick.to_string(), (left + bar_w + 6, y - 6), label.clone()))
                .map_err(drawing)?;
        }
    }
    let zero_top = top + bar_h + 16;
    area.draw(&Rectangle::new([(left, zero_top), (left + bar_w, zero_top + 18)], ZERO.filled()))
        .map_err(drawing)?;
    area.draw(&Text::new("0 (P)", (left + bar_w + 6, zero_top + 2), label.clone()))
        .map_err(drawing)?;
    if loopy {
        let inf_top = zero_top + 26;
        area.draw(&Rectangle::new(
            [(left, inf_top), (left + bar_w, inf_top + 18)],
            INFINITE.filled(),
        ))
        .map_err(drawing)?;
        area.draw(&Text::new("∞", (left + bar_w + 6, inf_top + 2), label.clone()))
            .map_err(drawing)?;
    }
    area.draw(&Text::new("value", (left, top - 24), label)).map_err(drawing)?;
    Ok(())
}

/// Two boxes: P in red, N dark; and a third, draws in amber, for a loopy game.
fn outcome_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    loopy: bool,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let label = (FONT, 13).into_font();
    let boxes = [(ZERO, "P (value 0)"), (N_POSITION, "N"), (DRAW, "D (draw)")];
    let shown = if loopy { 3 } else { 2 };
    for (k, &(colour, text)) in boxes[..shown].iter().enumerate() {
        let top = 50 + 30 * k as i32;
        area.draw(&Rectangle::new([(16, top), (38, top + 18)], colour.filled()))
            .map_err(drawing)?;
        area.draw(&Text::new(text, (44, top + 2), label.clone())).map_err(drawing)?;
    }
    Ok(())
}

/// A heap game's values against n, P-positions in red.
fn sequence(
    table: &GrundyTable,
    style: &Style<'_>,
    format: ImageFormat,
) -> Result<Vec<u8>, PlotError> {
    let size = (900u32, 480u32);
    match format {
        ImageFormat::Png => {
            let mut pixels = vec![255u8; size.0 as usize * size.1 as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
                draw_sequence(&root, table, style)?;
            }
            encode(size.0, size.1, &pixels)
        }
        // A PDF is drawn as an SVG, then converted (`plot`).
        ImageFormat::Svg | ImageFormat::Pdf => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
                draw_sequence(&root, table, style)?;
            }
            Ok(svg.into_bytes())
        }
    }
}

fn draw_sequence<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    table: &GrundyTable,
    style: &Style<'_>,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let axis = &table.shape().axes()[0];
    let cells = table.cells();
    let max = table.stats().max;
    let n_min = axis.min;
    let n_max = axis.min + cells.len() as i64 - 1;
    let title = format!("{} up to {}={n_max}", style.title, axis.name);
    let mut chart = ChartBuilder::on(root)
        .caption(title.trim(), (FONT, 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(n_min..n_max + 1, 0u32..max + 1)
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_desc(axis.name.as_str())
        .y_desc("value")
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 15))
        .draw()
        .map_err(drawing)?;
    let radius = if cells.len() > 2000 { 1 } else { 2 };
    let points = (0..cells.len()).map(|k| (n_min + k as i64, cells.get(k).value()));
    chart
        .draw_series(points.map(|(n, v)| {
            let colour = if v == 0 { ZERO } else { RGBColor(40, 60, 140) };
            Circle::new((n, v), radius, colour.filled())
        }))
        .map_err(drawing)?;
    root.present().map_err(drawing)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colours::{blend, p_shade};
    use grundy_core::game::Axis;
    use grundy_core::{Nimber, TableShape};

    fn table(rows: usize, cols: usize, value: impl Fn(usize, usize) -> u32) -> GrundyTable {
        let axes = vec![Axis::new("n", 0), Axis::new("m", 0)];
        let shape = TableShape::from_axes(axes, vec![rows as i64 - 1, cols as i64 - 1]);
        let values: Vec<Nimber> =
            (0..rows * cols).map(|k| Nimber(value(k / cols, k % cols))).collect();
        GrundyTable::from_nimbers(shape, &values)
    }

    #[test]
    fn small_tables_are_not_downsampled() {
        let nim = table(4, 5, |i, j| (i ^ j) as u32);
        let b = blocks(&nim, 1000, None);
        assert_eq!((b.rows, b.cols, b.factor), (4, 5, 1));
        assert_eq!(b.min, nim.cells().to_u32_vec());
        assert_eq!(b.zero_share.iter().filter(|&&s| s == 1.0).count(), 4);
    }

    #[test]
    fn blocks_keep_their_smallest_value_and_share_of_zeros() {
        // 5×7 cut into 3×3 blocks: 2×3 blocks, the last ones partial.
        let t = table(5, 7, |i, j| if (i, j) == (4, 6) { 0 } else { (1 + i + j) as u32 });
        let b = blocks(&t, 3, None);
        assert_eq!((b.rows, b.cols, b.factor), (2, 3, 3));
        assert_eq!(b.min, vec![1, 4, 7, 4, 7, 0]);
        // The last block holds cells (3..5, 6..7): two cells, one of them zero.
        assert_eq!(b.zero_share, vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.5]);
    }

    #[test]
    fn zero_stands_out_from_the_colour_map() {
        for v in 1..=50 {
            let c = value_colour(v, 50);
            assert!(c.0 < 200 || c.2 > 100 || c.1 > 150, "{v}: {c:?} is too close to red");
            assert_ne!(c, ZERO);
        }
        assert_eq!(value_colour(0, 9), ZERO);
        assert_eq!(blend(N_POSITION, ZERO, 1.0), ZERO);
        assert_eq!(blend(N_POSITION, ZERO, 0.0), N_POSITION);
    }

    /// Issue 11, item 7: `plot cutting --size 200x200` was titled "cutting 199×199" (cell counts).
    #[test]
    fn titles_give_the_size_as_size_states_it() {
        let axes = vec![Axis::new("w", 2), Axis::new("h", 2)];
        let shape = TableShape::from_axes(axes, vec![200, 200]);
        let cutting = GrundyTable::from_nimbers(shape, &vec![Nimber(1); 199 * 199]);
        let style = Style { title: "cutting", max_side: 100, draws: None };
        let title = heatmap_title(&cutting, &blocks(&cutting, 1000, None), false, &style);
        assert_eq!(title, "cutting 200×200");
        let title = heatmap_title(&cutting, &blocks(&cutting, 100, None), true, &style);
        assert_eq!(
            title,
            "cutting 200×200, P-positions (2×2 blocks: any P shown, shade by share of P)"
        );
    }

    /// A loopy game's mask: P over draws over N in a block, ∞ grey among the values, and the
    /// three outcome colours far apart.
    #[test]
    fn draws_have_their_own_colour() {
        assert_eq!(pnd_shade(0.0, 0.0), N_POSITION);
        assert_eq!(pnd_shade(0.0, 1.0), DRAW);
        assert_eq!(pnd_shade(0.5, 0.5), p_shade(0.5));
        let half = pnd_shade(0.0, 1.0 / 400.0);
        assert!(half != N_POSITION && half != DRAW);
        assert_eq!(value_colour(INFINITE_LABEL, 3), INFINITE);
        // A 2×2 board: P, N, a draw (∞) and an ∞ N-position.
        let labels = table(2, 2, |i, j| [0, 1, INFINITE_LABEL, INFINITE_LABEL][i * 2 + j]);
        let draws = [false, false, true, false];
        let b = blocks(&labels, 1, Some(&draws));
        assert_eq!(b.factor, 2);
        assert_eq!((b.zero_share[0], b.draw_share[0]), (0.25, 0.25));
        // Drawn from a loopy table, as every front end hands it over.
        struct Outcomes([grundy_core::LoopyOutcome; 4]);
        impl grundy_core::LoopyCells for Outcomes {
            fn value_at(&self, _: usize) -> grundy_core::LoopyValue {
                unreachable!("a picture reads outcomes")
            }
            fn outcome_at(&self, index: usize) -> grundy_core::LoopyOutcome {
                self.0[index]
            }
        }
        use grundy_core::LoopyOutcome::{D, N, P};
        let game = grundy_core::parse_spec(
            "name = \"t\"\naxes = [{ name = \"n\", min = 0 }, { name = \"m\", min = 0 }]\n\
             [[rules]]\nkind = \"step\"\noffsets = [[-1, 0]]\n",
            "a test",
        )
        .unwrap();
        let loopy = Table::of_loopy(game, labels, std::sync::Arc::new(Outcomes([P, N, D, N])));
        let png = plot_png(&loopy, &PlotOptions { outcome: true, max_side: 100 });
        assert!(png.unwrap().starts_with(b"\x89PNG"));
    }

    /// Issue 11, item 7: `plot cutting --size 2000x2000 --outcome` came out blank: its blocks of
    /// 2×2 cells hold at most one P-position, a quarter share, shaded near the N colour.
    #[test]
    fn a_block_with_one_p_position_stays_visible() {
        let (n, p) = (p_shade(0.0), p_shade(1.0 / 400.0));
        assert_eq!(n, N_POSITION);
        assert_eq!(p_shade(1.0), ZERO);
        let distance = |a: RGBColor, b: RGBColor| (i32::from(a.0) - i32::from(b.0)).abs();
        assert!(distance(p, N_POSITION) >= distance(ZERO, N_POSITION) / 2, "{p:?}");
        // One P in each 2×2 block of a sparse mask, drawn downsampled: every block is P-shaded.
        let sparse = table(200, 200, |i, j| u32::from(i % 2 == 1 || j % 2 == 1));
        let b = blocks(&sparse, 100, None);
        assert_eq!(b.factor, 2);
        assert!(b.zero_share.iter().all(|&s| p_shade(s) != N_POSITION));
    }

    #[test]
    fn a_pdf_embeds_its_font_and_one_image_and_is_the_same_each_time() {
        for outcome in [false, true] {
            let nim = table(30, 40, |i, j| (i ^ j) as u32);
            let described = Table::without_game(nim, CellKind::Values, "nim");
            let options = PlotOptions { outcome, ..PlotOptions::default() };
            let pdf = plot(&described, &options, ImageFormat::Pdf).unwrap();
            assert!(pdf.starts_with(b"%PDF-"));
            let text = String::from_utf8_lossy(&pdf);
            // Text as text: a subset of the embedded font, mapped back to Unicode.
            assert!(text.contains("/FontFile2") && text.contains("DejaVuSans"), "no font");
            assert!(text.contains("/ToUnicode"), "text that cannot be extracted");
            assert_eq!(text.matches("/Subtype /Image").count(), 1, "one image: the heatmap");
            assert!(pdf == plot(&described, &options, ImageFormat::Pdf).unwrap());
        }
    }

    /// Width, height and RGB pixels of a PNG.
    fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        (info.width, info.height, pixels)
    }

    /// The number in `attribute="…"` of the first `<image` element.
    fn image_attribute(svg: &str, attribute: &str) -> i64 {
        let image = &svg[svg.find("<image").unwrap()..];
        let from = image.find(&format!(" {attribute}=\"")).unwrap() + attribute.len() + 3;
        image[from..from + image[from..].find('"').unwrap()].parse().unwrap()
    }

    #[test]
    fn an_svg_holds_the_png_cells_and_its_text_as_text() {
        use base64::Engine as _;
        for outcome in [false, true] {
            let nim = table(30, 40, |i, j| (i ^ j) as u32);
            let described = Table::without_game(nim, CellKind::Values, "nim");
            let options = PlotOptions { outcome, ..PlotOptions::default() };
            let (width, _, png) = decode(&plot(&described, &options, ImageFormat::Png).unwrap());
            let svg = plot(&described, &options, ImageFormat::Svg).unwrap();
            let svg = String::from_utf8(svg).unwrap();
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
            assert!(svg.contains("nim 29×39"), "the title is text");
            assert!(svg.contains(if outcome { "P (value 0)" } else { "0 (P)" }), "the legend too");
            assert_eq!(svg.matches("<image").count(), 1);
            // The embedded image is the PNG's plotting area, pixel for pixel.
            let data = &svg[svg.find("base64,").unwrap() + 7..];
            let data = &data[..data.find('"').unwrap()];
            let cells = base64::engine::general_purpose::STANDARD.decode(data).unwrap();
            let (w, h, cells) = decode(&cells);
            let (x, y) = (image_attribute(&svg, "x") as usize, image_attribute(&svg, "y") as usize);
            assert_eq!(
                (image_attribute(&svg, "width"), image_attribute(&svg, "height")),
                (w.into(), h.into())
            );
            for row in 0..h as usize {
                let from = ((y + row) * width as usize + x) * 3;
                let line = &png[from..from + 3 * w as usize];
                assert_eq!(
                    line,
                    &cells[row * 3 * w as usize..(row + 1) * 3 * w as usize],
                    "row {row}"
                );
            }
        }
    }
}
