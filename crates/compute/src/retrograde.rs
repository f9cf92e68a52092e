//! The retrograde kernel: generalized Sprague–Grundy values ([`grundy_core::LoopyValue`]) of
//! every position of a finite game graph that may have cycles.
//!
//! It is not a wave fill: with cycles there is no order in which every option comes first. It
//! runs Fraenkel's labelling algorithm for Smith's function, round by round:
//!
//! 1. round i labels i, as long as one exists, an unlabelled position u that has no option
//!    labelled i and each of whose options that is unlabelled or labelled ∞ has an option
//!    labelled i;
//! 2. then every position still unlabelled that has no option labelled i is labelled ∞;
//! 3. the next round starts while positions are unlabelled.
//!
//! An ∞ position's set K is the finite labels among its options. Step 1 is retrograde: a count
//! per position of its options not yet "covered" (given an option labelled i), brought down as
//! labels arrive, so a round costs the edges of the positions still unlabelled. The labels do
//! not depend on the order in which step 1 finds its positions (Smith's function is unique;
//! and two positions that step 1 could take at the same moment are never option and mover), so
//! the values are the same for every thread count. The graph is built on the current rayon
//! pool, and each round's counts are set up on it; the propagation itself is sequential.
//!
//! A checkpoint of this algorithm would hold the graph's labels after a round (one word per
//! position) and the round's number; the graph itself is rebuilt from the rules.

use crate::memory::{check_bytes, Held, TooLarge};
use crate::progress::Progress;
use grundy_core::LoopyValue;
use rayon::prelude::*;

/// The label of an ∞ position in [`GeneralizedValues`]; finite values lie below it.
pub const INFINITE: u32 = u32::MAX;

/// Not yet labelled, while the algorithm runs.
const UNLABELLED: u32 = u32::MAX - 1;

/// Vertices per parallel task when the graph is built and a round is set up.
const CHUNK: usize = 4096;

/// Why the retrograde kernel stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RetrogradeError {
    /// The graph and the labels would not fit in memory.
    #[error("the game graph has {positions} positions and {moves} moves: {source}")]
    TooLarge {
        /// Positions.
        positions: u64,
        /// Moves counted (options, after repeats are removed).
        moves: u64,
        /// The memory check's refusal.
        source: TooLarge,
    },
    /// More positions than the kernel numbers (2^32 − 2).
    #[error(
        "the game graph has {0} positions, more than the retrograde kernel numbers (2^32 - 2)"
    )]
    TooManyPositions(u64),
    /// The caller asked it to stop.
    #[error("cancelled")]
    Cancelled,
}

/// A finite game graph: each position's options and, for the retrograde steps, its movers
/// (the positions with a move to it), both in compressed rows.
#[derive(Clone, Debug)]
pub struct GameGraph {
    option_start: Vec<u64>,
    options: Vec<u32>,
    mover_start: Vec<u64>,
    movers: Vec<u32>,
}

/// Bytes per position of the graph and the labelling besides its moves: two row starts, the
/// label, the count, the covered flag and a queue slot.
const BYTES_PER_POSITION: u64 = 8 + 8 + 4 + 4 + 1 + 4;

/// Bytes per move: the option and the mover.
const BYTES_PER_MOVE: u64 = 4 + 4;

impl GameGraph {
    /// The graph of `positions` positions, numbered from 0, where `options(u, out)` pushes the
    /// numbers of u's options onto `out` (repeats are removed here). It is called twice per
    /// position, on the current rayon pool: once to count the moves, so that the memory is
    /// checked before anything large is allocated, and once to record them.
    ///
    /// # Errors
    /// Too many positions, or a graph that would not fit in memory.
    pub fn build(
        positions: usize,
        options: impl Fn(usize, &mut Vec<usize>) + Sync,
    ) -> Result<GameGraph, RetrogradeError> {
        if positions as u64 >= u64::from(UNLABELLED) {
            return Err(RetrogradeError::TooManyPositions(positions as u64));
        }
        let listed = |u: usize, out: &mut Vec<usize>| {
            out.clear();
            options(u, out);
            out.sort_unstable();
            out.dedup();
        };
        let degrees: Vec<u32> = (0..positions)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map_init(Vec::new, |out, u| {
                listed(u, out);
                out.len() as u32
            })
            .collect();
        let moves: u64 = degrees.iter().map(|&d| u64::from(d)).sum();
        let needed = u128::from(positions as u64 * BYTES_PER_POSITION + moves * BYTES_PER_MOVE);
        check_bytes(positions as u128, BYTES_PER_POSITION as usize, needed, Held::Table).map_err(
            |source| RetrogradeError::TooLarge { positions: positions as u64, moves, source },
        )?;
        let mut option_start = Vec::with_capacity(positions + 1);
        let mut at = 0u64;
        option_start.push(0);
        for &d in &degrees {
            at += u64::from(d);
            option_start.push(at);
        }
        drop(degrees);
        let mut options_flat = vec![0u32; moves as usize];
        // Each task writes the rows of its own chunk of positions.
        let mut rows: Vec<&mut [u32]> = Vec::with_capacity(positions.div_ceil(CHUNK));
        let mut rest: &mut [u32] = &mut options_flat;
        for first in (0..positions).step_by(CHUNK) {
            let last = (first + CHUNK).min(positions);
            let len = (option_start[last] - option_start[first]) as usize;
            let (row, tail) = rest.split_at_mut(len);
            rows.push(row);
            rest = tail;
        }
        rows.into_par_iter().enumerate().for_each(|(chunk, row)| {
            let mut out = Vec::new();
            let mut at = 0;
            for u in chunk * CHUNK..((chunk + 1) * CHUNK).min(positions) {
                listed(u, &mut out);
                for &v in &out {
                    row[at] = v as u32;
                    at += 1;
                }
            }
        });
        // Movers: counted, then placed, in the order of their positions.
        let mut mover_count = vec![0u64; positions + 1];
        for &v in &options_flat {
            mover_count[v as usize + 1] += 1;
        }
        for u in 0..positions {
            mover_count[u + 1] += mover_count[u];
        }
        let mover_start = mover_count.clone();
        let mut next = mover_count;
        let mut movers = vec![0u32; moves as usize];
        for u in 0..positions {
            for &v in &options_flat[option_start[u] as usize..option_start[u + 1] as usize] {
                movers[next[v as usize] as usize] = u as u32;
                next[v as usize] += 1;
            }
        }
        Ok(GameGraph { option_start, options: options_flat, mover_start, movers })
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.option_start.len() - 1
    }

    /// Whether the graph has no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of moves (options, without repeats).
    pub fn moves(&self) -> usize {
        self.options.len()
    }

    /// The options of position `u`.
    pub fn options(&self, u: usize) -> &[u32] {
        &self.options[self.option_start[u] as usize..self.option_start[u + 1] as usize]
    }

    /// The positions with a move to `u`.
    pub fn movers(&self, u: usize) -> &[u32] {
        &self.movers[self.mover_start[u] as usize..self.mover_start[u + 1] as usize]
    }
}

/// The generalized Sprague–Grundy value of every position of a [`GameGraph`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneralizedValues {
    /// Each position's finite value, or [`INFINITE`].
    labels: Vec<u32>,
}

impl GeneralizedValues {
    /// Each position's label: its finite value, or [`INFINITE`].
    pub fn labels(&self) -> &[u32] {
        &self.labels
    }

    /// The value of position `u`, with K read from its options in `graph` (the graph the
    /// values were computed on).
    pub fn value(&self, graph: &GameGraph, u: usize) -> LoopyValue {
        match self.labels[u] {
            INFINITE => {
                let mut k: Vec<u32> = graph
                    .options(u)
                    .iter()
                    .map(|&v| self.labels[v as usize])
                    .filter(|&l| l != INFINITE)
                    .collect();
                k.sort_unstable();
                k.dedup();
                LoopyValue::Infinite(k)
            }
            finite => LoopyValue::Finite(finite),
        }
    }
}

/// The generalized Sprague–Grundy values of `graph` (see the module's doc); `progress` hears
/// of the positions labelled after each round and may cancel between rounds.
///
/// # Errors
/// [`RetrogradeError::Cancelled`].
pub fn generalized_values(
    graph: &GameGraph,
    progress: &dyn Progress,
) -> Result<GeneralizedValues, RetrogradeError> {
    let n = graph.len();
    let mut labels = vec![UNLABELLED; n];
    let mut uncovered = vec![0u32; n];
    let mut covered = vec![false; n];
    let mut queue: Vec<u32> = Vec::new();
    let mut left = n;
    let mut round = 0u32;
    while left > 0 {
        if progress.cancelled() {
            return Err(RetrogradeError::Cancelled);
        }
        // A position's count: its options that are unlabelled or ∞ (none is covered yet).
        uncovered.par_iter_mut().zip(labels.par_iter()).with_min_len(CHUNK).enumerate().for_each(
            |(u, (count, &label))| {
                *count = if label == UNLABELLED {
                    let open = graph.options(u).iter().filter(|&&v| {
                        let l = labels[v as usize];
                        l == UNLABELLED || l == INFINITE
                    });
                    open.count() as u32
                } else {
                    0
                };
            },
        );
        covered.par_iter_mut().with_min_len(CHUNK).for_each(|c| *c = false);
        queue.clear();
        queue.extend(
            (0..n as u32)
                .filter(|&u| labels[u as usize] == UNLABELLED && uncovered[u as usize] == 0),
        );
        let mut labelled = 0usize;
        while let Some(u) = queue.pop() {
            let u = u as usize;
            if covered[u] || labels[u] != UNLABELLED {
                continue;
            }
            labels[u] = round;
            labelled += 1;
            for &p in graph.movers(u) {
                let p = p as usize;
                if covered[p] {
                    continue;
                }
                covered[p] = true;
                let open = labels[p] == UNLABELLED || labels[p] == INFINITE;
                if !open {
                    continue;
                }
                for &q in graph.movers(p) {
                    let q = q as usize;
                    if labels[q] == UNLABELLED {
                        uncovered[q] -= 1;
                        if uncovered[q] == 0 && !covered[q] {
                            queue.push(q as u32);
                        }
                    }
                }
            }
        }
        left -= labelled;
        // Unlabelled positions without an option labelled `round` are ∞ from now on.
        let infinite: usize = labels
            .par_iter_mut()
            .zip(&covered)
            .with_min_len(CHUNK)
            .map(|(label, &c)| {
                if *label == UNLABELLED && !c {
                    *label = INFINITE;
                    1
                } else {
                    0
                }
            })
            .sum();
        left -= infinite;
        progress.advance((labelled + infinite) as u64);
        round += 1;
    }
    Ok(GeneralizedValues { labels })
}
