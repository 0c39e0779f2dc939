//! `iogauge mix`: a mix of metadata operations in percentages over a tree of files prepared
//! per rank, driven open-loop at a target rate that rises in steps until a latency limit is
//! exceeded; the result names the knee.
//!
//! `tree` holds each rank's files and names (which exist, which to pick), `schedule` the
//! open-loop arrival times and the choice of operation (pure), `ops` one operation on the
//! engine, `validate` the rules across options and the checks against the file system,
//! `phase` the timed bracket and the reduction to rank 0's outcome, `prepare`, `step` and
//! `cleanup` the phases, `run` their sequence and `report` rank 0's events.

mod cleanup;
mod ctx;
mod error;
mod events;
mod ops;
mod phase;
mod prepare;
mod run;
pub mod schedule;
mod step;
pub mod tree;
pub mod validate;

pub use error::MixError;
pub use plan::mix::MixParams;
pub use results::mix::PhaseOutcome;
pub use run::run;
