use crate::load::{Analysis, TableArgs};
use crate::output::{Destination, Overwrite, Special};
use crate::progress::Bar;
use anyhow::{bail, Result};
use grundy_compute::Runtime;
use grundy_plot::{plot, ImageFormat, PlotErrorKind, PlotOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// Draw a table as a PNG, SVG or PDF picture: a heatmap of the values (0 in red, the rest in the
/// viridis colour map) with labelled axes and a colour bar, or the P/N mask with --outcome; a
/// heap game as its sequence against n. A loopy game's board shows ∞ in light grey, and its mask
/// draws in amber beside P and N.
///
/// Examples: `grundy plot wythoff --size 300x300 --out wythoff.png`,
/// `grundy plot kiki.csv --outcome --out kiki-p.svg`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) table: TableArgs,
    /// The picture to write (atomically): `.png`, or `.svg` or `.pdf` for the same picture with
    /// its text as text (for papers), the heatmap's cells an embedded image.
    #[arg(long)]
    out: PathBuf,
    /// Replace an existing picture even if it is read-only.
    #[arg(long)]
    force: bool,
    /// Draw the P/N mask: P-positions (value 0) red, N-positions dark (and a loopy game's
    /// draws amber).
    #[arg(long)]
    outcome: bool,
    /// The most cells drawn one pixel each along an axis; larger tables are downsampled, each
    /// pixel showing a block's smallest value (in the P/N mask: red at least half-way when the
    /// block holds any P-position, the rest of the shade by their share).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(16..=8192))]
    max_side: u32,
}

pub(crate) fn run(args: Args, runtime: &Runtime) -> Result<ExitCode> {
    let extension = args.out.extension().map(|ext| ext.to_string_lossy());
    let Some(format) = extension.and_then(|ext| ImageFormat::of_extension(&ext)) else {
        bail!("--out {} must be a .png, .svg or .pdf file", args.out.display());
    };
    let overwrite = if args.force { Overwrite::Force } else { Overwrite::IfWritable };
    let destination = Destination::open(Some(&args.out), overwrite, Special::WriteThrough)?;
    let bar = Bar::waiting(args.table.quiet);
    let png = runtime.install(|| -> Result<_> {
        let loaded = args.table.load(runtime, &bar, Analysis::Plot)?;
        let options = PlotOptions { outcome: args.outcome, max_side: args.max_side as usize };
        plot(&loaded, &options, format).map_err(|err| match err.kind() {
            PlotErrorKind::Axes { .. } => {
                anyhow::anyhow!("{err} (take a 2-D slice with --slice AXIS=COORD)")
            }
            PlotErrorKind::MaskOfSequence => anyhow::anyhow!(
                "--outcome draws the P/N mask of a board; a heap game's plot already shows its \
                 P-positions (value 0) in red"
            ),
            _ => err.into(),
        })
    })?;
    destination.write_with(|out| out.write_all(&png))?;
    Ok(ExitCode::SUCCESS)
}
