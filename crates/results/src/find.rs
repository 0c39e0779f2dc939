//! What a find measures: per-rank counters, the combined outcome rank 0 builds, and its form
//! in the result document (workload "find", one phase whose `ops` are the examined entries and
//! `iops` the rate; matches, directories, stats and steals are the phase's `counters`, totals and
//! per rank).

use std::collections::BTreeMap;

use measure::LatencyHistogram;

use crate::model::{MinMaxMean, OperationSummary, PhaseResult, PhaseTimes, RankTimes};
use crate::Operation;

/// Per-rank stealing figures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StealStats {
    /// Steal attempts (one victim each), successful or not.
    pub tries: u64,
    /// Directories taken from other ranks.
    pub stolen: u64,
    /// Directories that went to this rank's spill list because its queue was full.
    pub spilled: u64,
}

/// One rank's counters (or their sum). Field order is the wire order of [`Counts::encode`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Non-directory entries that matched every predicate (pfind's `found`).
    pub found: u64,
    /// Non-directory entries examined: the IO500's `total-files` and the rate's numerator.
    pub examined: u64,
    /// Directories read (roots included).
    pub dirs: u64,
    /// Entries returned by readdir, `.` and `..` excluded (pfind's "scanned dirents").
    pub dirents: u64,
    /// `lstat` calls made.
    pub stats: u64,
    /// Entries whose type readdir did not report (DT_UNKNOWN); each needed an `lstat`.
    pub unknown: u64,
    /// Entries that could not be stat'ed (vanished, permission).
    pub stat_errors: u64,
    /// Directories that could not be read; their contents are not counted.
    pub unreadable_dirs: u64,
    pub steal_tries: u64,
    pub stolen: u64,
    pub spilled: u64,
}

/// How many counters [`Counts::fields`] holds.
pub const FIELDS: usize = 11;

impl Counts {
    /// The counters in a fixed order (how they travel between ranks).
    pub fn fields(&self) -> [u64; FIELDS] {
        [
            self.found,
            self.examined,
            self.dirs,
            self.dirents,
            self.stats,
            self.unknown,
            self.stat_errors,
            self.unreadable_dirs,
            self.steal_tries,
            self.stolen,
            self.spilled,
        ]
    }

    /// The inverse of [`Counts::fields`].
    pub fn from_fields(f: [u64; FIELDS]) -> Self {
        Counts {
            found: f[0],
            examined: f[1],
            dirs: f[2],
            dirents: f[3],
            stats: f[4],
            unknown: f[5],
            stat_errors: f[6],
            unreadable_dirs: f[7],
            steal_tries: f[8],
            stolen: f[9],
            spilled: f[10],
        }
    }

    pub fn set_steals(&mut self, s: StealStats) {
        self.steal_tries = s.tries;
        self.stolen = s.stolen;
        self.spilled = s.spilled;
    }

    pub fn add(&mut self, other: &Counts) {
        let mut f = self.fields();
        for (a, b) in f.iter_mut().zip(other.fields()) {
            *a += b;
        }
        *self = Counts::from_fields(f);
    }
}

/// One rank's share, as rank 0 received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankCounts {
    pub counts: Counts,
    /// Walk start and end on the process clock (`measure::now_ns`).
    pub start_ns: u64,
    pub end_ns: u64,
}

impl RankCounts {
    pub fn runtime_s(&self) -> f64 {
        self.end_ns.saturating_sub(self.start_ns) as f64 / 1e9
    }
}

/// The combined result, built on rank 0.
#[derive(Debug, Clone)]
pub struct FindOutcome {
    pub total: Counts,
    pub ranks: Vec<RankCounts>,
    /// The ctime second `-newer` compared against.
    pub newer_ctime: Option<i64>,
    /// Readdir latency per directory, all ranks.
    pub latency: LatencyHistogram,
    /// "path: error" for (some of) the directories that could not be read.
    pub unreadable: Vec<String>,
    /// What `--drop-caches` did before the walk.
    pub page_cache: Option<crate::PageCache>,
    /// The signal that cut the walk short (every rank agreed), if any: the counts cover what
    /// was walked.
    pub interrupted: Option<i32>,
}

impl FindOutcome {
    /// pfind's runtime: the longest walk of any rank.
    pub fn runtime_s(&self) -> f64 {
        self.ranks
            .iter()
            .map(RankCounts::runtime_s)
            .fold(0.0, f64::max)
    }

    /// Examined entries per second over the runtime (pfind's and the IO500's rate).
    pub fn rate(&self) -> f64 {
        let t = self.runtime_s();
        if t > 0.0 {
            self.total.examined as f64 / t
        } else {
            0.0
        }
    }
}

/// The counters under the names the document gives them.
pub fn counters(c: &Counts) -> BTreeMap<String, u64> {
    [
        ("found", c.found),
        ("examined", c.examined),
        ("directories", c.dirs),
        ("dirents", c.dirents),
        ("lstat_calls", c.stats),
        ("unknown_type_entries", c.unknown),
        ("stat_errors", c.stat_errors),
        ("unreadable_directories", c.unreadable_dirs),
        ("steal_tries", c.steal_tries),
        ("directories_stolen", c.stolen),
        ("directories_spilled", c.spilled),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// The document's phase of a find.
pub fn phase_result(o: &FindOutcome) -> PhaseResult {
    let t0 = o.ranks.iter().map(|r| r.start_ns).min().unwrap_or(0);
    let rel = |ns: u64| ns.saturating_sub(t0) as f64 / 1e9;
    let runtime = o.runtime_s();
    let mut p = PhaseResult::new(Operation::Find, 0);
    p.ops = o.total.examined;
    // pfind's runtime (the slowest rank's walk) is the whole window; there is no open or close.
    p.times = PhaseTimes::window(runtime);
    p.iops = o.rate();
    p.latency = o.latency.summary();
    p.page_cache = o.page_cache.clone();
    p.per_rank = o
        .ranks
        .iter()
        .enumerate()
        .map(|(rank, r)| RankTimes {
            rank: rank as u64,
            open_start_s: rel(r.start_ns),
            open_stop_s: rel(r.start_ns),
            xfer_start_s: rel(r.start_ns),
            xfer_stop_s: rel(r.end_ns),
            close_start_s: rel(r.end_ns),
            close_stop_s: rel(r.end_ns),
            bytes: 0,
            ops: r.counts.examined,
            counters: counters(&r.counts),
        })
        .collect();
    p.counters = counters(&o.total);
    p
}

/// The document's one summary of a find: its rate.
pub fn summaries(o: &FindOutcome) -> Vec<OperationSummary> {
    let p = phase_result(o);
    vec![OperationSummary {
        operation: Operation::Find,
        bw_mib_s: Default::default(),
        ops_per_s: MinMaxMean::population(&[p.iops]),
        mean_time_s: p.times.total_s,
        iterations: 1,
        stonewall_time_s: None,
        stonewall_mib_s: None,
    }]
}
