//! IOR-compatible bandwidth benchmark.
//!
//! `params` is the resolved plan, `validate` IOR's rules on it, `preflight` the checks against
//! the file system before any I/O. `pattern`, `reorder` and `data` are pure functions (where
//! bytes go, whose data is read back, what the bytes are). `run` runs a plan on the ranks (the
//! repetition loop), `phase` one phase on one rank plus the reduction to rank 0's `outcome`,
//! and `events` turns rank 0's results into the session's events. A phase moves its transfers
//! one at a time (`mover`) or many in flight on a queued engine (`queued`); `movers` chooses.
//! `shared_object` is a shared file's single multipart upload on an object store.

mod agreed;
mod cleanup;
mod ctx;
pub mod data;
mod error;
mod events;
mod mover;
mod movers;
pub mod naming;
mod object_rules;
pub mod outcome;
pub mod pattern;
mod phase;
pub mod preflight;
mod queued;
pub mod reorder;
mod run;
mod shared_object;
pub mod validate;

pub use error::IorError;
pub use outcome::{
    Access, CheckOutcome, ErrorAt, PhaseOutcome, RankTimes, StonewallOutcome, VerifyOutcome,
};
pub use phase::expect;
pub use plan::ior::{DataPacket, IorParams, SummaryFormat};
pub use run::run;
