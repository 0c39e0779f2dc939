//! What an md-workbench run measures, rank 0's view after every phase (precreate, each
//! benchmark iteration, cleanup): md-workbench's figures (`print_p_stat`, `end_phase` in
//! hpc/ior's `md-workbench.c`) are methods here, the text printer reads them, and
//! [`phase_result`] and [`summaries`] turn them into the document's phases.

mod document;
mod quantiles;

use measure::{IntervalSeries, LatencyHistogram, Stats};
use serde::{Deserialize, Serialize};

pub use crate::ior::{ErrorAt, VerifyOutcome};
use crate::{per_s, Operation};
pub use document::{phase_result, summaries};
pub use quantiles::{quantile_index, Quantiles};

/// The operation kinds a phase records, in recorder order: md-workbench's four object
/// operations, then the data-set directories, which md-workbench counts but does not time.
pub const KINDS: [&str; 6] = ["create", "read", "stat", "delete", "mkdir", "rmdir"];
pub const CREATE: usize = 0;
pub const READ: usize = 1;
pub const STAT: usize = 2;
pub const DELETE: usize = 3;
pub const MKDIR: usize = 4;
pub const RMDIR: usize = 5;
/// The object operations, in the order md-workbench prints their distributions.
pub const PRINTED: [usize; 4] = [READ, STAT, CREATE, DELETE];

/// Successes and failures of one kind of operation (md-workbench's `op_stat_t`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpCount {
    pub ok: u64,
    pub err: u64,
}

impl OpCount {
    fn add(&mut self, o: OpCount) {
        self.ok += o.ok;
        self.err += o.err;
    }
}

/// md-workbench's counters of a phase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub dset_create: OpCount,
    pub dset_delete: OpCount,
    pub obj_create: OpCount,
    pub obj_read: OpCount,
    pub obj_stat: OpCount,
    pub obj_delete: OpCount,
}

impl Counts {
    pub fn add(&mut self, o: &Counts) {
        self.dset_create.add(o.dset_create);
        self.dset_delete.add(o.dset_delete);
        self.obj_create.add(o.obj_create);
        self.obj_read.add(o.obj_read);
        self.obj_stat.add(o.obj_stat);
        self.obj_delete.add(o.obj_delete);
    }

    fn all(&self) -> [OpCount; 6] {
        [
            self.dset_create,
            self.dset_delete,
            self.obj_create,
            self.obj_read,
            self.obj_stat,
            self.obj_delete,
        ]
    }

    /// md-workbench's `sum_err`.
    pub fn errors(&self) -> u64 {
        self.all().iter().map(|c| c.err).sum()
    }

    /// Successful operations of every kind.
    pub fn ok(&self) -> u64 {
        self.all().iter().map(|c| c.ok).sum()
    }
}

/// One rank's part of a phase.
#[derive(Debug, Clone, PartialEq)]
pub struct RankOutcome {
    /// After the opening barrier, and after the rank's last operation (seconds on the run's
    /// clock): md-workbench's phase time `t` of this rank is the difference.
    pub start: f64,
    pub end: f64,
    pub counts: Counts,
    /// The rank's own distribution per kind of [`KINDS`] (`--process-reports`).
    pub kinds: Vec<Option<Quantiles>>,
    pub bytes: u64,
}

impl RankOutcome {
    pub fn time(&self) -> f64 {
        self.end - self.start
    }

    /// The slowest object operation of this rank (md-workbench's `op-max`).
    pub fn op_max(&self) -> f64 {
        max_of(
            PRINTED
                .iter()
                .filter_map(|&k| self.kinds.get(k).copied().flatten()),
        )
    }
}

fn max_of(q: impl Iterator<Item = Quantiles>) -> f64 {
    q.map(|q| q.max).fold(0.0, f64::max)
}

/// What `-w` did in a benchmark iteration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StonewallOutcome {
    pub deadline_s: f64,
    pub wear_out: bool,
    /// md-workbench's `stonewall-iter`: the groups of `-D` objects every rank did (with
    /// `-W` the agreed count; without it the count at the wall).
    pub iterations: u64,
    /// Groups per rank when the ranks reached the wall (or finished): min and max.
    pub reached_min: u64,
    pub reached_max: u64,
    /// Rank 0's time from the phase start to its wall (or its end, when it finished first).
    pub time_s: f64,
    /// Rank 0 reached the wall (md-workbench's `stonewall wear out` line is rank 0's).
    pub rank0_hit: bool,
}

/// One phase: the precreate, one benchmark iteration or the cleanup.
#[derive(Debug, Clone)]
pub struct PhaseOutcome {
    /// `Precreate`, `Benchmark` or `Cleanup`.
    pub phase: Operation,
    /// The benchmark iteration (0 for precreate and cleanup).
    pub iteration: u32,
    pub waiting_factor: f64,
    pub read_only: bool,
    pub object_size: u64,
    pub ranks: Vec<RankOutcome>,
    /// Every rank's operations per kind of [`KINDS`], merged (ns).
    pub latency: Vec<LatencyHistogram>,
    pub series: IntervalSeries,
    pub stonewall: Option<StonewallOutcome>,
    pub verification: Option<VerifyOutcome>,
    pub warnings: Vec<String>,
    /// On an object store: its requests in the phase.
    pub requests: Option<crate::requests::RequestFigures>,
}

impl PhaseOutcome {
    /// md-workbench's `t`: the slowest rank's phase time.
    pub fn time(&self) -> f64 {
        self.ranks.iter().map(RankOutcome::time).fold(0.0, f64::max)
    }

    /// The counters of all ranks.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for r in &self.ranks {
            c.add(&r.counts);
        }
        c
    }

    pub fn errors(&self) -> u64 {
        self.counts().errors()
    }

    /// md-workbench's rate (iops/s) of `counts` over `t`: the benchmark counts four operations
    /// per object read (two with `--read-only`), the precreate data sets and objects made, the
    /// cleanup objects and data sets removed.
    pub fn rate_of(&self, c: &Counts, t: f64) -> f64 {
        let n = match self.phase {
            Operation::Benchmark => c.obj_read.ok * if self.read_only { 2 } else { 4 },
            Operation::Precreate => c.dset_create.ok + c.obj_create.ok,
            _ => c.obj_delete.ok + c.dset_delete.ok,
        };
        per_s(n as f64, t)
    }

    pub fn rate(&self) -> f64 {
        self.rate_of(&self.counts(), self.time())
    }

    /// md-workbench's `tp`: bytes created and read over `t`, MiB/s.
    pub fn throughput_of(&self, c: &Counts, t: f64) -> f64 {
        let objects = (c.obj_create.ok + c.obj_read.ok) as f64;
        per_s(objects * self.object_size as f64, t) / 1_048_576.0
    }

    /// The distribution of kind `k` over all ranks.
    pub fn quantiles(&self, k: usize) -> Option<Quantiles> {
        Quantiles::of(&self.latency[k].summary())
    }

    /// The slowest object operation of any rank (md-workbench's `op-max`), seconds.
    pub fn op_max(&self) -> f64 {
        max_of(self.ranks.iter().map(|r| Quantiles {
            max: r.op_max(),
            ..Quantiles::default()
        }))
    }

    /// Min, max, mean and sample standard deviation of the ranks' phase times (0 for one
    /// rank, where md-workbench prints `-nan`).
    pub fn rank_times(&self) -> Stats {
        let t: Vec<f64> = self.ranks.iter().map(RankOutcome::time).collect();
        Stats::of(&t)
    }

    /// md-workbench's balance: fastest over slowest rank time, percent.
    pub fn balance(&self) -> f64 {
        let s = self.rank_times();
        per_s(s.min * 100.0, s.max)
    }
}

#[cfg(test)]
mod tests;
