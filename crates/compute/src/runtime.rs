//! What a command runs with: its threads and its memory, made once by the front end and handed
//! to every fill, analysis and search of the command.

use crate::memory::MemoryPool;
use crate::threads::{ThreadCount, Threads, ThreadsError};

/// A command's threads ([`Threads`]) and memory ([`MemoryPool`]). Cloning shares both.
#[derive(Clone, Debug, Default)]
pub struct Runtime {
    threads: Threads,
    memory: MemoryPool,
}

impl Runtime {
    /// `threads` and `memory`, as a library caller has them (the Python package makes one per
    /// call).
    pub fn new(threads: Threads, memory: MemoryPool) -> Runtime {
        Runtime { threads, memory }
    }

    /// The runtime of a whole process, a command-line run: rayon's global pool made of `count`
    /// threads (one per core when `None`), so that nothing in the process — a fill, an index
    /// read on first use, a search on a thread of its own — can start another, and `memory`.
    ///
    /// # Errors
    /// The threads could not be started, or rayon's global pool was started already.
    pub fn for_process(
        count: Option<ThreadCount>,
        memory: MemoryPool,
    ) -> Result<Runtime, ThreadsError> {
        Ok(Runtime { threads: Threads::global(count)?, memory })
    }

    /// The threads.
    pub fn threads(&self) -> &Threads {
        &self.threads
    }

    /// The memory.
    pub fn memory(&self) -> &MemoryPool {
        &self.memory
    }

    /// This runtime with `threads` instead (a survey runs each member on the command's threads).
    pub fn with_threads(&self, threads: Threads) -> Runtime {
        Runtime { threads, memory: self.memory.clone() }
    }

    /// Runs `work` on these threads ([`Threads::install`]).
    pub fn install<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        self.threads.install(work)
    }
}
