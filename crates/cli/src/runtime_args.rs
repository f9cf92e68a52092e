//! `--threads N` and `--max-memory SIZE`: the command's runtime. One list ([`TAKEN_BY`]) says
//! which commands take them (those that compute or hold a table), [`on_commands`] adds them to
//! those, and [`asked`] reads them, after the command or before it: no command's arguments carry
//! a copy. `main` makes the process's one `grundy_compute::Runtime` of them: rayon's global pool
//! of that many threads (so that no rayon call anywhere can start another) and a `MemoryPool`
//! under that budget (or GRUNDY_MAX_MEMORY's).

use clap::builder::TypedValueParser;
use clap::{ArgMatches, Args, FromArgMatches};
use grundy_compute::{memory, ThreadCount};

/// The commands that compute or hold a table: they take `--threads` and `--max-memory`
/// (`games`, `show` and `completions` do not).
const TAKEN_BY: [&str; 10] = [
    "compute", "value", "moves", "patterns", "plot", "check", "survey", "dataset", "identify",
    "view",
];

/// The runtime's options, as given before the command or after it.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub(crate) struct RuntimeArgs {
    /// Worker threads (default: one per core; at most four per core are started, as more only
    /// slow a fill down).
    #[arg(long, value_parser = thread_count())]
    pub(crate) threads: Option<ThreadCount>,
    /// The most memory a table may take, e.g. `2G` or `512M` (K, M, G, T: powers of 1024); the
    /// environment variable GRUNDY_MAX_MEMORY sets it too. Whatever it says, a table must also
    /// fit in the machine's available memory and under the container's (cgroup's) limit
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_bytes)]
    pub(crate) max_memory: Option<u64>,
}

impl RuntimeArgs {
    /// The thread count as words for another `grundy` command run by this one (none when not
    /// given; the memory budget travels in GRUNDY_MAX_MEMORY).
    pub(crate) fn thread_words(self) -> Vec<String> {
        self.threads.map_or_else(Vec::new, |n| vec!["--threads".into(), n.get().to_string()])
    }
}

/// `cli` (the whole command line, with [`RuntimeArgs`] on `grundy` itself) with the runtime's
/// options on every command that takes them.
pub(crate) fn on_commands(cli: clap::Command) -> clap::Command {
    // `augment_args` also gives the command this struct's doc comment as its description: each
    // command keeps its own (every command's help once read "The runtime's options, ...").
    TAKEN_BY.iter().fold(cli, |cli, name| {
        cli.mut_subcommand(name, |command| {
            let (about, long) = (command.get_about().cloned(), command.get_long_about().cloned());
            let command = RuntimeArgs::augment_args(command);
            let command = match about {
                Some(about) => command.about(about),
                None => command,
            };
            match long {
                Some(long) => command.long_about(long),
                None => command.long_about(None::<&str>),
            }
        })
    })
}

/// The runtime asked for on the command line that `matches` holds: the command's options, else
/// those given before it.
pub(crate) fn asked(matches: &ArgMatches) -> Result<RuntimeArgs, clap::Error> {
    let before = RuntimeArgs::from_arg_matches(matches)?;
    let after = match matches.subcommand() {
        Some((name, command)) if TAKEN_BY.contains(&name) => {
            RuntimeArgs::from_arg_matches(command)?
        }
        _ => RuntimeArgs::default(),
    };
    Ok(RuntimeArgs {
        threads: after.threads.or(before.threads),
        max_memory: after.max_memory.or(before.max_memory),
    })
}

/// A number of threads as clap reads it: its range in clap's words, the count the library's.
fn thread_count() -> impl TypedValueParser<Value = ThreadCount> {
    clap::value_parser!(u16)
        .range(1..=i64::from(ThreadCount::MAX))
        .map(|n| ThreadCount::new(n.into()).expect("clap checked the range"))
}
