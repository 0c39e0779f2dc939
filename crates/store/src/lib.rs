//! The result store: every run kept in one SQLite file (`docs/store.md`).
//!
//! A run is a row created when it starts (incomplete), rewritten as each phase ends and marked
//! complete when it ends, so an interrupted run keeps what it measured. The row keeps the whole
//! [`results::RunResult`] as JSON, which reads back equal, and queryable columns next to it;
//! phases and headline figures get rows of their own, labels (`tuning=nps4`) too. Imports
//! (an IO500 result directory, a JSON document) are runs with another [`Source`].
//!
//! [`Store::open`] is a step of its own, so a command can refuse a bad path (exit 2) before any
//! benchmark I/O; [`StoreSink`] then stores a run from its events.

mod error;
mod figures;
mod label;
mod migrations;
mod path;
mod query;
mod rows;
mod run;
mod sink;
mod store;
mod sweep;

pub use error::StoreError;
pub use figures::{headline, Figure};
pub use label::Label;
pub use migrations::SCHEMA_VERSION;
pub use path::{default_path, default_path_from};
pub use query::{Filter, RunSummary, StoredRun};
pub use run::{RunId, Source};
pub use sink::StoreSink;
pub use store::Store;
pub use sweep::StoredSweep;
