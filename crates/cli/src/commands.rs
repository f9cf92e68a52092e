//! Subcommands. Each module owns its `Args` (whose doc comments are the help text) and a `run`.

mod compute;
mod games;
mod value;

use crate::progress::Bar;
use crate::resources::check_memory;
use anyhow::{Context, Result};
use clap::Subcommand;
use grundy_compute::{fill, Engine, FillConfig};
use grundy_core::{Game, GrundyTable, TableShape};
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Compute a game's Grundy table and write it as CSV (or a JSON summary).
    Compute(compute::Args),
    /// Print the value of positions, of their sum, and the outcome.
    Value(value::Args),
    /// List the catalog games.
    Games(games::Args),
}

pub(crate) fn run(command: Command) -> Result<ExitCode> {
    match command {
        Command::Compute(args) => compute::run(args),
        Command::Value(args) => value::run(args),
        Command::Games(args) => games::run(args),
    }
}

/// Finds the game a user named.
fn load_game(name: &str) -> Result<Game> {
    Ok(grundy_core::lookup(name)?)
}

/// Fills the table of `game` over `shape` after checking that it fits in memory, with a progress
/// bar unless `quiet`.
fn fill_table(
    game: &Game,
    shape: &TableShape,
    engine: Engine,
    threads: Option<usize>,
    quiet: bool,
) -> Result<GrundyTable> {
    check_memory(shape)?;
    let bar = Bar::new(shape.cells() as u64, quiet);
    let table = fill(game, shape, &FillConfig { engine, threads }, &bar)
        .context("cannot compute the table")?;
    bar.finish();
    Ok(table)
}
