//! What a mix run measures, rank 0's view after every phase (the prepare, each step of the
//! rising load, the cleanup): [`PhaseOutcome`] holds the ranks' counts and the merged
//! latencies per operation; `judge` holds the latency limit and the knee rule (pure);
//! `model` the document's `mix` block; `document` turns outcomes into the document's phases.

mod document;
pub mod judge;
mod model;

use measure::{IntervalSeries, LatencyHistogram};
use serde::{Deserialize, Serialize};

use crate::{per_s, Operation};
pub use document::{phase_result, step_record, summaries};
pub use judge::{judge, knee, Verdict};
pub use model::{MixOpStep, MixResult, MixStep};
pub use plan::mix::{LatencyLimit, MixOp, Statistic};

/// The recorder's kinds: one per operation of the mix, in [`MixOp::ALL`] order.
pub const KINDS: usize = MixOp::ALL.len();

/// A step whose achieved rate is below this fraction of the offered one is flagged short:
/// the ranks could not issue or complete the load, so its latencies describe a lower load.
pub const SHORT_OF: f64 = 0.95;

/// One rank's part of a phase.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RankStep {
    /// After the opening barrier, and after its last operation or the step's window, whichever
    /// is later (seconds on the rank's clock).
    pub start: f64,
    pub end: f64,
    /// Operations completed, per kind of [`MixOp::ALL`].
    pub done: Vec<u64>,
    pub bytes: u64,
    /// Operations the schedule put in the step's window.
    pub scheduled: u64,
    /// Scheduled operations that had not started when the window ended.
    pub not_started: u64,
    /// Operations without a target that ran as a create (or mkdir) instead.
    pub substituted: u64,
}

impl RankStep {
    pub fn completed(&self) -> u64 {
        self.done.iter().sum()
    }

    pub fn time(&self) -> f64 {
        self.end - self.start
    }
}

/// One phase: the prepare, one step or the cleanup.
#[derive(Debug, Clone)]
pub struct PhaseOutcome {
    /// `MixPrepare`, `MixStep` or `MixCleanup`.
    pub phase: Operation,
    /// The step's number, from 1 (0 for the prepare and the cleanup).
    pub step: u32,
    /// The step's target rate for the whole run (0 for the prepare and the cleanup).
    pub requested_ops_s: u64,
    pub ranks: Vec<RankStep>,
    /// Completed operations per kind, every rank merged; a step's from each operation's
    /// scheduled start (ns).
    pub latency: Vec<LatencyHistogram>,
    /// What the operations that never started had waited when the window ended: lower
    /// bounds of their latency (ns).
    pub not_started: LatencyHistogram,
    /// Service time of every completed operation, all kinds merged: from the moment the
    /// operation was issued (not scheduled) to its end, ns.
    pub service: LatencyHistogram,
    pub series: IntervalSeries,
    /// A step's window (`--step-seconds`); 0 for the prepare and the cleanup.
    pub window_s: f64,
    /// A step's verdict against the latency limit.
    pub verdict: Option<Verdict>,
    pub warnings: Vec<String>,
}

impl PhaseOutcome {
    /// The slowest rank's time from its start to its end.
    pub fn elapsed(&self) -> f64 {
        self.ranks.iter().map(RankStep::time).fold(0.0, f64::max)
    }

    fn sum(&self, f: impl Fn(&RankStep) -> u64) -> u64 {
        self.ranks.iter().map(f).sum()
    }

    pub fn completed(&self) -> u64 {
        self.sum(RankStep::completed)
    }

    pub fn scheduled(&self) -> u64 {
        self.sum(|r| r.scheduled)
    }

    pub fn not_started(&self) -> u64 {
        self.sum(|r| r.not_started)
    }

    pub fn substituted(&self) -> u64 {
        self.sum(|r| r.substituted)
    }

    pub fn bytes(&self) -> u64 {
        self.sum(|r| r.bytes)
    }

    /// Completed operations of `op`, over all ranks.
    pub fn done(&self, op: MixOp) -> u64 {
        self.sum(|r| r.done.get(op as usize).copied().unwrap_or(0))
    }

    /// What completed over the time it took: the achieved rate.
    pub fn achieved(&self) -> f64 {
        per_s(self.completed() as f64, self.elapsed())
    }

    /// The rate the schedule offered: its operations over the window. With fixed arrivals
    /// that is the requested rate; Poisson arrivals draw a count around it.
    pub fn offered(&self) -> f64 {
        if self.window_s > 0.0 {
            self.scheduled() as f64 / self.window_s
        } else {
            self.requested_ops_s as f64
        }
    }

    /// Whether the achieved rate fell short of the offered one (below [`SHORT_OF`] of it):
    /// the ranks did not carry the load the schedule put in the window.
    pub fn short(&self) -> bool {
        self.phase == Operation::MixStep && self.achieved() < SHORT_OF * self.offered()
    }

    /// Every completed operation's latency, all kinds merged.
    pub fn merged(&self) -> LatencyHistogram {
        let mut all = LatencyHistogram::new();
        for h in &self.latency {
            all.merge(h);
        }
        all
    }
}

#[cfg(test)]
mod tests;
