//! mdtest-compatible metadata benchmark.
//!
//! `params` is the resolved plan, `validate` mdtest's rules on it, `preflight` the checks
//! against the file system before any I/O. `tree` (counts, directory numbering, orders) and
//! `naming` (names, `-N` shifts, paths) are pure functions. `run` runs a plan on the ranks
//! (the iteration loop), `files` and `items` are the per-rank operation loops, `phase` the
//! timed bracket around each phase and the reduction to rank 0's `outcome`, which `report`
//! turns into the session's events. `leftover` handles a tree an earlier run left (mdtest's
//! warnings, said once per phase); `failure` how the ranks agree that one of them failed.

mod ctx;
mod error;
mod events;
mod failure;
mod files;
mod items;
mod leftover;
pub mod naming;
pub mod outcome;
mod phase;
pub mod preflight;
mod run;
pub mod tree;
pub mod validate;

pub use error::MdError;
pub use outcome::{PhaseOutcome, RankTimes, StonewallOutcome};
pub use plan::mdtest::{MdtestParams, Phases};
pub use run::{run, Prepared};
pub use tree::{Shape, Tree};
