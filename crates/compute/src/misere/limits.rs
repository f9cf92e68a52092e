//! What bounds a search (its memory and its seconds), why it stopped, and the deep stack it
//! runs on.

use crate::memory::MemoryPool;

/// What bounds a search: the bytes it may remember and the seconds it may run; and, for a
/// front end, what to say when a search runs past a second ([`SearchLimits::on_long`]).
#[derive(Clone, Debug)]
pub struct SearchLimits {
    /// Bytes of options, standings and sums.
    pub bytes: u64,
    /// Where that figure comes from, for a refusal.
    pub why: String,
    /// Seconds.
    pub seconds: u64,
    /// Called once, on the caller's thread, when a search bounded by three seconds or more is
    /// still running after [`SAY_AFTER`] (a terminal with no progress bar would show nothing).
    pub on_long: Option<fn(&SearchLimits)>,
}

/// How long a search runs before [`SearchLimits::on_long`] is called.
pub const SAY_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

impl SearchLimits {
    /// The seconds a search runs unless told otherwise.
    pub const DEFAULT_SECONDS: u64 = 600;

    /// The memory `memory` has now (most of it: the search is the run's one large holding)
    /// and `seconds`. Without a memory figure (no `/proc/meminfo`, no budget), 4 GiB.
    pub fn within(memory: &MemoryPool, seconds: u64) -> SearchLimits {
        let (bytes, why) = match memory.available() {
            Some(available) => (
                available.bytes / 4 * 3,
                format!("three quarters of {}, {} MiB", available.bound, available.bytes >> 20),
            ),
            None => (4 << 30, "4 GiB, as no memory figure is known here".to_string()),
        };
        SearchLimits { bytes, why, seconds, on_long: None }
    }

    /// `bytes` and `seconds`, said to come from `why`.
    pub fn new(bytes: u64, seconds: u64, why: &str) -> SearchLimits {
        SearchLimits { bytes, why: why.to_string(), seconds, on_long: None }
    }
}

/// Runs `work` on a thread with a stack deep enough for the search's recursion (one frame per
/// move of the longest line of play it follows), bounded by `limits`: the caller's thread waits,
/// and calls [`SearchLimits::on_long`] if the search runs long.
pub fn with_deep_stack<T: Send>(limits: &SearchLimits, work: impl FnOnce() -> T + Send) -> T {
    const STACK_BYTES: usize = 1 << 30;
    std::thread::scope(|scope| {
        let (done, waiting) = std::sync::mpsc::channel::<()>();
        let searching = std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, move || {
                let found = work();
                let _ = done.send(());
                found
            })
            .expect("a thread for the misère search");
        if let Some(say) = limits.on_long.filter(|_| limits.seconds >= 3 * SAY_AFTER.as_secs()) {
            let timeout = std::sync::mpsc::RecvTimeoutError::Timeout;
            if waiting.recv_timeout(SAY_AFTER) == Err(timeout) {
                say(limits);
            }
        }
        searching.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}
