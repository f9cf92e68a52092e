//! The core of grundy: impartial games stated as data, the mex, and Grundy tables.
//!
//! - [`Game`] holds a game's axes and its move [`Rule`]s; [`lookup`] finds catalog games by name,
//!   and [`Game::options`] spells out the moves of one position the plain way.
//! - [`Nimber`] is a Grundy value and [`mex`] / [`MexSet`] the one place the mex is computed.
//! - [`GrundyTable`] holds the values of a box of positions ([`TableShape`]) in an ndarray of the
//!   narrowest cell type that holds them ([`CellWidth`]), and
//!   [`write_csv`] writes it to any `impl Write`.
//!
//! This crate knows no threads and no files: the engines live in `grundy-compute`, the command
//! line in `grundy-cli`.
//!
//! ```
//! use grundy_core::{lookup, mex, Nimber};
//!
//! let kiki = lookup("kiki").unwrap();
//! // From (1, 2) the coin can only move to (1, 1), which has no moves: value mex{0} = 1.
//! assert_eq!(kiki.options(&[1, 2]), vec![vec![vec![1, 1]]]);
//! assert_eq!(mex([Nimber(0)]), Nimber(1));
//! ```
#![warn(missing_docs)]

mod coord;
mod error;
pub mod game;
mod loopy;
mod mex;
mod nimber;
mod play;
pub mod table;
mod words;

pub use error::ModelError;
pub use words::counted;

pub use game::{
    lookup, parse_spec, to_spec, Amounts, Axis, Coord, Game, GameOption, GroupShape, MoveForm,
    MoveKind, NamedSet, OctalCode, OptionGroup, Pairs, Rule, StepBase, StepSet, StepSetError,
    COORD_LIMIT, DESCENT_WEIGHT_LIMIT, EDGE_PREFIX, RESERVED_NAMES, SPEC_LIMIT_BYTES,
};
pub use loopy::{LoopyOutcome, LoopyValue, SumValue, INFINITE_G};
pub use mex::{mex, mex_of_union, MexSet, PrefixSet};
pub use nimber::Nimber;
pub use play::Play;
pub use table::{
    board_lines, check_position, parse_coords, read_bfile, read_csv, read_csv_within, read_npy,
    read_npy_table, write_bfile, write_csv, write_npy, write_npy_header, write_table_csv,
    BfileError, Cell, CellArray, CellKind, CellSlice, CellVec, CellWidth, CsvLayout, CsvLimits,
    CsvReadError, GrundyTable, LoopyCells, NpyError, Provenance, ProvenanceError, Repeating, Table,
    TableShape, TableStats, ValuesDigest, INFINITE_LABEL,
};
