//! What an IOR run measures, rank 0's view after every phase: the terminal, IOR JSON and CSV
//! printers read these types, and [`phase_result`] and [`summaries`] turn them into the
//! document's phases and per-operation summaries.

use measure::{IntervalSeries, LatencyHistogram};

use crate::model::{
    ErrorLocation, MinMaxMean, OperationSummary, PhaseResult, PhaseTimes,
    RankTimes as DocRankTimes, Stonewall, Verification,
};
use crate::Operation;

/// The timed operations (the `-W` check pass is untimed and reported as [`CheckOutcome`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Write,
    Read,
}

impl Access {
    pub fn label(self) -> &'static str {
        self.operation().label()
    }

    pub fn operation(self) -> Operation {
        match self {
            Access::Write => Operation::Write,
            Access::Read => Operation::Read,
        }
    }
}

/// One rank's six timestamps (seconds on the run's clock) and what it moved.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RankTimes {
    pub open_start: f64,
    pub open_stop: f64,
    pub xfer_start: f64,
    pub xfer_stop: f64,
    pub close_start: f64,
    pub close_stop: f64,
    pub bytes: u64,
    /// Transfers done (IOR's pairs accessed).
    pub ops: u64,
}

/// Stonewall figures of a phase that ran with `-D` and wear-out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StonewallOutcome {
    pub deadline_s: f64,
    /// Rank 0's time from the start of its transfer loop to the wear-out agreement.
    pub time_s: f64,
    pub pairs_min: u64,
    pub pairs_max: u64,
    /// Bytes moved per rank up to the stonewall: minimum, mean and sum over ranks.
    pub bytes_min: u64,
    pub bytes_mean: f64,
    pub bytes_sum: u64,
}

/// Where the first wrong byte was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorAt {
    pub rank: u64,
    pub file: String,
    pub offset: u64,
}

/// Result of data checking in a phase: errors count failing transfers (as IOR does).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VerifyOutcome {
    pub errors: u64,
    pub checked: u64,
    pub first_error: Option<ErrorAt>,
}

/// One timed phase (one row of IOR's results table).
#[derive(Debug, Clone)]
pub struct PhaseOutcome {
    pub access: Access,
    pub iteration: u32,
    pub transfer_size: u64,
    pub block_size: u64,
    /// Per rank, by rank.
    pub ranks: Vec<RankTimes>,
    /// Bytes actually moved by all ranks (IOR's `aggFileSizeForBW`).
    pub bytes: u64,
    pub ops: u64,
    /// max(open stop) - min(open start), and likewise for transfer and close.
    pub open_s: f64,
    pub xfer_s: f64,
    pub close_s: f64,
    /// max(close stop) - min(open start): the window bandwidth is computed over.
    pub total_s: f64,
    /// Every transfer's latency, all ranks merged (ns).
    pub latency: LatencyHistogram,
    /// Bytes and transfers per interval, all ranks merged.
    pub series: IntervalSeries,
    pub stonewall: Option<StonewallOutcome>,
    pub verification: Option<VerifyOutcome>,
    /// IOR's `expectedAggFileSize` and the size `stat` reports (summed over files).
    pub expected_size: u64,
    pub stat_size: u64,
    /// Whether the files' size should equal the bytes moved (false for a container format
    /// such as HDF5, whose files hold metadata too): IOR's size warning.
    pub size_checked: bool,
    pub warnings: Vec<String>,
    /// On a queued engine: the depth and the mean requests in flight.
    pub queue: Option<crate::QueueFigures>,
    /// On an object engine: its requests in the phase.
    pub requests: Option<crate::requests::RequestFigures>,
    /// The MPI-IO hints in effect on rank 0's file (`-a MPIIO`); empty otherwise.
    pub mpi_hints: Vec<(String, String)>,
}

pub const MIB: f64 = 1048576.0;

impl PhaseOutcome {
    /// Bytes over the total window, MiB/s.
    pub fn bandwidth_mib(&self) -> f64 {
        if self.total_s > 0.0 {
            self.bytes as f64 / MIB / self.total_s
        } else {
            0.0
        }
    }
    /// IOR's per-iteration IOPS: whole transfers over the access window.
    pub fn iops(&self) -> f64 {
        if self.xfer_s > 0.0 {
            (self.bytes / self.transfer_size) as f64 / self.xfer_s
        } else {
            0.0
        }
    }
    /// Transfers over the total window (IOR's summary OPs).
    pub fn ops_total_window(&self) -> f64 {
        if self.total_s > 0.0 {
            self.bytes as f64 / self.transfer_size as f64 / self.total_s
        } else {
            0.0
        }
    }
    /// Rank 0's mean time per transfer over its access window, seconds (what IOR prints).
    pub fn rank0_latency_s(&self) -> f64 {
        let r = &self.ranks[0];
        if r.ops > 0 {
            (r.xfer_stop - r.xfer_start) / r.ops as f64
        } else {
            0.0
        }
    }
}

/// The untimed `-W` read-back after a write.
#[derive(Debug, Clone)]
pub struct CheckOutcome {
    pub iteration: u32,
    pub verification: VerifyOutcome,
}

/// A repetition starts with this data signature (a notice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Repetition {
    pub iteration: u32,
    pub seed: i64,
}

/// The files of a repetition were removed: barrier, unlink, barrier (a notice).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Removed {
    pub iteration: u32,
    pub time_s: f64,
}

crate::workload_notice!(Repetition, "ior-repetition", |n| serde_json::json!({
    "iteration": n.iteration
}));
// The untimed `-W` read-back after a write.
crate::workload_notice!(CheckOutcome, "ior-check", |n| serde_json::json!({
    "iteration": n.iteration, "errors": n.verification.errors
}));
crate::workload_notice!(Removed, "ior-remove", |n| serde_json::json!({
    "iteration": n.iteration
}));

/// The result document's view of a rank's check results.
pub fn verification(v: &VerifyOutcome) -> Verification {
    Verification {
        errors: v.errors,
        checked_ops: v.checked,
        first_error: v.first_error.as_ref().map(|e| ErrorLocation {
            file: e.file.clone(),
            offset: e.offset,
            rank: e.rank,
        }),
    }
}

pub fn phase_result(o: &PhaseOutcome) -> PhaseResult {
    let t0 = o
        .ranks
        .iter()
        .map(|r| r.open_start)
        .fold(f64::INFINITY, f64::min);
    let mut p = PhaseResult::new(o.access.operation(), o.iteration);
    p.bytes = o.bytes;
    p.ops = o.ops;
    p.times = PhaseTimes {
        open_s: o.open_s,
        xfer_s: o.xfer_s,
        close_s: o.close_s,
        total_s: o.total_s,
    };
    p.bandwidth_mib_s = o.bandwidth_mib();
    p.iops = o.iops();
    p.queue = o.queue;
    p.mpi_hints = o.mpi_hints.iter().cloned().collect();
    if let Some(r) = &o.requests {
        r.apply(&mut p);
    }
    p.latency = o.latency.summary();
    p.series = o.series.summary();
    p.per_rank = o
        .ranks
        .iter()
        .enumerate()
        .map(|(rank, r)| DocRankTimes {
            rank: rank as u64,
            open_start_s: r.open_start - t0,
            open_stop_s: r.open_stop - t0,
            xfer_start_s: r.xfer_start - t0,
            xfer_stop_s: r.xfer_stop - t0,
            close_start_s: r.close_start - t0,
            close_stop_s: r.close_stop - t0,
            bytes: r.bytes,
            ops: r.ops,
            counters: Default::default(),
        })
        .collect();
    p.stonewall = o.stonewall.map(|s| Stonewall {
        deadline_s: s.deadline_s,
        time_s: s.time_s,
        pairs_min: s.pairs_min,
        pairs_max: s.pairs_max,
        bytes_min: s.bytes_min,
        bytes_mean: s.bytes_mean,
        wear_out: true,
    });
    p.verification = o.verification.as_ref().map(verification);
    p.warnings = o.warnings.clone();
    p
}

/// IOR's "Summary of all tests" per operation: bandwidth and OPs over the total window of each
/// repetition (population SD); stonewall figures as aggregate MiB/s up to the stonewall.
pub fn summaries(phases: &[PhaseOutcome]) -> Vec<OperationSummary> {
    [Access::Write, Access::Read]
        .into_iter()
        .filter_map(|access| {
            let of: Vec<&PhaseOutcome> = phases.iter().filter(|p| p.access == access).collect();
            if of.is_empty() {
                return None;
            }
            let bw: Vec<f64> = of.iter().map(|p| p.bandwidth_mib()).collect();
            let ops: Vec<f64> = of.iter().map(|p| p.ops_total_window()).collect();
            let walls: Vec<_> = of.iter().filter_map(|p| p.stonewall).collect();
            let (sw_time, sw_mib) = if walls.is_empty() {
                (None, None)
            } else {
                let time: f64 = walls.iter().map(|s| s.time_s).sum();
                let bytes: f64 = walls.iter().map(|s| s.bytes_sum as f64).sum();
                (
                    Some(time / walls.len() as f64),
                    Some(crate::mib_per_s(bytes as u64, time)),
                )
            };
            Some(OperationSummary {
                operation: access.operation(),
                bw_mib_s: MinMaxMean::population(&bw),
                ops_per_s: MinMaxMean::population(&ops),
                mean_time_s: of.iter().map(|p| p.total_s).sum::<f64>() / of.len() as f64,
                iterations: of.len() as u32,
                stonewall_time_s: sw_time,
                stonewall_mib_s: sw_mib,
            })
        })
        .collect()
}
