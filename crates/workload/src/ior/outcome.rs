//! What an IOR run reports, rank 0's view after every phase. The terminal, JSON, CSV and
//! result-model sinks all read these types.

use measure::{IntervalSeries, LatencyHistogram};

/// The timed operations (the `-W` check pass is untimed and reported as [`CheckOutcome`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Write,
    Read,
}

impl Access {
    pub fn label(self) -> &'static str {
        match self {
            Access::Write => "write",
            Access::Read => "read",
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
    pub deadline_s: u64,
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
    pub warnings: Vec<String>,
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

/// What rank 0 is told as the run goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// A repetition starts; `seed` is the data signature in use.
    RepetitionStart {
        iteration: u32,
        seed: i64,
    },
    Phase(&'a PhaseOutcome),
    WriteCheck(&'a CheckOutcome),
    /// Files removed at the end of a repetition (barrier, unlink, barrier).
    Remove {
        iteration: u32,
        time_s: f64,
    },
    /// Something the user should know that belongs to no phase.
    Warning(String),
}
