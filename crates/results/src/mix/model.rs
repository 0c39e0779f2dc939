//! The document's `mix` block: every step of the rising load with its requested and achieved
//! rate and its latency against the limit, the latency of each operation, and the knee.

use std::collections::BTreeMap;

use plan::mix::LatencyLimit;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MixResult {
    /// `--latency-limit`, which every step is held against.
    pub limit: LatencyLimit,
    /// The steps that ran, in order.
    pub steps: Vec<MixStep>,
    /// The step with the highest achieved rate whose latency stayed within the limit;
    /// absent when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knee: Option<MixStep>,
    /// Why the ramp ended: the limit was exceeded, the ramp reached its maximum, or a rank
    /// failed.
    pub stopped: String,
}

/// One step of the rising load, over all ranks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MixStep {
    /// From 1; the document's phase `mix-step` with this iteration.
    pub step: u32,
    /// The target rate, operations per second for the whole run.
    pub requested_ops_s: f64,
    /// Operations completed over the step's time (the slowest rank's, window and the last
    /// operation included).
    pub achieved_ops_s: f64,
    pub elapsed_s: f64,
    /// Operations the schedule put in the step's window.
    pub scheduled: u64,
    pub completed: u64,
    /// Scheduled operations that had not started when the window ended.
    pub not_started: u64,
    /// Operations without a target (an unlink with no file left) that ran as a create or
    /// mkdir instead.
    pub substituted: u64,
    /// The limit's statistic of the step's latencies (completed operations from their
    /// scheduled start, and the waits of those never started), ns.
    pub latency_ns: f64,
    pub within_limit: bool,
    /// The achieved rate fell below 95 % of the offered one (the schedule's operations over
    /// the window: the requested rate with fixed arrivals, the draw's with Poisson).
    pub short_of_requested: bool,
    /// Service time (issue to end, the queueing before the issue left out), all operations
    /// merged, ns: what a closed-loop tool would report.
    pub service_mean_ns: f64,
    pub service_p99_ns: u64,
    /// Per operation of the mix that ran in the step.
    pub operations: BTreeMap<String, MixOpStep>,
}

/// One operation's figures in a step; latencies from the scheduled start, ns.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MixOpStep {
    pub completed: u64,
    pub achieved_ops_s: f64,
    pub mean_ns: f64,
    pub p50_ns: u64,
    pub p90_ns: u64,
    pub p99_ns: u64,
    pub max_ns: u64,
}
