//! `--threads N`: parsed once into a `grundy_compute::ThreadCount` (clap checks the range), and
//! made into the command's one `grundy_compute::Threads`, which every fill and analysis of the
//! command runs on.

use anyhow::Result;
use clap::builder::TypedValueParser;
use grundy_compute::{ThreadCount, Threads};

/// The `--threads` option of every command that computes.
#[derive(Clone, Copy, Debug, clap::Args)]
pub(crate) struct ThreadsArg {
    /// Worker threads (default: one per core; at most four per core are started, as more only
    /// slow a fill down).
    #[arg(long, value_parser = thread_count())]
    threads: Option<ThreadCount>,
}

impl ThreadsArg {
    /// The command's threads: one pool of `--threads` threads, or rayon's global pool.
    pub(crate) fn pool(self) -> Result<Threads> {
        Ok(Threads::new(self.threads)?)
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
