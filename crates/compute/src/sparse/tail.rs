//! A periodic tail of the values known so far: the pairs of two heaps in it are read a period
//! at a time, not one by one.
//!
//! When the known values repeat with period p from `start` on (v(x) = v(x − p) for every x from
//! start + p to the last known heap), the value of a pair (a, s − a) with both pieces in the tail
//! depends only on a mod p and s mod p: it is R(a mod p) ⊕ R((s − a) mod p), R(r) being the
//! tail's value at residue r. So once a break's pieces run through a whole period of the tail,
//! its pairs there give exactly the set T(s mod p) = {R(r) ⊕ R(s − r) : r mod p}, made once per
//! tail. A heap then costs the pairs with a piece before `start` and a few words, not n pairs:
//! the search of a game whose values are periodic (Kayles, Dawson's Kayles, to any length with
//! `--search-all`) is linear, as the rare/common method is for games whose values are sparse.
//!
//! Nothing is assumed of heaps not yet computed: the tail is what the known values are, checked
//! as each heap is recorded, and dropped the moment a heap breaks it.

use grundy_core::Cell;

/// The longest period looked for.
const MOST_PERIOD: usize = 4096;
/// The most bytes the tail's sets may take.
const MOST_BYTES: usize = 8 << 20;

/// The known values' periodic tail and, per residue of s, the options of its pairs.
#[derive(Clone, Debug)]
pub(super) struct Tail {
    start: usize,
    period: usize,
    /// Words of a value set (values below 64 · words).
    words: usize,
    /// `period` sets of `words` words: the set of residue σ is the options of the pairs of
    /// pieces summing to s ≡ σ (mod period).
    sets: Vec<u64>,
}

impl Tail {
    /// The tail of `values` with the smallest period (up to 4096) seen at least three times at
    /// the end of `values`, whose values are all below `limit` (a power of two); `None` when
    /// there is none.
    pub(super) fn find<C: Cell>(values: &[C], limit: usize) -> Option<Tail> {
        let filled = values.len();
        let value = |x: usize| -> u32 { values[x].into() };
        let words = limit.div_ceil(64).max(1);
        for period in 1..=MOST_PERIOD.min(filled / 3) {
            if period * words * 8 > MOST_BYTES {
                break;
            }
            // The first heap from which every value equals the one a period before.
            let mut from = filled;
            while from > period && value(from - 1) == value(from - 1 - period) {
                from -= 1;
            }
            let start = from - period;
            if filled - start < 3 * period {
                continue;
            }
            let tail_value = |r: usize| value(start + (r + period - start % period) % period);
            let mut sets = vec![0u64; period * words];
            for sigma in 0..period {
                let set = &mut sets[sigma * words..(sigma + 1) * words];
                for r in 0..period {
                    let option =
                        (tail_value(r) ^ tail_value((sigma + period - r) % period)) as usize;
                    set[option / 64] |= 1 << (option % 64);
                }
            }
            return Some(Tail { start, period, words, sets });
        }
        None
    }

    /// The first heap of the tail.
    pub(super) fn start(&self) -> usize {
        self.start
    }

    /// Whether heap `n` of value `value` keeps the tail (`values` holds the heaps before it).
    pub(super) fn holds<C: Cell>(&self, values: &[C], n: usize, value: u32) -> bool {
        n < self.start + self.period || values[n - self.period].into() == value
    }

    /// The pieces a of a break's pairs (a, s − a), for a from `low` to `last`, whose pairs lie
    /// in the tail and run through a whole period: `(first, last)`, or `None` when they do not.
    pub(super) fn covered(&self, s: usize, low: usize, last: usize) -> Option<(usize, usize)> {
        let first = low.max(self.start);
        let to = last.min(s.checked_sub(self.start)?);
        (to >= first && to - first + 1 >= self.period).then_some((first, to))
    }

    /// Calls `add` with every option of the pairs of pieces summing to `s` that lie in the tail
    /// (when [`Tail::covered`] says they run through a whole period).
    pub(super) fn options(&self, s: usize, mut add: impl FnMut(u32)) {
        let sigma = s % self.period;
        for (w, &word) in self.sets[sigma * self.words..(sigma + 1) * self.words].iter().enumerate()
        {
            let mut bits = word;
            while bits != 0 {
                add((w * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tail_gives_the_options_of_every_pair_in_it() {
        // Period 5 from 7 on, after a preperiod of other values.
        let head = [9u8, 0, 3, 1, 6, 2, 8];
        let cycle = [4u8, 1, 0, 2, 7];
        let values: Vec<u8> = head.iter().chain(cycle.iter().cycle().take(40)).copied().collect();
        let tail = Tail::find(&values, 16).unwrap();
        assert_eq!((tail.start, tail.period), (7, 5));
        for s in 14..values.len() {
            let Some((first, last)) = tail.covered(s, 1, s / 2) else { continue };
            let mut found = Vec::new();
            tail.options(s, |v| found.push(v));
            let mut direct: Vec<u32> =
                (first..=last).map(|a| u32::from(values[a] ^ values[s - a])).collect();
            direct.sort_unstable();
            direct.dedup();
            assert_eq!(found, direct, "s = {s}");
        }
        assert!(tail.holds(&values, values.len(), u32::from(values[values.len() - 5])));
        assert!(!tail.holds(&values, values.len(), 9));
        // Too few periods seen: no tail.
        assert!(Tail::find(&values[..20], 16).is_none());
    }
}
