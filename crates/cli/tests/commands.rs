//! The command line end to end: one test binary for the suites below, each still in its own
//! file (`crates/cli/tests/NAME.rs`): one build and one link instead of one per suite, and the
//! tests of every suite share the test threads. One suite alone: `cargo test -p grundy-cli --test
//! commands -- NAME::`. The suites that `.ci/run` runs by name in release (`answered`,
//! `datasets`, `docs`, `laws`, `memory_truth`), the browser's (`view`) and those that measure a
//! command's peak memory (`identify`: a child's peak counts this process's memory at the spawn,
//! which one binary of every suite makes larger) are binaries of their own (`Cargo.toml` lists
//! every test target).

mod common;

#[path = "adversarial.rs"]
mod adversarial;
#[path = "automatic_proofs.rs"]
mod automatic_proofs;
#[path = "bad_input.rs"]
mod bad_input;
#[path = "check.rs"]
mod check;
#[path = "checkpoint.rs"]
mod checkpoint;
#[path = "cli.rs"]
mod cli;
#[path = "dataset.rs"]
mod dataset;
#[path = "doc_names.rs"]
mod doc_names;
#[path = "errands.rs"]
mod errands;
#[path = "frontier.rs"]
mod frontier;
#[path = "hints.rs"]
mod hints;
#[path = "install.rs"]
mod install;
#[path = "law_shapes.rs"]
mod law_shapes;
#[path = "loopy.rs"]
mod loopy;
#[path = "misere.rs"]
mod misere;
#[path = "moves.rs"]
mod moves;
#[path = "one_seam.rs"]
mod one_seam;
#[path = "outputs.rs"]
mod outputs;
#[path = "patterns.rs"]
mod patterns;
#[path = "plot.rs"]
mod plot;
#[path = "provenance.rs"]
mod provenance;
#[path = "published_laws.rs"]
mod published_laws;
#[path = "specs.rs"]
mod specs;
#[path = "survey.rs"]
mod survey;
#[path = "terminal.rs"]
mod terminal;
#[path = "threads.rs"]
mod threads;
#[path = "value.rs"]
mod value;
