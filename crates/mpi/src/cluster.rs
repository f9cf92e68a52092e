use mpi::collective::{CommunicatorCollectives, SystemOperation};
use mpi::environment::Universe;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::Threading;
use std::cell::Cell;
use std::fmt;

/// A worker asks for an item (its message holds the last result, if any).
const ASK: i32 = 1;
/// Rank 0 hands out an item (its index), or `STOP`.
const GIVE: i32 = 2;
/// A worker's item failed (the message says why); rank 0 ends the job.
const FAIL: i32 = 3;
/// The index that tells a worker there is no more work.
const STOP: u64 = u64::MAX;

/// Why the ranks of a job cannot do what was asked of them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClusterError {
    /// The MPI library does not allow MPI calls from threads other than the first
    /// (`MPI_THREAD_SERIALIZED`), which a distributed fill makes.
    NoThreads,
    /// A worker's item failed: the worker's message says why. Rank 0 hands out no more items,
    /// waits for the items in hand and reports it; every rank ends normally.
    ItemFailed {
        /// The item.
        item: usize,
        /// What the worker said.
        message: String,
    },
    /// On a worker: rank 0 failed before it handed out any item (and said why); the worker
    /// ends quietly.
    NotStarted,
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClusterError::NoThreads => f.write_str(
                "the MPI library does not allow MPI calls from threads other than the first \
                 (MPI_THREAD_SERIALIZED), which a distributed fill makes",
            ),
            ClusterError::ItemFailed { message, .. } => f.write_str(message),
            ClusterError::NotStarted => f.write_str("rank 0 ended before it handed out any work"),
        }
    }
}

impl std::error::Error for ClusterError {}

/// An MPI job of two ranks or more.
pub struct Cluster {
    _universe: Universe,
    world: SimpleCommunicator,
    /// Whether MPI may be called from any thread (one at a time).
    threads: bool,
    /// Whether rank 0 has told the workers that [`Cluster::share`] starts (or that it does not).
    told: Cell<bool>,
}

impl Cluster {
    /// The job this process belongs to, when it was started by `mpirun` with two ranks or
    /// more; `None` for a job of one (a plain run: the caller does the work itself).
    pub fn join() -> Option<Cluster> {
        // A distributed fill calls MPI from a thread of the fill's pool (one at a time).
        let (universe, threading) = mpi::initialize_with_threading(Threading::Serialized)?;
        let world = universe.world();
        (world.size() > 1).then_some(Cluster {
            _universe: universe,
            world,
            threads: matches!(threading, Threading::Serialized | Threading::Multiple),
            told: Cell::new(false),
        })
    }

    /// Whether the ranks can run a distributed fill ([`crate::MpiLink::connect`], on any one thread), or
    /// why not.
    ///
    /// # Errors
    /// [`ClusterError::NoThreads`].
    pub fn can_link(&self) -> Result<(), ClusterError> {
        if !self.threads {
            return Err(ClusterError::NoThreads);
        }
        Ok(())
    }

    /// This rank (0 gathers the results and writes the output).
    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    /// The number of ranks.
    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// Whether every rank is `ready`: a collective call, which every rank makes at the same
    /// point. A job whose rank found an error before any other message ends through it, every
    /// rank returning normally: `MPI_Abort` can end the job before what the rank printed has
    /// reached the terminal (MPICH's launcher forwards standard error as it comes and stops
    /// forwarding when the job is aborted).
    pub fn all_ready(&self, ready: bool) -> bool {
        let mut all = false;
        self.world.all_reduce_into(&ready, &mut all, SystemOperation::logical_and());
        all
    }

    /// Ends the whole job with `code` (after rank 0 has said why).
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }

    /// `items` (numbers every rank understands, e.g. members of a family every rank listed)
    /// worked on by the ranks other than 0, one at a time as they ask: on rank 0,
    /// `Some(results)` in the order of `items` once all are done (`done(item, result)` is
    /// called as each comes in); on the others, `None` once rank 0 has no more. `work` turns an
    /// item into bytes, or into an error whose message goes to rank 0.
    ///
    /// Every rank returns: rank 0 stops handing out items when one fails, and waits for the
    /// items in hand. Nothing needs [`Cluster::abort`], which can lose what rank 0 printed.
    ///
    /// # Errors
    /// On rank 0, [`ClusterError::ItemFailed`] when a worker's item failed (the first to fail).
    /// On a worker, [`ClusterError::NotStarted`] when rank 0 called
    /// [`Cluster::end_before_sharing`] instead of `share`.
    pub fn share<E: fmt::Display>(
        &self,
        items: &[usize],
        work: impl Fn(usize) -> Result<Vec<u8>, E>,
        mut done: impl FnMut(usize, &[u8]),
    ) -> Result<Option<Vec<Vec<u8>>>, ClusterError> {
        if self.rank() == 0 {
            self.told.set(true);
            self.all_ready(true);
            self.hand_out(items, &mut done).map(Some)
        } else {
            if !self.all_ready(true) {
                return Err(ClusterError::NotStarted);
            }
            self.ask_for_work(work);
            Ok(None)
        }
    }

    /// On rank 0, after an error before [`Cluster::share`]: the workers waiting in `share` end
    /// (with [`ClusterError::NotStarted`]) rather than wait for work. Does nothing once `share`
    /// has started, or on a worker.
    pub fn end_before_sharing(&self) {
        if self.rank() == 0 && !self.told.replace(true) {
            self.all_ready(false);
        }
    }

    fn hand_out(
        &self,
        items: &[usize],
        done: &mut impl FnMut(usize, &[u8]),
    ) -> Result<Vec<Vec<u8>>, ClusterError> {
        let position: std::collections::HashMap<usize, usize> =
            items.iter().enumerate().map(|(at, &item)| (item, at)).collect();
        let mut results: Vec<Option<Vec<u8>>> = vec![None; items.len()];
        let mut next = 0;
        let mut working = self.size() - 1;
        let mut failed = None;
        while working > 0 {
            // A request: an empty message, or a finished item (8 bytes) and its result; or, with
            // the tag FAIL, why an item failed.
            let (message, status) = self.world.any_process().receive_vec::<u8>();
            if status.tag() == FAIL {
                let item = u64::from_le_bytes(message[..8].try_into().expect("8 bytes")) as usize;
                let message = String::from_utf8_lossy(&message[8..]).into_owned();
                failed.get_or_insert(ClusterError::ItemFailed { item, message });
            } else if message.len() >= 8 && failed.is_none() {
                let item = u64::from_le_bytes(message[..8].try_into().expect("8 bytes")) as usize;
                done(item, &message[8..]);
                results[position[&item]] = Some(message[8..].to_vec());
            }
            let reply = if next < items.len() && failed.is_none() {
                next += 1;
                items[next - 1] as u64
            } else {
                working -= 1;
                STOP
            };
            self.world.process_at_rank(status.source_rank()).send_with_tag(&reply, GIVE);
        }
        if let Some(failed) = failed {
            return Err(failed);
        }
        Ok(results.into_iter().map(|r| r.expect("every item came back")).collect())
    }

    fn ask_for_work<E: fmt::Display>(&self, work: impl Fn(usize) -> Result<Vec<u8>, E>) {
        let root = self.world.process_at_rank(0);
        let mut message: Vec<u8> = Vec::new();
        loop {
            root.send_with_tag(&message[..], ASK);
            let (item, _) = root.receive_with_tag::<u64>(GIVE);
            if item == STOP {
                return;
            }
            message = match work(item as usize) {
                Ok(result) => {
                    let mut m = item.to_le_bytes().to_vec();
                    m.extend(result);
                    m
                }
                Err(why) => {
                    let mut m = item.to_le_bytes().to_vec();
                    m.extend(why.to_string().as_bytes());
                    root.send_with_tag(&m[..], FAIL);
                    // Rank 0 answers STOP.
                    let _ = root.receive_with_tag::<u64>(GIVE);
                    return;
                }
            };
        }
    }
}
