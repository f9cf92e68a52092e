//! Filling Grundy tables: a plain reference fill, and one engine made of four parts.
//!
//! - [`fill_reference`] walks the table in row-major order and spells out each cell's options with
//!   [`Game::options`](grundy_core::Game::options): slow, obviously right, the oracle for
//!   everything else.
//! - The engine composes
//!   - a **plan** ([`plan`]): the table cut into units (tiles, single cells or rows) in
//!     anti-diagonal waves, with what each unit reads; a [`WaveMark`] is a position in it;
//!   - a **kernel** (`kernel.rs`): the game's moves compiled for the table, filling one unit from
//!     a view of the cells and line summaries it reads;
//!   - a **store** (`store.rs`): where values live, the dense in-memory table or the streaming
//!     fill's ring of rows (`sparse.rs` has the sparse-space kernel and its store);
//!   - an **executor** (`executor.rs`): runs the waves on the current rayon pool, and after each
//!     one reports progress, honours cancellation and calls back (checkpoints, streamed rows).
//! - [`retrograde`] is the kernel for games that may go round in circles: generalized
//!   Sprague–Grundy values of a finite game graph by Fraenkel's labelling algorithm (no waves:
//!   with cycles no order puts every option first).
//! - A [`FillRequest`] says what a front end wants — the game and its positions, the
//!   [`Engine`], the [`Threads`], the [`Layout`] (in memory, streamed, distributed) — and
//!   [`FillRequest::prepare`] decides everything else in one place: it refuses what cannot run
//!   and returns a [`PreparedFill`]: a [`TableFill`] (the whole table in memory, resumable
//!   between waves: what checkpoints are made of), a [`RowStream`] (rows into a ring, for
//!   tables larger than memory, resumable between rows) or a [`bands::BandFill`] (bands of tile
//!   rows, on one rank or shared among the ranks of a job), each of which knows the memory it
//!   will hold ([`PreparedFill::check_memory`]).
//!
//! # Determinism
//! Every engine returns the same values for every thread count and tile side: a cell's value
//! depends only on earlier (tile-)waves and earlier cells of its own tile, never on timing.
//!
//! ```
//! use grundy_compute::memory::Besides;
//! use grundy_compute::{FillRequest, NoProgress};
//! use grundy_core::{lookup, TableShape};
//!
//! let nim = lookup("nim").unwrap();
//! let shape = TableShape::new(&nim, &[7, 7], "7x7").unwrap();
//! // The whole table in memory on the current threads, with nothing else held besides.
//! let fill = FillRequest::new(&nim, &shape).table(&Besides::NOTHING).unwrap();
//! let table = fill.fill(&NoProgress).unwrap();
//! assert_eq!(table.get(&[5, 3]).unwrap().value(), 5 ^ 3);
//! ```
#![warn(missing_docs)]

pub mod bands;
mod budget;
pub mod checkpoint;
mod compiled;
#[cfg(test)]
mod compositions;
mod engine;
mod error;
mod executor;
mod fill;
mod kernel;
mod layout;
pub mod memory;
pub mod misere;
pub mod plan;
mod progress;
mod records;
mod reference;
mod request;
pub mod retrograde;
mod runtime;
mod shared;
mod sliced;
mod sparse;
mod store;
mod stream;
mod threads;

pub use budget::{Budget, Seconds, SecondsError, Spent};
pub use engine::{Engine, UnknownEngine};
pub use error::{FillError, ResumeMismatch};
pub use fill::TableFill;
pub use layout::{Layout, Resumable, RowsTo};
pub use plan::WaveMark;
pub use progress::{Control, NoProgress, Progress};
pub use records::SequenceRecords;
pub use reference::fill_reference;
pub use request::{Content, FillRequest, PreparedFill, RequestError, RequestErrorKind, WholeFill};
pub use runtime::Runtime;
pub use sparse::records::{has_sparse_records, sparse_records, SparseRecords};
pub use sparse::NotSparse;
pub use stream::{streaming_rows, NoStream, RingStore, RowStream};
pub use threads::{ThreadCount, Threads, ThreadsError, MAX_THREADS_PER_CORE};
