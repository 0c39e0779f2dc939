//! The plan of a parallel find (pfind's command line, as `iogauge find` and the IO500's find
//! phases give it).

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// pfind's default queue length (`-q`); the IO500 passes 10000.
pub const DEFAULT_QUEUE_LENGTH: usize = 100_000;
/// pfind refuses shorter queues.
pub const MIN_QUEUE_LENGTH: usize = 10;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct FindParams {
    /// The trees to walk.
    pub paths: Vec<PathBuf>,
    /// `-newer F`: ctime of the entry ≥ ctime of F, whole seconds, both via `lstat`.
    pub newer: Option<PathBuf>,
    /// `-size Nc`: exactly N bytes.
    pub size: Option<u64>,
    /// `-name GLOB`: unanchored match on the entry name (`*` and literal characters).
    pub name: Option<String>,
    /// `-C`: count only, list nothing.
    pub count_only: bool,
    /// `-N`: steal from the previous rank half of the time (pfind's `-N`).
    pub steal_next: bool,
    /// `-P`: one result line per rank.
    pub per_rank: bool,
    /// `-q N`: per-rank queue capacity before directories spill (pfind's queue length).
    pub queue_length: usize,
}

impl Default for FindParams {
    fn default() -> Self {
        FindParams {
            paths: Vec::new(),
            newer: None,
            size: None,
            name: None,
            count_only: false,
            steal_next: false,
            per_rank: false,
            queue_length: DEFAULT_QUEUE_LENGTH,
        }
    }
}
