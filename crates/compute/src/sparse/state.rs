//! The state of the search over heaps: the rare list, the histogram of extended values and the
//! mask, and the first and second step of each heap.

use super::*;

impl SparseState {
    pub(super) fn new(moves: &HeapMoves) -> SparseState {
        let parities: Vec<u32> = moves.breaks.iter().map(|b| (b.k % 2) as u32).collect();
        let odd_masks = parities.iter().all(|&q| q == parities[0]).then_some(parities[0]);
        SparseState {
            next_review: FIRST_REVIEW,
            next_tail_review: FIRST_REVIEW,
            limit: 1,
            odd_masks,
            ..SparseState::default()
        }
    }

    /// Brings the state up to the heaps of `known`, all final: records the ones it has not seen.
    pub(super) fn catch_up<C: Cell>(&mut self, known: &[C]) {
        for n in self.filled..known.len() {
            self.record(known, n, known[n].into());
        }
    }

    /// [`SparseState::begin`], or [`SparseState::begin_in_tail`] while the known values end in
    /// a periodic tail. (The choice is made here, outside `begin`, whose loop over the rare list
    /// compiles to fewer instructions on its own.)
    #[inline]
    pub(super) fn begin_any<C: Cell>(
        &self,
        moves: &HeapMoves,
        known: &[C],
        n: usize,
        heap: &mut HeapInProgress,
    ) {
        match &self.tail {
            Some(tail) => self.begin_in_tail(tail, moves, known, n, heap),
            None => self.begin(moves, known, n, heap),
        }
    }

    /// The first step of heap `n`'s value, while the heaps from `known.len()` to n − 1 may still
    /// be computed elsewhere: `known` holds final heaps (the state has seen them all). Adds every
    /// option that reads only known heaps and verifies candidates against them;
    /// [`HeapInProgress::finish`] adds the rest once every heap below `n` is final. `heap` is
    /// scratch space from an earlier heap, and becomes heap `n` in progress. While the known
    /// values end in a periodic tail, the heap reads through it instead ([`SparseState::begin_in_tail`],
    /// which [`SparseState::begin_any`] picks).
    #[inline]
    pub(super) fn begin<C: Cell>(
        &self,
        moves: &HeapMoves,
        known: &[C],
        n: usize,
        heap: &mut HeapInProgress,
    ) {
        debug_assert!(known.len() <= n && self.filled == known.len());
        let value = |x: usize| -> u32 { known[x].into() };
        let options = &mut heap.options;
        options.reset(self.limit);
        self.add_takes(moves, known, n, options);
        let mut through_rare = 0;
        for b in &moves.breaks {
            let Some(s) = n.checked_sub(b.k) else { continue };
            let p = b.min_piece;
            if s < 2 * p {
                continue;
            }
            // A rare heap at or past `known.len()` pairs with a piece below the first known
            // pair: `finish` adds those pairs.
            let first = first_known_pair(s, known.len());
            let (lo, hi) = (p.max(first), s - p);
            // Usually every rare heap is in range (a search only near the ends).
            let rare = &self.rare;
            let start = match rare.first() {
                Some(&first) if first as usize >= lo => 0,
                _ => rare.partition_point(|&i| (i as usize) < lo),
            };
            let end = match rare.last() {
                Some(&last) if last as usize <= hi => rare.len(),
                _ => rare.partition_point(|&i| i as usize <= hi),
            }
            .max(start);
            through_rare += (end - start) as u64;
            for &i in &rare[start..end] {
                let i = i as usize;
                if !(b.unequal && 2 * i == s) {
                    options.add(value(i) ^ value(s - i));
                }
            }
        }
        heap.cursors.clear();
        heap.cursors.extend(
            moves
                .breaks
                .iter()
                .map(|b| b.min_piece.max(first_known_pair(n.saturating_sub(b.k), known.len()))),
        );
        heap.n = n;
        heap.cost = 2 * through_rare;
        heap.known = known.len();
        heap.mask = self.mask;
        heap.candidate = heap.options.mex_from(0);
        heap.verify(moves, known);
    }

    /// [`SparseState::begin`] while the known values end in `tail`: the takes, the pairs with a
    /// piece outside the tail one by one, and the tail's pairs by residue. Every option that
    /// reads only known heaps is then in, so nothing is left to verify (the heap's mask is 0).
    pub(super) fn begin_in_tail<C: Cell>(
        &self,
        tail: &tail::Tail,
        moves: &HeapMoves,
        known: &[C],
        n: usize,
        heap: &mut HeapInProgress,
    ) {
        let value = |x: usize| -> u32 { known[x].into() };
        heap.options.reset(self.limit);
        self.add_takes(moves, known, n, &mut heap.options);
        let options = &mut heap.options;
        let mut read = 0u64;
        for b in &moves.breaks {
            let Some(s) = n.checked_sub(b.k) else { continue };
            if s < 2 * b.min_piece {
                continue;
            }
            let last = if b.unequal && s % 2 == 0 { s / 2 - 1 } else { s / 2 };
            let low = b.min_piece.max(first_known_pair(s, known.len()));
            let mut pairs = |from: usize, to: usize| {
                for a in from..=to {
                    options.add(value(a) ^ value(s - a));
                }
                read += (to + 1).saturating_sub(from) as u64;
            };
            match tail.covered(s, low, last) {
                Some((first, to)) => {
                    if first > low {
                        pairs(low, first - 1);
                    }
                    if last > to {
                        pairs(to + 1, last);
                    }
                    tail.options(s, |option| options.add(option));
                }
                None if low <= last => pairs(low, last),
                None => {}
            }
        }
        heap.cursors.clear();
        heap.cursors.extend(moves.breaks.iter().map(|_| usize::MAX));
        heap.n = n;
        heap.cost = read;
        heap.known = known.len();
        heap.mask = 0;
        heap.candidate = heap.options.mex_from(0);
    }

    /// Adds the options of heap `n`'s takes that read known heaps (or leave nothing).
    #[inline(always)]
    pub(super) fn add_takes<C: Cell>(
        &self,
        moves: &HeapMoves,
        known: &[C],
        n: usize,
        options: &mut OptionSet,
    ) {
        for take in &moves.takes {
            if take.k > n {
                break;
            }
            let rest = n - take.k;
            if rest == 0 {
                if take.to_nothing {
                    options.add(0);
                }
            } else if take.to_heap && rest < known.len() {
                options.add(known[rest].into());
            }
        }
    }

    /// Records that heap `n` has `value`: the histogram, the rare list, the mask's review, and
    /// the periodic tail (kept while each heap repeats it, looked for again after it breaks).
    pub(super) fn record<C: Cell>(&mut self, v: &[C], n: usize, value: u32) {
        let extended = ((value as usize) << 1) | (n & 1);
        if extended >= self.histogram.len() {
            self.histogram.resize((extended + 1).next_power_of_two(), 0);
        }
        self.histogram[extended] += 1;
        if value as usize >= self.limit {
            self.limit = (value as usize + 1).next_power_of_two();
        }
        if n >= 1 && class(self.mask, value, n) == self.rare_class {
            self.rare.push(n as u32);
        }
        self.filled = n + 1;
        if self.filled >= self.next_review || self.rare.len() > 2 * self.rare_at_review + 256 {
            self.review_mask(v);
        }
        if self.tail.as_ref().is_some_and(|tail| !tail.holds(v, n, value)) {
            self.tail = None;
            self.next_tail_review = self.filled + self.filled / 4 + FIRST_REVIEW;
        }
        if self.tail.is_none() && self.filled >= self.next_tail_review {
            self.tail = self.worth_it(tail::Tail::find(&v[..self.filled], self.limit));
            if self.tail.is_none() {
                self.next_tail_review = 2 * self.filled;
            }
        }
    }

    /// `tail`, if reading heaps through it is cheaper than the rare list: a heap reads the
    /// pairs before the tail's start one by one, the rare list one pair per rare heap.
    pub(super) fn worth_it(&self, tail: Option<tail::Tail>) -> Option<tail::Tail> {
        tail.filter(|tail| tail.start() <= (2 * self.rare.len()).max(TAIL_START))
    }

    /// Chooses the mask that makes the fewest positions rare so far, and rebuilds the rare list
    /// if it changed.
    pub(super) fn review_mask<C: Cell>(&mut self, v: &[C]) {
        self.next_review = 2 * self.filled.max(FIRST_REVIEW / 2);
        let (mask, rare_class) = best_mask(&self.histogram, self.odd_masks);
        if (mask, rare_class) != (self.mask, self.rare_class) {
            (self.mask, self.rare_class) = (mask, rare_class);
            self.rebuild_rare(v);
        }
        self.rare_at_review = self.rare.len();
    }

    pub(super) fn rebuild_rare<C: Cell>(&mut self, v: &[C]) {
        self.rare.clear();
        let (mask, rare_class) = (self.mask, self.rare_class);
        self.rare.extend(
            (1..self.filled)
                .filter(|&x| class(mask, v[x].into(), x) == rare_class)
                .map(|x| x as u32),
        );
    }

    /// The state after the first `filled` heaps of `v`, rebuilt from their values.
    pub(super) fn rebuild<C: Cell>(moves: &HeapMoves, v: &[C], filled: usize) -> SparseState {
        let mut state = SparseState::new(moves);
        for (n, &cell) in v[..filled].iter().enumerate() {
            let value: u32 = cell.into();
            state.limit = state.limit.max((value as usize + 1).next_power_of_two());
            let extended = ((value as usize) << 1) | (n & 1);
            if extended >= state.histogram.len() {
                state.histogram.resize((extended + 1).next_power_of_two(), 0);
            }
            state.histogram[extended] += 1;
        }
        state.filled = filled;
        if filled >= FIRST_REVIEW {
            (state.mask, state.rare_class) = best_mask(&state.histogram, state.odd_masks);
            state.next_review = 2 * filled;
        }
        state.rebuild_rare(v);
        state.rare_at_review = state.rare.len();
        if filled >= FIRST_REVIEW {
            state.tail = state.worth_it(tail::Tail::find(&v[..filled], state.limit));
            state.next_tail_review = 2 * filled;
        }
        state
    }
}

impl HeapInProgress {
    /// Heap `n`'s value, now that `all` holds every heap below it: adds the options that read
    /// heaps past the first step's and, if one of them is the candidate, verifies on from there.
    #[inline]
    pub(super) fn finish<C: Cell>(&mut self, moves: &HeapMoves, all: &[C]) -> u32 {
        let n = self.n;
        debug_assert_eq!(all.len(), n);
        if self.known == n {
            return self.candidate;
        }
        let value = |x: usize| -> u32 { all[x].into() };
        for take in &moves.takes {
            if take.k > n {
                break;
            }
            let rest = n - take.k;
            if take.to_heap && rest >= self.known.max(1) {
                self.options.add_growing(value(rest));
            }
        }
        for b in &moves.breaks {
            let Some(s) = n.checked_sub(b.k) else { continue };
            let p = b.min_piece;
            let last = s / 2;
            for a in p..first_known_pair(s, self.known).min(last + 1) {
                if !(b.unequal && 2 * a == s) {
                    self.options.add_growing(value(a) ^ value(s - a));
                }
            }
        }
        if self.options.contains(self.candidate) {
            self.candidate = self.options.mex_from(self.candidate);
            self.verify(moves, all);
        }
        self.candidate
    }

    /// Verifies the candidate, and the next ones, against the pairs of two heaps of one class
    /// from the cursors on, as far as `known` reaches.
    #[inline]
    pub(super) fn verify<C: Cell>(&mut self, moves: &HeapMoves, known: &[C]) {
        if self.mask == 0 {
            return;
        }
        let (n, mask) = (self.n, self.mask);
        let options = &mut self.options;
        let candidate = &mut self.candidate;
        'verify: loop {
            for (b, cursor) in moves.breaks.iter().zip(self.cursors.iter_mut()) {
                let Some(s) = n.checked_sub(b.k) else { continue };
                // A candidate of class 1 at parity s cannot come from a pair left out.
                if s < 2 * b.min_piece || class(mask, *candidate, s) == 1 {
                    continue;
                }
                // The pairs (a, s − a) from the cursor to the middle (short of it for unequal
                // pieces), the two heaps read as two slices walking towards it.
                let last = if b.unequal && s % 2 == 0 { s / 2 - 1 } else { s / 2 };
                if *cursor > last {
                    continue;
                }
                let low = &known[*cursor..=last];
                let high = &known[s - last..=s - *cursor];
                if let Some(read) = scan_pairs(low, high, *candidate, options) {
                    self.cost += read as u64;
                    *cursor += read;
                    *candidate = options.mex_from(*candidate);
                    continue 'verify;
                }
                self.cost += low.len() as u64;
                *cursor = last + 1;
            }
            break;
        }
    }
}
