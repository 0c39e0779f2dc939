//! A parallel find with pfind's semantics, as the IO500 runs it (`docs/find.md`).
//!
//! `query` holds the predicates (`-newer` on ctime with ≥ at whole seconds, `-size Nc`
//! exact, `-name` unanchored, see `glob`), `pool` the directories still to read with work
//! stealing between ranks, `walk` one rank's loop over them, `rank` a whole find on one
//! rank (the `-newer` reference read once by rank 0 and broadcast, the walk, the per-rank
//! counters combined on rank 0), and `run` a find plan on all ranks with its report.

mod counts;
mod glob;
mod message_pool;
mod pool;
pub mod preflight;
mod query;
mod rank;
mod run;
mod walk;

#[cfg(test)]
mod props;

pub use counts::Counts;
pub use glob::{NamePattern, PatternError};
pub use message_pool::{MessagePool, MESSAGE_POOL_TAGS};
pub use pool::{DirPool, StealStats, StealingPool, VictimChoice};
pub use query::{parse_size, Matcher, Query};
pub use rank::{run_rank, FindCtx, FindError, FindOutcome, RankCounts};
pub use run::run;
pub use walk::Lister;

pub use plan::find::{FindParams, DEFAULT_QUEUE_LENGTH, MIN_QUEUE_LENGTH};
