//! The budgets a command is given. `--max-memory SIZE`: the memory budget, an option of every
//! command that holds a table (and of `grundy` itself, before the command), not of `games` and
//! `show`, which hold none. Set once, in `main`, into `grundy_compute::memory`, which every
//! check reads. `--proof-seconds` and `--law-seconds`: the time of proofs and of the law search,
//! read here and bounded by the library.

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

/// `--proof-seconds`: a number, then the library's bound on it (`grundy_compute::Seconds`).
pub(crate) fn proof_seconds(text: &str) -> Result<grundy_compute::Seconds, String> {
    grundy_compute::Seconds::new(number(text)?, "a proof's time bound").map_err(|e| e.to_string())
}

/// `--law-seconds`: a number, then the library's bound on it.
pub(crate) fn law_seconds(
    text: &str,
) -> Result<grundy_laws::closed_form::LawOptions<'static>, String> {
    grundy_laws::closed_form::LawOptions::within(number(text)?).map_err(|err| err.to_string())
}

/// `text` as a number of seconds, which the library then bounds.
fn number(text: &str) -> Result<f64, String> {
    text.trim().parse().map_err(|_| format!("`{text}` is not a number"))
}
