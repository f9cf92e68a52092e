//! `--max-memory SIZE`: the memory budget, an option of every command that holds a table (and of
//! `grundy` itself, before the command), not of `games` and `show`, which hold none. Set once,
//! in `main`, into `grundy_compute::memory`, which every check reads.

use grundy_compute::memory;

/// The `--max-memory` option of every command that holds a table.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub(crate) struct MemoryArg {
    /// The most memory a table may take, e.g. `2G` or `512M` (K, M, G, T: powers of 1024); the
    /// environment variable GRUNDY_MAX_MEMORY sets it too. Whatever it says, a table must also
    /// fit in the machine's available memory and under the container's (cgroup's) limit
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_bytes)]
    pub(crate) max_memory: Option<u64>,
}
