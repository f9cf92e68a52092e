//! Why a picture could not be drawn.

use std::fmt;

/// Why a picture could not be drawn.
#[derive(Debug)]
pub struct PlotError {
    pub(crate) kind: PlotErrorKind,
}

/// What went wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum PlotErrorKind {
    /// Pictures are of 1-D and 2-D tables; this one has `dims` axes.
    Axes {
        /// The table's number of axes.
        dims: usize,
    },
    /// A P/N mask was asked of a heap game, whose plot shows its P-positions already.
    MaskOfSequence,
    /// A sequence of P/N outcomes has no values to plot.
    OutcomeSequence,
    /// A loopy heap game: its picture would be a board.
    LoopySequence,
    /// The drawing or encoding library failed.
    Drawing {
        /// Its message.
        message: String,
    },
}

impl PlotError {
    /// What went wrong.
    pub fn kind(&self) -> &PlotErrorKind {
        &self.kind
    }
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            PlotErrorKind::Axes { dims } => {
                write!(f, "pictures are of heap games and boards (1 or 2 axes); this table has {dims} axes")
            }
            PlotErrorKind::MaskOfSequence => f.write_str(
                "a heap game's sequence has no P/N mask: its plot shows the P-positions (value 0) in red",
            ),
            PlotErrorKind::OutcomeSequence => {
                f.write_str("a sequence of P/N outcomes has no values to plot")
            }
            PlotErrorKind::LoopySequence => f.write_str(
                "plot draws a loopy game's board (2 axes); a loopy heap game's values are read \
                 by `grundy patterns` or written by `grundy compute`",
            ),
            PlotErrorKind::Drawing { message } => write!(f, "cannot draw the picture: {message}"),
        }
    }
}

impl std::error::Error for PlotError {}

/// A drawing backend's error as a [`PlotError`].
pub(crate) fn drawing<E: std::error::Error>(err: E) -> PlotError {
    PlotError { kind: PlotErrorKind::Drawing { message: err.to_string() } }
}
