//! Why a game is not one for the sparse-space engine: what `FillRequest::prepare` says when the
//! engine is asked for such a game.

use grundy_core::game::Coord;
use std::fmt;

/// Why a game is not one for the sparse-space engine.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotSparse {
    /// It is not a heap game (one axis).
    Axes {
        /// Its number of axes.
        dims: usize,
    },
    /// Its axis does not start at 0, so positions are not heap sizes.
    AxisStart {
        /// The smallest coordinate.
        min: Coord,
    },
    /// Some heaps are terminal: the removals are not the same at every heap.
    Terminal,
    /// A move leaves three heaps (a hex digit with 8 in it): a pair of rare heaps no longer
    /// bounds what the common ones can make.
    ThreeHeaps,
    /// No move leaves two heaps: there is nothing sparse to exploit.
    NoBreaks,
    /// A rule the method does not read: unbounded slides, or moves that are not removals.
    Rule {
        /// The rule's number (1-based) and kind.
        rule: (usize, &'static str),
    },
}

impl fmt::Display for NotSparse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotSparse::Axes { dims } => write!(
                f,
                "the sparse-space engine computes heap games (one axis); this game has {dims}"
            ),
            NotSparse::AxisStart { min } => write!(
                f,
                "the sparse-space engine computes heap sizes from 0; this game's axis starts at \
                 {min}"
            ),
            NotSparse::Terminal => f.write_str(
                "the sparse-space engine reads the same moves at every heap; this game has \
                 terminal positions",
            ),
            NotSparse::ThreeHeaps => f.write_str(
                "the sparse-space engine needs moves that leave at most two heaps; this game's \
                 code has a digit with 8 (three heaps)",
            ),
            NotSparse::NoBreaks => f.write_str(
                "the sparse-space engine speeds up moves that leave two heaps; this game has none",
            ),
            NotSparse::Rule { rule: (index, kind) } => write!(
                f,
                "the sparse-space engine reads removals and splits of a heap; rule {index} \
                 ({kind}) is not one it can read"
            ),
        }
    }
}

impl std::error::Error for NotSparse {}
