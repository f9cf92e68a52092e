//! The pipeline of two workers (all of the kernel's `unsafe`: the values shared between them).

use super::*;

impl<'a, C: Cell> Pipeline<'a, C> {
    pub(super) fn new(values: &'a mut [C], from: usize, to: usize) -> Pipeline<'a, C> {
        Pipeline {
            values: Shared::new(values),
            to,
            final_heaps: CachePadded::new(AtomicUsize::new(from)),
            next: CachePadded::new(AtomicUsize::new(from)),
            too_wide: AtomicUsize::new(usize::MAX),
            slots: (0..SLOTS).map(|_| Slot::default()).collect(),
        }
    }

    /// Takes heaps one after another until none is left or a value does not fit.
    pub(super) fn work(&self, worker: &mut Worker, moves: &HeapMoves) {
        loop {
            let n = self.next.fetch_add(1, Ordering::Relaxed);
            if n >= self.to || self.too_wide.load(Ordering::Relaxed) != usize::MAX {
                return;
            }
            let Some(known) = self.final_from(n.saturating_sub(LOOKAHEAD)) else { return };
            worker.state.catch_up(known);
            let mut heap = std::mem::take(&mut *self.slot(n).heap.lock().expect(POISONED));
            worker.state.begin_any(moves, known, n, &mut heap);
            if self.final_heaps.load(Ordering::Acquire) != n {
                match self.park(heap) {
                    Some(back) => heap = back,
                    None => continue,
                }
            }
            // Every heap below this one is final, and no other worker holds it: finish it, and
            // the parked heaps that wait on it.
            loop {
                // SAFETY: heaps below `heap.n` are final: written once, before the release
                // (or SeqCst) store of `final_heaps` that this worker saw, and never again.
                let all = unsafe { self.values.slice(0, heap.n) };
                let value = heap.finish(moves, all);
                let Some(cell) = C::from_nimber(Nimber(value)) else {
                    self.too_wide.store(heap.n, Ordering::Relaxed);
                    return;
                };
                // SAFETY: no other worker writes heap n (it is this worker's), and none reads it
                // before the store below makes it final.
                unsafe { *self.values.get_mut(heap.n) = cell };
                let (done, next) = (heap.n, heap.n + 1);
                worker.cost += heap.cost;
                // The heap's scratch space goes back to its slot, for heap n + SLOTS.
                *self.slot(done).heap.lock().expect(POISONED) = heap;
                self.final_heaps.store(next, Ordering::SeqCst);
                match self.unpark(next) {
                    Some(parked) => heap = parked,
                    None => break,
                }
            }
        }
    }

    /// Parks a heap whose smaller heaps were not all final at its first step, unless the last of
    /// them became final meanwhile: then it is handed back, for this worker to finish.
    ///
    /// The race with the worker that makes heap n − 1 final is settled as in Dekker's algorithm:
    /// this worker marks the slot, then reads `final_heaps`; that one stores `final_heaps`, then
    /// reads the mark (all sequentially consistent). One of them sees the other's write, and the
    /// mark's swap lets exactly one take the heap.
    pub(super) fn park(&self, heap: HeapInProgress) -> Option<HeapInProgress> {
        let n = heap.n;
        let slot = self.slot(n);
        *slot.heap.lock().expect(POISONED) = heap;
        slot.marked.store(true, Ordering::SeqCst);
        if self.final_heaps.load(Ordering::SeqCst) == n {
            return self.unpark(n);
        }
        None
    }

    /// Heap n if it is parked and no other worker took it first.
    pub(super) fn unpark(&self, n: usize) -> Option<HeapInProgress> {
        let slot = self.slot(n);
        slot.marked
            .swap(false, Ordering::SeqCst)
            .then(|| std::mem::take(&mut *slot.heap.lock().expect(POISONED)))
    }

    pub(super) fn slot(&self, n: usize) -> &Slot {
        &self.slots[n % SLOTS]
    }

    /// Every final heap once heaps 0..len are, or `None` when a value did not fit first (the
    /// heaps from there on are abandoned, and computed again in wider cells).
    pub(super) fn final_from(&self, len: usize) -> Option<&[C]> {
        let mut spins = 0u32;
        loop {
            let done = self.final_heaps.load(Ordering::Acquire);
            if done >= len {
                // SAFETY: heaps below `done` are final: written once, before the release store
                // that the acquire load above saw, and never written again.
                return Some(unsafe { self.values.slice(0, done) });
            }
            if self.too_wide.load(Ordering::Relaxed) != usize::MAX {
                return None;
            }
            // The wait is for a heap of the other worker: usually short, so spin, and give the
            // core away only when it is not (an oversubscribed machine).
            if spins < 1 << 12 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Where the run stopped: at the heap whose value did not fit, or at the end. Every heap
    /// before it is final.
    pub(super) fn stopped_at(&self) -> usize {
        let stop = self.too_wide.load(Ordering::Relaxed).min(self.to);
        debug_assert_eq!(self.final_heaps.load(Ordering::Relaxed), stop);
        stop
    }
}
