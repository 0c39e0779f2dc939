//! What an mdtest run reports: rank 0's view after every phase. The SUMMARY printer, the
//! per-rank CSV and the result document all read these types.

use measure::{IntervalSeries, LatencyHistogram};

pub use crate::ior::{ErrorAt, VerifyOutcome};

/// The timed phases, in the order of mdtest's SUMMARY table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    DirCreate,
    DirStat,
    DirRename,
    DirRemove,
    FileCreate,
    FileStat,
    FileRead,
    FileRemove,
    TreeCreate,
    TreeRemove,
}

impl Op {
    pub const ALL: [Op; 10] = [
        Op::DirCreate,
        Op::DirStat,
        Op::DirRename,
        Op::DirRemove,
        Op::FileCreate,
        Op::FileStat,
        Op::FileRead,
        Op::FileRemove,
        Op::TreeCreate,
        Op::TreeRemove,
    ];

    /// The operation name in results (`"file-create"`, ...).
    pub fn label(self) -> &'static str {
        match self {
            Op::DirCreate => "dir-create",
            Op::DirStat => "dir-stat",
            Op::DirRename => "dir-rename",
            Op::DirRemove => "dir-remove",
            Op::FileCreate => "file-create",
            Op::FileStat => "file-stat",
            Op::FileRead => "file-read",
            Op::FileRemove => "file-remove",
            Op::TreeCreate => "tree-create",
            Op::TreeRemove => "tree-remove",
        }
    }

    /// mdtest's row label (`mdtest_test_name`).
    pub fn title(self) -> &'static str {
        match self {
            Op::DirCreate => "Directory creation",
            Op::DirStat => "Directory stat",
            Op::DirRename => "Directory rename",
            Op::DirRemove => "Directory removal",
            Op::FileCreate => "File creation",
            Op::FileStat => "File stat",
            Op::FileRead => "File read",
            Op::FileRemove => "File removal",
            Op::TreeCreate => "Tree creation",
            Op::TreeRemove => "Tree removal",
        }
    }

    pub fn is_dir(self) -> bool {
        matches!(
            self,
            Op::DirCreate | Op::DirStat | Op::DirRename | Op::DirRemove
        )
    }

    pub fn is_file(self) -> bool {
        matches!(
            self,
            Op::FileCreate | Op::FileStat | Op::FileRead | Op::FileRemove
        )
    }

    pub fn is_tree(self) -> bool {
        matches!(self, Op::TreeCreate | Op::TreeRemove)
    }
}

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
    pub deadline_s: u64,
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

impl StonewallOutcome {
    pub fn items_mean(&self) -> f64 {
        self.items_sum as f64 / self.tasks.max(1) as f64
    }
}

/// One timed phase of one iteration.
#[derive(Debug, Clone)]
pub struct PhaseOutcome {
    pub op: Op,
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

/// `amount / seconds`, 0 for an empty window.
pub fn per_s(amount: f64, seconds: f64) -> f64 {
    if seconds > 0.0 && amount.is_finite() {
        amount / seconds
    } else {
        0.0
    }
}

/// What rank 0 is told as the run goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// The seeds are agreed; the run starts.
    Begin {
        data_seed: i64,
        /// Rank 0's `-R` seed.
        random_seed: Option<u64>,
        /// Items per task the phases after create will use, when not the configured count.
        items_from_status: Option<u64>,
    },
    /// A stonewalled create phase agreed on its count (printed before the phase ends).
    Stonewall(&'a StonewallOutcome),
    Phase(&'a PhaseOutcome),
    /// Something the user should know that belongs to no phase.
    Warning(String),
}

/// How the run ended, the same on every rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunTotals {
    /// Files that did not read back as written (or read short), over all phases and ranks.
    pub errors: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(op: Op, ranks: &[(f64, u64)]) -> PhaseOutcome {
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
        }
    }

    #[test]
    fn rate_is_tasks_times_the_slowest_rank() {
        let o = outcome(Op::FileCreate, &[(2.0, 1000), (4.0, 1000)]);
        assert_eq!(o.rate(), 2.0 * 250.0);
        assert_eq!(o.time(), 4.0);
        assert_eq!(o.time_before_barrier(), 2.0);
        assert_eq!(o.rate_total(), 500.0);
        assert_eq!(o.items(), 2000);
        let t = outcome(Op::TreeCreate, &[(0.5, 0), (9.0, 0)]);
        assert_eq!((t.rate(), t.time(), t.items()), (26.0, 0.5, 13));
        let z = outcome(Op::FileStat, &[(0.0, 0)]);
        assert_eq!((z.rate(), z.time()), (0.0, 0.0));
    }

    #[test]
    fn labels() {
        let labels: Vec<_> = Op::ALL.iter().map(|o| o.label()).collect();
        assert_eq!(labels[4], "file-create");
        assert_eq!(Op::DirRename.title(), "Directory rename");
        assert!(Op::TreeRemove.is_tree() && !Op::TreeRemove.is_file());
    }
}
