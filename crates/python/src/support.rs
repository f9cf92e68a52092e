//! What every function of the module shares: the Python error classes and how the workspace's
//! errors become them, the game and the runtime a call names, and a fill run on a worker thread
//! while the calling thread watches for Ctrl-C and reports progress.

use grundy_compute::memory::MemoryPool;
use grundy_compute::misere as search;
use grundy_compute::{
    Engine, FillError, FillRequest, Progress, RequestError, RequestErrorKind, Runtime, ThreadCount,
    Threads, ThreadsError,
};
use grundy_core::{lookup, parse_spec, Coord, Game, Table, TableShape};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use std::fmt::Display;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

/// The error classes of `grundy._errors` (defined in Python, so that `InputError` can be both a
/// `GrundyError` and a `ValueError`).
#[derive(Clone, Copy)]
pub(crate) enum Class {
    Grundy,
    Input,
    TooLarge,
}

pub(crate) fn error(py: Python<'_>, class: Class, message: impl Display) -> PyErr {
    let name = match class {
        Class::Grundy => "GrundyError",
        Class::Input => "InputError",
        Class::TooLarge => "TableTooLarge",
    };
    let raised = py
        .import("grundy._errors")
        .and_then(|module| module.getattr(name))
        .and_then(|class| class.call1((message.to_string(),)));
    match raised {
        Ok(value) => PyErr::from_value(value),
        Err(err) => err,
    }
}

/// Runs the body of a function called from Python: a panic (a bug) becomes a `GrundyError`
/// here, never pyo3's `PanicException`, which is no `Exception` a caller expects (issue 28).
pub(crate) fn guard<T>(py: Python<'_>, body: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(body))
        .unwrap_or_else(|panic| Err(internal_error(py, &*panic)))
}

/// The `GrundyError` of a panic's payload.
pub(crate) fn internal_error(py: Python<'_>, panic: &(dyn std::any::Any + Send)) -> PyErr {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string());
    error(py, Class::Grundy, format!("internal error (please report it): {what}"))
}

/// The memory of a call: the budget `GRUNDY_MAX_MEMORY` sets, read at each call (a notebook may
/// change it); one that is no size is refused before any work, as the CLI refuses it.
pub(crate) fn memory_of(py: Python<'_>) -> PyResult<MemoryPool> {
    MemoryPool::from_env().map_err(|err| error(py, Class::Input, err))
}

/// The runtime of a call: its threads ([`threads_of`]) and its memory ([`memory_of`]).
pub(crate) fn runtime_of(py: Python<'_>, threads: Option<usize>) -> PyResult<Runtime> {
    Ok(Runtime::new(threads_of(py, threads)?, memory_of(py)?))
}

/// The game called `name`, or the one `spec` (TOML text) describes.
pub(crate) fn load_game(py: Python<'_>, name: &str, spec: Option<&str>) -> PyResult<Game> {
    match spec {
        Some(text) => parse_spec(text, name),
        None => lookup(name),
    }
    .map_err(|err| error(py, Class::Input, err))
}

/// A fill's progress as atomics the watching thread reads, its cancellation, and the engine the
/// library chose for it.
#[derive(Default)]
pub(crate) struct Watch {
    done: AtomicU64,
    cancel: AtomicBool,
    engine: std::sync::OnceLock<Engine>,
}

impl Progress for Watch {
    fn advance(&self, cells: u64) {
        self.done.fetch_add(cells, Ordering::Relaxed);
    }

    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    fn runs(&self, engine: Engine) {
        let _ = self.engine.set(engine);
    }
}

/// Runs `work` on a worker thread with the GIL released; every 100 ms the calling thread looks
/// for a signal and calls `progress(done, total)`. A signal (or an exception from `progress`)
/// cancels the work and is raised once it has stopped.
pub(crate) fn watched<T: Send>(
    py: Python<'_>,
    total: u64,
    progress: Option<&Py<PyAny>>,
    work: impl FnOnce(&Watch) -> T + Send,
) -> PyResult<T> {
    let watch = Watch::default();
    let (outcome, interrupt) = py.detach(|| {
        std::thread::scope(|scope| {
            let (finished, wait) = channel::<()>();
            let watch = &watch;
            let worker = scope.spawn(move || {
                let outcome = work(watch);
                let _ = finished.send(());
                outcome
            });
            let mut interrupt: Option<PyErr> = None;
            // Until the worker finishes (or panics: its sender is gone).
            while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(Duration::from_millis(100))
            {
                if interrupt.is_some() {
                    continue;
                }
                Python::attach(|py| {
                    let report = py.check_signals().and_then(|()| match progress {
                        Some(callback) => {
                            let done = watch.done.load(Ordering::Relaxed).min(total);
                            callback.call1(py, (done, total)).map(drop)
                        }
                        None => Ok(()),
                    });
                    if let Err(err) = report {
                        watch.cancel.store(true, Ordering::Relaxed);
                        interrupt = Some(err);
                    }
                });
            }
            (worker.join(), interrupt)
        })
    });
    if let Some(interrupt) = interrupt {
        return Err(interrupt);
    }
    outcome.map_err(|panic| internal_error(py, &*panic))
}

pub(crate) fn fill_error(py: Python<'_>, err: FillError) -> PyErr {
    match err {
        FillError::Search { why, .. } => misere_error(py, why),
        err => error(py, Class::Grundy, format!("cannot compute the table: {err}")),
    }
}

/// A refusal of the library's fill request: what the caller asked (an engine for a game it
/// cannot compute) is an input error, a table that does not fit is `TableTooLarge`.
pub(crate) fn request_error(py: Python<'_>, err: RequestError) -> PyErr {
    match err.into_kind() {
        RequestErrorKind::TooLarge(too_large) => error(py, Class::TooLarge, too_large),
        kind => error(py, Class::Input, RequestError::from(kind)),
    }
}

pub(crate) fn parse_engine(py: Python<'_>, engine: Option<&str>) -> PyResult<Engine> {
    engine.unwrap_or("auto").parse().map_err(|err| error(py, Class::Input, err))
}

/// The process that loaded the module: a process forked from it (multiprocessing's default on
/// Linux) has none of its threads, rayon's global pool's included.
pub(crate) static LOADED_BY: std::sync::OnceLock<u32> = std::sync::OnceLock::new();

/// The threads a call runs on: a pool of `threads` (the library's cap per core applies), or
/// rayon's global pool; in a forked child, whose global pool has no threads (its work would
/// wait forever), a pool of its own with a thread per core. Made once per call: every fill of
/// the call runs on it.
pub(crate) fn threads_of(py: Python<'_>, threads: Option<usize>) -> PyResult<Threads> {
    let count =
        threads.map(ThreadCount::new).transpose().map_err(|err| error(py, Class::Input, err))?;
    let forked = LOADED_BY.get().is_some_and(|&pid| pid != std::process::id());
    let count = match count {
        None if forked => {
            let cores = std::thread::available_parallelism().map_or(1, usize::from);
            Some(
                ThreadCount::new(cores.min(usize::from(ThreadCount::MAX)))
                    .map_err(|err| error(py, Class::Grundy, err))?,
            )
        }
        count => count,
    };
    Threads::new(count).map_err(|err: ThreadsError| error(py, Class::Grundy, err))
}

pub(crate) fn size_text(size: &[Coord]) -> String {
    size.iter().map(Coord::to_string).collect::<Vec<_>>().join("x")
}

/// A fill of `game` up to `size` (the largest coordinate on each axis) on `threads`, its memory
/// checked: the library's engine for it (the exact misère search and the retrograde kernel of a
/// loopy game included), as the CLI runs it.
pub(crate) fn fill_table(
    py: Python<'_>,
    game: &Game,
    size: &[Coord],
    runtime: &Runtime,
    engine: Engine,
    progress: Option<&Py<PyAny>>,
    held: Holds,
) -> PyResult<(Table, Engine)> {
    let shape = TableShape::new(game, size, &size_text(size))
        .map_err(|err| error(py, Class::Input, err))?;
    let total = u64::try_from(shape.cells()).unwrap_or(u64::MAX);
    let request =
        FillRequest { engine, runtime: runtime.clone(), ..FillRequest::new(game, &shape) };
    // What the fill holds: the numpy array takes the table over without a copy; a heap game's
    // watch for a proved period, while it looks; and what the caller holds besides.
    let watch = grundy_laws::answered::watch(game, &shape);
    let besides = grundy_compute::memory::Besides::one_after_another([
        watch,
        (held.name(), held.bytes(&shape.lens())),
    ]);
    let fill = request.whole(&besides).map_err(|err| request_error(py, err))?;
    // A heap game whose period a theorem proves is searched only as far as the proof, as the
    // CLI's `compute` does.
    let (table, engine) = watched(py, total, progress, |watch| {
        let table = grundy_laws::answered::fill_whole(&fill, watch, None);
        (table, watch.engine.get().copied())
    })?;
    let table = table.map_err(|err| fill_error(py, err))?;
    Ok((table, engine.unwrap_or_else(|| fill.engine())))
}

/// What a caller of `compute` holds besides the table (`_compute`'s `holds`), counted in the
/// fill's memory check so that nothing is allocated for a table the caller cannot then use.
#[derive(Clone, Copy)]
pub(crate) enum Holds {
    Nothing,
    Plot,
    Patterns,
    View,
}

impl Holds {
    pub(crate) fn parse(py: Python<'_>, holds: Option<&str>) -> PyResult<Holds> {
        match holds {
            None => Ok(Holds::Nothing),
            Some("plot") => Ok(Holds::Plot),
            Some("patterns") => Ok(Holds::Patterns),
            Some("view") => Ok(Holds::View),
            Some(other) => Err(error(py, Class::Input, format!("no such use of a table: {other}"))),
        }
    }

    /// What it is, as a refusal names it.
    fn name(self) -> &'static str {
        match self {
            Holds::Nothing => "nothing",
            Holds::Plot => "the picture",
            Holds::Patterns => "the analysis",
            Holds::View => "the view's tiles and analysis",
        }
    }

    /// The bytes held besides a table of `lens` cells per axis.
    pub(crate) fn bytes(self, lens: &[usize]) -> u128 {
        match self {
            Holds::Nothing => 0,
            Holds::Plot => grundy_plot::plot_bytes(lens),
            Holds::Patterns => grundy_laws::analysis_bytes(lens),
            Holds::View => grundy_view::view_bytes(lens),
        }
    }
}

/// A misère search's refusal as the Python exception of its kind.
pub(crate) fn misere_error(py: Python<'_>, err: search::MisereError) -> PyErr {
    match err {
        search::MisereError::Cancelled => PyKeyboardInterrupt::new_err("cancelled"),
        search::MisereError::TooManyPositions { .. } => error(py, Class::TooLarge, err),
        search::MisereError::TooFar(_) | search::MisereError::NotAPosition { .. } => {
            error(py, Class::Input, err)
        }
        _ => error(py, Class::Grundy, err),
    }
}
