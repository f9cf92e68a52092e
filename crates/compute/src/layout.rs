//! Where a fill's cells are held while it runs, and where they go: the vocabulary of
//! [`crate::request::FillRequest`].

/// How a table is held while it is filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The whole table in memory.
    InMemory {
        /// Whether the fill may stop between waves and go on later (checkpoints).
        resumable: Resumable,
    },
    /// A 2-D table row by row, keeping only the rows the moves reach back: for tables larger
    /// than memory. Each finished row goes to the caller's sink.
    Streamed {
        /// What the rows are for.
        rows: RowsTo,
        /// Whether the fill may stop between rows and go on later (the ring of rows saved).
        resumable: Resumable,
    },
    /// A 2-D table in bands of rows shared among the ranks of a job (MPI); rank 0's sink gets
    /// every row.
    Distributed {
        /// The ranks of the job.
        ranks: usize,
        /// What the rows are for.
        rows: RowsTo,
        /// Whether rank 0 may stop between bands and go on later.
        resumable: Resumable,
    },
}

impl Layout {
    /// The whole table in memory, in one run.
    pub const IN_MEMORY: Layout = Layout::InMemory { resumable: Resumable::No };

    /// Whether the fill may stop and go on later.
    pub fn resumable(self) -> Resumable {
        match self {
            Layout::InMemory { resumable }
            | Layout::Streamed { resumable, .. }
            | Layout::Distributed { resumable, .. } => resumable,
        }
    }
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::IN_MEMORY
    }
}

/// What a streamed or distributed fill's rows are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowsTo {
    /// A writer: every cell of every row, in table order.
    Writer,
    /// A summary (sums, counts): a symmetric table may then be computed by halves, and the sink
    /// given the lower half of each row (columns 0 to i of row i), each cell off the diagonal
    /// standing for its mirror too.
    Summary,
}

/// Whether a fill may stop between waves and go on later from what it saved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Resumable {
    /// In one run.
    #[default]
    No,
    /// Stops when asked, and goes on from a saved state.
    Yes,
}
