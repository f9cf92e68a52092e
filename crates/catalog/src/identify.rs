//! Which known game is this? A sequence (a heap game's values, a line of a board, numbers from
//! anywhere) matched against an index of known games ([`Index`]): every class equal to it after
//! a shift of index, a(n) = b(n + k), and separately every class whose P-positions alone agree.
//!
//! The index is built by grundy itself (`grundy survey FAMILIES --format index`): every member
//! of the families surveyed, classed as the survey classes them, each class stored once with its
//! proved period where a theorem proved one and its first values otherwise, and published
//! sequences (`data/oeis.toml`) classed with the games they agree with. [`Index::builtin`] is
//! the one shipped in `data/known-games.jsonl.gz`.
//!
//! # Invariants
//! A match is *proved* only when both sequences have proved laws and agree past both periodic
//! parts' starts for the lcm of their periods (the survey's rule, shifted): from there both
//! repeat. Otherwise it says how far it was compared, and a match compares at least
//! [`LEAST_COMPARED`] values unless the query is shorter.

mod index;
mod lines;
mod matching;
mod report;
mod sequence;
mod windows;

pub use index::{
    board_lines, law_of, published, Entry, Header, Index, IndexError, Known, Member, BOARD_LINES,
    INDEX_FORMAT, STORED_VALUES,
};
pub use lines::{game_sequence, heap_sequence, line_of, GameSequenceError, Line, LineError};
pub use matching::{
    Identification, IdentifyJson, Match, MemberMatch, DEFAULT_SHIFT, LEAST_COMPARED,
    LEAST_P_POSITIONS, MAX_SHIFT,
};
pub use report::{
    name_report, Named, NamedLine, LEAST_LINE_VALUES, MOST_LINES_LOOKED_UP, NAMING_BYTES,
    NAMING_BYTES_PER_VALUE,
};
pub use sequence::{Agreement, Compare, Law, Sequence, MOST_COMPARED};
