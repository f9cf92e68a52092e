//! The error type of this crate: a kind, with what the caller needs to phrase it for its users.

use grundy_core::Coord;
use grundy_expr::EvalError;
use std::fmt;

/// Why an analysis or a check could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The analyses take 1-D and 2-D tables; this one has `dims` axes.
    Axes {
        /// The table's number of axes.
        dims: usize,
    },
    /// A claim about values was made of `table`, which holds only P/N outcomes.
    OutcomesOnly {
        /// The table's name.
        table: String,
    },
    /// A draws claim was made of `table`, which is not a loopy game's (its positions all end).
    NoDraws {
        /// The table's name.
        table: String,
    },
    /// A period given for a claim about a loopy game, which no theorem proves.
    LoopyPeriod {
        /// The game's name.
        table: String,
    },
    /// The caller asked the work to stop.
    Cancelled,
    /// The expression cannot be evaluated at `position`.
    Eval {
        /// The cell's coordinates.
        position: Vec<Coord>,
        /// Why.
        error: EvalError,
    },
}

impl Error {
    pub(crate) fn new(kind: ErrorKind) -> Error {
        Error { kind }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Axes { dims } => {
                write!(f, "the analyses take 1-D and 2-D tables; this one has {dims} axes")
            }
            ErrorKind::LoopyPeriod { table } => write!(
                f,
                "no theorem proves a claim about a loopy game's board ({table}): a period adds \
                 nothing to the check"
            ),
            ErrorKind::NoDraws { table } => write!(
                f,
                "{table} has no draws: a draws claim is about a loopy game's board (computed \
                 from the game, not read from a file)"
            ),
            ErrorKind::OutcomesOnly { table } => write!(
                f,
                "{table} holds only outcomes (P/N); a claim about values needs a table of values"
            ),
            ErrorKind::Cancelled => f.write_str("stopped before the end"),
            ErrorKind::Eval { position, error } => {
                let at: Vec<String> = position.iter().map(Coord::to_string).collect();
                write!(f, "the expression cannot be evaluated at ({}): {error}", at.join(", "))
            }
        }
    }
}

impl std::error::Error for Error {}
