//! The start-up workload (`iogauge startup`): every rank does what a starting application
//! does on a shared tree prepared beforehand: stat, open and read in full each small file of
//! a tree (its imports), and/or read one common large file sequentially (its binary or data).
//!
//! `shape` is the generated tree (pure), `prepare` makes and removes what the run generates,
//! `manifest` lists what every rank reads (walked once, on rank 0), `phase` the timed bracket
//! around each read and the reduction to rank 0's outcome, `run` the sequence.

mod error;
pub mod manifest;
mod phase;
pub mod prepare;
mod run;
pub mod shape;

pub use error::StartupError;
pub use plan::startup::StartupParams;
pub use results::startup::PhaseOutcome;
pub use run::run;
