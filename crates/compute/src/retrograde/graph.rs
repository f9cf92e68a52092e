//! The game graph: every position of the board numbered, with its moves in both directions.

use super::*;

impl GameGraph {
    /// The graph of `positions` positions, numbered from 0, where `options(u, out)` pushes the
    /// numbers of u's options onto `out` (repeats are removed here). It is called twice per
    /// position, on the current rayon pool: once to count the moves, so that the memory is
    /// checked before anything large is allocated, and once to record them.
    ///
    /// # Errors
    /// Too many positions, or a graph that would not fit in memory.
    pub fn build(
        memory: &MemoryPool,
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
        let (degrees, moves) = count_moves(memory, positions, &listed)?;
        let (option_start, options_flat) = record_options(positions, degrees, moves, &listed);
        let (mover_start, movers) = movers_of(positions, &option_start, &options_flat, moves);
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

/// Every position's number of moves, and their sum, counted on the pool once the graph is
/// known to fit: refused from a sample of positions when even its estimate is far too large,
/// else by a count that stops once the graph cannot fit.
fn count_moves(
    memory: &MemoryPool,
    positions: usize,
    listed: &(impl Fn(usize, &mut Vec<usize>) + Sync),
) -> Result<(Vec<u32>, u64), RetrogradeError> {
    let check_bytes =
        |cells, cell_bytes, needed, held| memory.check_bytes(cells, cell_bytes, needed, held);
    let available = || memory.available();
    // A board of slides far too large is refused in seconds, not after counting every
    // move: first from a sample of positions, when even its estimate is half as large
    // again as what is available, then by a count that stops once the graph cannot fit.
    let limit = available().map(|a| a.bytes);
    let fixed = positions as u64 * BYTES_PER_POSITION;
    let refuse = |moves: u64, counted: Counted| {
        let needed = u128::from(fixed) + u128::from(moves) * u128::from(BYTES_PER_MOVE);
        let memory =
            check_bytes(positions as u128, BYTES_PER_POSITION as usize, needed, Held::Table)
                .err()
                .unwrap_or_else(|| TooLarge {
                    cells: positions as u128,
                    cell_bytes: BYTES_PER_POSITION as u32,
                    needed,
                    available: available()
                        .or(limit.map(|bytes| Available { bytes, bound: Bound::Machine })),
                    held: Held::Table,
                    lines: 0,
                    besides: Box::default(),
                    reserved: Box::default(),
                });
        RetrogradeError::TooLarge {
            positions: positions as u64,
            moves,
            counted,
            memory: Box::new(memory),
        }
    };
    if let (Some(limit), true) = (limit, positions > SAMPLE) {
        let sampled: u64 = (0..SAMPLE)
            .into_par_iter()
            .map_init(Vec::new, |out, i| {
                listed(i * (positions / SAMPLE), out);
                out.len() as u64
            })
            .sum();
        let estimate = sampled * (positions as u64 / SAMPLE as u64);
        if (fixed + estimate * BYTES_PER_MOVE) as u128 * 2 > u128::from(limit) * 3 {
            return Err(refuse(estimate, Counted::About));
        }
    }
    let counted = AtomicU64::new(0);
    let over = AtomicBool::new(false);
    let degrees: Vec<u32> = (0..positions)
        .into_par_iter()
        .with_min_len(CHUNK)
        .map_init(Vec::new, |out, u| {
            if over.load(Ordering::Relaxed) {
                return 0;
            }
            listed(u, out);
            let total = counted.fetch_add(out.len() as u64, Ordering::Relaxed);
            if limit.is_some_and(|limit| fixed + total * BYTES_PER_MOVE > limit) {
                over.store(true, Ordering::Relaxed);
            }
            out.len() as u32
        })
        .collect();
    let moves: u64 = degrees.iter().map(|&d| u64::from(d)).sum();
    if over.load(Ordering::Relaxed) {
        return Err(refuse(moves, Counted::AtLeast));
    }
    let needed = u128::from(fixed + moves * BYTES_PER_MOVE);
    if check_bytes(positions as u128, BYTES_PER_POSITION as usize, needed, Held::Table).is_err() {
        return Err(refuse(moves, Counted::All));
    }
    Ok((degrees, moves))
}

/// The options of every position, row by row (`degrees` of them each), written on the pool.
fn record_options(
    positions: usize,
    degrees: Vec<u32>,
    moves: u64,
    listed: &(impl Fn(usize, &mut Vec<usize>) + Sync),
) -> (Vec<u64>, Vec<u32>) {
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
    (option_start, options_flat)
}

/// The movers of every position (the positions that move to it), from the options: counted
/// and placed on the pool (each placement reserves its slot with an atomic add), then each row
/// sorted, so that the graph is the same on every thread count.
fn movers_of(
    positions: usize,
    option_start: &[u64],
    options_flat: &[u32],
    moves: u64,
) -> (Vec<u64>, Vec<u32>) {
    // Movers: counted and placed on the pool (each placement reserves its slot with an
    // atomic add), then each row sorted, so that the graph is the same on every thread
    // count.
    let counts: Vec<AtomicU64> =
        (0..=positions).into_par_iter().map(|_| AtomicU64::new(0)).collect();
    options_flat.par_iter().with_min_len(CHUNK).for_each(|&v| {
        counts[v as usize + 1].fetch_add(1, Ordering::Relaxed);
    });
    let mut mover_start: Vec<u64> = counts.into_par_iter().map(AtomicU64::into_inner).collect();
    for u in 0..positions {
        mover_start[u + 1] += mover_start[u];
    }
    let next: Vec<AtomicU64> =
        mover_start[..positions].par_iter().map(|&start| AtomicU64::new(start)).collect();
    let placed: Vec<AtomicU32> = (0..moves).into_par_iter().map(|_| AtomicU32::new(0)).collect();
    (0..positions).into_par_iter().with_min_len(CHUNK).for_each(|u| {
        let row = option_start[u] as usize..option_start[u + 1] as usize;
        for &v in &options_flat[row] {
            let at = next[v as usize].fetch_add(1, Ordering::Relaxed) as usize;
            placed[at].store(u as u32, Ordering::Relaxed);
        }
    });
    // Collected in place (an atomic has its integer's layout): no second array.
    let mut movers: Vec<u32> = placed.into_iter().map(AtomicU32::into_inner).collect();
    drop(next);
    let mut rows: Vec<(usize, &mut [u32])> = Vec::with_capacity(positions.div_ceil(CHUNK));
    let mut rest: &mut [u32] = &mut movers;
    for first in (0..positions).step_by(CHUNK) {
        let last = (first + CHUNK).min(positions);
        let len = (mover_start[last] - mover_start[first]) as usize;
        let (chunk, tail) = rest.split_at_mut(len);
        rows.push((first, chunk));
        rest = tail;
    }
    rows.into_par_iter().for_each(|(first, chunk)| {
        let base = mover_start[first];
        for v in first..(first + CHUNK).min(positions) {
            let row = (mover_start[v] - base) as usize..(mover_start[v + 1] - base) as usize;
            chunk[row].sort_unstable();
        }
    });
    (mover_start, movers)
}
