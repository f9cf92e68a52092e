//! [`grundy_compute::bands::Link`] over MPI: the ranks of a distributed fill.

use grundy_compute::bands::{Channel, Link};
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use std::sync::mpsc::{channel, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The tag of each channel (apart from the work list's tags, 1 to 3).
fn tag(channel: Channel) -> i32 {
    match channel {
        Channel::Edge => 10,
        Channel::Rows => 11,
    }
}

/// The ranks of the job as a [`Link`]. Sends go through a thread of their own, so that a rank
/// never waits for its receiver (the fill's contract); a receive waits on the calling thread.
/// Waiting ranks poll and then sleep instead of spinning, so that on a machine with more ranks
/// than cores the waiting ones leave the cores to those computing.
pub struct MpiLink {
    world: SimpleCommunicator,
    sends: Option<Sender<(usize, i32, Vec<u8>)>>,
    sender: Option<JoinHandle<()>>,
}

impl MpiLink {
    pub(crate) fn new() -> MpiLink {
        let (sends, queue) = channel::<(usize, i32, Vec<u8>)>();
        let sender = std::thread::spawn(move || {
            let world = SimpleCommunicator::world();
            for (to, tag, message) in queue {
                mpi::request::scope(|scope| {
                    let mut request = world.process_at_rank(to as i32).immediate_send_with_tag(
                        scope,
                        &message[..],
                        tag,
                    );
                    let mut wait = Backoff::new();
                    loop {
                        match request.test() {
                            Ok(_) => break,
                            Err(pending) => request = pending,
                        }
                        wait.pause();
                    }
                });
            }
        });
        MpiLink { world: SimpleCommunicator::world(), sends: Some(sends), sender: Some(sender) }
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
        self.sends
            .as_ref()
            .expect("open until dropped")
            .send((to, tag(channel), message))
            .expect("the sending thread runs until the link is dropped");
    }

    fn receive(&self, from: usize, channel: Channel) -> Vec<u8> {
        let process = self.world.process_at_rank(from as i32);
        let mut wait = Backoff::new();
        while process.immediate_probe_with_tag(tag(channel)).is_none() {
            wait.pause();
        }
        process.receive_vec_with_tag::<u8>(tag(channel)).0
    }
}

impl Drop for MpiLink {
    /// Waits until every message sent has been received, so that MPI may be finalised.
    fn drop(&mut self) {
        drop(self.sends.take());
        if let Some(sender) = self.sender.take() {
            let _ = sender.join();
        }
    }
}

/// Waiting for a message: polls as fast as it can for a while (messages between ranks of one
/// node arrive within microseconds), then sleeps between polls.
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
