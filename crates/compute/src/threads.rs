//! Worker threads: the one place in the workspace where a thread pool is built.
//!
//! A front end turns the user's number into a [`ThreadCount`] once (1 to [`ThreadCount::MAX`]),
//! builds one [`Threads`] from it for the whole command, and every fill, analysis and summary of
//! that command runs on it: [`Threads::install`] on a pool the caller already runs on costs
//! nothing, so nested installs never start a second pool. Without a count, work runs on the
//! caller's current rayon pool (rayon's global one, a thread per core, unless the caller
//! installed its own, as a survey does for its members).

use rayon::{ThreadPool, ThreadPoolBuilder};
use std::fmt;
use std::num::NonZeroU16;
use std::str::FromStr;
use std::sync::Arc;

/// The most worker threads started per core. Every wave wakes every thread; far more threads
/// than cores made a fill crawl (`--threads 1024` on 2 cores: the cell-wave fill of Wythoff
/// 2000² had not finished after 500 s; 19.4 s with the cap), while a few per core cost next to
/// nothing and still let the tests run more threads than cores.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// A number of worker threads someone asked for, from 1 to [`ThreadCount::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreadCount(NonZeroU16);

impl ThreadCount {
    /// The most threads that may be asked for.
    pub const MAX: u16 = 1024;

    /// `threads`, if it is from 1 to [`ThreadCount::MAX`].
    ///
    /// # Errors
    /// [`ThreadsError::OutOfRange`] otherwise.
    pub fn new(threads: usize) -> Result<ThreadCount, ThreadsError> {
        u16::try_from(threads)
            .ok()
            .filter(|&n| n <= ThreadCount::MAX)
            .and_then(NonZeroU16::new)
            .map(ThreadCount)
            .ok_or(ThreadsError::OutOfRange(threads))
    }

    /// The number asked for.
    pub fn get(self) -> usize {
        usize::from(self.0.get())
    }

    /// The threads a pool for this count starts: at most [`MAX_THREADS_PER_CORE`] per core.
    /// Results never depend on it.
    pub fn started(self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.get().min(MAX_THREADS_PER_CORE * cores)
    }
}

impl FromStr for ThreadCount {
    type Err = ThreadsError;

    fn from_str(text: &str) -> Result<ThreadCount, ThreadsError> {
        let threads =
            text.trim().parse().map_err(|_| ThreadsError::NotANumber(text.to_string()))?;
        ThreadCount::new(threads)
    }
}

impl fmt::Display for ThreadCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why threads could not be had.
#[derive(Debug)]
#[non_exhaustive]
pub enum ThreadsError {
    /// A count outside 1 to [`ThreadCount::MAX`].
    OutOfRange(usize),
    /// Text that is not a whole number.
    NotANumber(String),
    /// The operating system would not start the threads.
    Pool(rayon::ThreadPoolBuildError),
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThreadsError::OutOfRange(n) => {
                write!(f, "threads must be from 1 to {}, not {n}", ThreadCount::MAX)
            }
            ThreadsError::NotANumber(text) => {
                write!(
                    f,
                    "threads must be a whole number from 1 to {}, not `{text}`",
                    ThreadCount::MAX
                )
            }
            ThreadsError::Pool(err) => write!(f, "cannot start the worker threads: {err}"),
        }
    }
}

// The pool's error is in the message, so it is not also given as a source (a chain printed with
// `{:#}` would show it twice).
impl std::error::Error for ThreadsError {}

/// Where a command's parallel work runs: one pool of its own, or the caller's current pool.
/// Cloning shares the pool.
#[derive(Clone, Default)]
pub struct Threads {
    pool: Option<Arc<ThreadPool>>,
}

impl Threads {
    /// The caller's current rayon pool (rayon's global one unless the caller installed its own).
    pub fn current() -> Threads {
        Threads { pool: None }
    }

    /// Makes rayon's global pool the process's one pool, of `count` threads
    /// ([`ThreadCount::started`] of them; one per core when `None`), and returns it: after this,
    /// no rayon call anywhere in the process, on whatever thread, can start a pool of another
    /// size. A command-line program calls it once, first (`grundy_compute::Runtime::for_process`).
    ///
    /// # Errors
    /// The threads could not be started, or the global pool was started already.
    pub fn global(count: Option<ThreadCount>) -> Result<Threads, ThreadsError> {
        let mut builder = ThreadPoolBuilder::new().thread_name(|i| format!("grundy-{i}"));
        if let Some(count) = count {
            builder = builder.num_threads(count.started());
        }
        builder.build_global().map_err(ThreadsError::Pool)?;
        Ok(Threads::current())
    }

    /// A pool of `count` threads ([`ThreadCount::started`] of them), or the current pool when
    /// `count` is `None`.
    ///
    /// # Errors
    /// The threads could not be started.
    pub fn new(count: Option<ThreadCount>) -> Result<Threads, ThreadsError> {
        let Some(count) = count else { return Ok(Threads::current()) };
        let pool = ThreadPoolBuilder::new()
            .num_threads(count.started())
            .thread_name(|i| format!("grundy-{i}"))
            .build()
            .map_err(ThreadsError::Pool)?;
        Ok(Threads { pool: Some(Arc::new(pool)) })
    }

    /// The threads the work runs on.
    pub fn count(&self) -> usize {
        match &self.pool {
            Some(pool) => pool.current_num_threads(),
            None => rayon::current_num_threads(),
        }
    }

    /// Whether the calling thread is one of these threads (always, for the current pool).
    pub fn runs_here(&self) -> bool {
        self.pool.as_ref().is_none_or(|pool| pool.current_thread_index().is_some())
    }

    /// Runs `work` on these threads: in the pool (directly when the caller already runs in it),
    /// or on the current one.
    pub fn install<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        match &self.pool {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }
}

impl fmt::Debug for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.pool {
            Some(pool) => write!(f, "Threads(a pool of {})", pool.current_num_threads()),
            None => f.write_str("Threads(current pool)"),
        }
    }
}

impl PartialEq for Threads {
    fn eq(&self, other: &Threads) -> bool {
        match (&self.pool, &other.pool) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_checked_once() {
        assert_eq!(ThreadCount::new(1).unwrap().get(), 1);
        assert_eq!(ThreadCount::new(1024).unwrap().get(), 1024);
        for bad in [0, 1025, usize::MAX] {
            let err = ThreadCount::new(bad).unwrap_err();
            assert_eq!(err.to_string(), format!("threads must be from 1 to 1024, not {bad}"));
        }
        assert_eq!("8".parse::<ThreadCount>().unwrap().get(), 8);
        assert!("eight".parse::<ThreadCount>().is_err());
        // The cap: at most four per core are started.
        let cores = std::thread::available_parallelism().unwrap().get();
        assert_eq!(ThreadCount::new(1024).unwrap().started(), (4 * cores).min(1024));
    }

    #[test]
    fn installing_the_pool_a_caller_runs_on_runs_in_it() {
        let threads = Threads::new(Some(ThreadCount::new(3).unwrap())).unwrap();
        let counts = threads.install(|| {
            (rayon::current_num_threads(), threads.install(rayon::current_num_threads))
        });
        assert_eq!(counts, (threads.count(), threads.count()));
        assert!(!threads.runs_here());
        assert!(threads.install(|| threads.runs_here()));
        assert_eq!(threads, threads.clone());
        assert_ne!(threads, Threads::current());
    }
}
