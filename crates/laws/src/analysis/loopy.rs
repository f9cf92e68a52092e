//! The analysis of a loopy game's table: where its P-positions and draws lie, by the same
//! periods and rules as a Grundy table's, from its outcomes. Reached through
//! [`super::analyze`], which dispatches on the table's values.

use super::{LineReport, Report};
use crate::closed_form::periodic_rules::{outcome_rule, Described};
use crate::closed_form::{find_laws, LawOptions, Laws};
use crate::conjecture::ClaimKind;
use crate::error::{Error, ErrorKind};
use crate::grid::{find_period_2d, line_periods_with, Grid};
use crate::periodicity::find_period;
use grundy_core::{LoopyOutcome, Table, INFINITE_LABEL};
use rayon::prelude::*;
use serde::Serialize;

/// The report of a loopy game's `table` (heaps or a board).
pub(super) fn analyze(table: &Table, options: &LawOptions<'_>) -> Result<Report, Error> {
    let shape = table.data().shape();
    let outcomes: Vec<LoopyOutcome> =
        (0..table.data().len()).into_par_iter().map(|i| table.outcome_at(i)).collect();
    match shape.lens().len() {
        1 => {
            let labels = table.data().cells().to_u32_vec();
            heaps(table.name(), shape, &labels, &outcomes).map(Report::LoopyHeaps)
        }
        2 => {
            let mut report = board(table.name(), shape, &outcomes)?;
            // The same law search as every other table's, on the P-positions the outcomes give.
            let rules = report.p_positions.rule.iter().map(|rule| {
                let statement = format!("the P-positions are periodic: {rule}");
                (ClaimKind::PSet, rule.clone(), statement, "outcome period")
            });
            let is_p = |f: usize| outcomes[f] == LoopyOutcome::P;
            // `g` as a claim reads it: the value, -1 at ∞ (a label of u32::MAX).
            let cells = table.data().cells().to_u32_vec();
            let label = |f: usize| {
                if cells[f] == u32::MAX {
                    grundy_core::INFINITE_G
                } else {
                    i64::from(cells[f])
                }
            };
            let mut source = super::law_source(table, None, &is_p, rules.collect());
            source.labels = Some(&label);
            report.laws = find_laws(&source, options);
            Ok(Report::LoopyBoard(report))
        }
        dims => Err(Error::new(ErrorKind::Axes { dims })),
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
    /// The closed forms of the P-positions found, each a `grundy check` claim. JSON: `laws` and
    /// `law_search`.
    #[serde(flatten)]
    pub laws: Laws,
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
fn outcome_code(outcome: LoopyOutcome) -> u8 {
    match outcome {
        LoopyOutcome::P => 0,
        LoopyOutcome::N => 1,
        LoopyOutcome::D => 2,
    }
}

/// P-positions and draws listed by `patterns`.
pub const LISTED_HEAPS: usize = 30;

/// The report of a loopy heap game over `shape` (one axis) from its `labels` (finite values,
/// or [`INFINITE_LABEL`]) and `outcomes`, one per heap.
///
/// # Errors
/// A shape that is not 1-D.
///
/// # Panics
/// If `labels` or `outcomes` does not hold one entry per heap.
fn heaps(
    name: &str,
    shape: &grundy_core::TableShape,
    labels: &[u32],
    outcomes: &[LoopyOutcome],
) -> Result<LoopyHeapReport, Error> {
    let lens = shape.lens();
    if lens.len() != 1 {
        return Err(Error::new(ErrorKind::Axes { dims: lens.len() }));
    }
    assert_eq!(labels.len(), lens[0], "one label per heap");
    assert_eq!(outcomes.len(), lens[0], "one outcome per heap");
    let min = shape.axes()[0].min;
    let codes: Vec<i64> = outcomes.iter().map(|&o| i64::from(outcome_code(o))).collect();
    let values: Vec<i64> =
        labels.iter().map(|&l| if l == INFINITE_LABEL { -1 } else { i64::from(l) }).collect();
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

/// What A loopy table's findings are.
pub const LOOPY_EVIDENCE: &str = "evidence only: every position of this board; no theorem about loopy games is applied, and the board's edges may shape what is seen";

/// Analyses a loopy game's board of `shape` from its positions' outcomes (row-major).
///
/// # Errors
/// A board that is not 2-D.
///
/// # Panics
/// If `outcomes` does not hold one outcome per position.
fn board(
    name: &str,
    shape: &grundy_core::TableShape,
    outcomes: &[LoopyOutcome],
) -> Result<LoopyBoardReport, Error> {
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
        laws: Laws::default(),
    })
}
