//! How a fill talks to its caller while it runs: progress out, cancellation in ([`Progress`]),
//! and what to do after each wave ([`Control`]). Plain vocabulary: every part of the engine and
//! every front end uses it, and it uses nothing of theirs.

/// Receives progress reports from a fill, and may cancel it. Implementations must be cheap:
/// `advance` and `cancelled` are called once per wave (per row for the reference fill).
pub trait Progress: Sync {
    /// `cells` more cells are final.
    fn advance(&self, cells: u64);

    /// Whether the fill should stop now, with [`crate::error::FillError::Cancelled`] (a notebook's
    /// interrupt, a user's stop button). Every engine asks between waves; the default never
    /// cancels.
    fn cancelled(&self) -> bool {
        false
    }

    /// The engine that runs the fill, said once as it starts: which path the library chose
    /// (a front end may show it; the tests of the one seam compare it across front ends). The
    /// default says nothing.
    fn runs(&self, _engine: crate::engine::Engine) {}

    /// A new piece of work of `total` units begins after the last one (a proof's box after the
    /// table it proves a claim of): a front end restarts its bar. The default says nothing.
    fn starts(&self, _total: u64) {}
}

/// A [`Progress`] that ignores every report.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn advance(&self, _cells: u64) {}
}

/// What a fill does after a wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Go on with the next wave.
    Continue,
    /// Stop here and return the partial table.
    Stop,
}
