//! Why a prepared fill stopped short of its table.

use grundy_core::Coord;
use std::fmt;

/// Why a fill could not run to the end. What cannot be asked of a fill at all is refused before it
/// starts, by [`crate::request::FillRequest::prepare`].
#[derive(Debug)]
#[non_exhaustive]
pub enum FillError {
    /// A partial table to resume from does not fit the fill.
    Resume(ResumeMismatch),
    /// [`crate::progress::Progress::cancelled`] asked the fill to stop.
    Cancelled,
    /// The retrograde kernel stopped: its graph did not fit, or had too many positions.
    Loopy(Box<crate::retrograde::RetrogradeError>),
    /// The exact misère search ([`crate::engine::Engine::Search`]) reached one of its limits.
    Search {
        /// Which.
        why: MisereError,
        /// The heaps it found before, in order from the first (a table of its own), when it
        /// found any: a caller that can use fewer heaps (a survey's member) keeps them.
        found: Option<Box<grundy_core::GrundyTable>>,
    },
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
            FillError::Search { why, .. } => write!(f, "{why}"),
            FillError::Loopy(why) => write!(f, "{why}"),
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

/// Why a misère question was not answered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MisereError {
    /// The search would remember more than its memory budget allows.
    #[error(
        "the exact misère search needs more than {} MiB for the positions it remembers \
         ({} sums so far; {why}); ask about smaller heaps or fewer components, or allow more \
         memory", budget >> 20, sums
    )]
    TooManyPositions {
        /// The budget, in bytes.
        budget: u64,
        /// The sums remembered when it ran out.
        sums: usize,
        /// Where the budget comes from.
        why: String,
    },
    /// A coordinate beyond what the search keeps (2^31).
    #[error("position {0:?} is too far out for the exact misère search (coordinates below 2^31)")]
    TooFar(Vec<Coord>),
    /// A position beyond the search's reach in a sum that the tame rule does not answer.
    #[error(
        "position {0:?} is too far out for the exact misère search (coordinates below 2^31), \
         and not every component of the sum is tame, so the tame rule does not answer"
    )]
    TooFarUntamed(Vec<Coord>),
    /// The search ran past its time limit.
    #[error(
        "the exact misère search ran past its limit of {seconds} s ({sums} sums remembered); ask \
         about smaller heaps or fewer components, or allow more time"
    )]
    TooLong {
        /// The limit.
        seconds: u64,
        /// The sums remembered when it stopped.
        sums: usize,
    },
    /// The caller asked the search to stop.
    #[error("cancelled")]
    Cancelled,
    /// A loopy game in a misère sum: play may go round, and no misère theory is applied.
    #[error("{0} is loopy: misère play of loopy games is not computed (their normal play is)")]
    Loopy(String),
    /// A position that is not one of its game's.
    #[error("{pos:?} is not a position of {game}")]
    NotAPosition {
        /// The game.
        game: String,
        /// The position.
        pos: Vec<Coord>,
    },
}

impl From<crate::retrograde::RetrogradeError> for FillError {
    /// A cancelled labelling is a cancelled fill.
    fn from(why: crate::retrograde::RetrogradeError) -> FillError {
        match why {
            crate::retrograde::RetrogradeError::Cancelled => FillError::Cancelled,
            why => FillError::Loopy(Box::new(why)),
        }
    }
}

impl From<MisereError> for FillError {
    /// A cancelled search is a cancelled fill; a limit, a search that stopped without heaps.
    fn from(why: MisereError) -> FillError {
        match why {
            MisereError::Cancelled => FillError::Cancelled,
            why => FillError::Search { why, found: None },
        }
    }
}
