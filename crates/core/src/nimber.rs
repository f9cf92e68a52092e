//! The [`Nimber`] newtype: a Grundy value.

use std::fmt;
use std::ops::{BitXor, BitXorAssign};

/// A Grundy value (nim-value). Sums of games add their nimbers with XOR. Tables do not store
/// nimbers but the narrowest unsigned cells that hold them (`grundy_core::table::Cell`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Nimber(pub u32);

impl Nimber {
    /// The value of a position with no moves: the player to move loses.
    pub const ZERO: Nimber = Nimber(0);

    /// The nimber as a plain integer.
    pub const fn value(self) -> u32 {
        self.0
    }

    /// `true` for a P-position (value 0: the player to move loses).
    pub const fn is_p(self) -> bool {
        self.0 == 0
    }
}

impl BitXor for Nimber {
    type Output = Nimber;
    fn bitxor(self, rhs: Nimber) -> Nimber {
        Nimber(self.0 ^ rhs.0)
    }
}

impl BitXorAssign for Nimber {
    fn bitxor_assign(&mut self, rhs: Nimber) {
        self.0 ^= rhs.0;
    }
}

impl fmt::Display for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
