//! The iogauge result model: one serde schema (see `docs/results-schema.md`) that serves JSON
//! files now and the store and reports later, plus capture of the host and file-system facts
//! every result carries.

mod environment;
mod fstype;
mod json;
mod model;
mod mountinfo;
mod time;

pub use environment::{capture, fs_info, Environment, FsInfo};
pub use json::{from_json_str, read_json, to_json_string, write_json};
pub use measure::{HistogramSummary, SeriesSummary};
pub use model::{
    mib_per_s, per_s, ErrorLocation, MinMaxMean, OperationSummary, PhaseResult, PhaseTimes,
    RankTimes, Ranks, RunResult, Stonewall, Tool, Verification, SCHEMA_VERSION,
};
pub use mountinfo::MountEntry;
pub use time::{compact_utc, now_rfc3339, rfc3339_utc};
