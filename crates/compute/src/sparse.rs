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

mod tail;

use crate::executor::{Executor, Store};
use crate::plan::Unit;
use crate::shared::Shared;
use crossbeam_utils::CachePadded;
use grundy_core::{Cell, CellWidth, Coord, Game, GrundyTable, Nimber, Repeating, Rule, TableShape};
use std::fmt;
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

impl SparseRecords {
    /// Whether the heap of size `heap` with value `value` is one of the rare positions these
    /// records count (heap sizes from 1).
    pub fn is_rare(&self, heap: u64, value: u32) -> bool {
        heap >= 1 && class(self.mask, value, (heap & 1) as usize) == self.rare_class
    }
}

/// Whether `game` over `shape` has sparse-space records (see [`sparse_records`]): why not, if not.
pub fn has_sparse_records(game: &Game, shape: &TableShape) -> Result<(), NotSparse> {
    HeapMoves::new(game, shape).map(|_| ())
}

/// The records of the sequence `values` (heap sizes 0, 1, …) of a game the sparse-space engine
/// computes (see [`crate::engine::Engine::Sparse`]): what the engine's mask review settles on when it
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

/// [`sparse_records`] of a sequence that repeats after a preperiod (a heap game's values past a
/// proved period), counted from its repeating part: the same records as for its values written
/// out, since the mask review reads only the histogram of extended values.
pub(crate) fn sparse_records_repeating(
    game: &Game,
    shape: &TableShape,
    values: &Repeating<'_>,
) -> Result<SparseRecords, NotSparse> {
    let moves = HeapMoves::new(game, shape)?;
    let odd_masks = SparseState::new(&moves).odd_masks;
    let (mask, rare_class) = best_mask(&values.extended_histogram(), odd_masks);
    let rare = |value: u32, parity: usize| class(mask, value, parity) == rare_class;
    Ok(SparseRecords {
        mask,
        rare_class,
        // Rare positions are counted from heap size 1, as the engine keeps them.
        rare: values.count_where(1, rare),
        last_rare: values.last_where(rare).unwrap_or(0),
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
mod state;
#[cfg(test)]
mod tests;
