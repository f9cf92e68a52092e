//! The one font every picture is drawn in, embedded (no system font is looked up).

use plotters::style::FontStyle;
use std::sync::Once;

/// The font's family name in plotters' registry.
pub(crate) const FONT: &str = "sans-serif";
/// DejaVu Sans, embedded.
pub(crate) const FONT_BYTES: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// Registers the font with plotters, once per process.
pub(crate) fn register_font() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES)
            .unwrap_or_else(|_| panic!("the embedded font is valid"));
    });
}
