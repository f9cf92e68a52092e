//! Ctrl-C (SIGINT) and SIGTERM. By default they end the process at once with exit code 130,
//! after deleting the temporary files of outputs not yet in place and clearing the progress bar,
//! so an interrupted run leaves nothing behind, on disk or on the terminal. A checkpointed fill
//! defers them instead: the handler only raises a flag, which the fill reads between tile-waves
//! to save and stop cleanly; once the fill is done they end the process at once again, while
//! the table is written.

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
        if let Ok(paths) = TEMPORARY.lock() {
            for path in paths.iter() {
                let _ = std::fs::remove_file(path);
            }
        }
        crate::progress::clear_shown();
        std::process::exit(i32::from(EXIT_INTERRUPTED));
    })
}

/// From now on a signal only raises the flag that [`interrupted`] reads.
pub(crate) fn defer() {
    DEFERRED.store(true, Ordering::SeqCst);
}

/// Signals end the process at once again, as before [`defer`]: for the work after the last
/// save (writing the table), which a signal must stop at once, not seconds later (issue 19).
/// Returns whether one came while they were deferred.
pub(crate) fn undefer() -> bool {
    DEFERRED.store(false, Ordering::SeqCst);
    INTERRUPTED.load(Ordering::SeqCst)
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

/// `path` is no longer temporary (renamed into place, or deleted).
pub(crate) fn unregister_temporary(path: &Path) {
    if let Ok(mut paths) = TEMPORARY.lock() {
        paths.retain(|p| p != path);
    }
}
