//! The report of `grundy patterns`: what a table's structure is, in the JSON contract's shape.

use crate::closed_form::periodic_rules::{outcome_rule, values_rule, Described};
use crate::closed_form::sums::edges_and_sum;
use crate::closed_form::{find_laws, LawOptions, Laws, Source};
use crate::conjecture::ClaimKind;
use crate::error::{Error, ErrorKind};
use crate::grid::{
    find_period_2d, is_separable, is_symmetric, line_periods_with, Grid, LinePeriod, Period2d,
};
use crate::periodicity::find_period;
use crate::proof::certificate::prove_outcome_rule;
use crate::proof::theorems::prove_sequence;
use crate::proof::{optional, Proof};
use grundy_compute::memory::{Held, MemoryPool, Need, TooLarge};
use grundy_compute::SequenceRecords;
use grundy_core::{board_lines, Cell, CellKind, Table};
use serde::Serialize;

mod loopy;

pub use loopy::{
    HeapPeriod, LoopyBoardReport, LoopyHeapReport, OutcomeCounts, OutcomeSet, LISTED_HEAPS,
    LOOPY_EVIDENCE,
};

/// The analysis of a 1-D or 2-D table.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Report {
    /// A heap game's sequence.
    Sequence(SequenceReport),
    /// A board.
    Board(BoardReport),
    /// A loopy heap game's heaps.
    LoopyHeaps(LoopyHeapReport),
    /// A loopy game's board.
    LoopyBoard(LoopyBoardReport),
    /// A table of three axes.
    Solid(SolidReport),
}

impl Report {
    /// The laws found, for the reports that search for them (every one but a loopy heap game's).
    pub fn laws(&self) -> Option<&Laws> {
        match self {
            Report::Sequence(r) => Some(&r.laws),
            Report::Board(r) => Some(&r.laws),
            Report::LoopyBoard(r) => Some(&r.laws),
            Report::Solid(r) => Some(&r.laws),
            Report::LoopyHeaps(_) => None,
        }
    }
}

/// The analysis of a 1-D table.
#[derive(Clone, Debug, Serialize)]
pub struct SequenceReport {
    /// The game's name (or the file's).
    pub game: String,
    /// `[N]`: the largest coordinate.
    pub size: [i64; 1],
    /// The smallest coordinate: the first value is at n = min.
    pub min: i64,
    /// The axis name.
    pub axis: String,
    /// The periodicity found.
    pub sequence: SequencePeriod,
    /// The closed forms found, each a `grundy check` claim. JSON: `laws` and `law_search`.
    #[serde(flatten)]
    pub laws: Laws,
}

/// Periodicity of a sequence, with its proof status.
#[derive(Clone, Debug, Serialize)]
pub struct SequencePeriod {
    /// The period, or `null` when none was found.
    pub period: Option<usize>,
    /// x(n + p) − x(n) in the periodic part.
    pub saltus: Option<i64>,
    /// Terms before the periodic part.
    pub preperiod: Option<usize>,
    /// First coordinate of the periodic part.
    pub from: Option<i64>,
    /// Whether a theorem's finite check has passed, and the theorem and its check (or why there
    /// is no proof); `None` when no period was found. JSON: `proved` and `argument`.
    #[serde(flatten, with = "optional")]
    pub proof: Option<Proof>,
    /// How many values the theorem needs.
    pub needed_length: Option<usize>,
    /// The search's bounds: the largest period tried and the sequence's length.
    pub searched: Searched,
}

/// The bounds of a period search.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Searched {
    /// The largest period tried (a third of the length).
    pub max_period: usize,
    /// The number of values.
    pub length: usize,
}

/// The analysis of a 2-D table.
#[derive(Clone, Debug, Serialize)]
pub struct BoardReport {
    /// The game's name (or the file's).
    pub game: String,
    /// `[R, C]`: the largest coordinates.
    pub size: [i64; 2],
    /// The smallest coordinates.
    pub min: [i64; 2],
    /// The axis names.
    pub axes: [String; 2],
    /// `values`, or `outcomes` for a P/N table read from a file.
    #[serde(serialize_with = "cell_kind_name")]
    pub cells: CellKind,
    /// T(x, y) = T(y, x) on the common square.
    pub symmetric: bool,
    /// The outcome mask (P where the value is 0).
    pub outcome: OutcomeReport,
    /// The values (all null for a P/N table).
    pub values: ValuesReport,
    /// Each row's periodicity (along the second axis).
    pub rows: Vec<LineReport>,
    /// Each column's periodicity (along the first axis).
    pub columns: Vec<LineReport>,
    /// Each diagonal's (x − y constant) periodicity, by increasing x.
    pub diagonals: Vec<LineReport>,
    /// The closed forms found, each a `grundy check` claim. JSON: `laws` and `law_search`.
    #[serde(flatten)]
    pub laws: Laws,
}

/// The analysis of a 3-D table: each axis' edge (every other coordinate at its minimum, the
/// heap game on that axis when the table is a sum), whether the table is the sum of its edges,
/// and the laws.
#[derive(Clone, Debug, Serialize)]
pub struct SolidReport {
    /// The game's name (or the file's).
    pub game: String,
    /// `[X, Y, Z]`: the largest coordinates.
    pub size: [i64; 3],
    /// The smallest coordinates.
    pub min: [i64; 3],
    /// The axis names.
    pub axes: [String; 3],
    /// Each axis' edge, its periodicity (`index` is the axis' number).
    pub edges: Vec<LineReport>,
    /// Whether every cell is the xor of the edges' values at its coordinates (G(x, y, z) =
    /// G(x, y₀, z₀) ⊕ G(x₀, y, z₀) ⊕ G(x₀, y₀, z)).
    pub sum_of_edges: bool,
    /// The closed forms found, each a `grundy check` claim. JSON: `laws` and `law_search`.
    #[serde(flatten)]
    pub laws: Laws,
}

/// The outcome mask's structure.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeReport {
    /// `[p, q]`.
    pub period: Option<[usize; 2]>,
    /// The coordinates where the periodic part starts.
    pub from: Option<[i64; 2]>,
    /// An expression true exactly on the table's P-positions.
    pub rule: Option<String>,
    /// P-positions = (rows with a P) × (columns with a P).
    pub separable: bool,
    /// Whether the rule is proved for every board (see [`crate::proof::certificate`]), and the proof or
    /// why there is none; `None` when there is no rule. JSON: `proved` and `argument`.
    #[serde(flatten, with = "optional")]
    pub proof: Option<Proof>,
}

/// A table's [`CellKind`] as JSON names it.
fn cell_kind_name<S: serde::Serializer>(kind: &CellKind, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(kind.name())
}

/// The values' structure.
#[derive(Clone, Debug, Serialize)]
pub struct ValuesReport {
    /// `[p, q]`.
    pub period: Option<[usize; 2]>,
    /// The coordinates where the periodic part starts.
    pub from: Option<[i64; 2]>,
    /// An expression equal to the value on every cell of the table.
    pub rule: Option<String>,
}

/// One row's, column's or diagonal's periodicity.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct LineReport {
    /// The row or column coordinate, or x − y for a diagonal.
    pub index: i64,
    /// The period, or `null`.
    pub period: Option<usize>,
    /// The saltus.
    pub saltus: Option<i64>,
    /// Cells before the periodic part.
    pub preperiod: Option<usize>,
    /// Where the periodic part starts: the column coordinate for a row, the row coordinate for a
    /// column or a diagonal.
    pub from: Option<i64>,
    /// For a line without a period: how far (in the coordinate `from` counts) a longer table
    /// must reach for the period that the line's end suggests to be reported, or `null` when its
    /// end suggests none.
    pub visible_at: Option<i64>,
}

impl From<LinePeriod> for LineReport {
    fn from(line: LinePeriod) -> LineReport {
        LineReport {
            index: line.index,
            period: line.period.map(|p| p.period),
            saltus: line.period.map(|p| p.saltus),
            preperiod: line.period.map(|p| p.preperiod),
            from: line.period.map(|p| line.start + p.preperiod as i64),
            visible_at: line.visible_at,
        }
    }
}

/// Bytes per cell that [`analyze`] holds besides the table: the outcome mask and the analyses'
/// own, which work on the cells as they are stored (measured with `/usr/bin/time`: kiki 8000²,
/// 1.1 bytes per cell; 5 when the analyses copied the values into `u32`s).
pub const ANALYSIS_BYTES_PER_CELL: u64 = 2;

/// Bytes per row, column and diagonal of a board ([`grundy_core::board_lines`]) that [`analyze`]
/// holds: its [`LineReport`] (issue 19: a 1 × 3·10^6 board has 6·10^6 of them).
pub const ANALYSIS_BYTES_PER_LINE: u64 = std::mem::size_of::<LineReport>() as u64;

/// Bytes that naming a report's sequences after known games (grundy-catalog's `identify`) holds
/// besides the table: the index read and its windows (measured: 12 MiB, `patterns cutting --size
/// 300x300` against the build before them), counted twice over. Reserved with the analysis,
/// which every front end that names a report runs first.
pub const NAMING_BYTES: u64 = 32 << 20;

/// Bytes naming holds per value of the longest line (or of a heap game's sequence): the line
/// looked up, and the first line with its values taken again to compare with it.
pub const NAMING_BYTES_PER_VALUE: u64 = 8;

/// The bytes [`analyze`] holds besides a table of `lens`, and naming its sequences after it
/// ([`NAMING_BYTES`]: the index, and the longest line twice). The lines of a
/// 3-D table are those of its largest 2-D slice.
pub fn analysis_bytes(lens: &[usize]) -> u128 {
    let lines = match *lens {
        [rows, cols] => board_lines(rows, cols),
        [a, b, c] => board_lines(a, b).max(board_lines(a, c)).max(board_lines(b, c)),
        _ => 0,
    };
    let cells = lens.iter().map(|&len| len as u128).product::<u128>();
    let longest = lens.iter().copied().max().unwrap_or(0) as u128;
    let naming = u128::from(NAMING_BYTES) + longest * u128::from(NAMING_BYTES_PER_VALUE);
    cells * u128::from(ANALYSIS_BYTES_PER_CELL)
        + lines * u128::from(ANALYSIS_BYTES_PER_LINE)
        + naming
}

/// How a search for a proved period went ([`crate::until_proved::ProofSearch`]): part of the JSON
/// report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Search {
    /// Values computed in the last round (heap sizes from the axis' smallest).
    pub values: usize,
    /// Rounds of computing.
    pub rounds: usize,
    /// The largest heap size allowed.
    pub limit: u64,
}

/// Refuses to analyse a table of `lens` that the caller copies into cells of `copy_cell_bytes`
/// first (an array handed over by the Python package, in `u32`s) when the copy and what
/// [`analyze`] holds besides would not fit in the memory `memory` has now.
///
/// # Errors
/// The table, as [`TooLarge`] describes it.
pub fn check_analysis_memory(
    memory: &MemoryPool,
    lens: &[usize],
    copy_cell_bytes: usize,
) -> Result<(), TooLarge> {
    let cells = lens.iter().map(|&len| len as u128).product::<u128>();
    let copy = Need::of(cells, copy_cell_bytes, cells * copy_cell_bytes as u128, Held::Table);
    memory.check(&copy.besides("the analysis", analysis_bytes(lens)))
}

/// A report as `grundy patterns --json` writes it: with a heap game's records, how an
/// `--until-proved` search went and the known games it names (`Known`: grundy-catalog's
/// `identify::Named`, or `()` when none are looked up). Serialize it straight to its output, not through a
/// `serde_json::Value`: a value tree of a board's 6·10^6 line records took 5.7 GB (issue 19).
#[derive(Debug, Serialize)]
pub struct ReportJson<'a, Known: Serialize = ()> {
    /// The report.
    #[serde(flatten)]
    pub report: &'a Report,
    /// A heap game's records (`None` for a board or a table read from a file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub records: Option<&'a SequenceRecords>,
    /// An `--until-proved` search's rounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until_proved: Option<&'a Search>,
    /// The known games its sequence or lines are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<&'a Known>,
}

/// Analyses `described`. Its game (when the table was computed here, not read from a file)
/// enables proofs; its name names it in the report. The law search takes
/// [`LawOptions::default`]'s time at most.
pub fn analyze(described: &Table) -> Result<Report, Error> {
    analyze_with(described, &LawOptions::default())
}

/// [`analyze`], its law search bounded by `options`.
pub fn analyze_with(described: &Table, options: &LawOptions<'_>) -> Result<Report, Error> {
    if described.loopy().is_some() {
        return loopy::analyze(described, options);
    }
    // On the cells as they are stored (bytes for most tables), not on a copy of them.
    grundy_core::with_cells!(described.data().cells(), |values| analyze_cells(
        described, values, options
    ))
}

/// The axes of `described` as the law search reads them.
pub(crate) fn law_source<'a>(
    described: &'a Table,
    value: Option<&'a (dyn Fn(usize) -> i64 + Sync)>,
    is_p: &'a (dyn Fn(usize) -> bool + Sync),
    rules: Vec<(ClaimKind, String, String, &'static str)>,
) -> Source<'a> {
    let axes = described.data().axes();
    Source {
        described,
        names: axes.iter().map(|a| a.name.clone()).collect(),
        mins: axes.iter().map(|a| a.min).collect(),
        lens: described.data().shape().lens(),
        value,
        labels: None,
        is_p,
        rules,
    }
}

fn analyze_cells<C: Cell + Into<i64>>(
    described: &Table,
    values: &[C],
    options: &LawOptions<'_>,
) -> Result<Report, Error> {
    let (table, game, name) = (described.data(), described.game(), described.name());
    let axes = table.axes();
    let max = table.shape().max();
    match axes.len() {
        1 => {
            let found = find_period(values);
            let proof = found.map(|p| prove_sequence(game, &p, values.len(), axes[0].min));
            let value = |f: usize| values[f].into();
            let is_p = |f: usize| values[f].nimber().is_p();
            let laws = find_laws(&law_source(described, Some(&value), &is_p, Vec::new()), options);
            Ok(Report::Sequence(SequenceReport {
                game: name.to_string(),
                size: [max[0]],
                min: axes[0].min,
                axis: axes[0].name.clone(),
                sequence: SequencePeriod {
                    period: found.map(|p| p.period),
                    saltus: found.map(|p| p.saltus),
                    preperiod: found.map(|p| p.preperiod),
                    from: found.map(|p| axes[0].min + p.preperiod as i64),
                    needed_length: proof.as_ref().and_then(|p| p.needed_length),
                    proof: proof.map(|p| p.proof),
                    searched: Searched { max_period: values.len() / 3, length: values.len() },
                },
                laws,
            }))
        }
        2 => Ok(Report::Board(analyze_board(described, values, options))),
        3 if described.kind() == CellKind::Values => {
            Ok(Report::Solid(analyze_solid(described, values, options)))
        }
        dims => Err(Error::new(ErrorKind::Axes { dims })),
    }
}

fn analyze_solid<C: Cell + Into<i64>>(
    described: &Table,
    values: &[C],
    options: &LawOptions<'_>,
) -> SolidReport {
    let table = described.data();
    let axes = table.axes();
    let lens = table.shape().lens();
    let (edges, sum_of_edges) = edges_and_sum(&lens, &|f| values[f].into());
    let edge_reports = edges
        .iter()
        .enumerate()
        .map(|(d, line)| {
            let found = find_period(line);
            LineReport {
                index: d as i64,
                period: found.map(|p| p.period),
                saltus: found.map(|p| p.saltus),
                preperiod: found.map(|p| p.preperiod),
                from: found.map(|p| axes[d].min + p.preperiod as i64),
                visible_at: None,
            }
        })
        .collect();
    let value = |f: usize| values[f].into();
    let is_p = |f: usize| values[f].nimber().is_p();
    let laws = find_laws(&law_source(described, Some(&value), &is_p, Vec::new()), options);
    let max = table.shape().max();
    SolidReport {
        game: described.name().to_string(),
        size: [max[0], max[1], max[2]],
        min: [axes[0].min, axes[1].min, axes[2].min],
        axes: [axes[0].name.clone(), axes[1].name.clone(), axes[2].name.clone()],
        edges: edge_reports,
        sum_of_edges,
        laws,
    }
}

fn analyze_board<C: Cell + Into<i64>>(
    described: &Table,
    values: &[C],
    options: &LawOptions<'_>,
) -> BoardReport {
    let (table, kind, game, name) =
        (described.data(), described.kind(), described.game(), described.name());
    let axes = table.axes();
    let lens = table.shape().lens();
    let (rows, cols) = (lens[0], lens[1]);
    let mins = [axes[0].min, axes[1].min];
    let names = [axes[0].name.as_str(), axes[1].name.as_str()];
    let coords =
        |period: &Period2d| [mins[0] + period.from[0] as i64, mins[1] + period.from[1] as i64];
    let mask: Vec<bool> = values.iter().map(|&v| v.nimber().is_p()).collect();
    let mask_grid = Grid::new(&mask, rows, cols);
    let outcome_period = find_period_2d(&mask_grid);
    let described_mask = Described { grid: mask_grid, names, mins };
    let rule = outcome_period.as_ref().and_then(|p| outcome_rule(&described_mask, p));
    let proof = rule.as_ref().map(|rule| match game {
        Some(game) => prove_outcome_rule(game, rule, &options.proof_budget()).proof,
        None => {
            Proof::none("the game's rules are not known for this table (read from a file, or a slice of a 3-D table)")
        }
    });
    let outcome = OutcomeReport {
        period: outcome_period.map(|p| p.period),
        from: outcome_period.as_ref().map(coords),
        rule,
        separable: is_separable(&mask_grid),
        proof,
    };
    let value_grid = Grid::new(values, rows, cols);
    let values_report = if kind == CellKind::Values {
        let period = find_period_2d(&value_grid);
        let described = Described { grid: value_grid, names, mins };
        ValuesReport {
            period: period.map(|p| p.period),
            from: period.as_ref().map(coords),
            rule: period.as_ref().and_then(|p| values_rule(&described, p)),
        }
    } else {
        ValuesReport { period: None, from: None, rule: None }
    };
    let [rows_report, columns_report, diagonals_report] =
        line_periods_with(&value_grid, mins, LineReport::from);
    let mut rules = Vec::new();
    if let Some(rule) = &outcome.rule {
        let statement = format!("the P-positions are periodic: {rule}");
        rules.push((ClaimKind::PSet, rule.clone(), statement, "outcome period"));
    }
    if let Some(rule) = &values_report.rule {
        let statement = "the values are periodic: a lookup on residues".to_string();
        rules.push((ClaimKind::Values, rule.clone(), statement, "values period"));
    }
    let value = |f: usize| values[f].into();
    let is_p = |f: usize| mask[f];
    let has_values = kind == CellKind::Values;
    let value: Option<&(dyn Fn(usize) -> i64 + Sync)> =
        if has_values { Some(&value) } else { None };
    let laws = find_laws(&law_source(described, value, &is_p, rules), options);
    BoardReport {
        game: name.to_string(),
        size: [table.shape().max()[0], table.shape().max()[1]],
        min: mins,
        axes: [names[0].to_string(), names[1].to_string()],
        cells: kind,
        symmetric: is_symmetric(&value_grid, mins),
        outcome,
        values: values_report,
        rows: rows_report,
        columns: columns_report,
        diagonals: diagonals_report,
        laws,
    }
}
