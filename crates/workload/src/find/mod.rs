//! A parallel find with pfind's semantics, as the IO500 runs it (`docs/find.md`).
//!
//! `query` holds the predicates (`-newer` on ctime with ≥ at whole seconds, `-size Nc`
//! exact, `-name` unanchored, see `glob`), `pool` the directories still to read with work
//! stealing between ranks, `walk` one rank's loop over them, and `run` a whole find on one
//! rank: the `-newer` reference read once by rank 0 and broadcast, the walk, and the per-rank
//! counters combined on rank 0.

mod counts;
mod glob;
mod message_pool;
mod pool;
mod query;
mod run;
mod walk;

#[cfg(test)]
mod props;

pub use counts::Counts;
pub use glob::{NamePattern, PatternError};
pub use message_pool::{MessagePool, MESSAGE_POOL_TAGS};
pub use pool::{DirPool, StealStats, StealingPool, VictimChoice};
pub use query::{parse_size, Matcher, Query};
pub use run::{run, FindCtx, FindError, FindOutcome, RankCounts};
pub use walk::Lister;

/// pfind's default queue length (`-q`); the IO500 passes 10000.
pub const DEFAULT_QUEUE_LENGTH: usize = 100_000;
/// pfind refuses shorter queues.
pub const MIN_QUEUE_LENGTH: usize = 10;
