//! The minimum excludant, in exactly one place.
//!
//! [`MexSet`] is the reusable form the engines use per cell (no allocation once it has grown to
//! the largest value seen); [`mex`] is the one-shot form for tests and single positions.

use crate::Nimber;

/// A set of nimbers kept as a bitset, for computing the mex of a cell's options.
///
/// Clearing costs only the words that were touched, so one set serves a whole table fill.
#[derive(Clone, Debug, Default)]
pub struct MexSet {
    words: Vec<u64>,
    /// Number of leading words that may hold set bits.
    used: usize,
}

impl MexSet {
    /// An empty set.
    pub fn new() -> MexSet {
        MexSet::default()
    }

    /// Adds `value` to the set.
    #[inline]
    pub fn insert(&mut self, value: Nimber) {
        let word = (value.0 / 64) as usize;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (value.0 % 64);
        self.used = self.used.max(word + 1);
    }

    /// The smallest nimber not in the set.
    #[inline]
    pub fn mex(&self) -> Nimber {
        for (index, &word) in self.words[..self.used].iter().enumerate() {
            if word != u64::MAX {
                return Nimber(index as u32 * 64 + word.trailing_ones());
            }
        }
        Nimber(self.used as u32 * 64)
    }

    /// Empties the set, keeping its storage.
    #[inline]
    pub fn clear(&mut self) {
        self.words[..self.used].fill(0);
        self.used = 0;
    }
}

/// The minimum excludant of `values`: the smallest nimber that is not among them.
///
/// ```
/// use grundy_core::{mex, Nimber};
/// assert_eq!(mex([0, 1, 3].map(Nimber)), Nimber(2));
/// assert_eq!(mex([]), Nimber(0));
/// ```
pub fn mex(values: impl IntoIterator<Item = Nimber>) -> Nimber {
    let mut set = MexSet::new();
    for value in values {
        set.insert(value);
    }
    set.mex()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn small_cases() {
        let check = |values: &[u32], expected: u32| {
            assert_eq!(mex(values.iter().copied().map(Nimber)), Nimber(expected), "{values:?}")
        };
        check(&[], 0);
        check(&[1, 2], 0);
        check(&[0], 1);
        check(&[0, 0, 2, 1], 3);
        check(&(0..64).collect::<Vec<_>>(), 64);
        check(&(0..200).filter(|&v| v != 130).collect::<Vec<_>>(), 130);
    }

    #[test]
    fn clear_forgets_everything() {
        let mut set = MexSet::new();
        for v in 0..500 {
            set.insert(Nimber(v));
        }
        set.clear();
        assert_eq!(set.mex(), Nimber(0));
        set.insert(Nimber(0));
        assert_eq!(set.mex(), Nimber(1));
    }

    proptest! {
        #[test]
        fn mex_is_absent_and_everything_below_is_present(values in prop::collection::vec(0u32..300, 0..200)) {
            let m = mex(values.iter().copied().map(Nimber)).0;
            prop_assert!(!values.contains(&m));
            for v in 0..m {
                prop_assert!(values.contains(&v));
            }
        }
    }
}
