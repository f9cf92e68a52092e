//! How the ranks of a distributed fill reach each other: two ordered channels between every pair
//! of ranks ([`Link`]), MPI's on a cluster (`grundy-mpi`), channels in the tests, none for a
//! fill of one rank ([`SoloLink`]).

/// The channels between two ranks (each delivered in order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Band b's cells and line summaries that band b + 1 reads, one tile column at a time.
    Edge,
    /// Finished bands' rows; and first, from rank 0, where the fill starts.
    Rows,
}

/// How the ranks of a distributed fill reach each other: MPI on a cluster, channels in tests.
pub trait Link {
    /// This rank.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn ranks(&self) -> usize;
    /// Sends `message` to rank `to`. Must not wait for `to` to receive it: every rank sends
    /// before it receives, so a send that waits could close a cycle of waiting ranks.
    fn send(&self, to: usize, channel: Channel, message: Vec<u8>);
    /// The next message from rank `from` on `channel`, waiting for it.
    fn receive(&self, from: usize, channel: Channel) -> Vec<u8>;
}

/// The link of a fill of one rank (a streamed summary on one machine). Its rank sends nothing:
/// the edges and rows of every band are already its own, so sending or receiving is a bug.
#[derive(Debug, Default)]
pub struct SoloLink;

impl Link for SoloLink {
    fn rank(&self) -> usize {
        0
    }
    fn ranks(&self) -> usize {
        1
    }
    fn send(&self, _: usize, channel: Channel, _: Vec<u8>) {
        panic!("a solo fill sent itself a message on {channel:?}");
    }
    fn receive(&self, _: usize, channel: Channel) -> Vec<u8> {
        panic!("a solo fill waited for a message on {channel:?}");
    }
}
