//! The executor: runs a plan's waves in order, the units of each wave on the current rayon pool
//! (or on the calling thread), and after every wave reports progress, asks whether to cancel and
//! hands the store to one callback — where checkpoints are saved and streamed rows are written.
//!
//! It runs on whatever rayon pool it is called in: the caller owns the threads (a fill asked for
//! `threads` builds its pool and installs it around the run; a notebook may install its own).

use crate::plan::{Plan, Unit, WaveMark};
use crate::progress::{Control, Progress};
use grundy_core::MexSet;
use rayon::prelude::*;

/// Waves with fewer cells than this run on the calling thread: splitting them costs more than it
/// saves. The result does not depend on it.
const PARALLEL_CELLS: u64 = 64;

/// Where a fill's values live: what the executor needs of a store (the dense table, the ring
/// of rows, the sparse-space store), defined here so that the stores depend on the executor and
/// not the other way round.
pub(crate) trait Store {
    /// The kernel that computes the store's units.
    type Kernel;

    /// Computes the units of one wave with `kernel`, through `executor`; returns the number of
    /// cells made final.
    fn fill_wave(&mut self, kernel: &Self::Kernel, units: &[Unit], executor: Executor) -> u64;
}

/// How the units of a wave are run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Executor {
    /// One after another, on the calling thread.
    Sequential,
    /// In parallel on the current rayon pool.
    Rayon,
}

impl Executor {
    /// `work` applied to every unit, each with scratch space (one per task), the results
    /// combined with `combine` (associative, with `empty` as its identity): the order of
    /// combination is not fixed, so the result must not depend on it.
    pub(crate) fn map_reduce<R: Send>(
        self,
        units: &[Unit],
        work: impl Fn(&Unit, &mut MexSet) -> R + Sync + Send,
        empty: impl Fn() -> R + Sync + Send,
        combine: impl Fn(R, R) -> R + Sync + Send,
    ) -> R {
        let parallel = self == Executor::Rayon
            && units.len() > 1
            && units.iter().map(Unit::cells).sum::<u64>() >= PARALLEL_CELLS;
        if parallel {
            units
                .par_iter()
                .map_init(MexSet::new, |mex, unit| work(unit, mex))
                .reduce(&empty, &combine)
        } else {
            let mut mex = MexSet::new();
            units.iter().fold(empty(), |done, unit| combine(done, work(unit, &mut mex)))
        }
    }

    /// Runs the waves of `plan` from wave `from` with `kernel` into `store`. After every wave,
    /// `after_wave` sees the store and the new mark, and may stop the run; before every wave
    /// `progress` may cancel it. Returns the mark reached: complete unless stopped.
    pub(crate) fn run<S: Store>(
        self,
        plan: &Plan,
        from: usize,
        kernel: &S::Kernel,
        store: &mut S,
        progress: &dyn Progress,
        after_wave: &mut dyn FnMut(&S, WaveMark) -> Control,
    ) -> WaveMark {
        let waves = plan.waves();
        let mut units = Vec::new();
        for wave in from..waves {
            // The caller has seen every finished wave (to save it) before a cancellation stops
            // the run; the mark it gets back then says how far it went.
            if progress.cancelled() {
                return plan.mark(wave);
            }
            plan.units_into(wave, &mut units);
            let cells = store.fill_wave(kernel, &units, self);
            progress.advance(cells);
            if after_wave(store, plan.mark(wave + 1)) == Control::Stop {
                return plan.mark(wave + 1);
            }
        }
        plan.mark(waves)
    }
}
