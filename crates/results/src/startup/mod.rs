//! What a start-up run measures: per phase (the tree read, the common file read) every rank's
//! start and finish, counted from the phase start (the barrier every rank leaves together, so
//! rank 0's start), its operations and bytes, and the latency of each kind of operation.
//! The headline is the time until the last rank is done, what `time mpiexec ...` of a
//! starting application measures; [`phase_result`] and [`summaries`] give the document's form.

mod document;

use measure::{IntervalSeries, LatencyHistogram};
use serde::{Deserialize, Serialize};

use crate::{mib_per_s, per_s, Operation, PageCache};
pub use document::{phase_result, summaries};

/// The tree read's operation kinds, in recorder order: a `stat` of the path, then the file's
/// `load`: open, read to the end, close (what an import does with a module).
pub const TREE_KINDS: [&str; 2] = ["stat", "load"];
pub const STAT: usize = 0;
pub const LOAD: usize = 1;
/// The common file read's kinds: one `stat` and `open`, a `read` per transfer, the `close`.
pub const COMMON_KINDS: [&str; 4] = ["stat", "open", "read", "close"];
pub const OPEN: usize = 1;
pub const READ: usize = 2;
pub const CLOSE: usize = 3;

/// The operation kinds of a phase, in recorder order.
pub fn kinds(op: Operation) -> &'static [&'static str] {
    match op {
        Operation::TreeRead => &TREE_KINDS,
        _ => &COMMON_KINDS,
    }
}

/// One rank's part of a phase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct RankOutcome {
    /// The rank's number in the job (with `--ranks-per-node` not every rank reads).
    pub rank: u64,
    /// When the rank started, seconds after the phase start: its stagger, as slept.
    pub start_s: f64,
    /// When its last operation ended, seconds after the phase start.
    pub done_s: f64,
    /// Files read in full.
    pub files: u64,
    pub stats: u64,
    pub opens: u64,
    pub bytes: u64,
}

impl RankOutcome {
    /// The rank's own time, from its start to its last operation's end.
    pub fn own_s(&self) -> f64 {
        self.done_s - self.start_s
    }

    /// Opens and stats: the metadata operations of the rate.
    pub fn metadata_ops(&self) -> u64 {
        self.stats + self.opens
    }

    fn add(&mut self, o: &RankOutcome) {
        self.files += o.files;
        self.stats += o.stats;
        self.opens += o.opens;
        self.bytes += o.bytes;
    }
}

/// One phase of one iteration, every rank's part reduced on rank 0.
#[derive(Debug, Clone)]
pub struct PhaseOutcome {
    /// `TreeRead` or `CommonRead`.
    pub phase: Operation,
    pub iteration: u32,
    /// `--stagger`: rank r was to start r times this after rank 0.
    pub stagger_s: f64,
    pub ranks: Vec<RankOutcome>,
    /// Every rank's operations per kind of [`kinds`], merged (ns).
    pub latency: Vec<LatencyHistogram>,
    pub series: IntervalSeries,
    pub page_cache: Option<PageCache>,
}

impl PhaseOutcome {
    /// The headline: when the last rank was done, from the first rank's start.
    pub fn time_to_last_done(&self) -> f64 {
        self.ranks.iter().map(|r| r.done_s).fold(0.0, f64::max)
    }

    /// The counts of all ranks (their times left at 0).
    pub fn totals(&self) -> RankOutcome {
        let mut t = RankOutcome::default();
        for r in &self.ranks {
            t.add(r);
        }
        t
    }

    /// Stats and opens of all ranks per second of [`time_to_last_done`](Self::time_to_last_done).
    pub fn metadata_rate(&self) -> f64 {
        per_s(
            self.totals().metadata_ops() as f64,
            self.time_to_last_done(),
        )
    }

    /// MiB read by all ranks per second of [`time_to_last_done`](Self::time_to_last_done).
    pub fn data_rate_mib_s(&self) -> f64 {
        mib_per_s(self.totals().bytes, self.time_to_last_done())
    }

    /// The ranks' own times (start to done): without the stagger, what each rank waited for
    /// the storage.
    pub fn own_times(&self) -> OwnTimes {
        let mut t: Vec<f64> = self.ranks.iter().map(RankOutcome::own_s).collect();
        t.sort_by(f64::total_cmp);
        let n = t.len();
        if n == 0 {
            return OwnTimes::default();
        }
        let median = if n % 2 == 1 {
            t[n / 2]
        } else {
            (t[n / 2 - 1] + t[n / 2]) / 2.0
        };
        OwnTimes {
            min: t[0],
            median,
            max: t[n - 1],
        }
    }
}

/// Minimum, median (the mean of the middle two for an even count) and maximum, seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct OwnTimes {
    pub min: f64,
    pub median: f64,
    pub max: f64,
}

#[cfg(test)]
mod tests;
