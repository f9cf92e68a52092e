//! The play of games and their sums: the values of positions however far out, the winning moves
//! of a sum under every convention, misère play of sums and misère quotients.
//!
//! - [`positions::values_of`]: the values of positions however far out (proved periods, strips
//!   that repeat, a loopy game's whole board).
//! - [`moves::moves_of`]: every move of a sum with the value it leaves; each component's rule
//!   ([`moves::ValueRule`]: the mex, the misère mex, Smith's rule for loopy games) is the one
//!   place the conventions meet.
//! - [`misere`]: misère play of sums (exact search, the tame rule), genus and tameness.
//! - [`quotient`]: misère quotients of heap games (Plambeck–Siegel), found and checked.
//!
//! Values come from the fills of `grundy-compute` and the laws of `grundy-laws` (proved periods,
//! strips); this crate decides nothing about engines or threads.
#![warn(missing_docs)]

pub mod misere;
pub mod moves;
pub mod positions;
pub mod quotient;
