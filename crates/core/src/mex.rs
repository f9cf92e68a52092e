//! The minimum excludant, in exactly one place.
//!
//! [`MexSet`] is the reusable form the engines use per cell (no allocation once it has grown to
//! the largest value seen); [`mex`] is the one-shot form for tests and single positions.

use crate::nimber::Nimber;

/// A set of nimbers kept as a bitset, for computing the mex of a cell's options.
///
/// Clearing costs only the words between the lowest and the highest touched, so one set serves
/// a whole table fill, even where a cell's options are all large (the columns of a thin Wythoff
/// board hold values near a million: clearing from word 0 made 30 × 10^6 quadratic).
#[derive(Clone, Debug, Default)]
pub struct MexSet {
    words: Vec<u64>,
    /// Words at and past this one hold no set bit.
    used: usize,
    /// Words below this one hold no set bit (meaningful while `used > 0`).
    first: usize,
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
        self.first = if self.used == 0 { word } else { self.first.min(word) };
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
        // Most cells' options are all below 64 (kept in a register word, see
        // `insert_with_low`), so nothing is stored: skip the call to `memset`, which costs more
        // than the rest of such a cell.
        if self.used > 0 {
            self.words[self.first..self.used].fill(0);
            self.used = 0;
        }
    }
}

impl MexSet {
    /// Adds `value`, keeping a value below 64 in `low` instead: a local variable of the caller's
    /// loop, so the common small values cost one register operation rather than a read-modify-
    /// write through memory. Read the result with [`MexSet::mex_with_low`].
    #[inline(always)]
    pub fn insert_with_low(&mut self, low: &mut u64, value: Nimber) {
        if value.0 < 64 {
            *low |= 1 << value.0;
        } else {
            self.insert(value);
        }
    }

    /// The mex of the set together with the small values in `low`.
    #[inline]
    pub fn mex_with_low(&self, low: u64) -> Nimber {
        let first = self.word(0) | low;
        if first != u64::MAX {
            return Nimber(first.trailing_ones());
        }
        (1..)
            .find_map(|index| {
                let word = self.word(index);
                (word != u64::MAX).then(|| Nimber(index as u32 * 64 + word.trailing_ones()))
            })
            .expect("a finite set misses some value")
    }

    /// Whether the set, together with the small values in `low`, is empty: the cell has no
    /// option (asked by misère play, see `Play::value`).
    #[inline]
    pub fn is_empty_with_low(&self, low: u64) -> bool {
        low == 0 && self.used == 0
    }

    /// The `index`-th word of the bitset (bit b is nimber 64 × index + b).
    #[inline]
    pub fn word(&self, index: usize) -> u64 {
        if index < self.used {
            self.words[index]
        } else {
            0
        }
    }
}

/// A set of nimbers that only grows, keeps its own mex, and forgets the all-ones prefix below
/// it: the values seen so far on one line of a table (a row, a column, a diagonal).
///
/// Its memory is the window between its mex and its largest member, not the largest member.
#[derive(Clone, Debug, Default)]
pub struct PrefixSet {
    /// Words below this index are all ones and are not stored.
    base: usize,
    words: Vec<u64>,
    mex: u32,
}

impl PrefixSet {
    /// Stored words that are all ones before the set drops them.
    const DROP_AFTER: usize = 32;

    /// An empty set.
    pub const fn new() -> PrefixSet {
        PrefixSet { base: 0, words: Vec::new(), mex: 0 }
    }

    /// The smallest nimber not in the set.
    #[inline]
    pub fn mex(&self) -> Nimber {
        Nimber(self.mex)
    }

    /// Whether the set has no member.
    pub fn is_empty(&self) -> bool {
        self.mex == 0 && self.words.iter().all(|&w| w == 0)
    }

    /// The `index`-th word of the bitset, as in [`MexSet::word`].
    #[inline]
    pub fn word(&self, index: usize) -> u64 {
        if index < self.base {
            u64::MAX
        } else {
            self.words.get(index - self.base).copied().unwrap_or(0)
        }
    }

    /// What the set stores, to save it: the index of its first stored word (every word below is
    /// all ones), the stored words and its mex. [`PrefixSet::from_parts`] rebuilds it.
    pub fn parts(&self) -> (usize, &[u64], Nimber) {
        (self.base, &self.words, Nimber(self.mex))
    }

    /// The set that [`PrefixSet::parts`] gave `base`, `words` and `mex` for, or `None` when they
    /// cannot come from one: `mex` is not the smallest value the words leave out.
    pub fn from_parts(base: usize, words: Vec<u64>, mex: Nimber) -> Option<PrefixSet> {
        let set = PrefixSet { base, words, mex: mex.0 };
        let word = (mex.0 / 64) as usize;
        let below = (1u64 << (mex.0 % 64)) - 1;
        let consistent = word >= base
            && (base..word).all(|w| set.word(w) == u64::MAX)
            && set.word(word) & below == below
            && set.word(word) & (1 << (mex.0 % 64)) == 0;
        consistent.then_some(set)
    }

    /// Adds every member of the set whose [`PrefixSet::parts`] are `base`, `words` and `mex` (as
    /// another process sent them), word by word, in place: merging the summaries of a line that
    /// two processes each saw part of costs its stored words, not its values, and allocates
    /// nothing unless the set grows.
    pub fn union_with_parts(
        &mut self,
        base: usize,
        words: impl IntoIterator<Item = u64>,
        mex: Nimber,
    ) {
        if base > self.base {
            // The other set holds every value below its base: so does the union.
            let full = (base - self.base).min(self.words.len());
            self.words.drain(..full);
            self.base = base;
        }
        for (k, word) in (base..).zip(words) {
            if k < self.base {
                continue;
            }
            let at = k - self.base;
            if at >= self.words.len() {
                self.grow_to(at + 1);
            }
            self.words[at] |= word;
        }
        // Both mexes are at least 64 times their own base, so this one is at least 64 · base.
        self.mex = self.mex.max(mex.0);
        self.advance_mex();
    }

    /// Stores `len` words, the new ones empty. The storage grows by an eighth at a time, not by
    /// doubling: a table keeps a set per column and diagonal, and Wythoff 65536²'s (a window of
    /// a hundred thousand values each) took 3.2 GB with doubling.
    fn grow_to(&mut self, len: usize) {
        let capacity = self.words.capacity();
        if len > capacity {
            let more = (len - self.words.len()).max(capacity / 8 + 4);
            self.words.reserve_exact(more);
        }
        self.words.resize(len, 0);
    }

    /// Moves the mex past the members at and above it, and drops stored words that became all
    /// ones.
    fn advance_mex(&mut self) {
        loop {
            let bit = self.mex % 64;
            let ones = (self.word((self.mex / 64) as usize) >> bit).trailing_ones();
            self.mex += ones;
            if bit + ones < 64 {
                break;
            }
        }
        let full = (self.mex / 64) as usize - self.base;
        if full >= Self::DROP_AFTER {
            self.words.drain(..full);
            self.base += full;
        }
    }

    /// Adds `value`.
    #[inline]
    pub fn insert(&mut self, value: Nimber) {
        let word = (value.0 / 64) as usize;
        if word < self.base {
            return;
        }
        let k = word - self.base;
        if k >= self.words.len() {
            self.grow_to(k + 1);
        }
        self.words[k] |= 1 << (value.0 % 64);
        if value.0 == self.mex {
            self.advance_mex();
        }
    }
}

/// The smallest nimber that is in none of `lines`, not in `local` and not in `low` (values below
/// 64, as kept by [`MexSet::insert_with_low`]): the mex of a cell whose options are the union of
/// several lines' values and some others.
///
/// The answer is at least every line's own mex, so the scan starts at the largest of them. Past
/// its first word, the scan ORs the stored words of the sets as slices, eight words at a time
/// (`first_open_word`): on a slide game such as Wythoff the answer lies a window of values
/// above where the scan starts, hundreds of words on a large table, and a word at a time through
/// [`PrefixSet::word`] (a bounds check per set and word) made Wythoff 16384² take 12.3 s, not
/// 7.5 s.
#[inline]
pub fn mex_of_union(local: &MexSet, low: u64, lines: &[&PrefixSet]) -> Nimber {
    let start = lines.iter().map(|line| line.mex).max().unwrap_or(0);
    let index = (start / 64) as usize;
    let below_start = (1u64 << (start % 64)) - 1;
    let own = local.word(index) | if index == 0 { low } else { 0 };
    let first = lines.iter().fold(own | below_start, |w, line| w | line.word(index));
    if first != u64::MAX {
        return Nimber(index as u32 * 64 + first.trailing_ones());
    }
    // Every line's base is at most `index` (a set's mex is at least 64 times its base), so from
    // `index + 1` on each contributes its stored words, then nothing.
    let next = index + 1;
    let mut parts: [&[u64]; 4] = [&[]; 4];
    let mut count = 0;
    for line in lines {
        let stored = &line.words[(next - line.base).min(line.words.len())..];
        if !stored.is_empty() {
            parts[count] = stored;
            count += 1;
        }
    }
    let stored = &local.words[next.min(local.used)..local.used];
    if !stored.is_empty() {
        parts[count] = stored;
        count += 1;
    }
    let (at, word) = first_open_word(&mut parts[..count]);
    Nimber(((next + at) * 64) as u32 + word.trailing_ones())
}

/// The first position at which the OR of `parts` (each read as followed by zeros) is not all
/// ones, and that OR.
///
/// While every part has words left, their OR is taken eight words at a time, a loop the
/// compiler turns into vector instructions; a part that runs out drops out. Compiled for AVX2 or
/// AVX-512 (chosen at run time) it was no faster than this baseline build on Wythoff 16384²
/// (7.55 s all three): the scan waits on memory, not on arithmetic.
fn first_open_word(parts: &mut [&[u64]]) -> (usize, u64) {
    first_open_word_with(parts)
}

#[inline(always)]
fn first_open_word_with(parts: &mut [&[u64]]) -> (usize, u64) {
    const LANES: usize = 8;
    let mut offset = 0;
    let mut count = parts.len();
    loop {
        let mut k = 0;
        while k < count {
            if parts[k].is_empty() {
                parts.swap(k, count - 1);
                count -= 1;
            } else {
                k += 1;
            }
        }
        let live = &parts[..count];
        let Some(common) = live.iter().map(|part| part.len()).min() else {
            return (offset, 0);
        };
        let chunked = common - common % LANES;
        let mut at = 0;
        while at < chunked {
            let mut acc = [0u64; LANES];
            for part in live {
                let chunk: &[u64; LANES] = part[at..at + LANES].try_into().expect("LANES words");
                for (a, w) in acc.iter_mut().zip(chunk) {
                    *a |= w;
                }
            }
            if acc.iter().any(|&w| w != u64::MAX) {
                let k = acc.iter().position(|&w| w != u64::MAX).expect("one is open");
                return (offset + at + k, acc[k]);
            }
            at += LANES;
        }
        for at in chunked..common {
            let word = live.iter().fold(0, |w, part| w | part[at]);
            if word != u64::MAX {
                return (offset + at, word);
            }
        }
        for part in parts[..count].iter_mut() {
            *part = &part[common..];
        }
        offset += common;
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
        /// A saved set rebuilds to the same set, and a wrong mex is refused.
        #[test]
        fn prefix_sets_rebuild_from_their_parts(values in prop::collection::vec(0u32..5000, 0..3000)) {
            let mut set = PrefixSet::new();
            for &v in &values {
                set.insert(Nimber(v));
            }
            let (base, words, mex) = set.parts();
            let again = PrefixSet::from_parts(base, words.to_vec(), mex).expect("consistent");
            prop_assert_eq!(again.mex(), set.mex());
            for index in 0..100 {
                prop_assert_eq!(again.word(index), set.word(index));
            }
            prop_assert!(PrefixSet::from_parts(base, words.to_vec(), Nimber(mex.0 + 1)).is_none());
            if mex.0 > 0 {
                prop_assert!(PrefixSet::from_parts(base, words.to_vec(), Nimber(mex.0 - 1)).is_none());
            }
        }

        #[test]
        fn union_mex_agrees_with_the_plain_mex(
            lines in prop::collection::vec(prop::collection::vec(0u32..400, 0..300), 0..4),
            local in prop::collection::vec(0u32..400, 0..50),
        ) {
            let mut sets: Vec<PrefixSet> = Vec::new();
            for line in &lines {
                let mut set = PrefixSet::new();
                for &v in line {
                    set.insert(Nimber(v));
                }
                prop_assert_eq!(set.mex(), mex(line.iter().copied().map(Nimber)));
                sets.push(set);
            }
            let mut local_set = MexSet::new();
            for &v in &local {
                local_set.insert(Nimber(v));
            }
            let refs: Vec<&PrefixSet> = sets.iter().collect();
            let all = lines.iter().flatten().chain(&local).copied().map(Nimber);
            prop_assert_eq!(mex_of_union(&local_set, 0, &refs), mex(all.clone()));
            // The same with the small values kept in a low word.
            let mut split = MexSet::new();
            let mut low = 0;
            for &v in &local {
                split.insert_with_low(&mut low, Nimber(v));
            }
            prop_assert_eq!(mex_of_union(&split, low, &refs), mex(all.clone()));
            prop_assert_eq!(split.mex_with_low(low), mex(local.iter().copied().map(Nimber)));
        }

        /// A union of two sets holds the members of both (with its mex), however each dropped
        /// its full prefix.
        #[test]
        fn prefix_set_unions_hold_both_sets(
            a in prop::collection::vec(0u32..9000, 0..4000),
            b in prop::collection::vec(0u32..9000, 0..4000),
            a_prefix in 0u32..5000,
        ) {
            let set_of = |values: &[u32], prefix: u32| {
                let mut set = PrefixSet::new();
                for v in (0..prefix).chain(values.iter().copied()) {
                    set.insert(Nimber(v));
                }
                set
            };
            let (mut union, other) = (set_of(&a, a_prefix), set_of(&b, 0));
            let (base, words, mex) = other.parts();
            union.union_with_parts(base, words.iter().copied(), mex);
            let all: Vec<u32> = (0..a_prefix).chain(a.iter().copied()).chain(b.iter().copied()).collect();
            let plain = set_of(&all, 0);
            prop_assert_eq!(union.mex(), plain.mex());
            for index in 0..150 {
                prop_assert_eq!(union.word(index), plain.word(index));
            }
        }

        /// The word scan finds the first open word of the parts' OR, whatever their lengths.
        #[test]
        fn open_word_scans_agree(
            parts in prop::collection::vec(
                prop::collection::vec(prop_oneof![Just(u64::MAX), any::<u64>()], 0..40),
                0..4,
            ),
            dense in 0usize..40,
        ) {
            let mut parts = parts;
            // Mostly full words, so that the scan has some way to go.
            for part in parts.iter_mut() {
                for w in part.iter_mut().take(dense) {
                    *w = u64::MAX;
                }
            }
            let plain = {
                let len = parts.iter().map(Vec::len).max().unwrap_or(0);
                (0..=len)
                    .map(|k| (k, parts.iter().fold(0, |w, p| w | p.get(k).copied().unwrap_or(0))))
                    .find(|&(_, w)| w != u64::MAX)
                    .expect("past the end every word is open")
            };
            let mut slices: Vec<&[u64]> = parts.iter().map(Vec::as_slice).collect();
            prop_assert_eq!(first_open_word(&mut slices), plain);
        }

        #[test]
        fn prefix_sets_drop_their_full_prefix(n in 3000u32..9000) {
            let mut set = PrefixSet::new();
            for v in (0..n).rev() {
                set.insert(Nimber(v));
            }
            prop_assert_eq!(set.mex(), Nimber(n));
            prop_assert!(set.words.len() <= PrefixSet::DROP_AFTER + 1);
            prop_assert_eq!(set.word(0), u64::MAX);
        }

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
