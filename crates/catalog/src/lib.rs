//! Catalogues of games: which known game a sequence or a board's lines are ([`identify`],
//! against an index built from surveys and published sequences, shipped inside this crate), and
//! surveys of whole families of games ([`survey`]: code patterns, subtraction sets, spec
//! templates), every member's row and the classes of equal members.
//!
//! Members are filled by `grundy-compute` and analysed by `grundy-laws`; a misère member's
//! sums are `grundy-play`'s.
#![warn(missing_docs)]

pub mod identify;
pub mod survey;
