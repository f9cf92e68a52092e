//! What the tests of several crates share, so that each oracle and each test game is written
//! once: the win/lose/draw search of a game graph by its definition ([`loopy`]) and the game
//! fixtures, spec files in `crates/testkit/games/` read by name ([`fixtures`]).
//!
//! A dev-dependency only: it depends on grundy-core alone, so that every crate above core can use
//! it in its tests without a cycle.

pub mod fixtures;
pub mod loopy;
