//! The laws of Grundy tables: periodicity (with preperiod and saltus), outcome rules, the
//! structure of 2-D tables, the expression language of conjectures, and proofs where a theorem
//! allows one.
//!
//! - [`periodicity::find_period`]: the smallest period of a sequence under the three-period rule.
//! - [`grid`]: 2-D periods, symmetry, separable P-sets, rows, columns and diagonals.
//! - [`proof`]: the one proof type, and where proofs are made: [`proof::theorems`] (the
//!   subtraction-game and Octal Periodicity theorems for heap games) and [`proof::certificate`]
//!   (the finite box that proves a periodic claim on a board).
//! - [`expr::Expr`]: the expression language of rules and conjectures.
//! - [`closed_form`]: the laws a table suggests (formulas, sums of games, Beatty rays), each a
//!   `grundy check` claim checked on every cell.
//! - [`analyze`]: everything above as one [`Report`], the JSON contract of `grundy patterns`.
//! - [`until_proved::ProofSearch`]: a heap game computed in rounds until a theorem proves its
//!   period.
//! - [`answered`]: a heap game's fill stopped where a theorem proves its period, every later
//!   value a lookup in it.
//! - [`conjecture::check`]: a claim against a table, with counterexamples, and the proof
//!   [`proof`] makes of it where a theorem applies.
//!
//! The play of sums (values of positions, winning moves, misère sums and quotients) is
//! `grundy-play`'s; catalogues of games (naming a sequence, surveys of families) are
//! `grundy-catalog`'s. Both build on this crate; it knows neither.
//!
//! # Invariants
//! A finding over a finite table is evidence; it is called *proved* only when a named theorem's
//! finite check has passed, and the report says which. A printed rule has been evaluated on every
//! cell of the table it describes.
//!
//! ```
//! use grundy_laws::periodicity::find_period;
//! let values = [0u32, 0, 1, 1, 2, 2, 3].repeat(5);
//! let period = find_period(&values).unwrap();
//! assert_eq!((period.period, period.saltus, period.preperiod), (7, 0, 0));
//! ```
#![warn(missing_docs)]

mod analysis;
pub mod answered;
pub mod closed_form;
pub mod conjecture;
mod error;
/// The claim language, which lives in its own crate so that game specs read it too.
pub use grundy_expr as expr;
pub mod grid;
pub mod periodicity;
pub mod proof;
pub mod until_proved;

pub use analysis::{
    analysis_bytes, analyze, analyze_with, check_analysis_memory, BoardReport, HeapPeriod,
    LineReport, LoopyBoardReport, LoopyHeapReport, OutcomeCounts, OutcomeReport, OutcomeSet,
    Report, ReportJson, SequencePeriod, SequenceReport, SolidReport, ValuesReport,
    ANALYSIS_BYTES_PER_CELL, ANALYSIS_BYTES_PER_LINE, LISTED_HEAPS, LOOPY_EVIDENCE, NAMING_BYTES,
    NAMING_BYTES_PER_VALUE,
};
pub use error::{Error, ErrorKind};
