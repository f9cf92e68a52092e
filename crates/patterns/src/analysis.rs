//! The report of `grundy patterns`: what a table's structure is, in the JSON contract's shape.

use crate::certificate::prove_outcome_rule;
use crate::error::{Error, ErrorKind};
use crate::grid::{
    find_period_2d, is_separable, is_symmetric, line_periods_with, Grid, LinePeriod, Period2d,
};
use crate::periodicity::find_period;
use crate::proof::{optional, Proof};
use crate::proofs::prove_sequence;
use crate::rules::{outcome_rule, values_rule, Described};
use grundy_compute::memory::{check_bytes, Held, TooLarge};
use grundy_compute::SequenceRecords;
use grundy_core::{board_lines, Cell, CellKind, Game, GrundyTable, Table};
use serde::Serialize;

/// The analysis of a 1-D or 2-D table.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Report {
    /// A heap game's sequence.
    Sequence(SequenceReport),
    /// A board.
    Board(BoardReport),
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
    /// Whether the rule is proved for every board (see [`crate::certificate`]), and the proof or
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
}

impl From<LinePeriod> for LineReport {
    fn from(line: LinePeriod) -> LineReport {
        LineReport {
            index: line.index,
            period: line.period.map(|p| p.period),
            saltus: line.period.map(|p| p.saltus),
            preperiod: line.period.map(|p| p.preperiod),
            from: line.period.map(|p| line.start + p.preperiod as i64),
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

/// The bytes [`analyze`] holds besides a table of `lens`, and naming its sequences after it
/// ([`crate::identify::name_report`]: the index, and the longest line twice). The lines of a
/// 3-D table are those of its largest 2-D slice.
pub fn analysis_bytes(lens: &[usize]) -> u128 {
    let lines = match *lens {
        [rows, cols] => board_lines(rows, cols),
        [a, b, c] => board_lines(a, b).max(board_lines(a, c)).max(board_lines(b, c)),
        _ => 0,
    };
    let cells = lens.iter().map(|&len| len as u128).product::<u128>();
    let longest = lens.iter().copied().max().unwrap_or(0) as u128;
    let naming = u128::from(crate::identify::NAMING_BYTES)
        + longest * u128::from(crate::identify::NAMING_BYTES_PER_VALUE);
    cells * u128::from(ANALYSIS_BYTES_PER_CELL)
        + lines * u128::from(ANALYSIS_BYTES_PER_LINE)
        + naming
}

/// How a search for a proved period went ([`crate::search::ProofSearch`]): part of the JSON
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
/// [`analyze`] holds besides would not fit in the memory available now.
///
/// # Errors
/// The table, as [`TooLarge`] describes it.
pub fn check_analysis_memory(lens: &[usize], copy_cell_bytes: usize) -> Result<(), TooLarge> {
    let cells = lens.iter().map(|&len| len as u128).product::<u128>();
    let needed = cells * copy_cell_bytes as u128 + analysis_bytes(lens);
    check_bytes(cells, copy_cell_bytes, needed, Held::Table)
}

/// A report as `grundy patterns --json` writes it: with a heap game's records and how an
/// `--until-proved` search went. Serialize it straight to its output, not through a
/// `serde_json::Value`: a value tree of a board's 6·10^6 line records took 5.7 GB (issue 19).
#[derive(Debug, Serialize)]
pub struct ReportJson<'a> {
    /// The report.
    #[serde(flatten)]
    pub report: &'a Report,
    /// A heap game's records (`None` for a board or a table read from a file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub records: Option<&'a SequenceRecords>,
    /// An `--until-proved` search's rounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until_proved: Option<&'a Search>,
    /// The known games its sequence or lines are ([`crate::identify::name_report`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<&'a crate::identify::Named>,
}

/// Analyses `described`. Its game (when the table was computed here, not read from a file)
/// enables proofs; its name names it in the report.
pub fn analyze(described: &Table) -> Result<Report, Error> {
    // On the cells as they are stored (bytes for most tables), not on a copy of them.
    grundy_core::with_cells!(described.data().cells(), |values| analyze_cells(described, values))
}

fn analyze_cells<C: Cell + Into<i64>>(described: &Table, values: &[C]) -> Result<Report, Error> {
    let (table, kind, game, name) =
        (described.data(), described.kind(), described.game(), described.name());
    let axes = table.axes();
    let max = table.shape().max();
    match axes.len() {
        1 => {
            let found = find_period(values);
            let proof = found.map(|p| prove_sequence(game, &p, values.len(), axes[0].min));
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
            }))
        }
        2 => Ok(Report::Board(analyze_board(table, values, kind, game, name))),
        dims => Err(Error::new(ErrorKind::Axes { dims })),
    }
}

fn analyze_board<C: Cell + Into<i64>>(
    table: &GrundyTable,
    values: &[C],
    kind: CellKind,
    game: Option<&Game>,
    name: &str,
) -> BoardReport {
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
        Some(game) => prove_outcome_rule(game, rule).proof,
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
    }
}

/// The analysis of a loopy game's board (`grundy patterns` of a loopy game): where its
/// P-positions and its draws lie, and each line's outcomes. Evidence only: no theorem about
/// loopy games is applied.
#[derive(Clone, Debug, Serialize)]
pub struct LoopyBoardReport {
    /// The game's name.
    pub game: String,
    /// `[R, C]`: the largest coordinates.
    pub size: [i64; 2],
    /// The smallest coordinates.
    pub min: [i64; 2],
    /// The axis names.
    pub axes: [String; 2],
    /// How many positions are P, N and D.
    pub counts: OutcomeCounts,
    /// The P-positions' structure.
    pub p_positions: OutcomeSet,
    /// The draws' structure.
    pub draws: OutcomeSet,
    /// Each row's outcomes (P, N, D read as 0, 1, 2), periodicity along the second axis.
    pub rows: Vec<LineReport>,
    /// Each column's outcomes, periodicity along the first axis.
    pub columns: Vec<LineReport>,
    /// Each diagonal's (x − y constant) outcomes, by increasing x.
    pub diagonals: Vec<LineReport>,
    /// Why this is evidence only.
    pub argument: &'static str,
}

/// What `patterns` finds in a loopy heap game's values on its whole range of heaps: how many
/// positions are P, N and D, the periods of its outcomes and of its values, and the first
/// P-positions and draws. Evidence only: no theorem about loopy games is applied, and the
/// range's top (where a heap cannot grow) may shape what is seen.
#[derive(Clone, Debug, Serialize)]
pub struct LoopyHeapReport {
    /// The game's name.
    pub game: String,
    /// The axis' name.
    pub axis: String,
    /// The smallest and the largest heap.
    pub range: [i64; 2],
    /// How many positions are P, N and D.
    pub counts: OutcomeCounts,
    /// The period of the outcomes (P, N, D read as 0, 1, 2), if the three-period rule finds one.
    pub outcomes: Option<HeapPeriod>,
    /// The period of the values (∞ read as −1, whatever its K), if one is found.
    pub values: Option<HeapPeriod>,
    /// The first P-positions (at most [`LISTED_HEAPS`]).
    pub p_positions: Vec<i64>,
    /// The first draws (at most [`LISTED_HEAPS`]).
    pub draws: Vec<i64>,
    /// Why this is evidence only.
    pub argument: &'static str,
}

/// A period of a loopy heap game's sequence, from the heap where it starts.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct HeapPeriod {
    /// The period.
    pub period: usize,
    /// The first heap of the periodic part.
    pub from: i64,
    /// The saltus (0 when the sequence holds ∞ or outcomes).
    pub saltus: i64,
}

/// An outcome as the line and sequence periods read it: P, N and D as 0, 1 and 2.
fn outcome_code(outcome: grundy_core::LoopyOutcome) -> u8 {
    match outcome {
        grundy_core::LoopyOutcome::P => 0,
        grundy_core::LoopyOutcome::N => 1,
        grundy_core::LoopyOutcome::D => 2,
    }
}

/// P-positions and draws listed by [`analyze_loopy_heaps`].
pub const LISTED_HEAPS: usize = 30;

/// The report of a loopy heap game over `shape` (one axis) from its `labels` (finite values,
/// or [`grundy_compute::retrograde::INFINITE`]) and `outcomes`, one per heap.
///
/// # Errors
/// A shape that is not 1-D.
///
/// # Panics
/// If `labels` or `outcomes` does not hold one entry per heap.
pub fn analyze_loopy_heaps(
    name: &str,
    shape: &grundy_core::TableShape,
    labels: &[u32],
    outcomes: &[grundy_core::LoopyOutcome],
) -> Result<LoopyHeapReport, Error> {
    use grundy_core::LoopyOutcome;
    let lens = shape.lens();
    if lens.len() != 1 {
        return Err(Error::new(ErrorKind::Axes { dims: lens.len() }));
    }
    assert_eq!(labels.len(), lens[0], "one label per heap");
    assert_eq!(outcomes.len(), lens[0], "one outcome per heap");
    let min = shape.axes()[0].min;
    let codes: Vec<i64> = outcomes.iter().map(|&o| i64::from(outcome_code(o))).collect();
    let values: Vec<i64> = labels
        .iter()
        .map(|&l| if l == grundy_compute::retrograde::INFINITE { -1 } else { i64::from(l) })
        .collect();
    let period_of = |sequence: &[i64], no_saltus: bool| {
        let found = find_period(sequence)?;
        // A saltus means nothing for outcomes, or for values where ∞ occurs.
        (found.saltus == 0 || !no_saltus).then_some(HeapPeriod {
            period: found.period,
            from: min + found.preperiod as i64,
            saltus: found.saltus,
        })
    };
    let infinite = values.contains(&-1);
    let heaps_with = |which: LoopyOutcome| {
        let heaps = outcomes.iter().enumerate().filter(move |&(_, &o)| o == which);
        heaps.map(|(i, _)| min + i as i64).take(LISTED_HEAPS).collect()
    };
    let count = |which: LoopyOutcome| outcomes.iter().filter(|&&o| o == which).count() as u64;
    Ok(LoopyHeapReport {
        game: name.to_string(),
        axis: shape.axes()[0].name.clone(),
        range: [min, shape.max()[0]],
        counts: OutcomeCounts {
            p: count(LoopyOutcome::P),
            n: count(LoopyOutcome::N),
            d: count(LoopyOutcome::D),
        },
        outcomes: period_of(&codes, true),
        values: period_of(&values, infinite),
        p_positions: heaps_with(LoopyOutcome::P),
        draws: heaps_with(LoopyOutcome::D),
        argument: LOOPY_EVIDENCE,
    })
}

/// Positions by outcome.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct OutcomeCounts {
    /// P-positions.
    pub p: u64,
    /// N-positions.
    pub n: u64,
    /// Draws.
    pub d: u64,
}

/// Where the positions of one outcome lie on a loopy board.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeSet {
    /// `[p, q]`: the period of the set's mask.
    pub period: Option<[usize; 2]>,
    /// The coordinates where the periodic part starts.
    pub from: Option<[i64; 2]>,
    /// An expression true exactly on the set, on this board.
    pub rule: Option<String>,
}

/// What [`analyze_loopy`]'s findings are.
pub const LOOPY_EVIDENCE: &str = "evidence only: every position of this board; no theorem about loopy games is applied, and the board's edges may shape what is seen";

/// Analyses a loopy game's board of `shape` from its positions' outcomes (row-major).
///
/// # Errors
/// A board that is not 2-D.
///
/// # Panics
/// If `outcomes` does not hold one outcome per position.
pub fn analyze_loopy(
    name: &str,
    shape: &grundy_core::TableShape,
    outcomes: &[grundy_core::LoopyOutcome],
) -> Result<LoopyBoardReport, Error> {
    use grundy_core::LoopyOutcome;
    let lens = shape.lens();
    if lens.len() != 2 {
        return Err(Error::new(ErrorKind::Axes { dims: lens.len() }));
    }
    assert_eq!(outcomes.len() as u128, shape.cells(), "one outcome per position");
    let axes = shape.axes();
    let (rows, cols) = (lens[0], lens[1]);
    let mins = [axes[0].min, axes[1].min];
    let names = [axes[0].name.as_str(), axes[1].name.as_str()];
    let set = |which: LoopyOutcome| {
        let mask: Vec<bool> = outcomes.iter().map(|&o| o == which).collect();
        let grid = Grid::new(&mask, rows, cols);
        let period = find_period_2d(&grid);
        let rule = period.as_ref().and_then(|p| {
            outcome_rule(&Described { grid: Grid::new(&mask, rows, cols), names, mins }, p)
        });
        OutcomeSet {
            period: period.as_ref().map(|p| p.period),
            from: period.as_ref().map(|p| [mins[0] + p.from[0] as i64, mins[1] + p.from[1] as i64]),
            rule,
        }
    };
    let count = |which: LoopyOutcome| outcomes.iter().filter(|&&o| o == which).count() as u64;
    let codes: Vec<u8> = outcomes.iter().map(|&o| outcome_code(o)).collect();
    let [rows_report, columns_report, diagonals_report] =
        line_periods_with(&Grid::new(&codes, rows, cols), mins, LineReport::from);
    Ok(LoopyBoardReport {
        game: name.to_string(),
        size: [shape.max()[0], shape.max()[1]],
        min: mins,
        axes: [names[0].to_string(), names[1].to_string()],
        counts: OutcomeCounts {
            p: count(LoopyOutcome::P),
            n: count(LoopyOutcome::N),
            d: count(LoopyOutcome::D),
        },
        p_positions: set(LoopyOutcome::P),
        draws: set(LoopyOutcome::D),
        rows: rows_report,
        columns: columns_report,
        diagonals: diagonals_report,
        argument: LOOPY_EVIDENCE,
    })
}
