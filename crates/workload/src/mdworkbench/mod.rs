//! md-workbench-compatible metadata and small-object benchmark (hpc/ior's `md-workbench.c`).
//!
//! Each rank makes `-D` data sets of `-P` objects (`precreate`); each benchmark iteration then
//! consumes the oldest `-I` objects of every set of a neighbour rank (stat, read, delete) and
//! appends as many new ones to another's (`benchmark`), so the working set stays the same;
//! `cleanup` removes what is left. `naming` holds the names and the FIFO's rank arithmetic
//! (pure), `validate` the rules across options, `preflight` the checks against the file
//! system, `status` the run-info file, `run` the phase sequence, `phase` the timed bracket
//! around each phase and the reduction to rank 0's `outcome`, which `report` turns into the
//! session's events.

mod benchmark;
mod cleanup;
mod ctx;
mod error;
mod events;
mod failure;
pub mod naming;
pub mod outcome;
mod phase;
mod precreate;
pub mod preflight;
mod run;
pub mod status;
pub mod validate;

pub use error::MdwbError;
pub use outcome::PhaseOutcome;
pub use plan::mdworkbench::{MdWorkbenchParams, Phases};
pub use run::{run, Prepared};

#[cfg(test)]
mod tests;
