//! Periodicity of sequences: period, saltus and preperiod.
//!
//! A sequence x(0), x(1), …, x(L−1) has period p, saltus s and preperiod e when
//! x(i + p) = x(i) + s for every i ≥ e with i + p < L. We report the smallest p for which some e
//! works with at least three full periods after the preperiod (e + 3p ≤ L) and e ≤ L / 2, and for
//! that p the smallest e.
//!
//! # Cost
//! Linear in L. A saltus period of x from e on is a plain period of the differences
//! d(i) = x(i + 1) − x(i) from e on, and the smallest period of every suffix of d comes from
//! the prefix function (the border array) of d reversed: a suffix of length m whose longest
//! proper border is b has smallest period m − b. The smallest period p allowed for some e is the
//! smallest of those periods over the e allowed, and for that p the smallest e is found by
//! scanning the differences x(i + p) − x(i) back from the end. So periods of 10^7 and more are
//! found in one pass over the sequence (plus the border array: four bytes per value).

use serde::Serialize;

/// A period found in a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Period {
    /// The period p ≥ 1.
    pub period: usize,
    /// The saltus s: x(i + p) − x(i) in the periodic part (0 for plain periodicity).
    pub saltus: i64,
    /// The preperiod e: the number of terms before the periodic part.
    pub preperiod: usize,
}

/// The smallest period (and for it the smallest preperiod) of `values`, under the three-period
/// rule; `None` when no period up to `values.len() / 3` qualifies.
///
/// Most sequences are settled by the differences of their last half alone (two bytes of border
/// array per value at most, see `window_period`). The rest (a smallest period of the last half
/// between about a sixth and a third of the length) take the border array of all the
/// differences.
pub fn find_period<T: Copy + Into<i64>>(values: &[T]) -> Option<Period> {
    let len = values.len();
    if len < 3 {
        return None;
    }
    match window_period(values, SHORT_WINDOW) {
        Window::Periodic(period) => Some(period),
        Window::None => None,
        Window::Undecided => find_period_in_full(values),
    }
}

/// The differences [`window_period`] reads first: periods up to half of them are found in a
/// quarter of a megabyte of border array.
const SHORT_WINDOW: usize = 1 << 16;

/// What the last half of a sequence says of its period.
enum Window {
    /// The period is this one.
    Periodic(Period),
    /// No period qualifies.
    None,
    /// The whole sequence must be searched.
    Undecided,
}

/// The differences of the last half of `values`: every preperiod allowed (e ≤ L / 2) leaves them
/// in the periodic part, so every period allowed is a period of them, and their smallest period
/// p1 (from their own border array) bounds it from below. If p1 > L / 3, no period qualifies.
/// If 2·p1 is at most their length w, then for any preperiod e whose suffix has a smallest
/// period q with q + p1 ≤ w, p1 is a period of that suffix too (reduce every index mod q; both
/// periods hold below w), so q = p1: the suffixes from the smallest e at which p1 holds on have
/// period p1 and all longer ones a smallest period above w − p1. So the answer is p1 with that e
/// when the three-period rule allows it, none when w − p1 ≥ L / 3 (no period that long is
/// allowed), and undecided otherwise.
fn window_period<T: Copy + Into<i64>>(values: &[T], short_window: usize) -> Window {
    let len = values.len();
    let m = len - 1;
    let w = m - (len / 2).min(m - 1);
    // Any shorter window of the last differences is in every allowed suffix as well, and the
    // argument for p1 holds in it: a short one settles a periodic sequence with a short period
    // in little memory (the last round of a proof search, say).
    let short = w.min(short_window);
    if short < w {
        if let Some(p1) = smallest_period_of_last(values, short).filter(|&p| 2 * p <= short) {
            if let Some((e, s)) = preperiod_for(values, p1) {
                return Window::Periodic(Period { period: p1, saltus: s, preperiod: e });
            }
            if tail_too_short(values, p1, w) {
                return Window::None;
            }
        }
    }
    let Some(p1) = smallest_period_of_last(values, w) else { return Window::None };
    if 3 * p1 > len {
        return Window::None;
    }
    if 2 * p1 > w {
        return Window::Undecided;
    }
    match preperiod_for(values, p1) {
        Some((e, s)) => Window::Periodic(Period { period: p1, saltus: s, preperiod: e }),
        None if 3 * (w - p1) >= len => Window::None,
        None => Window::Undecided,
    }
}

/// Whether the differences have period `p1` (the smallest period of a short window at their
/// end, of at least 2·p1 of them) only over a tail too short for any period of the last `w` to be
/// allowed: what a proof search's rounds before the preperiod's end see (0.354 at 2^24 values),
/// settled without the window's border array.
///
/// Say the tail with period p1 has T < w differences and starts at t, so d(t − 1) ≠ d(t − 1 + p1).
/// A period q of the last w with q + p1 − gcd(p1, q) ≤ T is one of the tail, so by Fine and Wilf
/// gcd(p1, q) is a period of the tail and of the short window in it, hence p1 divides q; but then
/// d(t − 1 + q) = d(t − 1 + p1) ≠ d(t − 1), both inside the last w. So every period of the last w
/// exceeds T − p1, and none is allowed (3·p ≤ L) when 3·(T − p1 + 1) > L.
fn tail_too_short<T: Copy + Into<i64>>(values: &[T], p1: usize, w: usize) -> bool {
    let len = values.len();
    if p1 >= len - 1 {
        return false;
    }
    let (e, _) = periodic_from(values, p1);
    // The tail's differences: d(e), …, d(len − 2).
    let tail = len - 1 - e;
    tail < w && 3 * (tail - p1 + 1) > len
}

/// The smallest period of the last `w` differences of `values` (w ≥ 1), from their border array:
/// four bytes per difference.
fn smallest_period_of_last<T: Copy + Into<i64>>(values: &[T], w: usize) -> Option<usize> {
    let border = reversed_difference_borders(values, w);
    border.last().map(|&b| w - b as usize)
}

/// The border array (prefix function) of the first `count` differences of `values` read from
/// the end: r(k) = d(len − 2 − k), with d(i) = x(i + 1) − x(i).
fn reversed_difference_borders<T: Copy + Into<i64>>(values: &[T], count: usize) -> Vec<u32> {
    let m = values.len() - 1;
    let r = |k: usize| values[m - k].into() - values[m - 1 - k].into();
    let mut border = vec![0u32; count];
    for k in 1..count {
        let mut j = border[k - 1] as usize;
        while j > 0 && r(k) != r(j) {
            j = border[j - 1] as usize;
        }
        if r(k) == r(j) {
            j += 1;
        }
        border[k] = j as u32;
    }
    border
}

/// [`find_period`] from the border array of all the differences.
fn find_period_in_full<T: Copy + Into<i64>>(values: &[T]) -> Option<Period> {
    let len = values.len();
    if len < 3 {
        return None;
    }
    let m = len - 1;
    let border = reversed_difference_borders(values, m);
    // The suffix of x from e on has its differences' suffix of length m − e, of smallest period
    // (m − e) − border(m − e − 1); a period p is allowed with e when e ≤ len / 2 and
    // e + 3p ≤ len.
    let best = (0..=(len / 2).min(m - 1))
        .map(|e| (e, (m - e) - border[m - e - 1] as usize))
        .filter(|&(e, p)| e + 3 * p <= len)
        .map(|(_, p)| p)
        .min()?;
    preperiod_for(values, best).map(|(e, s)| Period { period: best, saltus: s, preperiod: e })
}

/// A period the end of `values` shows although no preperiod allowed by the three-period rule
/// reaches it yet: the smallest period p of the last quarter's differences (then of the last
/// eighth's, and so on down to 64) when it is short (at most half of them), with the smallest
/// preperiod from which it holds, however long. What a search for a proved period can aim at
/// before [`find_period`] sees the period; a guess, not a finding.
pub fn tail_period<T: Copy + Into<i64>>(values: &[T]) -> Option<Period> {
    let len = values.len();
    let mut w = len / 4;
    while w >= 64 {
        if let Some(p) = smallest_period_of_last(values, w).filter(|&p| 2 * p <= w) {
            let (e, saltus) = periodic_from(values, p);
            return Some(Period { period: p, saltus, preperiod: e });
        }
        w /= 2;
    }
    None
}

/// [`find_period`], kept only when the first three quarters of `values` show the same period,
/// saltus and preperiod: for a line of a 2-D table, whose length is the table's and not the
/// sequence's choice. A period that is there only because the line is short (a four-cell diagonal
/// `5, 0, 0, 0`), or whose start moves with the line's length, is not reported.
pub fn find_lasting_period<T: Copy + Into<i64>>(values: &[T]) -> Option<Period> {
    let found = find_period(values)?;
    (find_period(&values[..values.len() - values.len() / 4]) == Some(found)).then_some(found)
}

/// The shortest line on which [`find_lasting_period`] reports `period`: the three-period rule
/// (preperiod at most half the length, then three periods) must hold in the line's first three
/// quarters. For a guess ([`tail_period`]) it says how long a line would show that law.
pub fn lasting_length(period: Period) -> usize {
    let needed = (2 * period.preperiod).max(period.preperiod + 3 * period.period);
    // len − ⌊len / 4⌋ ≥ needed from about 4·needed / 3 on: start just below, step up.
    let mut len = (needed + needed / 3).saturating_sub(2);
    while len - len / 4 < needed {
        len += 1;
    }
    len
}

/// The smallest preperiod and the saltus for period `p`, if they satisfy the three-period rule.
pub fn preperiod_for<T: Copy + Into<i64>>(values: &[T], p: usize) -> Option<(usize, i64)> {
    let len = values.len();
    if p == 0 || 3 * p > len {
        return None;
    }
    // The largest preperiod allowed for this p.
    let limit = (len / 2).min(len - 3 * p);
    let (e, saltus) = periodic_from(values, p);
    (e <= limit).then_some((e, saltus))
}

/// The smallest e from which x(i + p) − x(i) is the same for every i (and that saltus), with no
/// rule on how many periods follow. `p` must be below the length.
fn periodic_from<T: Copy + Into<i64>>(values: &[T], p: usize) -> (usize, i64) {
    let len = values.len();
    let diff = |i: usize| values[i + p].into() - values[i].into();
    let saltus = diff(len - p - 1);
    let mut e = len - p - 1;
    while e > 0 && diff(e - 1) == saltus {
        e -= 1;
    }
    (e, saltus)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The length [`lasting_length`] names is the shortest on which the period is reported.
    #[test]
    fn a_lasting_period_shows_first_at_its_lasting_length() {
        let line = |len: usize| -> Vec<i64> {
            (0..len as i64)
                .map(|n| if n < 37 { 1000 + n * n } else { n / 5 * 2 + n % 5 % 2 })
                .collect()
        };
        let found = find_lasting_period(&line(400)).unwrap();
        let len = lasting_length(found);
        assert_eq!(find_lasting_period(&line(len)), Some(found));
        assert_ne!(find_lasting_period(&line(len - 1)), Some(found));
    }

    /// The definition, candidate by candidate: the oracle for the linear search.
    fn find_period_by_candidates(values: &[i64]) -> Option<Period> {
        (1..=values.len() / 3).find_map(|p| {
            preperiod_for(values, p).map(|(e, s)| Period { period: p, saltus: s, preperiod: e })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Random heads followed by repeated (and arithmetic) blocks, and plain noise.
        #[test]
        fn the_linear_search_finds_what_the_definition_says(
            head in prop::collection::vec(0i64..4, 0..30),
            block in prop::collection::vec(0i64..4, 1..8),
            repeats in 0usize..12,
            saltus in 0i64..3,
            tail in prop::collection::vec(0i64..3, 0..3),
        ) {
            let mut values = head.clone();
            for r in 0..repeats {
                values.extend(block.iter().map(|&v| v + saltus * r as i64));
            }
            values.extend(&tail);
            prop_assert_eq!(find_period(&values), find_period_by_candidates(&values), "{:?}", values);
            prop_assert_eq!(find_period_in_full(&values), find_period_by_candidates(&values), "{:?}", values);
        }

        /// Sequences whose period starts late or is long against their length: the cases where
        /// the last half alone decides, and the ones it leaves to the full search.
        #[test]
        fn the_last_half_decides_as_the_full_search_would(
            head in prop::collection::vec(0i64..3, 0..60),
            block in prop::collection::vec(0i64..3, 1..25),
            len in 3usize..120,
        ) {
            let mut values = head.clone();
            while values.len() < len {
                values.extend(&block);
            }
            values.truncate(len.max(head.len()));
            let expected = find_period_by_candidates(&values);
            prop_assert_eq!(find_period(&values), expected, "{:?}", values);
            // The short window first, as long sequences read it.
            for short in [4, 9, 16] {
                let found = match window_period(&values, short) {
                    Window::Periodic(period) => Some(period),
                    Window::None => None,
                    Window::Undecided => find_period_in_full(&values),
                };
                prop_assert_eq!(found, expected, "{:?} {}", values, short);
            }
            // A tail period holds from its preperiod on, whatever the three-period rule says.
            if let Some(tail) = tail_period(&values) {
                for i in tail.preperiod..values.len() - tail.period {
                    prop_assert_eq!(values[i + tail.period] - values[i], tail.saltus);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// A short period that starts late (past half the values, or near it): the short window
        /// sees it, and whether a period is allowed is the definition's answer.
        #[test]
        fn late_short_periods_are_settled_as_the_definition_says(
            head in prop::collection::vec(0i64..4, 20..160),
            block in prop::collection::vec(0i64..3, 1..5),
            tail in 8usize..160,
            short in 4usize..24,
        ) {
            let mut values = head.clone();
            while values.len() < head.len() + tail {
                values.extend(&block);
            }
            values.truncate(head.len() + tail);
            let found = match window_period(&values, short) {
                Window::Periodic(period) => Some(period),
                Window::None => None,
                Window::Undecided => find_period_in_full(&values),
            };
            prop_assert_eq!(found, find_period_by_candidates(&values), "{:?} {}", values, short);
        }
    }

    #[test]
    fn long_periods_are_found_in_one_pass() {
        // Period 200 000 after a preperiod of 50 000, in 700 000 values.
        let block: Vec<i64> = (0..200_000).map(|n| (n * 7919 % 13) as i64).collect();
        let mut values: Vec<i64> = (0..50_000).map(|n| 20 + n % 3).collect();
        while values.len() < 700_000 {
            values.extend_from_slice(&block);
        }
        values.truncate(700_000);
        let found = find_period(&values).unwrap();
        assert_eq!((found.period, found.saltus, found.preperiod), (200_000, 0, 50_000));
    }

    fn period(values: &[i64]) -> Option<(usize, i64, usize)> {
        find_period(values).map(|p| (p.period, p.saltus, p.preperiod))
    }

    #[test]
    fn plain_and_arithmetic_periods() {
        let repeated: Vec<i64> = (0..70).map(|n| [0, 0, 1, 1, 2, 2, 3][n % 7]).collect();
        assert_eq!(period(&repeated), Some((7, 0, 0)));
        let mut late = vec![5, 9, 9];
        late.extend((0..30).map(|n| (n % 3) as i64));
        assert_eq!(period(&late), Some((3, 0, 3)));
        let arithmetic: Vec<i64> = (0..40).map(|n| 2 * n + [0, 5][n as usize % 2]).collect();
        assert_eq!(period(&arithmetic), Some((2, 4, 0)));
        assert_eq!(period(&[1, 1, 1]), Some((1, 0, 0)));
    }

    #[test]
    fn three_periods_and_half_the_length_are_required() {
        // Period 4 is seen only twice; what remains is the arithmetic run 1, 2, 3, 4 at the end.
        assert_eq!(preperiod_for(&[1i64, 2, 3, 4, 1, 2, 3, 4], 4), None);
        assert_eq!(period(&[1, 2, 3, 4, 1, 2, 3, 4]), Some((1, 1, 4)));
        // A preperiod longer than half the sequence is refused.
        let mut long = vec![9i64; 1];
        long.extend((0..12).map(|n| n * 7 % 5));
        long.extend([0, 1, 0, 1, 0, 1]);
        assert_eq!(preperiod_for(&long, 2), None);
        assert_eq!(period(&[]), None);
        assert_eq!(period(&[3, 1]), None);
    }

    /// Issue 11, item 7: four-cell diagonals were listed as periodic.
    #[test]
    fn short_lines_and_moving_starts_are_not_lasting_periods() {
        assert_eq!(period(&[5, 0, 0, 0]), Some((1, 0, 1)));
        assert_eq!(find_lasting_period(&[5i64, 0, 0, 0]), None);
        let steady: Vec<i64> = (0..40).map(|n| if n < 3 { 9 } else { n % 2 }).collect();
        assert_eq!(find_lasting_period(&steady), find_period(&steady));
        assert!(find_lasting_period(&steady).is_some());
        // Constant after the last of a few sparse marks, the last one at about 40 % of the length.
        let sparse: Vec<i64> = (0..100).map(|n| i64::from([1, 4, 11, 40].contains(&n))).collect();
        assert_eq!(period(&sparse), Some((1, 0, 41)));
        assert_eq!(find_lasting_period(&sparse), None);
    }

    #[test]
    fn the_smallest_preperiod_is_reported() {
        let values = [7i64, 0, 1, 0, 1, 0, 1, 0, 1];
        assert_eq!(preperiod_for(&values, 2), Some((1, 0)));
        assert_eq!(period(&values), Some((2, 0, 1)));
    }
}
