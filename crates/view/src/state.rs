//! What the server shows: a table being computed, ready, or failed.

use grundy_compute::{Progress, Threads};
use grundy_core::{CellKind, Table};
use grundy_plot::tiles::{tiles_bytes, Tiles};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, RwLock};

/// Heavy requests (a claim's check, the analysis) that run at once; more wait their turn, and a
/// client that goes away while waiting costs nothing.
pub(crate) const HEAVY_AT_ONCE: usize = 2;

/// Heavy requests that may wait for a turn; one more is answered at once that the view is busy
/// (503, `Retry-After`), instead of waiting in silence behind the others (issue 59: a check
/// waited 63-83 s behind two heavy ones).
pub(crate) const HEAVY_WAITING: usize = 2;

/// The bytes a view holds besides a table of `lens` cells per axis: the tiles' pyramid and, for
/// the patterns overlay, what `grundy patterns` holds ([`grundy_laws::analysis_bytes`]).
pub fn view_bytes(lens: &[usize]) -> u128 {
    let pyramid = match *lens {
        [rows, cols] => tiles_bytes(rows, cols),
        _ => 0,
    };
    pyramid + grundy_laws::analysis_bytes(lens)
}

/// The table the server shows and how far its fill is.
pub struct ViewState {
    phase: RwLock<Phase>,
    /// The pool the tiles' summaries, analyses and checks run on (and the server's blocking
    /// threads are as many).
    threads: Threads,
    done: AtomicU64,
    total: AtomicU64,
    /// What the title says while the table is computed.
    name: String,
    /// Set when the server stops: the work under way ends at its next look.
    stopping: AtomicBool,
    /// Turns for heavy requests ([`HEAVY_AT_ONCE`]).
    heavy: tokio::sync::Semaphore,
    /// Heavy requests waiting for a turn ([`HEAVY_WAITING`] at most).
    waiting: std::sync::atomic::AtomicUsize,
}

/// Why a heavy request got no turn: the view is busy with [`HEAVY_AT_ONCE`] and
/// [`HEAVY_WAITING`] more wait.
#[derive(Debug)]
pub(crate) struct Busy;

/// A place in the queue for a heavy turn, given back when the wait ends or its request goes.
struct Waiting<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

pub(crate) enum Phase {
    Computing,
    Ready(Arc<Ready>),
    Failed(String),
}

/// A table ready to be shown, with what the view derives from it.
pub(crate) struct Ready {
    pub(crate) table: Table,
    /// The tiles of a 2-D table.
    pub(crate) tiles: Option<Tiles>,
    /// The analysis, as JSON (or why there is none), made on first request.
    pub(crate) patterns: OnceLock<Result<String, String>>,
    /// The pool the analyses and checks run on.
    pub(crate) threads: Threads,
}

impl ViewState {
    /// A view of `name`, whose table of `cells` cells is being computed. `threads` runs the
    /// view's own work (tiles' summaries, analyses, checks).
    pub fn computing(name: &str, cells: u64, threads: Threads) -> Arc<ViewState> {
        Arc::new(ViewState {
            phase: RwLock::new(Phase::Computing),
            threads,
            done: AtomicU64::new(0),
            total: AtomicU64::new(cells),
            name: name.to_string(),
            stopping: AtomicBool::new(false),
            heavy: tokio::sync::Semaphore::new(HEAVY_AT_ONCE),
            waiting: std::sync::atomic::AtomicUsize::new(0),
        })
    }

    /// A view of a table that is ready.
    pub fn of_table(table: Table, threads: Threads) -> Arc<ViewState> {
        let cells = table.data().len() as u64;
        let state = ViewState::computing(table.name(), cells, threads);
        state.ready(table);
        state
    }

    /// The fill is done: `table` is shown from now on (its tiles are summarised first). Only
    /// 1-D and 2-D tables can be shown; the caller refuses others first.
    pub fn ready(&self, table: Table) {
        let threads = self.threads.clone();
        let tiles = (table.data().shape().lens().len() == 2)
            .then(|| threads.install(|| Tiles::new(table.data())));
        let total = self.total.load(Ordering::Relaxed);
        self.done.store(total, Ordering::Relaxed);
        let ready = Ready { table, tiles, patterns: OnceLock::new(), threads };
        *self.phase.write().unwrap_or_else(|e| e.into_inner()) = Phase::Ready(Arc::new(ready));
    }

    /// The fill failed: the page says why.
    pub fn failed(&self, why: String) {
        *self.phase.write().unwrap_or_else(|e| e.into_inner()) = Phase::Failed(why);
    }

    /// Tells the work under way to stop: the server is stopping.
    pub(crate) fn stop_work(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    /// A turn to run heavy work: at once when one is free, after a wait in a queue of at most
    /// [`HEAVY_WAITING`]; [`Busy`] when the queue is full.
    pub(crate) async fn heavy_turn(&self) -> Result<tokio::sync::SemaphorePermit<'_>, Busy> {
        if let Ok(turn) = self.heavy.try_acquire() {
            return Ok(turn);
        }
        let places = self.waiting.fetch_add(1, Ordering::Relaxed);
        let _place = Waiting(&self.waiting);
        if places >= HEAVY_WAITING {
            return Err(Busy);
        }
        Ok(self.heavy.acquire().await.expect("the semaphore is never closed"))
    }

    pub(crate) fn threads(&self) -> &Threads {
        &self.threads
    }

    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn progress(&self) -> (u64, u64) {
        (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed))
    }

    pub(crate) fn phase(&self) -> std::sync::RwLockReadGuard<'_, Phase> {
        self.phase.read().unwrap_or_else(|e| e.into_inner())
    }
}

/// A fill's [`Progress`] that the page shows too: every report goes to `inner` (the terminal's
/// bar) and to the view's count; `inner` decides cancellation.
pub struct ViewProgress<'a, P: Progress> {
    /// The progress shown besides the page's.
    pub inner: &'a P,
    /// The view whose count it advances.
    pub state: &'a ViewState,
}

impl<P: Progress> Progress for ViewProgress<'_, P> {
    fn advance(&self, cells: u64) {
        self.state.done.fetch_add(cells, Ordering::Relaxed);
        self.inner.advance(cells);
    }

    fn cancelled(&self) -> bool {
        self.inner.cancelled()
    }

    fn runs(&self, engine: grundy_compute::Engine) {
        self.inner.runs(engine);
    }
}

/// Whether a table of `kind` holds values (not only P/N).
pub(crate) fn holds_values(kind: CellKind) -> bool {
    kind == CellKind::Values
}

/// The client of a request, as far as the work it asked for can tell: the work stops when the
/// client went away (its request's future dropped: see [`Client::watch`]) or the server stops.
#[derive(Clone)]
pub(crate) struct Client {
    gone: Arc<AtomicBool>,
    state: Arc<ViewState>,
}

/// Marks its [`Client`] gone when dropped: held by the request's future, which hyper drops when
/// the connection closes before the answer is sent.
pub(crate) struct Watch(Arc<AtomicBool>);

impl Drop for Watch {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl Client {
    /// The client of a request to `state`, and the watch its future holds.
    pub(crate) fn watch(state: &Arc<ViewState>) -> (Client, Watch) {
        let gone = Arc::new(AtomicBool::new(false));
        (Client { gone: gone.clone(), state: state.clone() }, Watch(gone))
    }
}

impl Progress for Client {
    fn advance(&self, _cells: u64) {}

    fn cancelled(&self) -> bool {
        self.gone.load(Ordering::Relaxed) || self.state.stopping.load(Ordering::Relaxed)
    }
}
