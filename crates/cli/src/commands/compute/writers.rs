//! The writer table: for each `--format`, what it writes of each way a run holds its cells
//! ([`Holding`]), or why it cannot. [`Config::from_args`](super::config::Config::from_args)
//! asks it for the refusal before anything is computed; every run path asks it for its writer
//! ([`Row::table`], [`Row::rows`], …), a value that names only the formats that path writes, so
//! no path has an arm it trusts a refusal elsewhere to keep away.
//!
//! Adding a format: a variant of [`Format`], its row in [`row`] (the compiler asks for it), and
//! its writing code beside the others of each holding it serves (`compute.rs` for tables and
//! streamed rows, `loopy.rs`, `misere.rs`, `distributed.rs`).

use super::config::Format;
use grundy_core::CsvLayout;

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

/// What a format writes of a finished table of values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TableWriter {
    Csv(CsvLayout),
    Npy,
    Bfile,
    Summary,
    Rare,
    Parquet,
}

/// What a format writes of rows streamed in this process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RowWriter {
    Csv(CsvLayout),
    Summary,
    Parquet,
}

/// What rank 0 writes of the rows of an MPI job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(super) enum RankWriter {
    Csv(CsvLayout),
    /// Through a spool: the cells' type is known only at the end.
    Npy,
    Summary,
}

/// What a format writes of a loopy game's labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LabelWriter {
    Csv(CsvLayout),
    Npy,
    Summary,
}

/// What a format writes of a misère heap game's values and genera.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GeneraWriter {
    /// `n,misere,genus,tameness`, one heap a line (the same in either layout).
    Csv,
    Npy,
    Bfile,
    Summary,
}

/// Why a format cannot write a holding, in words that follow `--format NAME`.
pub(super) type Refused = &'static str;

/// One format's row: its writer for each holding, or the refusal.
#[derive(Clone, Copy, Debug)]
pub(super) struct Row {
    pub(super) table: Result<TableWriter, Refused>,
    pub(super) rows: Result<RowWriter, Refused>,
    pub(super) ranks: Result<RankWriter, Refused>,
    pub(super) labels: Result<LabelWriter, Refused>,
    pub(super) genera: Result<GeneraWriter, Refused>,
}

const ONE_AXIS: Refused = "writes a heap game's sequence, and only boards are streamed or shared";

/// The table, one row per format.
pub(super) fn row(format: Format) -> Row {
    match format {
        Format::Grid | Format::Long => {
            let layout = if format == Format::Grid { CsvLayout::Grid } else { CsvLayout::Long };
            Row {
                table: Ok(TableWriter::Csv(layout)),
                rows: Ok(RowWriter::Csv(layout)),
                ranks: Ok(RankWriter::Csv(layout)),
                labels: Ok(LabelWriter::Csv(layout)),
                genera: Ok(GeneraWriter::Csv),
            }
        }
        Format::Npy => Row {
            table: Ok(TableWriter::Npy),
            rows: Err("cannot be streamed (its header names the cells' type, known at the end); \
                 use grid or long with --stream"),
            ranks: Ok(RankWriter::Npy),
            labels: Ok(LabelWriter::Npy),
            genera: Ok(GeneraWriter::Npy),
        },
        Format::Bfile => Row {
            table: Ok(TableWriter::Bfile),
            rows: Err(ONE_AXIS),
            ranks: Err(ONE_AXIS),
            labels: Err("a b-file holds integers, and a loopy game's values may be ∞; use csv, \
                 npy or summary"),
            genera: Ok(GeneraWriter::Bfile),
        },
        Format::Summary => Row {
            table: Ok(TableWriter::Summary),
            rows: Ok(RowWriter::Summary),
            ranks: Ok(RankWriter::Summary),
            labels: Ok(LabelWriter::Summary),
            genera: Ok(GeneraWriter::Summary),
        },
        Format::Rare => Row {
            table: Ok(TableWriter::Rare),
            rows: Err(ONE_AXIS),
            ranks: Err(ONE_AXIS),
            labels: Err("lists the rare heaps of take-and-break games, and a loopy game's moves \
                 are no removals"),
            genera: Err("lists the rare heaps of normal play; drop --misere"),
        },
        Format::Parquet => Row {
            table: Ok(TableWriter::Parquet),
            rows: Ok(RowWriter::Parquet),
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
