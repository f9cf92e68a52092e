use mpi::environment::Universe;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::Threading;
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
    /// A worker's item failed: the worker's message says why (rank 0 reports it, and ends the
    /// job).
    ItemFailed {
        /// The item.
        item: usize,
        /// What the worker said.
        message: String,
    },
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClusterError::NoThreads => f.write_str(
                "the MPI library does not allow MPI calls from threads other than the first \
                 (MPI_THREAD_SERIALIZED), which a distributed fill makes",
            ),
            ClusterError::ItemFailed { message, .. } => f.write_str(message),
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
    /// # Errors
    /// On rank 0, [`ClusterError::ItemFailed`] as soon as a worker's item failed: the caller
    /// says so and ends the job ([`Cluster::abort`]), since the other ranks wait for work.
    pub fn share<E: fmt::Display>(
        &self,
        items: &[usize],
        work: impl Fn(usize) -> Result<Vec<u8>, E>,
        mut done: impl FnMut(usize, &[u8]),
    ) -> Result<Option<Vec<Vec<u8>>>, ClusterError> {
        if self.rank() == 0 {
            self.hand_out(items, &mut done).map(Some)
        } else {
            self.ask_for_work(work);
            Ok(None)
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
        while working > 0 {
            // A request: an empty message, or a finished item (8 bytes) and its result; or, with
            // the tag FAIL, why an item failed.
            let (message, status) = self.world.any_process().receive_vec::<u8>();
            if status.tag() == FAIL {
                let item = u64::from_le_bytes(message[..8].try_into().expect("8 bytes")) as usize;
                let message = String::from_utf8_lossy(&message[8..]).into_owned();
                return Err(ClusterError::ItemFailed { item, message });
            }
            if message.len() >= 8 {
                let item = u64::from_le_bytes(message[..8].try_into().expect("8 bytes")) as usize;
                done(item, &message[8..]);
                results[position[&item]] = Some(message[8..].to_vec());
            }
            let reply = if next < items.len() {
                next += 1;
                items[next - 1] as u64
            } else {
                working -= 1;
                STOP
            };
            self.world.process_at_rank(status.source_rank()).send_with_tag(&reply, GIVE);
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
                    // Rank 0 aborts the job; wait for it.
                    let _ = root.receive_with_tag::<u64>(GIVE);
                    return;
                }
            };
        }
    }
}
