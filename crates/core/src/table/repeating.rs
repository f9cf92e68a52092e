//! A sequence that repeats after a preperiod: a heap game's values once a theorem has proved
//! their period. Its sums and counts come from the repeating part, so a sequence of 10^9 values
//! is summed in the time of its first period.

use super::{Cell, TableStats};

/// `len` values: `head[i]` for i below `preperiod + period`, then the last `period` values of
/// `head` over and over: value i is `head[preperiod + (i − preperiod) % period]`.
#[derive(Clone, Copy, Debug)]
pub struct Repeating<'a> {
    head: &'a [u32],
    preperiod: usize,
    period: usize,
    len: u64,
}

impl<'a> Repeating<'a> {
    /// The sequence of `len` values that `head` starts and whose last `period` values repeat.
    ///
    /// # Panics
    /// If `period` is 0 or `head` is not `preperiod + period` values long.
    pub fn new(head: &'a [u32], preperiod: usize, period: usize, len: u64) -> Repeating<'a> {
        assert!(
            period > 0 && head.len() == preperiod + period,
            "a head of one preperiod and period"
        );
        Repeating { head, preperiod, period, len }
    }

    /// The number of values.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Value `i`.
    ///
    /// # Panics
    /// If `i` is not below [`Repeating::len`].
    pub fn value(&self, i: u64) -> u32 {
        assert!(i < self.len, "value {i} of {}", self.len);
        self.head[self.head_index(i)]
    }

    fn head_index(&self, i: u64) -> usize {
        let (e, p) = (self.preperiod as u64, self.period as u64);
        if i < e + p {
            i as usize
        } else {
            (e + (i - e) % p) as usize
        }
    }

    /// How often each value occurs at even and at odd indices: entry `(v << 1) | (i & 1)` counts
    /// the indices i of value v (the sparse-space method's extended values). Its length is a
    /// power of two above every entry. Costs the preperiod plus two periods, whatever the length.
    pub fn extended_histogram(&self) -> Vec<u64> {
        let max = self.head.iter().copied().max().unwrap_or(0) as usize;
        let mut histogram = vec![0u64; ((max << 1) | 1).saturating_add(1).next_power_of_two()];
        let mut count = |i: u64, times: u64| {
            if times > 0 {
                histogram[((self.value(i) as usize) << 1) | (i & 1) as usize] += times;
            }
        };
        let e = (self.preperiod as u64).min(self.len);
        for i in 0..e {
            count(i, 1);
        }
        // Past the preperiod, index parity and value together repeat every two periods.
        let cycle = 2 * self.period as u64;
        let rest = self.len - e;
        let (full, part) = (rest / cycle, rest % cycle);
        for j in 0..cycle.min(rest) {
            count(e + j, full + u64::from(j < part));
        }
        histogram
    }

    /// The sums of the values, from [`Repeating::extended_histogram`].
    pub fn stats(&self) -> TableStats {
        let histogram = self.extended_histogram();
        let mut stats = TableStats { cells: self.len, ..TableStats::EMPTY };
        for (extended, &count) in histogram.iter().enumerate().filter(|(_, &c)| c > 0) {
            let value = (extended >> 1) as u32;
            stats.sum += u64::from(value) * count;
            stats.max = stats.max.max(value);
            stats.p_positions += if value == 0 { count } else { 0 };
        }
        stats
    }

    /// The first index whose value is `value`, if any.
    pub fn first(&self, value: u32) -> Option<u64> {
        let searched = (self.head.len() as u64).min(self.len) as usize;
        self.head[..searched].iter().position(|&v| v == value).map(|i| i as u64)
    }

    /// The last index i for which `wanted(value i, i mod 2)` holds, if any: the values past the
    /// preperiod are searched back two periods at most (index parity and value together repeat
    /// every two periods), then the preperiod.
    pub fn last_where(&self, wanted: impl Fn(u32, usize) -> bool) -> Option<u64> {
        let e = (self.preperiod as u64).min(self.len);
        let repeating = e..self.len;
        let searched =
            repeating.end - (repeating.end - repeating.start).min(2 * self.period as u64);
        (searched..self.len)
            .rev()
            .chain((0..e).rev())
            .find(|&i| wanted(self.value(i), (i & 1) as usize))
    }

    /// How many indices i from `from` on have `wanted(value i, i mod 2)`: counted from
    /// [`Repeating::extended_histogram`], less the indices before `from`.
    pub fn count_where(&self, from: u64, wanted: impl Fn(u32, usize) -> bool) -> u64 {
        let histogram = self.extended_histogram();
        let all: u64 = histogram
            .iter()
            .enumerate()
            .filter(|&(extended, &count)| count > 0 && wanted((extended >> 1) as u32, extended & 1))
            .map(|(_, &count)| count)
            .sum();
        let before = (0..from.min(self.len))
            .filter(|&i| wanted(self.value(i), (i & 1) as usize))
            .count() as u64;
        all - before
    }

    /// Writes values `from..from + cells.len()` into `cells`, a period at a time.
    ///
    /// # Panics
    /// If a value does not fit in `C`, or the values run past [`Repeating::len`].
    pub fn write<C: Cell>(&self, from: u64, cells: &mut [C]) {
        assert!(from + cells.len() as u64 <= self.len, "values past the end");
        let head: Vec<C> = self
            .head
            .iter()
            .map(|&v| C::from_nimber(crate::nimber::Nimber(v)).expect("every value fits the cells"))
            .collect();
        let (e, p) = (self.preperiod, self.period);
        let mut i = from;
        let mut rest = cells;
        while !rest.is_empty() {
            let at = self.head_index(i);
            // From head index `at`, the head runs on to its end before it repeats.
            let run = (head.len() - at).min(rest.len());
            let (now, later) = rest.split_at_mut(run);
            now.copy_from_slice(&head[at..at + run]);
            rest = later;
            i += run as u64;
            debug_assert!(rest.is_empty() || self.head_index(i) == e, "{p}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every figure equals the same figure of the values written out one by one.
        #[test]
        fn figures_equal_those_of_the_values_written_out(
            head in proptest::collection::vec(0u32..6, 1..12),
            preperiod_share in 0usize..12,
            len in 0u64..200,
            from in 0u64..200,
        ) {
            let preperiod = preperiod_share % head.len();
            let period = head.len() - preperiod;
            let seq = Repeating::new(&head, preperiod, period, len);
            let values: Vec<u32> = (0..len).map(|i| seq.value(i)).collect();
            for (i, &v) in values.iter().enumerate() {
                let expected = if i < head.len() { head[i] } else { values[i - period] };
                prop_assert_eq!(v, expected);
            }
            prop_assert_eq!(seq.stats(), TableStats::of(&values));
            let mut histogram = vec![0u64; seq.extended_histogram().len()];
            for (i, &v) in values.iter().enumerate() {
                histogram[((v as usize) << 1) | (i & 1)] += 1;
            }
            prop_assert_eq!(seq.extended_histogram(), histogram);
            let wanted = |v: u32, parity: usize| (v as usize + parity).is_multiple_of(3);
            let last = (0..len).rev().find(|&i| wanted(values[i as usize], (i % 2) as usize));
            prop_assert_eq!(seq.last_where(wanted), last);
            let odd_twos = |v: u32, parity: usize| v == 2 && parity == 1;
            let counted = (from.min(len)..len)
                .filter(|&i| odd_twos(values[i as usize], (i % 2) as usize))
                .count();
            prop_assert_eq!(seq.count_where(from, odd_twos), counted as u64);
            for value in 0..6 {
                prop_assert_eq!(seq.first(value), values.iter().position(|&v| v == value).map(|i| i as u64));
            }
            let from = from.min(len);
            let mut written = vec![0u16; (len - from) as usize];
            seq.write(from, &mut written);
            prop_assert!(written.iter().zip(&values[from as usize..]).all(|(&w, &v)| u32::from(w) == v));
        }
    }

    /// 10^12 values are summed from their period.
    #[test]
    fn a_long_sequence_is_summed_from_its_period() {
        let head = [0, 1, 1, 2, 0, 3];
        let seq = Repeating::new(&head, 2, 4, 1_000_000_000_000);
        let stats = seq.stats();
        // Two values, then 999_999_999_998 = 4·249_999_999_999 + 2 from the period 1, 2, 0, 3.
        let periods = 249_999_999_999u64;
        assert_eq!(stats.sum, 1 + periods * 6 + 3);
        // Value 0 once in the preperiod and once a period.
        assert_eq!(stats.p_positions, 1 + periods);
        assert_eq!((stats.max, stats.cells), (3, 1_000_000_000_000));
        assert_eq!(seq.last_where(|v, _| v == 3), Some(1_000_000_000_000 - 3));
    }
}
