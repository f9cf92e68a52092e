//! Subcommands. Each module owns its `Args` (whose doc comments are the help text) and a `run`;
//! what several of them load (games, tables) is `crate::load`'s.

mod check;
mod completions;
mod compute;
mod dataset;
mod games;
mod identify;
mod misere_sums;
mod moves;
mod patterns;
mod plot;
mod show;
mod survey;
mod value;
mod view;

use crate::runtime_args::RuntimeArgs;
use anyhow::Result;
use clap::Subcommand;
use grundy_compute::Runtime;
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Compute a game's Grundy table and write it as CSV, numpy, an OEIS b-file or a JSON summary.
    Compute(compute::Args),
    /// Print the value of positions, of their sum, and the outcome.
    Value(value::Args),
    /// List every move of a position or a sum with the value it leaves; winning moves first.
    Moves(moves::Args),
    /// Find the laws behind a table: periods, outcome rules, rows, columns and diagonals.
    Patterns(patterns::Args),
    /// Draw a table as a PNG, SVG or PDF picture: a heatmap (values or P/N mask) or a heap game's sequence.
    Plot(plot::Args),
    /// Test a closed-form conjecture against a table: agreement, counterexamples, a proof.
    Check(check::Args),
    /// List the catalog games.
    Games(games::Args),
    /// Print the spec of a game, from the catalog or a file.
    Show(show::Args),
    /// Explore a table in the browser: a zoomable map, values, moves, claims and patterns.
    View(view::Args),
    /// Which known game is this? Match a sequence, a row or a column against known games.
    Identify(identify::Args),
    /// Survey a family of games: every member's period, proved where possible, and classes.
    Survey(survey::Args),
    /// Build a collection of tables, pictures and surveys from a recipe: checksums, a manifest
    /// and a dataset card.
    Dataset(dataset::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) or the man page.
    Completions(completions::Args),
}

/// Runs `command` on `runtime`, which `main` made of `asked`; `interface` makes the whole command
/// line's description (what `completions` writes scripts and man pages of).
pub(crate) fn run(
    command: Command,
    runtime: &Runtime,
    asked: RuntimeArgs,
    interface: &dyn Fn() -> clap::Command,
) -> Result<ExitCode> {
    match command {
        Command::Compute(args) => compute::run(args, runtime),
        Command::Value(args) => value::run(args, runtime),
        Command::Moves(args) => moves::run(args, runtime),
        Command::Patterns(args) => patterns::run(args, runtime),
        Command::Plot(args) => plot::run(args, runtime),
        Command::Check(args) => check::run(args, runtime),
        Command::Games(args) => games::run(args),
        Command::Show(args) => show::run(args, runtime),
        Command::Survey(args) => survey::run(args, runtime),
        Command::Dataset(args) => dataset::run(args, runtime, asked),
        Command::Identify(args) => identify::run(args, runtime),
        Command::View(args) => view::run(args, runtime),
        Command::Completions(args) => completions::run(args, interface()),
    }
}
