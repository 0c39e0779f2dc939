//! The IO500's figures of a run: every phase's score and validity, and the aggregate scores
//! with their hashes, as result.txt has them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Io500Result {
    /// Every phase the run walked, in order (also those without a tool, such as `timestamp`).
    pub phases: Vec<Io500Phase>,
    /// `[SCORE]`, once the run is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<Io500Score>,
    /// `[SCOREX]` in extended mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scorex: Option<Io500Score>,
    /// Why the whole run is invalid (dry run, stonewall setting, ...).
    pub run_invalid: Vec<String>,
}

/// The unit of a phase's score: bandwidth phases in GiB/s, metadata phases in kIOPS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ScoreUnit {
    #[serde(rename = "GiB/s")]
    GibPerS,
    #[serde(rename = "kIOPS")]
    Kiops,
}

impl ScoreUnit {
    pub fn label(self) -> &'static str {
        match self {
            ScoreUnit::GibPerS => "GiB/s",
            ScoreUnit::Kiops => "kIOPS",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Io500Phase {
    /// The IO500's phase name (`ior-easy-write`, `timestamp`, ...).
    pub phase: String,
    pub score: f64,
    pub unit: ScoreUnit,
    /// The IO500's wall time around the phase (result.txt's `t_delta`).
    pub time_s: f64,
    pub valid: bool,
    /// Why the phase is invalid (result.txt's `; ERROR INVALID` lines).
    pub invalid: Vec<String>,
    /// The phase's tool ran (not disabled, not a dry run).
    pub ran: bool,
    /// The tool failed with this error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Io500Score {
    pub bandwidth_gib_s: f64,
    pub iops_kiops: f64,
    pub total: f64,
    pub valid: bool,
    /// The score hash, hexadecimal.
    pub hash: String,
    /// The three figures as result.txt prints them (`%f`), which the hash covers.
    pub text: [String; 3],
}
