//! What an IO500 run was configured with, as the result document records it: the resolved
//! configuration of every section and the facts of the run (the phases' own plans are built
//! from these by the suite).

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Io500Params {
    /// result.txt's `version` (`iogauge-<release>`), part of the score hash.
    pub version: String,
    /// `standard` or `extended`.
    pub mode: String,
    /// The run's timestamp (directory names and seeds).
    pub timestamp: String,
    pub ranks: u64,
    pub data_dir: String,
    pub result_dir: String,
    /// `--quick`: iogauge's short preset, never a valid submission.
    pub quick: bool,
    pub dry_run: bool,
    /// The IO500 configuration hash, hexadecimal.
    pub config_hash: String,
    /// Every section's keys with their resolved values (`null`: not set, the IO500 default),
    /// in the IO500's order.
    pub config: IndexMap<String, IndexMap<String, Option<String>>>,
}
