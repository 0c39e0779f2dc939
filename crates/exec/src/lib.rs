//! Ranks: who takes part in a run and how they agree.
//!
//! Workloads see only the [`Comm`] trait and run their ranks through [`Ranks`]. Thread ranks ([`threads`]) run N ranks in one
//! process; MPI ranks ([`mpi`], feature `mpi`) implement the same trait, so workloads do not change.
//! Every collective returns `Result`: when one rank fails, the others get
//! [`CommError::PeerFailed`] instead of waiting forever in a barrier.

mod comm;
pub mod interrupt;
#[cfg(feature = "mpi")]
pub mod mpi;
mod node_map;
mod ranks;
pub mod threads;

pub use comm::{Comm, CommError, Message, ReduceOp};
pub use node_map::{NodeMap, Placement};
pub use ranks::{first_failure, root_failed, Ranks};
