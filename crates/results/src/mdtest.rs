//! What an mdtest run measures, rank 0's view after every phase: the SUMMARY printer and the
//! per-rank CSV read these types, and [`phase_result`] and [`summaries`] turn them into the
//! document's phases and per-operation summaries.

use measure::{IntervalSeries, LatencyHistogram};

pub use crate::ior::{ErrorAt, VerifyOutcome};
use crate::model::{
    MinMaxMean, OperationSummary, PhaseResult, PhaseTimes, RankTimes as DocRankTimes, Stonewall,
};
use crate::{mib_per_s, per_s, Operation};

/// One rank's clock readings (seconds on the run's clock) and items in a phase.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RankTimes {
    /// After the opening barrier (mdtest's `t_start`).
    pub start: f64,
    /// After the last operation, before `-Y` and the closing barrier.
    pub end_before_barrier: f64,
    /// After the closing barrier (mdtest's `t_end`).
    pub end: f64,
    /// Operations done (items; for tree phases the directories made or removed).
    pub items: u64,
    pub bytes: u64,
}

impl RankTimes {
    pub fn time(&self) -> f64 {
        self.end - self.start
    }
    pub fn time_before_barrier(&self) -> f64 {
        self.end_before_barrier - self.start
    }
}

/// What `-W` did in a file create phase.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StonewallOutcome {
    pub deadline_s: f64,
    /// Rank 0's time from the phase start until the ranks agreed on the count.
    pub time_s: f64,
    /// Items per rank when the wall was hit (or the rank finished): min, max, sum over ranks.
    pub items_min: u64,
    pub items_max: u64,
    pub items_sum: u64,
    pub tasks: u64,
    /// Some rank stopped early, so every rank continued to `items_max` (mdtest's
    /// `Continue stonewall hit` case).
    pub hit: bool,
}

/// The seeds are agreed and the run starts (a notice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Begin {
    pub data_seed: i64,
    /// Task 0's `-R` seed.
    pub random_seed: Option<u64>,
    /// Items per task the phases after create use, when not the configured count.
    pub items_from_status: Option<u64>,
}

crate::workload_notice!(Begin, "mdtest-begin", |n| serde_json::json!({
    "items_from_status": n.items_from_status
}));
// A stonewalled create agreed on its count (before the phase ends).
crate::workload_notice!(
    StonewallOutcome,
    "mdtest-stonewall",
    |n| serde_json::json!({
        "items_max": n.items_max
    })
);

impl StonewallOutcome {
    pub fn items_mean(&self) -> f64 {
        self.items_sum as f64 / self.tasks.max(1) as f64
    }
}

/// One timed phase of one iteration.
#[derive(Debug, Clone)]
pub struct PhaseOutcome {
    pub op: Operation,
    pub iteration: u32,
    /// Per rank, by rank.
    pub ranks: Vec<RankTimes>,
    /// Directories in one tree (tree phases count one tree, as mdtest).
    pub tree_dirs: u64,
    /// Every operation's latency, all ranks merged (ns).
    pub latency: LatencyHistogram,
    pub series: IntervalSeries,
    pub stonewall: Option<StonewallOutcome>,
    pub verification: Option<VerifyOutcome>,
    pub warnings: Vec<String>,
    /// On an object store: its requests in the phase.
    pub requests: Option<crate::requests::RequestFigures>,
}

impl PhaseOutcome {
    /// mdtest's per-iteration rate: tasks x the slowest rank's items / (t_end - t_start); for
    /// tree phases rank 0's directories / time.
    pub fn rate(&self) -> f64 {
        if self.op.is_tree() {
            return per_s(self.tree_dirs as f64, self.ranks[0].time());
        }
        let min = self
            .ranks
            .iter()
            .map(|r| per_s(r.items as f64, r.time()))
            .fold(f64::INFINITY, f64::min);
        if min.is_finite() {
            min * self.ranks.len() as f64
        } else {
            0.0
        }
    }

    /// The phase duration: the longest rank's t_end - t_start (tree: rank 0's).
    pub fn time(&self) -> f64 {
        if self.op.is_tree() {
            return self.ranks[0].time();
        }
        self.ranks.iter().map(RankTimes::time).fold(0.0, f64::max)
    }

    /// The longest rank's time before the closing barrier.
    pub fn time_before_barrier(&self) -> f64 {
        self.ranks
            .iter()
            .map(RankTimes::time_before_barrier)
            .fold(0.0, f64::max)
    }

    /// Operations of all ranks (tree phases: one tree).
    pub fn items(&self) -> u64 {
        if self.op.is_tree() {
            self.tree_dirs
        } else {
            self.ranks.iter().map(|r| r.items).sum()
        }
    }

    /// Bytes written or read by all ranks.
    pub fn bytes(&self) -> u64 {
        self.ranks.iter().map(|r| r.bytes).sum()
    }

    /// What mdtest returns to the IO500: all items over the longest time.
    pub fn rate_total(&self) -> f64 {
        per_s(self.items() as f64, self.time())
    }
}

/// Mapping of mdtest's clock readings onto the IOR-shaped per-rank times: `xfer_start` is the
/// phase start after the opening barrier, `xfer_stop` the end of the last operation, and
/// `close_stop` the end of the closing barrier; `open_*` equal `xfer_start`, `close_start`
/// equals `xfer_stop`. `times.xfer_s` is the longest rank's time before the barrier,
/// `times.total_s` mdtest's phase time (barrier to barrier); `iops` is mdtest's rate.
pub fn phase_result(o: &PhaseOutcome, write_bytes: u64) -> PhaseResult {
    let t0 = o
        .ranks
        .iter()
        .map(|r| r.start)
        .fold(f64::INFINITY, f64::min);
    let mut p = PhaseResult::new(o.op, o.iteration);
    p.bytes = o.bytes();
    p.ops = o.items();
    p.times = PhaseTimes {
        open_s: 0.0,
        xfer_s: o.time_before_barrier(),
        close_s: 0.0,
        total_s: o.time(),
    };
    p.bandwidth_mib_s = mib_per_s(p.bytes, p.times.total_s);
    p.iops = o.rate();
    p.latency = o.latency.summary();
    p.series = o.series.summary();
    p.per_rank = o
        .ranks
        .iter()
        .enumerate()
        .map(|(rank, r)| {
            let (start, stop) = (r.start - t0, r.end_before_barrier - t0);
            // Done when its own operations end: the -Y sync and the closing barrier after
            // them are the same wait for every rank.
            DocRankTimes::bracket(rank as u64, start, stop, stop, r.bytes, r.items)
        })
        .collect();
    p.stonewall = o.stonewall.map(|s| Stonewall {
        deadline_s: s.deadline_s,
        time_s: s.time_s,
        pairs_min: s.items_min,
        pairs_max: s.items_max,
        bytes_min: s.items_min * write_bytes,
        bytes_mean: s.items_mean() * write_bytes as f64,
        wear_out: s.hit,
    });
    if let Some(s) = &o.stonewall {
        p.warnings.push(format!(
            "stonewall -W {}: items per task at the wall min {} max {} sum {} after {:.3} s{}",
            s.deadline_s,
            s.items_min,
            s.items_max,
            s.items_sum,
            s.time_s,
            if s.hit {
                "; every task continued to the max"
            } else {
                ""
            }
        ));
    }
    p.verification = o.verification.as_ref().map(crate::ior::verification);
    p.warnings.extend(o.warnings.iter().cloned());
    if let Some(r) = &o.requests {
        r.apply(&mut p);
    }
    p
}

/// One summary per operation that ran, in mdtest's table order.
pub fn summaries(outcomes: &[PhaseOutcome]) -> Vec<OperationSummary> {
    Operation::MDTEST
        .into_iter()
        .filter_map(|op| {
            let of: Vec<&PhaseOutcome> = outcomes.iter().filter(|o| o.op == op).collect();
            if of.is_empty() {
                return None;
            }
            let bw: Vec<f64> = of.iter().map(|o| mib_per_s(o.bytes(), o.time())).collect();
            let rates: Vec<f64> = of.iter().map(|o| o.rate()).collect();
            let walls: Vec<f64> = of
                .iter()
                .filter_map(|o| o.stonewall)
                .map(|s| s.time_s)
                .collect();
            Some(OperationSummary {
                operation: op,
                bw_mib_s: MinMaxMean::sample(&bw),
                ops_per_s: MinMaxMean::sample(&rates),
                mean_time_s: of.iter().map(|o| o.time()).sum::<f64>() / of.len() as f64,
                iterations: of.len() as u32,
                stonewall_time_s: (!walls.is_empty())
                    .then(|| walls.iter().sum::<f64>() / walls.len() as f64),
                stonewall_mib_s: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(op: Operation, ranks: &[(f64, u64)]) -> PhaseOutcome {
        PhaseOutcome {
            op,
            iteration: 0,
            ranks: ranks
                .iter()
                .map(|&(t, items)| RankTimes {
                    start: 1.0,
                    end_before_barrier: 1.0 + t / 2.0,
                    end: 1.0 + t,
                    items,
                    bytes: 0,
                })
                .collect(),
            tree_dirs: 13,
            latency: LatencyHistogram::new(),
            series: IntervalSeries::new(1, 0),
            stonewall: None,
            verification: None,
            warnings: vec![],
            requests: None,
        }
    }

    #[test]
    fn rate_is_tasks_times_the_slowest_rank() {
        let o = outcome(Operation::FileCreate, &[(2.0, 1000), (4.0, 1000)]);
        assert_eq!(o.rate(), 2.0 * 250.0);
        assert_eq!(o.time(), 4.0);
        assert_eq!(o.time_before_barrier(), 2.0);
        assert_eq!(o.rate_total(), 500.0);
        assert_eq!(o.items(), 2000);
        let t = outcome(Operation::TreeCreate, &[(0.5, 0), (9.0, 0)]);
        assert_eq!((t.rate(), t.time(), t.items()), (26.0, 0.5, 13));
        let z = outcome(Operation::FileStat, &[(0.0, 0)]);
        assert_eq!((z.rate(), z.time()), (0.0, 0.0));
    }
}
