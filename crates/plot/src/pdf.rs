//! PDF pictures: the SVG picture converted by `svg2pdf` (typst's converter). Its text stays text
//! (selectable, searchable), set in the embedded DejaVu Sans, which the converter subsets into
//! the file; the heatmap's PNG becomes the PDF's image. No system font is read, so a PDF is the
//! same on every machine.

use crate::error::drawing;
use crate::error::PlotError;
use crate::error::PlotErrorKind;
use crate::font::FONT_BYTES;
use svg2pdf::usvg;

/// The PDF of the SVG document `svg` (as `plot` writes it).
pub(crate) fn from_svg(svg: &[u8]) -> Result<Vec<u8>, PlotError> {
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_font_data(FONT_BYTES.to_vec());
    // The SVG names the generic family `sans-serif`: the embedded font is it.
    let family = fonts
        .faces()
        .next()
        .and_then(|face| face.families.first())
        .map(|(name, _)| name.clone())
        .expect("the embedded font has a family name");
    fonts.set_sans_serif_family(family);
    let text = std::str::from_utf8(svg).expect("plot writes SVG as UTF-8");
    let tree = usvg::Tree::from_str(text, &options).map_err(drawing)?;
    svg2pdf::to_pdf(&tree, svg2pdf::ConversionOptions::default(), svg2pdf::PageOptions::default())
        .map_err(|err| PlotError { kind: PlotErrorKind::Drawing { message: format!("{err:?}") } })
}
