//! Why a prepared fill stopped short of its table.

use std::fmt;

/// Why a fill could not run to the end. What cannot be asked of a fill at all is refused before it
/// starts, by [`crate::FillRequest::prepare`].
#[derive(Debug)]
#[non_exhaustive]
pub enum FillError {
    /// A partial table to resume from does not fit the fill.
    Resume(ResumeMismatch),
    /// [`crate::Progress::cancelled`] asked the fill to stop.
    Cancelled,
}

/// How a partial table and its mark differ from the fill that would go on from them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResumeMismatch {
    /// The partial table has another size.
    Size {
        /// The partial table's lengths.
        found: Vec<usize>,
        /// The fill's.
        expected: Vec<usize>,
    },
    /// The mark is for other tiles.
    TileSides {
        /// The mark's tile sides.
        found: [usize; 3],
        /// The fill's.
        expected: [usize; 3],
    },
    /// The mark counts other tile-waves, or more done than there are.
    Waves {
        /// Tile-waves done, by the mark.
        done: usize,
        /// Tile-waves in all, by the mark.
        total: usize,
        /// Tile-waves in all, by the fill.
        expected: usize,
    },
}

impl fmt::Display for FillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FillError::Cancelled => f.write_str("the fill was cancelled"),
            FillError::Resume(ResumeMismatch::Size { found, expected }) => {
                write!(f, "cannot resume: the partial table has size {found:?}, not {expected:?}")
            }
            FillError::Resume(ResumeMismatch::TileSides { found, expected }) => write!(
                f,
                "cannot resume: the mark is for tiles of sides {found:?}, but this fill uses \
                 tiles of sides {expected:?}"
            ),
            FillError::Resume(ResumeMismatch::Waves { done, total, expected }) => write!(
                f,
                "cannot resume: the mark says {done} of {total} tile-waves done, but this fill \
                 has {expected} tile-waves"
            ),
        }
    }
}

impl std::error::Error for FillError {}
