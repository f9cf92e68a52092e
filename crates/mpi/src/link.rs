//! [`grundy_compute::bands::Link`] over MPI: the ranks of a distributed fill.

use grundy_compute::bands::{Channel, Link};
use mpi::point_to_point::{Destination, Source};
use mpi::request::{Request, StaticScope};
use mpi::topology::{Communicator, SimpleCommunicator};
use std::cell::RefCell;
use std::time::{Duration, Instant};

/// The tag of each channel (apart from the work list's tags, 1 to 3).
fn tag(channel: Channel) -> i32 {
    match channel {
        Channel::Edge => 10,
        Channel::Rows => 11,
    }
}

/// The ranks of the job as a [`Link`], used from the thread that made it. Sends are immediate
/// (`MPI_Isend`), so a rank never waits for its receiver (the fill's contract): each message is
/// kept until MPI says it is sent, and every call of the link completes the sends that are done.
/// Receives poll, then sleep between polls, so that on a machine with more ranks than cores the
/// waiting ones leave the cores to those computing.
pub struct MpiLink {
    world: SimpleCommunicator,
    sending: RefCell<Vec<Sending>>,
    stats: RefCell<LinkStats>,
}

/// What a rank's link carried, for a model of the fill's scale.
#[derive(Clone, Copy, Debug, Default)]
pub struct LinkStats {
    /// Messages sent.
    pub messages: u64,
    /// Bytes sent.
    pub bytes: u64,
    /// Time spent waiting for a message.
    pub waited: Duration,
}

/// A message on its way: the request and the buffer it reads, which is freed only once the
/// request is complete.
struct Sending {
    request: Request<'static, [u8]>,
    buffer: *mut [u8],
}

impl MpiLink {
    /// The link of this job's ranks (see [`crate::Cluster::can_link`]), for the calling thread.
    pub fn connect() -> MpiLink {
        MpiLink {
            world: SimpleCommunicator::world(),
            sending: RefCell::new(Vec::new()),
            stats: RefCell::new(LinkStats::default()),
        }
    }

    /// What the link carried so far.
    pub fn stats(&self) -> LinkStats {
        *self.stats.borrow()
    }

    /// Frees the buffers of the sends that are complete; with `all`, waits for every send.
    fn complete_sends(&self, all: bool) {
        let mut sending = self.sending.borrow_mut();
        let mut wait = Backoff::new();
        loop {
            let mut pending = Vec::with_capacity(sending.len());
            for Sending { request, buffer } in sending.drain(..) {
                match request.test() {
                    // SAFETY: `buffer` came from `Box::leak` in `send`, and the only reference
                    // to it, the request's, ended with the request.
                    Ok(_) => drop(unsafe { Box::from_raw(buffer) }),
                    Err(request) => pending.push(Sending { request, buffer }),
                }
            }
            *sending = pending;
            if !all || sending.is_empty() {
                return;
            }
            wait.pause();
        }
    }
}

impl Link for MpiLink {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn ranks(&self) -> usize {
        self.world.size() as usize
    }

    fn send(&self, to: usize, channel: Channel, message: Vec<u8>) {
        self.complete_sends(false);
        let mut stats = self.stats.borrow_mut();
        stats.messages += 1;
        stats.bytes += message.len() as u64;
        // MPI reads the buffer until the request completes, after this call returns: it lives
        // on the heap, owned by `sending`, until then.
        let buffer: *mut [u8] = Box::leak(message.into_boxed_slice());
        // SAFETY: the buffer is not written or freed until the request is complete
        // (`complete_sends`).
        let shared: &'static [u8] = unsafe { &*buffer };
        let request = self.world.process_at_rank(to as i32).immediate_send_with_tag(
            StaticScope,
            shared,
            tag(channel),
        );
        self.sending.borrow_mut().push(Sending { request, buffer });
    }

    fn receive(&self, from: usize, channel: Channel) -> Vec<u8> {
        let process = self.world.process_at_rank(from as i32);
        let mut wait = Backoff::new();
        loop {
            self.complete_sends(false);
            if process.immediate_probe_with_tag(tag(channel)).is_some() {
                self.stats.borrow_mut().waited += wait.since.elapsed();
                return process.receive_vec_with_tag::<u8>(tag(channel)).0;
            }
            wait.pause();
        }
    }
}

impl Drop for MpiLink {
    /// Waits until every message sent has been received, so that MPI may be finalised.
    fn drop(&mut self) {
        self.complete_sends(true);
    }
}

/// Waiting for MPI: polls as fast as it can for a while (messages between ranks of one node
/// arrive within microseconds), then sleeps between polls.
struct Backoff {
    since: Instant,
}

impl Backoff {
    fn new() -> Backoff {
        Backoff { since: Instant::now() }
    }

    fn pause(&mut self) {
        if self.since.elapsed() < Duration::from_micros(200) {
            std::thread::yield_now();
        } else {
            std::thread::sleep(Duration::from_micros(50));
        }
    }
}
