//! The play convention: who wins when no move is left.
//!
//! Under **normal** play the player who cannot move loses; under **misère** play that player
//! wins (the last mover loses). A position's misère Grundy value (Conway's g⁻) is 1 when it has
//! no option and the mex of its options' misère values otherwise; it is 0 exactly on the misère
//! P-positions. [`Play::value`] is the one place the convention enters a per-position fill:
//! every engine and the reference fill compute the mex of the options' values and hand it here.
//!
//! This per-position recursion is exact only when every option is one position. A move that
//! leaves a sum (a split, a take-and-break that leaves two heaps) needs the misère value of the
//! sum, which the components' misère values do not determine (`Game::options_are_sums`);
//! such heap games are computed by the exact search over sums (grundy-compute's `misere`, the
//! engine `search`).
//!

use crate::nimber::Nimber;
use std::fmt;
use std::str::FromStr;

/// Who wins when no move is left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Play {
    /// The last player to move wins.
    #[default]
    Normal,
    /// The last player to move loses.
    Misere,
}

impl Play {
    /// The value of a position whose options' values have mex `mex`; `terminal` says whether
    /// the position has no option at all (asked only when `mex` is 0, the one case in which the
    /// conventions can differ: a terminal position has mex 0).
    #[inline]
    pub fn value(self, mex: Nimber, terminal: impl FnOnce() -> bool) -> Nimber {
        match self {
            Play::Normal => mex,
            Play::Misere if mex.0 == 0 && terminal() => Nimber(1),
            Play::Misere => mex,
        }
    }

    /// Whether a position without an option is a P-position (the player to move loses): under
    /// normal play it is, under misère play it is not.
    pub fn terminal_is_p(self) -> bool {
        self.value(Nimber(0), || true) == Nimber(0)
    }

    /// The tag of a table computed under this convention, `None` under normal play (the
    /// default, which records leave out).
    pub fn tag(self) -> Option<&'static str> {
        (self != Play::default()).then(|| self.name())
    }

    /// The convention as prose says it: `normal` or `misère`.
    pub fn word(self) -> &'static str {
        match self {
            Play::Normal => "normal",
            Play::Misere => "misère",
        }
    }

    /// The convention as an adjective before a noun: nothing under normal play (the default),
    /// `misère ` (with its space) otherwise.
    pub fn adjective(self) -> &'static str {
        match self {
            Play::Normal => "",
            Play::Misere => "misère ",
        }
    }

    /// The name in a spec file and on the command line: `normal` or `misere`.
    pub fn name(self) -> &'static str {
        match self {
            Play::Normal => "normal",
            Play::Misere => "misere",
        }
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Play {
    type Err = String;

    fn from_str(text: &str) -> Result<Play, String> {
        match text {
            "normal" => Ok(Play::Normal),
            "misere" | "misère" => Ok(Play::Misere),
            _ => Err(format!("`{text}` is no play convention (normal or misere)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_terminal_positions_differ() {
        for mex in 0..4 {
            assert_eq!(Play::Normal.value(Nimber(mex), || true), Nimber(mex));
            assert_eq!(Play::Misere.value(Nimber(mex), || false), Nimber(mex));
        }
        assert_eq!(Play::Misere.value(Nimber(0), || true), Nimber(1));
        assert_eq!("misère".parse::<Play>(), Ok(Play::Misere));
        assert!("loopy".parse::<Play>().is_err());
    }
}
