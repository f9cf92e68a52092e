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
    /// The value of a position without an option: 0 under normal play (the player to move
    /// there has lost), 1 under misère play (the other player made the last move and lost).
    ///
    /// This is the one source of that value. The empty position is such a position: a heap
    /// game's heap 0, and what a move that takes a whole heap leaves (an octal digit's bit 1),
    /// which is why [`Play::option_value`] answers it for an option that leaves nothing.
    #[inline]
    pub const fn terminal_value(self) -> Nimber {
        match self {
            Play::Normal => Nimber(0),
            Play::Misere => Nimber(1),
        }
    }

    /// The value of a position whose options' values have mex `mex`; `terminal` says whether
    /// the position has no option at all (asked only when `mex` is 0, the one case in which the
    /// conventions can differ: a terminal position has mex 0).
    #[inline]
    pub fn value(self, mex: Nimber, terminal: impl FnOnce() -> bool) -> Nimber {
        match self {
            Play::Normal => mex,
            Play::Misere if mex.0 == 0 && terminal() => self.terminal_value(),
            Play::Misere => mex,
        }
    }

    /// The value of an option that leaves the components whose values are `parts`, in a game
    /// whose values are local (`Game::values_are_local`). Under normal play it is their
    /// nim-sum (the Sprague–Grundy sum theorem). Under misère play such an option is one
    /// component or none: its value, or, when the move leaves nothing (it takes a whole heap),
    /// the [`Play::terminal_value`] of the empty position it leaves — not the empty nim-sum 0
    /// (issue 58: misère octal codes with bit 1 were wrong in every fill).
    ///
    /// # Panics
    /// Under misère play, for an option of two components or more: its misère value is not a
    /// function of theirs (the exact search over sums answers it).
    #[inline]
    pub fn option_value(self, parts: impl IntoIterator<Item = Nimber>) -> Nimber {
        let mut parts = parts.into_iter();
        let Some(first) = parts.next() else {
            return self.terminal_value();
        };
        match self {
            Play::Normal => parts.fold(first, |sum, part| sum ^ part),
            Play::Misere => {
                assert!(parts.next().is_none(), "a misère option of a sum has no local value");
                first
            }
        }
    }

    /// Whether a position without an option is a P-position (the player to move loses): under
    /// normal play it is, under misère play it is not.
    pub fn terminal_is_p(self) -> bool {
        self.terminal_value() == Nimber(0)
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
        assert_eq!(Play::Misere.value(Nimber(0), || true), Play::Misere.terminal_value());
        assert!(Play::Normal.terminal_is_p() && !Play::Misere.terminal_is_p());
        assert_eq!("misère".parse::<Play>(), Ok(Play::Misere));
        assert!("loopy".parse::<Play>().is_err());
    }

    #[test]
    fn an_option_that_leaves_nothing_is_worth_the_empty_position() {
        // Taking a whole heap leaves the empty position: 0 under normal play, 1 under misère.
        assert_eq!(Play::Normal.option_value([]), Nimber(0));
        assert_eq!(Play::Misere.option_value([]), Nimber(1));
        assert_eq!(Play::Misere.option_value([Nimber(0)]), Nimber(0));
        assert_eq!(Play::Normal.option_value([Nimber(3), Nimber(5)]), Nimber(6));
    }

    #[test]
    #[should_panic(expected = "no local value")]
    fn a_misere_option_of_a_sum_has_no_local_value() {
        Play::Misere.option_value([Nimber(1), Nimber(1)]);
    }
}
