use mpi::environment::Universe;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::Threading;

/// A worker asks for an item (its message holds the last result, if any).
const ASK: i32 = 1;
/// Rank 0 hands out an item (its index), or `STOP`.
const GIVE: i32 = 2;
/// A worker's item failed (the message says why); rank 0 ends the job.
const FAIL: i32 = 3;
/// The index that tells a worker there is no more work.
const STOP: u64 = u64::MAX;

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
    pub fn can_link(&self) -> Result<(), String> {
        if !self.threads {
            return Err("the MPI library does not allow MPI calls from threads other than the \
                        first (MPI_THREAD_SERIALIZED), which a distributed fill makes"
                .to_string());
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
    /// item into bytes, or into a message that ends the job.
    pub fn share(
        &self,
        items: &[usize],
        work: impl Fn(usize) -> Result<Vec<u8>, String>,
        mut done: impl FnMut(usize, &[u8]),
    ) -> Option<Vec<Vec<u8>>> {
        if self.rank() == 0 {
            Some(self.hand_out(items, &mut done))
        } else {
            self.ask_for_work(work);
            None
        }
    }

    fn hand_out(&self, items: &[usize], done: &mut impl FnMut(usize, &[u8])) -> Vec<Vec<u8>> {
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
                eprintln!("grundy: error: {}", String::from_utf8_lossy(&message));
                self.abort(2);
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
        results.into_iter().map(|r| r.expect("every item came back")).collect()
    }

    fn ask_for_work(&self, work: impl Fn(usize) -> Result<Vec<u8>, String>) {
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
                    root.send_with_tag(why.as_bytes(), FAIL);
                    // Rank 0 aborts the job; wait for it.
                    let _ = root.receive_with_tag::<u64>(GIVE);
                    return;
                }
            };
        }
    }
}
