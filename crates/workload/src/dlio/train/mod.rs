//! DLIO's training semantics, as pure functions and one emulated data loader.
//!
//! - `numpy_rng`: numpy's legacy global generator (DLIO's shuffles and draws).
//! - `params`: the plain inputs (one rank's view) and the combinations DLIO cannot run.
//! - `steps`: steps per epoch, the short last rank, the metric window.
//! - `order`, `tfrecord_order`: which samples each rank and reader thread reads, per epoch.
//! - `read_plan`: which byte ranges each format's reader reads.
//! - `schedule`: one epoch of one rank as reader-thread work and batch boundaries.
//! - `compute_time`: the computation time of each step.
//! - `emulate`: reader threads, prefetch, the training thread's wait and compute, cancel.

pub mod compute_time;
pub mod emulate;
pub mod numpy_rng;
pub mod order;
pub mod params;
pub mod read_plan;
pub mod schedule;
pub mod steps;
pub mod tfrecord_order;

#[cfg(test)]
mod numpy_judge;

pub use compute_time::ComputeDraws;
pub use emulate::{run_epoch, EpochRun, SampleSource, StepTimes};
pub use numpy_rng::LegacyRandomState;
pub use params::{ComputeTime, Format, Loader, Shuffle, TrainParams};
pub use schedule::{epoch_schedule, EpochSchedule, Release, Visit};
