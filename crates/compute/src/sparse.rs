//! The sparse-space kernel: heap games whose moves take stones and leave at most two heaps
//! (octal codes, hex codes without three-heap digits, splits such as Grundy's game), computed
//! with the rare/common method of Gangolli–Plambeck and Flammenkamp.
//!
//! # The method
//! Give each position x the *extended value* e(x) = G(x)·2 + (x mod 2), and fix a mask m over
//! extended values. A position is *rare* when popcount(e(x) & m) is even and *common* when it is
//! odd; for a well-chosen m few positions are rare. A break leaves two heaps a + b = s, and
//! e(a) ⊕ e(b) = (G(a) ⊕ G(b))·2 + (s mod 2). So the value w of a pair of two common heaps (or
//! two rare ones) always has popcount(((w·2) + (s mod 2)) & m) even: call such a value *rare for
//! s*. A value *common for s* can only come from a pair with exactly one rare heap.
//!
//! The value of heap n is then found in two steps:
//! 1. the options of the takes, and of every pair with a rare heap (found through the short list
//!    of rare positions), give a candidate: their mex;
//! 2. a candidate common for every break's s is the value: no pair left out can make it. A
//!    candidate rare for some s is looked for among that break's pairs (adding each pair read to
//!    the options); found, the next candidate is tried, and a break whose pairs are all read is
//!    done. Candidates are rarely rare, and a rare one is usually found after a few pairs.
//!
//! The result does not depend on the mask (any mask is correct; mask 0 makes every position rare
//! and the method the plain one), only the time does. The mask is chosen from the histogram of
//! extended values so far: its Walsh–Hadamard transform gives, for every mask at once, how many
//! positions it would make rare; the mask is reviewed as the heap sizes double and whenever the
//! rare positions have doubled since the last review.
//!
//! # Periodic tails
//! While the values known so far end in a periodic tail (`tail.rs`), a heap reads the pairs of
//! two heaps in it by residue, a period at a time, and needs neither the rare list nor the
//! verifying scans: a game whose values are periodic but not sparse (Dawson's Kayles: a third of
//! its heaps rare under every mask) is searched in linear time too.
//!
//! # Two workers
//! Heap n reads the heaps just below it only through a few options: takes of a few stones, and
//! splits with a small piece. So a heap is computed in two steps: [`SparseState::begin`] with
//! the heaps final so far (everything but the options that read later ones), then
//! [`HeapInProgress::finish`] once every smaller heap is final. On a pool of two threads or
//! more, two workers begin heaps up to [`LOOKAHEAD`] past the last final one while the heaps
//! below are finished (see [`Pipeline`]); each worker keeps its own copy of the rare list and
//! histogram, and the values are identical to one worker's, heap for heap. They pipeline only
//! while heaps are expensive (see [`PIPELINE_COST`]): on cheap ones the hand-over between cores
//! costs more than a heap.

mod moves;
pub(crate) mod records;
mod refusal;
mod review;
mod tail;

pub use refusal::NotSparse;

use crate::executor::{Executor, Store};
use crate::plan::Unit;
use crate::shared::Shared;
use crossbeam_utils::CachePadded;
use grundy_core::{
    Amounts, Cell, CellWidth, Coord, Game, GrundyTable, MoveForm, Nimber, Repeating, TableShape,
};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// A move that removes `k` stones and leaves nothing (`to_nothing`) or one heap (`to_heap`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Take {
    k: usize,
    to_nothing: bool,
    to_heap: bool,
}

/// A move that removes `k` stones and leaves two heaps of at least `min_piece` each (different
/// ones when `unequal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Break {
    k: usize,
    min_piece: usize,
    unequal: bool,
}

/// A heap game's moves, as the sparse-space kernel reads them.
#[derive(Clone, Debug)]
pub(crate) struct HeapMoves {
    /// By increasing `k`.
    takes: Vec<Take>,
    breaks: Vec<Break>,
    /// What a take that leaves nothing is worth: the empty position's value under the game's
    /// play ([`grundy_core::Play::option_value`]). The kernel runs under normal play (a misère
    /// game with breaks is searched, [`crate::misere::table_by_search`]), where it is 0.
    nothing: u32,
}

/// The options of one heap, one byte per value: adding an option is a single store (no
/// read-modify-write chain through a bitset word, which bounds the verifying scans), and the mex
/// is searched from the last candidate up, as candidates only grow.
#[derive(Clone, Debug, Default)]
struct OptionSet {
    /// Sized to a power of two above every value so far (so above every XOR of two), plus one.
    seen: Vec<u8>,
}

impl OptionSet {
    /// Makes room for values below `limit` (a power of two) and empties the set.
    #[inline]
    fn reset(&mut self, limit: usize) {
        if self.seen.len() < limit + 1 {
            self.seen.resize(limit + 1, 0);
        }
        self.seen.fill(0);
    }

    #[inline(always)]
    fn add(&mut self, value: u32) {
        self.seen[value as usize] = 1;
    }

    /// Adds a value that may be past the room made by [`OptionSet::reset`].
    #[inline]
    fn add_growing(&mut self, value: u32) {
        let room = (value as usize + 1).next_power_of_two() + 1;
        if self.seen.len() < room {
            self.seen.resize(room, 0);
        }
        self.add(value);
    }

    #[inline]
    fn contains(&self, value: u32) -> bool {
        self.seen.get(value as usize).is_some_and(|&b| b != 0)
    }

    /// The smallest value from `from` up that is not in the set.
    #[inline]
    fn mex_from(&self, from: u32) -> u32 {
        let rest = &self.seen[from as usize..];
        from + rest.iter().position(|&b| b == 0).unwrap_or(rest.len()) as u32
    }
}

/// Adds the options `low[k] ^ high[len − 1 − k]` in order until one equals `candidate`; returns
/// how many pairs were read (and added) then, or `None` when none does (all added).
#[inline]
fn scan_pairs<C: Cell>(
    low: &[C],
    high: &[C],
    candidate: u32,
    options: &mut OptionSet,
) -> Option<usize> {
    let len = low.len();
    let mut k = 0;
    if let (CellWidth::U8, Ok(low), Ok(high), Ok(target)) = (
        C::WIDTH,
        bytemuck::try_cast_slice::<C, u8>(low),
        bytemuck::try_cast_slice::<C, u8>(high),
        u8::try_from(candidate),
    ) {
        // Byte cells: eight pairs per step, XORed as one word against the reversed tail, the
        // candidate looked for with the zero-byte test; a step's eight options are all added.
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let wanted = ONES * u64::from(target);
        while k + 8 <= len {
            let a = u64::from_le_bytes(low[k..k + 8].try_into().expect("eight bytes"));
            let b = u64::from_le_bytes(high[len - 8 - k..len - k].try_into().expect("eight bytes"));
            let xors = a ^ b.swap_bytes();
            for byte in xors.to_le_bytes() {
                options.add(byte.into());
            }
            k += 8;
            let t = xors ^ wanted;
            if t.wrapping_sub(ONES) & !t & HIGHS != 0 {
                return Some(k);
            }
        }
    }
    for (j, (&x, &y)) in low[k..].iter().zip(high[..len - k].iter().rev()).enumerate() {
        let option = x.into() ^ y.into();
        options.add(option);
        if option == candidate {
            return Some(k + j + 1);
        }
    }
    None
}

/// The class of `value` at heap parity `parity` under `mask`: the parity of the bits of the
/// extended value the mask keeps. A position is rare when its class is the store's rare class;
/// a pair of heaps of one class (both rare or both common) summing to s always has a value of
/// class 0 at parity s.
#[inline(always)]
fn class(mask: u64, value: u32, parity: usize) -> u32 {
    (((u64::from(value) << 1) | (parity as u64 & 1)) & mask).count_ones() % 2
}

/// The solver's state besides the values: the rare positions, the histogram of extended values,
/// the mask, and scratch space.
#[derive(Clone, Debug, Default)]
struct SparseState {
    /// Rare positions (heap sizes ≥ 1), increasing.
    rare: Vec<u32>,
    /// Positions by extended value.
    histogram: Vec<u64>,
    mask: u64,
    /// The class (0 or 1) of the rare positions under `mask`.
    rare_class: u32,
    /// Whether masks may read the heap parity, and the rare class then (see [`best_mask`]).
    odd_masks: Option<u32>,
    /// A power of two above every value so far.
    limit: usize,
    /// Heaps filled so far (values 0..filled are final).
    filled: usize,
    /// The heap at which the mask is reviewed next, and the rare positions at the last review.
    next_review: usize,
    rare_at_review: usize,
    /// The known values' periodic tail, while they have one.
    tail: Option<tail::Tail>,
    /// The heap at which a tail is looked for next, while there is none.
    next_tail_review: usize,
}

/// The first review of the mask: before it, every position is rare (the plain method).
const FIRST_REVIEW: usize = 512;

/// A periodic tail that starts this far out or nearer is always worth reading through.
const TAIL_START: usize = 4096;

impl SparseState {
    /// Brings the state up to the heaps of `known`, all final: records the ones it has not seen.
    fn catch_up<C: Cell>(&mut self, known: &[C]) {
        for n in self.filled..known.len() {
            self.record(known, n, known[n].into());
        }
    }

    /// [`SparseState::begin`], or [`SparseState::begin_in_tail`] while the known values end in
    /// a periodic tail. (The choice is made here, outside `begin`, whose loop over the rare list
    /// compiles to fewer instructions on its own.)
    #[inline]
    fn begin_any<C: Cell>(
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
    fn begin<C: Cell>(&self, moves: &HeapMoves, known: &[C], n: usize, heap: &mut HeapInProgress) {
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
    fn begin_in_tail<C: Cell>(
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
    fn add_takes<C: Cell>(
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
                    options.add(moves.nothing);
                }
            } else if take.to_heap && rest < known.len() {
                options.add(known[rest].into());
            }
        }
    }

    /// Records that heap `n` has `value`: the histogram, the rare list, the mask's review, and
    /// the periodic tail (kept while each heap repeats it, looked for again after it breaks).
    fn record<C: Cell>(&mut self, v: &[C], n: usize, value: u32) {
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
}

impl HeapInProgress {
    /// Heap `n`'s value, now that `all` holds every heap below it: adds the options that read
    /// heaps past the first step's and, if one of them is the candidate, verifies on from there.
    #[inline]
    fn finish<C: Cell>(&mut self, moves: &HeapMoves, all: &[C]) -> u32 {
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
    fn verify<C: Cell>(&mut self, moves: &HeapMoves, known: &[C]) {
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

/// The first pair (a, s − a), by its smaller piece a, whose heaps are both below `known`.
#[inline]
fn first_known_pair(s: usize, known: usize) -> usize {
    (s + 1).saturating_sub(known)
}

/// A heap whose value is being computed: the options found so far and where each break's
/// verifying scan stands.
#[derive(Clone, Debug, Default)]
struct HeapInProgress {
    n: usize,
    /// Heaps 0..known were final at the first step: the options that read a later heap (takes
    /// that leave one, pairs whose smaller piece is below the first known pair) come at the end.
    known: usize,
    /// The mask of the first step; the verifying scans go on under it.
    mask: u64,
    /// The smallest value that no option found so far makes.
    candidate: u32,
    options: OptionSet,
    /// Per break, the smaller piece of the next pair to scan.
    cursors: Vec<usize>,
    /// What the heap cost: pairs read through the rare list (counted twice: each is a random
    /// access) and by the verifying scans (streaming reads), about one per half nanosecond here.
    cost: u64,
}

/// The mask over extended values, and the class to call rare, that make the fewest positions
/// of `histogram` rare ((0, 0) when none makes fewer than all). With W the Walsh–Hadamard
/// transform of the histogram, mask m makes (N + W(m)) / 2 of the N positions class 0 and
/// (N − W(m)) / 2 class 1.
///
/// Not every pair is useful. A heap's value is usually common, and a candidate is certified
/// without a scan when its class at the parity of s = n − k is 1: that holds for the common
/// values of every break k when the rare class is (k mod 2)·(m mod 2). So masks that read the
/// heap parity (odd m) serve only games whose breaks all remove amounts of one parity q
/// (`odd_masks = Some(q)`, rare class q); even masks take rare class 0.
fn best_mask(histogram: &[u64], odd_masks: Option<u32>) -> (u64, u32) {
    let mut w: Vec<i64> = histogram.iter().map(|&h| h as i64).collect();
    let mut len = 1;
    while len < w.len() {
        for block in w.chunks_mut(2 * len) {
            let (low, high) = block.split_at_mut(len);
            for (a, b) in low.iter_mut().zip(high) {
                (*a, *b) = (*a + *b, *a - *b);
            }
        }
        len *= 2;
    }
    let total = w.first().copied().unwrap_or(0);
    // (rare positions, mask, rare class) of every usable mask but 0.
    let usable = w.iter().enumerate().skip(1).filter_map(|(m, &t)| {
        let rare_class = match (m % 2, odd_masks) {
            (0, _) => 0,
            (_, Some(q)) => q,
            (_, None) => return None,
        };
        let rare = if rare_class == 0 { total + t } else { total - t };
        Some((rare, m as u64, rare_class))
    });
    match usable.min() {
        Some((rare, mask, rare_class)) if rare < 2 * total => (mask, rare_class),
        _ => (0, 0),
    }
}

/// The heap table being filled with the sparse-space method.
pub(crate) struct SparseStore {
    table: GrundyTable,
    /// One per worker: the first runs alone, the second joins it on a pool of two threads or
    /// more while the heaps are expensive (and catches up on the heaps it missed).
    workers: Vec<Worker>,
    /// Whether the last wave's heaps cost [`PIPELINE_COST`] each or more.
    expensive: bool,
}

/// A worker's own state: it records every final heap itself, so that the workers share nothing
/// but the values and the heaps in progress.
#[derive(Clone, Debug)]
struct Worker {
    state: SparseState,
    /// Scratch space for heaps when the worker runs alone.
    scratch: HeapInProgress,
    /// The cost of the heaps this worker finished.
    cost: u64,
}

impl Worker {
    fn new(state: SparseState) -> Worker {
        Worker { state, scratch: HeapInProgress::default(), cost: 0 }
    }

    /// Fills heaps `from..to` of `values` alone, in order; returns the first heap whose value
    /// does not fit in `C` (`to` when all fit).
    fn run_alone<C: Cell>(
        &mut self,
        moves: &HeapMoves,
        values: &mut [C],
        from: usize,
        to: usize,
    ) -> usize {
        let mut heap = std::mem::take(&mut self.scratch);
        for n in from..to {
            let known = &values[..n];
            self.state.catch_up(known);
            self.state.begin_any(moves, known, n, &mut heap);
            let value = heap.finish(moves, known);
            self.cost += heap.cost;
            match C::from_nimber(Nimber(value)) {
                Some(cell) => values[n] = cell,
                None => {
                    self.scratch = heap;
                    return n;
                }
            }
        }
        self.scratch = heap;
        to
    }
}

/// Two workers pipeline the heaps only when the last wave's heaps cost this much each or more
/// (see [`HeapInProgress::cost`]; about a microsecond here): handing a heap between cores costs
/// a few hundred nanoseconds, and pipelining cheaper heaps gains little or loses. Measured on
/// 10^7 heaps: 0.354 (about 1000 a heap late on) is 10 % slower pipelined, 0.127 (1400) 10 %
/// faster; 0.376 and Grundy's game (several thousand) 1.6–1.8× faster.
const PIPELINE_COST: u64 = 2400;

/// How far past the last final heap a worker may begin one. Heaps of many games alternate
/// between long and short verifying scans (a candidate's class depends on the heap's parity),
/// so two workers overlap two long scans only with a few heaps of room.
const LOOKAHEAD: usize = 64;

impl SparseStore {
    pub(crate) fn new(moves: &HeapMoves, shape: &TableShape) -> SparseStore {
        SparseStore {
            table: GrundyTable::zeroed_with(shape.clone(), CellWidth::U8),
            workers: vec![Worker::new(SparseState::new(moves))],
            expensive: false,
        }
    }

    /// The store after the first `filled` heaps of `table`.
    pub(crate) fn resume(moves: &HeapMoves, table: GrundyTable, filled: usize) -> SparseStore {
        let state = grundy_core::with_cells!(table.cells(), |values| SparseState::rebuild(
            moves, values, filled
        ));
        SparseStore { table, workers: vec![Worker::new(state)], expensive: false }
    }

    pub(crate) fn table(&self) -> &GrundyTable {
        &self.table
    }

    pub(crate) fn into_table(self) -> GrundyTable {
        self.table
    }

    /// Fills heaps `from..to` in cells of type `C` with the first `workers` workers; returns the
    /// first heap whose value does not fit in `C` (`to` when all fit).
    fn run<C: Cell>(&mut self, moves: &HeapMoves, workers: usize, from: usize, to: usize) -> usize {
        let values = self.table.typed_mut::<C>().expect("the table's width");
        if workers == 1 {
            return self.workers[0].run_alone(moves, values, from, to);
        }
        let pipeline = Pipeline::new(values, from, to);
        match &mut self.workers[..workers] {
            [first, second] => {
                rayon::join(|| pipeline.work(first, moves), || pipeline.work(second, moves));
            }
            _ => unreachable!("two workers"),
        }
        pipeline.stopped_at()
    }
}

/// Slots for heaps in progress: more than the heaps that can be begun and not finished at once
/// (a heap is begun only when the one [`LOOKAHEAD`] below it is final), so no two share one.
const SLOTS: usize = LOOKAHEAD + 2;

/// A heap's place in the pipeline: its scratch space (kept between the heaps that share the
/// slot, so that nothing is allocated per heap), and the heap itself while it is parked.
#[derive(Default)]
#[repr(align(128))]
struct Slot {
    /// Whether the heap is parked, waiting for a worker to take it.
    marked: AtomicBool,
    /// Locked only by the one worker that owns the heap (or its scratch space) at the time.
    heap: Mutex<HeapInProgress>,
}

const POISONED: &str = "no worker panics holding a slot";

/// The heaps of one run, shared by its workers.
///
/// Heap n reads a heap close below it only through a few options (takes of a few stones, splits
/// with a small piece), so a worker can do most of heap n while others still compute the heaps
/// just below: it begins heap n with the heaps final so far ([`SparseState::begin`]), and the
/// heap is finished ([`HeapInProgress::finish`]) when every heap below it is final — by its
/// worker if that is already so, or else by the worker that makes heap n − 1 final. Workers take
/// heaps in order, and the smallest heap not final is always in a running worker's hands: one
/// worker alone computes every heap, the pipeline cannot deadlock, and the values do not depend
/// on how the heaps were shared out.
struct Pipeline<'a, C> {
    values: Shared<'a, C>,
    to: usize,
    /// Heaps 0..final_heaps are final. Each on its own cache line: one worker spins on it while
    /// the other takes heaps.
    final_heaps: CachePadded<AtomicUsize>,
    /// The next heap to take.
    next: CachePadded<AtomicUsize>,
    /// The heap whose value did not fit in `C` (`usize::MAX` while none).
    too_wide: AtomicUsize,
    /// Heap n's slot is n mod [`SLOTS`].
    slots: Vec<Slot>,
}

impl Store for SparseStore {
    type Kernel = HeapMoves;

    /// Heaps depend on every smaller heap, so the units (ranges of heap sizes) run in order;
    /// on the rayon executor with two threads or more, two workers pipeline consecutive heaps
    /// when they are expensive.
    fn fill_wave(&mut self, moves: &HeapMoves, units: &[Unit], executor: Executor) -> u64 {
        let parallel = executor == Executor::Rayon && rayon::current_num_threads() >= 2;
        let workers = if parallel && self.expensive { 2 } else { 1 };
        let cost_before: u64 = self.workers.iter().map(|w| w.cost).sum();
        if self.workers.len() < workers {
            let first = self.workers[0].clone();
            self.workers.push(first);
        }
        let mut cells = 0;
        for unit in units {
            let (mut n, to) = (unit.lo[0], unit.hi[0]);
            while n < to {
                n = match self.table.width() {
                    CellWidth::U8 => self.run::<u8>(moves, workers, n, to),
                    CellWidth::U16 => self.run::<u16>(moves, workers, n, to),
                    CellWidth::U32 => self.run::<u32>(moves, workers, n, to),
                };
                if n < to {
                    // Heap n's value did not fit: widen, and compute it again.
                    let wider = self.table.width().wider().expect("u32 cells hold every value");
                    self.table.widen(wider);
                }
            }
            cells += (to - unit.lo[0]) as u64;
        }
        let cost = self.workers.iter().map(|w| w.cost).sum::<u64>() - cost_before;
        self.expensive = cost >= PIPELINE_COST * cells;
        cells
    }
}

mod pipeline;
#[cfg(test)]
mod tests;
