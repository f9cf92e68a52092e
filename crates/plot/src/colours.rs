//! The colours of every picture: values on viridis with 0 (the P-positions) red, the P/N mask,
//! a loopy game's draws and ∞.

use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;

/// The colour of value 0, the P-positions: a red that the viridis map never reaches.
pub const ZERO: RGBColor = RGBColor(220, 30, 50);
/// The colour of N-positions in the P/N mask.
pub const N_POSITION: RGBColor = RGBColor(40, 40, 60);
/// The colour of draws in a loopy game's mask: amber, far from both red and the dark N.
pub const DRAW: RGBColor = RGBColor(245, 180, 40);
/// The colour of the value ∞ in a loopy game's heatmap: a light grey that viridis never is.
pub const INFINITE: RGBColor = RGBColor(205, 205, 205);

/// The label of ∞ in a loopy game's table of labels (as `grundy_compute::retrograde` keeps it).
pub(crate) const INFINITE_LABEL: u32 = u32::MAX;

/// The colour of a value in a table whose largest (finite) value is `max`.
pub(crate) fn value_colour(value: u32, max: u32) -> RGBColor {
    if value == 0 {
        return ZERO;
    }
    if value == INFINITE_LABEL {
        return INFINITE;
    }
    if max <= 1 {
        return ViridisRGB.get_color(0.0f32);
    }
    ViridisRGB.get_color_normalized(value as f32, 1.0, max as f32)
}

/// The mask's colour of a block whose share of P-positions is `share`: N-dark without any, at
/// least half-way to red with one (a single P among 4 or 400 cells must stay visible), red when
/// all are.
pub(crate) fn p_shade(share: f32) -> RGBColor {
    if share == 0.0 {
        N_POSITION
    } else {
        blend(N_POSITION, ZERO, 0.5 + 0.5 * share)
    }
}

/// The mask's colour of a loopy game's block: as [`p_shade`] when it holds a P-position, else
/// at least half-way from N to amber when it holds a draw, by the draws' share.
pub(crate) fn pnd_shade(p_share: f32, draw_share: f32) -> RGBColor {
    if p_share > 0.0 || draw_share == 0.0 {
        p_shade(p_share)
    } else {
        blend(N_POSITION, DRAW, 0.5 + 0.5 * draw_share)
    }
}

pub(crate) fn blend(from: RGBColor, to: RGBColor, share: f32) -> RGBColor {
    let mix = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * share).round() as u8;
    RGBColor(mix(from.0, to.0), mix(from.1, to.1), mix(from.2, to.2))
}
