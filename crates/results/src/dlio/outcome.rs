//! What a dlio run measures, reduced on rank 0: the generation (a write phase, one operation
//! per file) and each training epoch (every rank's steps as DLIO's statistics counter keeps
//! them, its figures, the bytes its reader threads read, the wait for data per step).

use measure::{IntervalSeries, LatencyHistogram};

use super::stats::Figures;
use crate::PageCache;

/// The operation kinds of the generation, in recorder order: one `write` per file (open,
/// write the whole file, close).
pub const GENERATE_KINDS: [&str; 1] = ["write"];
/// The operation kinds of an epoch: one `wait` per step, the training thread's wait for its
/// batch (DLIO's `load` time).
pub const EPOCH_KINDS: [&str; 1] = ["wait"];

/// One rank's part of the generation.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GenerateRank {
    pub rank: u64,
    /// Seconds after the phase start (the barrier every rank leaves together).
    pub done_s: f64,
    pub files: u64,
    pub bytes: u64,
}

/// The generation, every rank's part on rank 0.
#[derive(Debug, Clone)]
pub struct GenerateOutcome {
    pub ranks: Vec<GenerateRank>,
    /// Every file's write, merged (ns).
    pub latency: LatencyHistogram,
    pub series: IntervalSeries,
    /// Whether the window includes flushing the files (fsync per file).
    pub flushed: bool,
}

impl GenerateOutcome {
    /// When the last rank was done, from the phase start.
    pub fn seconds(&self) -> f64 {
        self.ranks.iter().map(|r| r.done_s).fold(0.0, f64::max)
    }

    pub fn files(&self) -> u64 {
        self.ranks.iter().map(|r| r.files).sum()
    }

    pub fn bytes(&self) -> u64 {
        self.ranks.iter().map(|r| r.bytes).sum()
    }
}

/// One rank's epoch (one block: no checkpoint inside an epoch).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EpochRank {
    pub rank: u64,
    /// Wall clock at the block's start and end, seconds since the Unix epoch (DLIO's
    /// timestamps in the per-epoch files).
    pub start_unix_s: f64,
    pub end_unix_s: f64,
    /// The block's start and end, seconds after the phase start on this rank's clock.
    pub start_s: f64,
    pub end_s: f64,
    /// Samples DLIO counts: steps x batch size.
    pub samples: u64,
    /// Bytes the rank's reader threads read in the epoch (reads ahead of the last step
    /// included).
    pub bytes_read: u64,
    /// Per step, seconds: the wait for the batch (DLIO's `load`), wait plus computation
    /// (`proc`) and the computation as measured (`compute`).
    pub load: Vec<f64>,
    pub proc: Vec<f64>,
    pub compute: Vec<f64>,
    /// DLIO's AU and samples/s of this rank's block.
    pub figures: Figures,
    /// The rank's host: its node (in the run's node map), CPUs and memory in bytes, for
    /// DLIO's per-host lists.
    pub node: u64,
    pub host_cpus: u64,
    pub host_memory_bytes: u64,
}

impl EpochRank {
    pub fn steps(&self) -> u64 {
        self.compute.len() as u64
    }

    pub fn seconds(&self) -> f64 {
        self.end_s - self.start_s
    }
}

/// One training epoch, every rank's part on rank 0.
#[derive(Debug, Clone)]
pub struct EpochOutcome {
    /// 1-based, as DLIO numbers them.
    pub epoch: u64,
    pub ranks: Vec<EpochRank>,
    /// Every rank's per-step wait for data, merged (ns).
    pub latency: LatencyHistogram,
    pub series: IntervalSeries,
    pub page_cache: Option<PageCache>,
    /// The configured mean record length (DLIO's derived MB/s uses it).
    pub record_length: f64,
    /// `metric.au`, a fraction.
    pub au_threshold: f64,
    /// A signal stopped the ranks before the epoch's last step.
    pub stopped: bool,
}

impl EpochOutcome {
    /// DLIO's epoch figures: AU the mean over ranks, samples/s the sum.
    pub fn figures(&self) -> Figures {
        let n = self.ranks.len().max(1) as f64;
        Figures {
            au_percent: self.ranks.iter().map(|r| r.figures.au_percent).sum::<f64>() / n,
            samples_per_second: self
                .ranks
                .iter()
                .map(|r| r.figures.samples_per_second)
                .sum(),
        }
    }

    /// DLIO's "MB/s": samples/s x the configured mean record length, in MiB/s (derived).
    pub fn dlio_mib_per_second(&self) -> f64 {
        self.figures().samples_per_second * self.record_length / 1024.0 / 1024.0
    }

    /// The epoch's time: the first rank's block start to the last rank's block end.
    pub fn seconds(&self) -> f64 {
        let start = self
            .ranks
            .iter()
            .map(|r| r.start_s)
            .fold(f64::MAX, f64::min);
        let end = self.ranks.iter().map(|r| r.end_s).fold(0.0, f64::max);
        if self.ranks.is_empty() {
            0.0
        } else {
            end - start
        }
    }

    pub fn bytes_read(&self) -> u64 {
        self.ranks.iter().map(|r| r.bytes_read).sum()
    }

    pub fn samples(&self) -> u64 {
        self.ranks.iter().map(|r| r.samples).sum()
    }

    pub fn steps(&self) -> u64 {
        self.ranks.iter().map(EpochRank::steps).max().unwrap_or(0)
    }

    /// The bytes actually read over the epoch's time, MiB/s (beside DLIO's derived figure).
    pub fn read_mib_per_second(&self) -> f64 {
        crate::mib_per_s(self.bytes_read(), self.seconds())
    }

    /// The epoch's AU reaches `metric.au`.
    pub fn au_met(&self) -> bool {
        self.figures().au_percent >= self.au_threshold * 100.0
    }
}

/// A dlio phase: the generation, an epoch, or a checkpoint written or read.
#[derive(Debug, Clone)]
pub enum PhaseOutcome {
    Generate(GenerateOutcome),
    Epoch(EpochOutcome),
    Checkpoint(super::checkpoint::CheckpointOutcome),
}
