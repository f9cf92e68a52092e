//! Ctrl-C (SIGINT) and SIGTERM. By default they end the process at once with exit code 130,
//! after deleting the temporary files of outputs not yet in place and clearing the progress bar,
//! so an interrupted run leaves nothing behind, on disk or on the terminal. A checkpointed fill
//! defers them instead: the handler only raises a flag, which the fill reads between tile-waves
//! to save and stop cleanly, and which the table's writer ([`StopOnSignal`]) reads at every
//! buffer it writes: a signal while a finished table is written stops the write and saves the
//! table in the checkpoint, so that it is never thrown away (issue 28).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Exit code of a run stopped by a signal (128 + SIGINT, as shells report it).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

static DEFERRED: AtomicBool = AtomicBool::new(false);
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Installs the handler; called once, before any command runs.
pub(crate) fn handle_interrupts() -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(|| {
        if DEFERRED.load(Ordering::SeqCst) {
            INTERRUPTED.store(true, Ordering::SeqCst);
            return;
        }
        exit_now();
    })
}

/// What a signal does when it is not deferred: deletes the temporary files, clears the
/// progress bar and exits with [`EXIT_INTERRUPTED`].
fn exit_now() -> ! {
    if let Ok(paths) = TEMPORARY.lock() {
        for path in paths.iter() {
            let _ = std::fs::remove_file(path);
        }
    }
    crate::progress::clear_shown();
    std::process::exit(i32::from(EXIT_INTERRUPTED));
}

/// Runs `work` (making a temporary file and registering it) with signals deferred, so that a
/// signal cannot fall between the file's creation and its registration and leave it behind
/// (issue 28: an interrupted plot left one); a signal that came meanwhile acts after it.
pub(crate) fn uninterrupted<T>(work: impl FnOnce() -> T) -> T {
    let deferred_before = DEFERRED.swap(true, Ordering::SeqCst);
    let done = work();
    if !deferred_before {
        DEFERRED.store(false, Ordering::SeqCst);
        if INTERRUPTED.load(Ordering::SeqCst) {
            exit_now();
        }
    }
    done
}

/// From now on a signal only raises the flag that [`interrupted`] reads.
pub(crate) fn defer() {
    DEFERRED.store(true, Ordering::SeqCst);
}

/// Signals end the process at once again, as before [`defer`]. Returns whether one came while
/// they were deferred.
pub(crate) fn undefer() -> bool {
    DEFERRED.store(false, Ordering::SeqCst);
    // Cleared: the caller has acted on it, and a later `uninterrupted` must not take it for a
    // signal of its own.
    INTERRUPTED.swap(false, Ordering::SeqCst)
}

/// Whether a deferred signal has arrived.
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// `path` is a temporary file to delete if a signal ends the process.
pub(crate) fn register_temporary(path: &Path) {
    if let Ok(mut paths) = TEMPORARY.lock() {
        paths.push(path.to_path_buf());
    }
}

/// `path` is no longer temporary (renamed into place, or deleted): one registration of it goes
/// (a lock taken again at the same path is registered twice until the old one is dropped).
pub(crate) fn unregister_temporary(path: &Path) {
    if let Ok(mut paths) = TEMPORARY.lock() {
        if let Some(at) = paths.iter().position(|p| p == path) {
            paths.remove(at);
        }
    }
}

/// A writer that fails with [`Stopped`] once a deferred signal has arrived, so that a write of a
/// table stops within one buffer of it.
pub(crate) struct StopOnSignal<W>(pub(crate) W);

/// What [`StopOnSignal`] fails with.
#[derive(Debug)]
pub(crate) struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Stopped {}

impl<W: std::io::Write> std::io::Write for StopOnSignal<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if interrupted() {
            return Err(std::io::Error::other(Stopped));
        }
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Whether `err` is a write stopped by a signal ([`StopOnSignal`]).
pub(crate) fn is_stopped(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .and_then(|e| e.get_ref())
            .is_some_and(|inner| inner.is::<Stopped>())
    })
}
