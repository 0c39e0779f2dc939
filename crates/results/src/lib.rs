//! The iogauge result model: one serde schema (see `docs/results.md`) that serves JSON files,
//! the store and reports; the typed measurements of each workload (`ior`, `mdtest`, `find`,
//! `io500`) and their form in the document; and capture of the host and file-system facts every
//! result carries.

pub mod alert;
pub mod cache;
mod content;
pub mod dlio;
mod environment;
pub mod find;
mod hub;
pub mod io500;
pub mod ior;
mod json;
pub mod mark;
pub mod mdtest;
pub mod mdworkbench;
pub mod mix;
mod model;
mod operation;
mod params;
pub mod requests;
mod schema;
pub mod sink;
mod spread;
pub mod startup;
pub mod system;
pub mod warnings;
mod warnings_system;

pub use alert::{Alert, AlertId, Thresholds};
pub use cache::{CacheDrop, CacheStatus, DropMethod, PageCache};
pub use content::content_hash;
pub use environment::{capture, fs_info, hostname, mem_total, Environment, FsInfo};
pub use hub::{Hub, NodeFigures, PhaseProbe, SharedHub};
pub use json::{from_json_str, read_json, to_json_string, write_json, JsonFiles};
pub use mark::Mark;
pub use measure::{HistogramSummary, SeriesSummary};
pub use model::{
    mib_per_s, per_s, ErrorLocation, MinMaxMean, OperationSummary, PhaseResult, PhaseTimes,
    QueueFigures, RankTimes, Ranks, RunResult, Stonewall, Tool, Verification, SCHEMA_VERSION,
};
pub use operation::{Headline, Operation};
pub use params::{
    CheckpointResolved, DlioParameters, DlioResolved, FindParameters, MdWorkbenchParameters,
    MdWorkbenchResolved, MdtestParameters, MdtestResolved, MixParameters, MixResolved, Parameters,
    StartupParameters, StartupResolved,
};
pub use schema::{json_schema, json_schema_text};
pub use sink::{Detail, Event, Fanout, Notice, Sink};
pub use spread::RankSpread;
pub use system::SystemFigures;
