//! grundy on a cluster: work shared among the ranks of an MPI job (`mpirun -n K grundy ...`).
//!
//! Built only with the `mpi` feature (which needs an MPI implementation, e.g. Debian's
//! `libmpich-dev`, and `libclang-dev` for the bindings); without it this crate is empty, so the
//! workspace builds and tests on any machine.
//!
//! `Cluster::link` connects the ranks of a distributed fill (`grundy_compute::bands`): each
//! rank computes bands of rows and passes their edges down, as a pipelined wavefront.
//!
//! `Cluster::share` is a work list with dynamic load balancing: rank 0 hands out items one at a
//! time to the ranks that ask, and gathers their results, in item order. The members of a survey
//! differ in cost by orders of magnitude, so a static split would leave ranks idle.
//!
//! Failures end the job: MPI's default error handler aborts every rank when one fails, and a rank
//! that is killed makes the process manager (Hydra for MPICH) end the others, with a non-zero
//! exit; an item that fails on a worker goes to rank 0, which hands out no more, waits for the
//! items in hand and returns the error for its caller to report (every rank ends normally, so
//! the line is never lost to an abort; `Cluster::all_ready` does the same for an error found
//! before any work).

#[cfg(feature = "mpi")]
mod cluster;
#[cfg(feature = "mpi")]
mod link;

#[cfg(feature = "mpi")]
pub use cluster::{Cluster, ClusterError};
#[cfg(feature = "mpi")]
pub use link::{LinkStats, MpiLink};
