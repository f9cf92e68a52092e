//! `--threads N`: parsed once into a `grundy_compute::ThreadCount` (clap checks the range), of
//! which `main` makes the process's one pool: rayon's global pool, so every fill and analysis of
//! the command runs on it and nothing can start another.

use clap::builder::TypedValueParser;
use grundy_compute::ThreadCount;

/// The `--threads` option of every command that computes.
#[derive(Clone, Copy, Debug, clap::Args)]
pub(crate) struct ThreadsArg {
    /// Worker threads (default: one per core; at most four per core are started, as more only
    /// slow a fill down).
    #[arg(long, value_parser = thread_count())]
    threads: Option<ThreadCount>,
}

impl ThreadsArg {
    /// The number asked for, if any: `main` makes the process's one pool of it
    /// (`grundy_compute::Runtime::for_process`).
    pub(crate) fn count(self) -> Option<ThreadCount> {
        self.threads
    }

    /// The option as words for another `grundy` command run by this one (none when not given).
    pub(crate) fn words(self) -> Vec<String> {
        self.threads.map_or_else(Vec::new, |n| vec!["--threads".into(), n.get().to_string()])
    }
}

/// A number of threads as clap reads it: its range in clap's words, the count the library's.
fn thread_count() -> impl TypedValueParser<Value = ThreadCount> {
    clap::value_parser!(u16)
        .range(1..=i64::from(ThreadCount::MAX))
        .map(|n| ThreadCount::new(n.into()).expect("clap checked the range"))
}
