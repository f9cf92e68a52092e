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

use crate::executor::Executor;
use crate::plan::Unit;
use crate::store::Store;
use grundy_core::{Cell, CellWidth, Coord, Game, GrundyTable, Nimber, Rule, TableShape};
use std::fmt;

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
}

/// Why a game is not one for the sparse-space engine.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotSparse {
    /// It is not a heap game (one axis).
    Axes {
        /// Its number of axes.
        dims: usize,
    },
    /// Its axis does not start at 0, so positions are not heap sizes.
    AxisStart {
        /// The smallest coordinate.
        min: Coord,
    },
    /// A move leaves three heaps (a hex digit with 8 in it): a pair of rare heaps no longer
    /// bounds what the common ones can make.
    ThreeHeaps,
    /// No move leaves two heaps: there is nothing sparse to exploit.
    NoBreaks,
    /// A rule the method does not read: unbounded slides, or moves that are not removals.
    Rule {
        /// The rule's number (1-based) and kind.
        rule: (usize, &'static str),
    },
}

impl fmt::Display for NotSparse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotSparse::Axes { dims } => write!(
                f,
                "the sparse-space engine computes heap games (one axis); this game has {dims}"
            ),
            NotSparse::AxisStart { min } => write!(
                f,
                "the sparse-space engine computes heap sizes from 0; this game's axis starts at \
                 {min}"
            ),
            NotSparse::ThreeHeaps => f.write_str(
                "the sparse-space engine needs moves that leave at most two heaps; this game's \
                 code has a digit with 8 (three heaps)",
            ),
            NotSparse::NoBreaks => f.write_str(
                "the sparse-space engine speeds up moves that leave two heaps; this game has none",
            ),
            NotSparse::Rule { rule: (index, kind) } => write!(
                f,
                "the sparse-space engine reads removals and splits of a heap; rule {index} \
                 ({kind}) is not one it can read"
            ),
        }
    }
}

impl std::error::Error for NotSparse {}

impl HeapMoves {
    /// The moves of `game` on heaps up to `shape`'s largest, or why the method does not apply.
    pub(crate) fn new(game: &Game, shape: &TableShape) -> Result<HeapMoves, NotSparse> {
        let axes = game.axes();
        if axes.len() != 1 {
            return Err(NotSparse::Axes { dims: axes.len() });
        }
        if axes[0].min != 0 {
            return Err(NotSparse::AxisStart { min: axes[0].min });
        }
        // Games without a break (or a three-heap move, refused below) are refused before their
        // removals are listed.
        let breaks_somewhere = game.rules().iter().any(|rule| match rule {
            Rule::Split { .. } => true,
            Rule::TakeAndBreak { code } => code.digits().iter().any(|d| d & 12 != 0),
            _ => false,
        });
        if !breaks_somewhere {
            return Err(NotSparse::NoBreaks);
        }
        let longest = shape.lens()[0] as u64;
        let mut takes: Vec<Take> = Vec::new();
        let mut breaks: Vec<Break> = Vec::new();
        // Merged by k below: a jump set can list hundreds of thousands of amounts.
        let mut take =
            |k: usize, to_nothing: bool, to_heap: bool| takes.push(Take { k, to_nothing, to_heap });
        for (index, rule) in game.rules().iter().enumerate() {
            let refuse = || NotSparse::Rule { rule: (index + 1, rule.kind()) };
            // A 1-D direction must lower the heap: [-d] with d ≥ 1.
            let unit = |direction: &[Coord]| match direction {
                [d] if *d < 0 => Ok((-d) as u64),
                _ => Err(refuse()),
            };
            match rule {
                Rule::Step { offsets } => {
                    for offset in offsets {
                        take(unit(offset)? as usize, true, true);
                    }
                }
                Rule::Jump { directions, steps } => {
                    for direction in directions {
                        let d = unit(direction)?;
                        for amount in steps.up_to(longest / d) {
                            take((amount * d) as usize, true, true);
                        }
                    }
                }
                // A bounded slide is a list of removals; an unbounded one reads every smaller
                // heap, which nothing sparse can shorten.
                Rule::Slide { directions, max: Some(max) } => {
                    for direction in directions {
                        let d = unit(direction)?;
                        for amount in 1..=(*max).min(longest / d) {
                            take((amount * d) as usize, true, true);
                        }
                    }
                }
                Rule::Slide { max: None, .. } => return Err(refuse()),
                Rule::Split { axis: 0, min_piece, unequal } if *min_piece >= 1 => {
                    breaks.push(Break { k: 0, min_piece: *min_piece as usize, unequal: *unequal })
                }
                Rule::Split { .. } => return Err(refuse()),
                Rule::TakeAndBreak { code } => {
                    for (k, &digit) in code.digits().iter().enumerate() {
                        if digit & 8 != 0 {
                            return Err(NotSparse::ThreeHeaps);
                        }
                        // As the plain engine reads a code: 1 leaves nothing (k = n), 2 leaves
                        // one heap (k ≥ 1), 4 leaves two non-empty heaps.
                        if digit & 3 != 0 {
                            take(k, digit & 1 != 0, digit & 2 != 0 && k >= 1);
                        }
                        if digit & 4 != 0 {
                            breaks.push(Break { k, min_piece: 1, unequal: false });
                        }
                    }
                }
            }
        }
        if breaks.is_empty() {
            return Err(NotSparse::NoBreaks);
        }
        takes.sort_by_key(|t| t.k);
        takes.dedup_by(|later, kept| {
            let same = later.k == kept.k;
            if same {
                kept.to_nothing |= later.to_nothing;
                kept.to_heap |= later.to_heap;
            }
            same
        });
        breaks.sort_by_key(|b| (b.k, b.min_piece, b.unequal));
        breaks.dedup();
        Ok(HeapMoves { takes, breaks })
    }
}

/// The sparse-space columns of the records (Flammenkamp's tables) of a heap game's sequence: the
/// mask that makes the fewest positions rare over the whole sequence, and those positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SparseRecords {
    /// The mask over extended values (value·2 + heap parity): bit 0 reads the heap's parity,
    /// bit i + 1 the value's bit i. 0 when no mask makes any position common.
    pub mask: u64,
    /// The class (popcount of the masked extended value, mod 2) of the rare positions.
    pub rare_class: u32,
    /// Rare positions (heap sizes from 1).
    pub rare: u64,
    /// The largest rare position (0 when there is none).
    pub last_rare: u64,
}

/// The records of the sequence `values` (heap sizes 0, 1, …) of a game the sparse-space engine
/// computes (see [`crate::sparse_eligibility`]): what the engine's mask review settles on when it
/// has seen every value, whatever engine computed them.
pub fn sparse_records(
    game: &Game,
    shape: &TableShape,
    values: &GrundyTable,
) -> Result<SparseRecords, NotSparse> {
    let moves = HeapMoves::new(game, shape)?;
    let filled = values.len();
    let mut state =
        grundy_core::with_cells!(values.cells(), |v| SparseState::rebuild(&moves, v, filled));
    if filled < FIRST_REVIEW {
        // Too short for the engine to have chosen; the records still name the best mask.
        (state.mask, state.rare_class) = best_mask(&state.histogram, state.odd_masks);
        grundy_core::with_cells!(values.cells(), |v| state.rebuild_rare(v));
    }
    Ok(SparseRecords {
        mask: state.mask,
        rare_class: state.rare_class,
        rare: state.rare.len() as u64,
        last_rare: state.rare.last().map_or(0, |&x| x.into()),
    })
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
    options: OptionSet,
    cursors: Vec<usize>,
}

/// The first review of the mask: before it, every position is rare (the plain method).
const FIRST_REVIEW: usize = 512;

impl SparseState {
    fn new(moves: &HeapMoves) -> SparseState {
        let parities: Vec<u32> = moves.breaks.iter().map(|b| (b.k % 2) as u32).collect();
        let odd_masks = parities.iter().all(|&q| q == parities[0]).then_some(parities[0]);
        SparseState { next_review: FIRST_REVIEW, limit: 1, odd_masks, ..SparseState::default() }
    }

    /// The value of heap `n`, all smaller heaps being final in `v`.
    #[inline]
    fn heap_value<C: Cell>(&mut self, moves: &HeapMoves, v: &[C], n: usize) -> u32 {
        let value = |x: usize| -> u32 { v[x].into() };
        let options = &mut self.options;
        options.reset(self.limit);
        for take in &moves.takes {
            if take.k > n {
                break;
            }
            let rest = n - take.k;
            if rest == 0 {
                if take.to_nothing {
                    options.add(0);
                }
            } else if take.to_heap {
                options.add(value(rest));
            }
        }
        for b in &moves.breaks {
            let Some(s) = n.checked_sub(b.k) else { continue };
            let p = b.min_piece;
            if s < 2 * p {
                continue;
            }
            for &i in &self.rare {
                let i = i as usize;
                if i > s - p {
                    break;
                }
                if i < p || (b.unequal && 2 * i == s) {
                    continue;
                }
                options.add(value(i) ^ value(s - i));
            }
        }
        let mut candidate = options.mex_from(0);
        if self.mask != 0 {
            self.cursors.clear();
            self.cursors.extend(moves.breaks.iter().map(|b| b.min_piece));
            'verify: loop {
                for (b, cursor) in moves.breaks.iter().zip(self.cursors.iter_mut()) {
                    let Some(s) = n.checked_sub(b.k) else { continue };
                    // A candidate of class 1 at parity s cannot come from a pair left out.
                    if s < 2 * b.min_piece || class(self.mask, candidate, s) == 1 {
                        continue;
                    }
                    // The pairs (a, s − a) from the cursor to the middle (short of it for
                    // unequal pieces), the two heaps read as two slices walking towards it.
                    let last = if b.unequal && s % 2 == 0 { s / 2 - 1 } else { s / 2 };
                    if *cursor > last {
                        continue;
                    }
                    let low = &v[*cursor..=last];
                    let high = &v[s - last..=s - *cursor];
                    if let Some(read) = scan_pairs(low, high, candidate, options) {
                        *cursor += read;
                        candidate = options.mex_from(candidate);
                        continue 'verify;
                    }
                    *cursor = last + 1;
                }
                break;
            }
        }
        candidate
    }

    /// Records that heap `n` has `value`: the histogram, the rare list, the mask's review.
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
    }

    /// Chooses the mask that makes the fewest positions rare so far, and rebuilds the rare list
    /// if it changed.
    fn review_mask<C: Cell>(&mut self, v: &[C]) {
        self.next_review = 2 * self.filled.max(FIRST_REVIEW / 2);
        let (mask, rare_class) = best_mask(&self.histogram, self.odd_masks);
        if (mask, rare_class) != (self.mask, self.rare_class) {
            (self.mask, self.rare_class) = (mask, rare_class);
            self.rebuild_rare(v);
        }
        self.rare_at_review = self.rare.len();
    }

    fn rebuild_rare<C: Cell>(&mut self, v: &[C]) {
        self.rare.clear();
        let (mask, rare_class) = (self.mask, self.rare_class);
        self.rare.extend(
            (1..self.filled)
                .filter(|&x| class(mask, v[x].into(), x) == rare_class)
                .map(|x| x as u32),
        );
    }

    /// The state after the first `filled` heaps of `v`, rebuilt from their values.
    fn rebuild<C: Cell>(moves: &HeapMoves, v: &[C], filled: usize) -> SparseState {
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
        state
    }
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
    state: SparseState,
}

impl SparseStore {
    pub(crate) fn new(moves: &HeapMoves, shape: &TableShape) -> SparseStore {
        SparseStore {
            table: GrundyTable::zeroed_with(shape.clone(), CellWidth::U8),
            state: SparseState::new(moves),
        }
    }

    /// The store after the first `filled` heaps of `table`.
    pub(crate) fn resume(moves: &HeapMoves, table: GrundyTable, filled: usize) -> SparseStore {
        let state = grundy_core::with_cells!(table.cells(), |values| SparseState::rebuild(
            moves, values, filled
        ));
        SparseStore { table, state }
    }

    pub(crate) fn table(&self) -> &GrundyTable {
        &self.table
    }

    pub(crate) fn into_table(self) -> GrundyTable {
        self.table
    }

    /// Fills heaps `from..to` in cells of type `C`; returns the first heap whose value does not
    /// fit in `C` (`to` when all fit).
    fn run<C: Cell>(&mut self, moves: &HeapMoves, from: usize, to: usize) -> usize {
        let values = self.table.typed_mut::<C>().expect("the table's width");
        for n in from..to {
            let value = self.state.heap_value(moves, values, n);
            match C::from_nimber(Nimber(value)) {
                Some(cell) => values[n] = cell,
                None => return n,
            }
            self.state.record(values, n, value);
        }
        to
    }
}

impl Store for SparseStore {
    type Kernel = HeapMoves;

    /// Heaps depend on every smaller heap, so the units (ranges of heap sizes) run in order on
    /// the calling thread whatever the executor.
    fn fill_wave(&mut self, moves: &HeapMoves, units: &[Unit], _executor: Executor) -> u64 {
        let mut cells = 0;
        for unit in units {
            let (mut n, to) = (unit.lo[0], unit.hi[0]);
            while n < to {
                n = match self.table.width() {
                    CellWidth::U8 => self.run::<u8>(moves, n, to),
                    CellWidth::U16 => self.run::<u16>(moves, n, to),
                    CellWidth::U32 => self.run::<u32>(moves, n, to),
                };
                if n < to {
                    // Heap n's value did not fit: widen, and compute it again.
                    let wider = self.table.width().wider().expect("u32 cells hold every value");
                    self.table.widen(wider);
                }
            }
            cells += (to - unit.lo[0]) as u64;
        }
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_mask_makes_the_fewest_positions_rare() {
        // Extended values 2·v + parity: v in {2, 3} at both parities, v = 0 twice.
        let mut histogram = vec![0u64; 8];
        for e in [4, 5, 6, 7, 4, 6, 0, 0] {
            histogram[e] += 1;
        }
        let (mask, rare_class) = best_mask(&histogram, Some(1));
        let rare = |m: u64, class: u32| {
            (0..8u64)
                .filter(|e| (e & m).count_ones() % 2 == class)
                .map(|e| histogram[e as usize])
                .sum::<u64>()
        };
        let fewest = (1..8).map(|m| rare(m, (m % 2) as u32)).min().unwrap();
        assert_eq!(rare(mask, rare_class), fewest);
        assert_eq!(fewest, 2, "mask {mask:b}: only the two zeros are rare");
        assert_eq!(best_mask(&[5], Some(1)), (0, 0), "nothing to gain: every position stays rare");
        // Nine positions of value 0 at odd heaps, one of value 1 at an even heap. Reading the
        // heap parity and value bit 0 (mask 3) puts both in class 1, so none is rare; breaks of
        // both parities allow even masks only, and value bit 0 alone (mask 2) leaves nine.
        assert_eq!(best_mask(&[0, 9, 1, 0], Some(0)), (3, 0));
        assert_eq!(best_mask(&[0, 9, 1, 0], None), (2, 0));
    }
}
