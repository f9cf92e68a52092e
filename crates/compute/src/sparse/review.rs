//! The search's state made and reviewed: a new state, the mask chosen again as the heaps double
//! (and whenever the rare positions have doubled), and a state rebuilt from known values. Kept
//! apart from the per-heap steps, which stay beside the kernel's hot helpers.

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
