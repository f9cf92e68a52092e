//! The error type of the game model.

use thiserror::Error;

/// Why a game, a size or a position was refused.
///
/// Messages are lowercase, without a trailing period, and fit on one line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The game name is neither a catalog entry nor a parameterised one.
    #[error("unknown game `{name}` (known games: {known})")]
    UnknownGame {
        /// What the user asked for.
        name: String,
        /// The catalog names, comma separated.
        known: String,
    },
    /// A parameter of a parameterised catalog name is malformed.
    #[error("bad parameter in `{name}`: {reason}")]
    BadParameter {
        /// The whole game name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A terminal condition that is not one, or a game that takes none.
    #[error("terminal: {reason}")]
    Terminal {
        /// What is wrong.
        reason: String,
    },
    /// The game declares no axes or too many.
    #[error("a game has 1, 2 or 3 axes, not {0}")]
    AxisCount(usize),
    /// An axis name is empty, repeated or not an identifier.
    #[error("bad axis name `{0}`: axis names are distinct identifiers such as `n` or `w`")]
    AxisName(String),
    /// An axis name is a word that claims about a table reserve (the game's `RESERVED_NAMES`).
    #[error("bad axis name `{name}`: axis names are distinct identifiers such as `n` or `w`, and none of the words claims reserve ({reserved})")]
    ReservedAxisName {
        /// The name refused.
        name: String,
        /// The reserved words, as the refusal lists them.
        reserved: String,
    },
    /// An axis' largest coordinate lies below its smallest, or at 2^31 or beyond.
    #[error("axis `{axis}`: its `max` {max} must lie between its `min` {min} and 2^31 - 1")]
    AxisBound {
        /// The axis' name.
        axis: String,
        /// Its smallest coordinate.
        min: crate::coord::Coord,
        /// Its largest.
        max: crate::coord::Coord,
    },
    /// A rule is malformed; `rule` counts from 1 in the order the rules were given.
    #[error("rule {rule} ({kind}), field `{field}`: {reason}")]
    Rule {
        /// 1-based index of the rule.
        rule: usize,
        /// The rule's kind, e.g. `step`.
        kind: &'static str,
        /// The field of the rule that is wrong, as it is spelt in a spec file.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The game has no rules at all.
    #[error("a game needs at least one move rule")]
    NoRules,
    /// A spec file is malformed; `detail` names the rule and the field where it can.
    #[error("{origin}: {detail}")]
    Spec {
        /// The file (or catalog entry) the spec came from.
        origin: String,
        /// What is wrong, and where.
        detail: String,
    },
    /// A size or position string does not parse.
    #[error("malformed {what} `{text}`: {reason}")]
    Coordinates {
        /// `size` or `position`.
        what: &'static str,
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A size or position does not fit the game.
    #[error("{what} {text} does not fit game `{game}`: {reason}")]
    OutOfRange {
        /// `size` or `position`.
        what: &'static str,
        /// The text given.
        text: String,
        /// The game's name.
        game: String,
        /// What is wrong.
        reason: String,
    },
}
