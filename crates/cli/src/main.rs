//! `grundy`: Sprague–Grundy tables of impartial games, computed in parallel.
//!
//! This crate is the only one that touches files, terminals and exit codes. Exit codes: 0 for
//! success; 1 when `grundy check`'s claim disagrees with the table; 2 for bad input or a failure
//! (one line on standard error); 130 when Ctrl-C or SIGTERM stopped the run (after saving the
//! checkpoint, if there is one).

mod budget;
mod checkpoint;
mod commands;
mod derived;
mod errors;
mod load;
mod output;
mod play;
mod progress;
mod provenance;
mod runtime_args;
mod signals;

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser};
use errors::{one_line, print_error, printable, EXIT_ERROR};
use grundy_compute::memory::{self, MemoryPool};
use grundy_compute::Runtime;
use std::process::ExitCode;

/// The version, the git revision the binary was built from and its optional features: what a
/// bug report needs, as the provenance of a table records it.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (revision ",
    env!("GRUNDY_GIT_REVISION"),
    "; optional features: ",
    env!("GRUNDY_FEATURES"),
    ")"
);

/// Compute Sprague–Grundy tables of impartial games, in parallel, as CSV.
#[derive(Debug, Parser)]
#[command(name = "grundy", version = VERSION, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: commands::Command,
    /// --threads and --max-memory, given before the command (`runtime_args::asked` reads them).
    #[command(flatten)]
    _before: runtime_args::RuntimeArgs,
}

/// The whole command line: clap's derived one, with the runtime's options on the commands that
/// take them.
fn interface() -> clap::Command {
    runtime_args::on_commands(Cli::command())
}

/// The command and the runtime asked for: clap's errors as they come.
fn parse() -> Result<(Cli, runtime_args::RuntimeArgs), clap::Error> {
    let matches = interface().try_get_matches()?;
    Ok((Cli::from_arg_matches(&matches)?, runtime_args::asked(&matches)?))
}

/// When set, the command says on standard error how many threads it has when it ends.
const THREAD_STATS_VARIABLE: &str = "GRUNDY_THREAD_STATS";

fn main() -> ExitCode {
    let (cli, asked) = match parse() {
        Ok(parsed) => parsed,
        Err(err) if !err.use_stderr() => {
            // --help and --version: print as clap would, and succeed.
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // `grundy` alone: the usage and the commands, on standard error, as a failure.
            let _ = err.print();
            return ExitCode::from(EXIT_ERROR);
        }
        Err(err) => {
            eprintln!("grundy: {}", printable(&one_line(&err.render().to_string())));
            return ExitCode::from(EXIT_ERROR);
        }
    };
    // Either way, refusals name both.
    let set_by = "--max-memory or GRUNDY_MAX_MEMORY";
    let budget = match (asked.max_memory, memory::budget_from_env()) {
        (Some(bytes), _) | (None, Ok(Some(bytes))) => Some(memory::Budget { bytes, set_by }),
        (None, Err(err)) => {
            eprintln!("grundy: error: {}", printable(&err.to_string()));
            return ExitCode::from(EXIT_ERROR);
        }
        (None, Ok(None)) => None,
    };
    // The command's one runtime: rayon's global pool made of its --threads, so that no rayon
    // call anywhere can start another, and its memory.
    let runtime = match Runtime::for_process(asked.threads, MemoryPool::new(budget)) {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("grundy: error: {}", printable(&err.to_string()));
            return ExitCode::from(EXIT_ERROR);
        }
    };
    if let Err(err) = signals::handle_interrupts() {
        eprintln!("grundy: error: cannot handle Ctrl-C: {err}");
        return ExitCode::from(EXIT_ERROR);
    }
    // The whole interface, for the completions and man pages: handed down, so that no command
    // reads the binary's root.
    let ran = runtime.install(|| commands::run(cli.command, &runtime, asked, &interface));
    if std::env::var_os(THREAD_STATS_VARIABLE).is_some() {
        // The threads alive at the end, rayon's global pool's included (`tests/threads.rs`
        // also watches them while the command runs).
        let threads = std::fs::read_dir("/proc/self/task").map_or(0, Iterator::count);
        eprintln!("grundy: threads at exit: {threads}");
    }
    match ran {
        Ok(code) => code,
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            print_error(&err);
            ExitCode::from(EXIT_ERROR)
        }
    }
}
