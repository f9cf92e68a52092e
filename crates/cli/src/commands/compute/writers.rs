//! The writer table: for each `--format`, its writer for each way a run holds its cells
//! ([`Holding`]), or why it cannot write them. [`Config::from_args`](super::config::Config::from_args)
//! asks it for the refusal before anything is computed; every run path asks it for its writer
//! ([`Row::table`], [`Row::rows`], …), a function that takes what that path holds
//! ([`output`]), so no path matches on the format.
//!
//! Adding a format: a variant of [`Format`], its row in [`row`] (the compiler asks for it), and
//! one file under `writers/` with a function for each holding it writes.

mod bfile;
mod csv;
mod npy;
pub(super) mod output;
mod parquet;
mod rare;
mod summary;

use anyhow::Result;
use clap::ValueEnum;
use output::{Finished, Genera, Labelled, Streaming};
use std::path::Path;

/// `--format`: clap's values, and the table's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Grid,
    Long,
    Npy,
    Bfile,
    Summary,
    Rare,
    Parquet,
}

impl Format {
    /// The format a file's extension names, when `--format` is not given: `.npy`, `.parquet`,
    /// `.b` (an OEIS b-file) and `.json` (the summary); any other file is CSV.
    pub(crate) fn of_extension(out: &Path) -> Option<Format> {
        match out.extension()?.to_str()? {
            "npy" => Some(Format::Npy),
            "parquet" => Some(Format::Parquet),
            "b" => Some(Format::Bfile),
            "json" => Some(Format::Summary),
            _ => None,
        }
    }

    /// The name the user gave, as clap spells it.
    pub(crate) fn name(self) -> String {
        self.to_possible_value().expect("no format is skipped").get_name().to_string()
    }
}

/// How a run holds the cells it writes: what its fill hands the writer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Holding {
    /// A finished table of values in memory.
    Table,
    /// Rows of values, each written as soon as it is final (`--stream`).
    Rows,
    /// Rows of values from the ranks of an MPI job, written by rank 0 as they arrive.
    Ranks,
    /// A loopy game's labels: values, ∞ and draws.
    Labels,
    /// A misère heap game's values, with each heap's genus and tameness.
    Genera,
}

/// Writes a finished table of values.
pub(super) type WriteTable = fn(Finished<'_>) -> Result<()>;
/// Runs a streamed fill and writes its rows.
pub(super) type WriteRows = fn(Streaming<'_>) -> Result<()>;
/// Writes a loopy game's labels.
pub(super) type WriteLabels = fn(Labelled<'_>) -> Result<()>;
/// Writes a misère heap game's values and genera.
pub(super) type WriteGenera = fn(Genera<'_>) -> Result<()>;
/// Runs rank 0's part of an MPI job and writes the rows (its exit code: a summary may be
/// stopped by a signal after saving its checkpoint).
#[cfg(feature = "mpi")]
pub(super) type WriteRanks = fn(output::Ranked<'_>) -> Result<std::process::ExitCode>;
/// Without the `mpi` feature no run holds ranks: the column says only what would be refused.
#[cfg(not(feature = "mpi"))]
pub(super) type WriteRanks = ();

/// A rank writer in a row, or nothing without the `mpi` feature.
macro_rules! ranks {
    ($writer:path) => {{
        #[cfg(feature = "mpi")]
        let writer: Result<WriteRanks, Refused> = Ok($writer);
        #[cfg(not(feature = "mpi"))]
        let writer: Result<WriteRanks, Refused> = Ok(());
        writer
    }};
}

/// Why a format cannot write a holding, in words that follow `--format NAME`.
pub(super) type Refused = &'static str;

/// One format's row: its writer for each holding, or the refusal.
#[derive(Clone, Copy)]
pub(super) struct Row {
    pub(super) table: Result<WriteTable, Refused>,
    pub(super) rows: Result<WriteRows, Refused>,
    pub(super) ranks: Result<WriteRanks, Refused>,
    pub(super) labels: Result<WriteLabels, Refused>,
    pub(super) genera: Result<WriteGenera, Refused>,
}

const ONE_AXIS: Refused = "writes a heap game's sequence, and only boards are streamed or shared";

/// The table, one row per format.
pub(super) fn row(format: Format) -> Row {
    match format {
        Format::Grid | Format::Long => Row {
            table: Ok(csv::table),
            rows: Ok(csv::rows),
            ranks: ranks!(csv::ranks),
            labels: Ok(csv::labels),
            genera: Ok(csv::genera),
        },
        Format::Npy => Row {
            table: Ok(npy::table),
            rows: Err("cannot be streamed (its header names the cells' type, known at the end); \
                 use grid or long with --stream"),
            ranks: ranks!(npy::ranks),
            labels: Ok(npy::labels),
            genera: Ok(npy::genera),
        },
        Format::Bfile => Row {
            table: Ok(bfile::table),
            rows: Err(ONE_AXIS),
            ranks: Err(ONE_AXIS),
            labels: Err("a b-file holds integers, and a loopy game's values may be ∞; use csv, \
                 npy or summary"),
            genera: Ok(bfile::genera),
        },
        Format::Summary => Row {
            table: Ok(summary::table),
            rows: Ok(summary::rows),
            ranks: ranks!(summary::ranks),
            labels: Ok(summary::labels),
            genera: Ok(summary::genera),
        },
        Format::Rare => Row {
            table: Ok(rare::table),
            rows: Err(ONE_AXIS),
            ranks: Err(ONE_AXIS),
            labels: Err("lists the rare heaps of take-and-break games, and a loopy game's moves \
                 are no removals"),
            genera: Err("lists the rare heaps of normal play; drop --misere"),
        },
        Format::Parquet => Row {
            table: Ok(parquet::table),
            rows: Ok(parquet::rows),
            ranks: Err("is written by one process for now; under mpirun write grid, long or npy"),
            labels: Err("writes tables of values, and a loopy game's holds ∞ and draws; use csv \
                 or npy"),
            genera: Err("writes tables of values, and a misère heap game's has genus columns; \
                 use csv or npy"),
        },
    }
}

impl Row {
    /// Why this format cannot write `holding`, if it cannot.
    pub(super) fn refused(&self, holding: Holding) -> Option<Refused> {
        match holding {
            Holding::Table => self.table.err(),
            Holding::Rows => self.rows.err(),
            Holding::Ranks => self.ranks.err(),
            Holding::Labels => self.labels.err(),
            Holding::Genera => self.genera.err(),
        }
    }
}

/// A refusal as the user reads it: `--format npy cannot be streamed; …`.
pub(super) fn refusal(format: Format, why: Refused) -> anyhow::Error {
    anyhow::anyhow!("--format {} {why}", format.name())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    /// Every refusal reads as a sentence after `--format NAME`, and every format writes a table.
    #[test]
    fn every_row_writes_a_table_and_words_its_refusals() {
        let holdings =
            [Holding::Table, Holding::Rows, Holding::Ranks, Holding::Labels, Holding::Genera];
        for &format in Format::value_variants() {
            let row = row(format);
            assert!(row.table.is_ok(), "{format:?} writes a table of values");
            for holding in holdings {
                if let Some(why) = row.refused(holding) {
                    let text = refusal(format, why).to_string();
                    assert!(text.starts_with(&format!("--format {} ", format.name())));
                    assert!(!why.ends_with('.') && !why.contains('\n'), "{text}");
                }
            }
        }
        // The summary is the one format every holding writes.
        assert!(holdings.iter().all(|&h| row(Format::Summary).refused(h).is_none()));
    }
}
