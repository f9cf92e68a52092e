//! Generalized Sprague–Grundy values: the values of games that may go round in circles.
//!
//! In a game whose moves can return to an earlier position, optimal play may go on forever (a
//! draw). C. A. B. Smith (1966) extended the Sprague–Grundy function to such games, and
//! Fraenkel and Yesha studied it: every position gets either a finite value, which behaves
//! exactly as a nim-heap does in sums, or an infinite value ∞ carrying the set K of the finite
//! values among its options ([`LoopyValue`]). The outcome of any sum follows from its
//! components' values ([`LoopyValue::sum`]):
//!
//! - a sum of finite values is their XOR, as in normal play;
//! - a sum with exactly one ∞_K component and finite others of XOR x is ∞ with the set K ⊕ x;
//! - a sum with two ∞ components or more is ∞ with the empty set.
//!
//! A finite value is a P-position when it is 0 and an N-position otherwise; an ∞_K position is
//! an N-position when 0 is in K (a move to a P-position exists) and a draw otherwise.
//! (The rule is Smith's; the tests check it against a search of sums' game graphs.)

use std::fmt;

/// The number that stands for ∞ wherever a value is written as an integer: a CSV or Parquet
/// table's `g` (so that the column stays an integer column in pandas and polars, where `inf`
/// made it float) and `g` in a holds claim. The ∞ value itself goes beside it, written as its
/// `Display` writes it everywhere: `inf(0,3)`.
pub const INFINITE_G: i64 = -1;

/// A position's generalized Sprague–Grundy value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LoopyValue {
    /// A finite value: the position plays as the nim-heap of that size in every sum.
    Finite(u32),
    /// ∞ with K, the finite values among the position's options (sorted, without repeats).
    Infinite(Vec<u32>),
}

/// Who wins a position of a game that may not end, when both play their best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopyOutcome {
    /// The previous player wins: every move leads to an N-position.
    P,
    /// The next player wins: some move leads to a P-position.
    N,
    /// Neither can force a win: play goes on forever.
    D,
}

impl LoopyOutcome {
    /// The outcome's letter: `P`, `N` or `D`.
    pub fn letter(self) -> char {
        match self {
            LoopyOutcome::P => 'P',
            LoopyOutcome::N => 'N',
            LoopyOutcome::D => 'D',
        }
    }
}

impl LoopyValue {
    /// Whether the value is finite.
    pub fn is_finite(&self) -> bool {
        matches!(self, LoopyValue::Finite(_))
    }

    /// The value as an integer: a finite value itself, ∞ as [`INFINITE_G`].
    pub fn g(&self) -> i64 {
        match self {
            LoopyValue::Finite(v) => i64::from(*v),
            LoopyValue::Infinite(_) => INFINITE_G,
        }
    }

    /// The set K of an ∞ value as it is written inside `inf(…)`: its values in order, separated
    /// by commas (`0,3`); empty for a finite value and for ∞ with K empty.
    pub fn k_text(&self) -> String {
        match self {
            LoopyValue::Finite(_) => String::new(),
            LoopyValue::Infinite(k) => k.iter().map(u32::to_string).collect::<Vec<_>>().join(","),
        }
    }

    /// The position's outcome on its own.
    pub fn outcome(&self) -> LoopyOutcome {
        match self {
            LoopyValue::Finite(0) => LoopyOutcome::P,
            LoopyValue::Finite(_) => LoopyOutcome::N,
            LoopyValue::Infinite(k) if k.contains(&0) => LoopyOutcome::N,
            LoopyValue::Infinite(_) => LoopyOutcome::D,
        }
    }

    /// The value of the sum of positions with these values (Smith's rule, in the module's doc).
    pub fn sum<'a>(parts: impl IntoIterator<Item = &'a LoopyValue>) -> LoopyValue {
        let mut xor = 0;
        let mut infinite: Option<&[u32]> = None;
        let mut infinities = 0;
        for part in parts {
            match part {
                LoopyValue::Finite(v) => xor ^= v,
                LoopyValue::Infinite(k) => {
                    infinities += 1;
                    infinite = Some(k);
                }
            }
        }
        match (infinities, infinite) {
            (0, _) => LoopyValue::Finite(xor),
            (1, Some(k)) => {
                let mut shifted: Vec<u32> = k.iter().map(|v| v ^ xor).collect();
                shifted.sort_unstable();
                LoopyValue::Infinite(shifted)
            }
            _ => LoopyValue::Infinite(Vec::new()),
        }
    }
}

impl fmt::Display for LoopyValue {
    /// `3` for a finite value, `inf(0,2)` for ∞ with K = {0, 2}, `inf()` for ∞ with K empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoopyValue::Finite(v) => write!(f, "{v}"),
            LoopyValue::Infinite(_) => write!(f, "inf({})", self.k_text()),
        }
    }
}

/// What a position of a sum is worth: its Grundy value (`u32`) in games that end, its
/// generalized Sprague–Grundy value ([`LoopyValue`]) when a component may go round.
pub trait SumValue: Clone + Ord + fmt::Display {
    /// The value of the sum of positions with these values.
    fn sum(parts: impl IntoIterator<Item = Self>) -> Self;
    /// Who wins a position (or a sum) of this value: P, N, or D (a draw) for ∞ without 0 in K.
    fn outcome(&self) -> LoopyOutcome;
    /// As JSON: a number, or `"inf(0,2)"` for ∞ with K = {0, 2}.
    fn json(&self) -> serde_json::Value;
    /// A finite value (a Grundy value, from a game that ends).
    fn finite(value: u32) -> Self;
    /// A generalized value, when this kind holds it (a Grundy value holds no ∞).
    fn from_loopy(value: LoopyValue) -> Option<Self>;
    /// As a generalized value.
    fn to_loopy(&self) -> LoopyValue;
}

impl SumValue for u32 {
    fn sum(parts: impl IntoIterator<Item = u32>) -> u32 {
        parts.into_iter().fold(0, |sum, v| sum ^ v)
    }

    fn outcome(&self) -> LoopyOutcome {
        if *self == 0 {
            LoopyOutcome::P
        } else {
            LoopyOutcome::N
        }
    }

    fn json(&self) -> serde_json::Value {
        (*self).into()
    }

    fn finite(value: u32) -> u32 {
        value
    }

    fn to_loopy(&self) -> LoopyValue {
        LoopyValue::Finite(*self)
    }

    fn from_loopy(value: LoopyValue) -> Option<u32> {
        match value {
            LoopyValue::Finite(v) => Some(v),
            LoopyValue::Infinite(_) => None,
        }
    }
}

impl SumValue for LoopyValue {
    fn sum(parts: impl IntoIterator<Item = LoopyValue>) -> LoopyValue {
        let parts: Vec<LoopyValue> = parts.into_iter().collect();
        LoopyValue::sum(&parts)
    }

    fn outcome(&self) -> LoopyOutcome {
        LoopyValue::outcome(self)
    }

    fn json(&self) -> serde_json::Value {
        match self {
            LoopyValue::Finite(v) => (*v).into(),
            infinite => infinite.to_string().into(),
        }
    }

    fn finite(value: u32) -> LoopyValue {
        LoopyValue::Finite(value)
    }

    fn from_loopy(value: LoopyValue) -> Option<LoopyValue> {
        Some(value)
    }

    fn to_loopy(&self) -> LoopyValue {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_follow_smiths_rule() {
        use LoopyValue::{Finite, Infinite};
        assert_eq!(LoopyValue::sum(&[Finite(3), Finite(5)]), Finite(6));
        assert_eq!(LoopyValue::sum(&[Finite(1), Infinite(vec![0, 3])]), Infinite(vec![1, 2]));
        assert_eq!(LoopyValue::sum(&[Infinite(vec![0]), Infinite(vec![0])]), Infinite(vec![]));
        assert_eq!(Infinite(vec![1, 2]).outcome(), LoopyOutcome::D);
        assert_eq!(Infinite(vec![0, 2]).outcome(), LoopyOutcome::N);
        assert_eq!(Finite(0).outcome(), LoopyOutcome::P);
        assert_eq!(Infinite(vec![0, 2]).to_string(), "inf(0,2)");
        assert_eq!(LoopyValue::sum(&[]), Finite(0));
    }
}
