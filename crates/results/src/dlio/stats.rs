//! DLIO's statistics counter (utils/statscounter.py, mlperf_storage_v2.0) as pure functions.
//!
//! Per rank and block (an epoch, when no checkpoint falls inside it):
//! - AU = the compute time of the metric steps / (block time − the `proc` time of the excluded
//!   steps), in percent; the metric steps are `exclude_start ..= steps − 1 − exclude_end` of
//!   the *expected* steps, sliced Python's way. The barrier after each step stays in the block
//!   time.
//! - samples/s = (steps taken − 2) / that same time × batch size (DLIO subtracts 2 whatever the
//!   exclusions are).
//! - An epoch's figures are its blocks' weighted by their steps.
//!
//! Over ranks and epochs: per epoch, AU is the mean over ranks and samples/s the sum; the
//! summary takes mean and population standard deviation over epochs; "MB/s" is samples/s ×
//! the configured mean record length / 1024 / 1024 (MiB/s derived, not measured).

use serde::{Deserialize, Serialize};

/// One rank's block: what DLIO keeps per step, in seconds.
#[derive(Debug, Clone, Copy)]
pub struct BlockTimes<'a> {
    /// From the block's start to its end (after the last step's barrier).
    pub seconds: f64,
    /// Per step: the computation (DLIO's `compute`).
    pub compute: &'a [f64],
    /// Per step: wait plus computation (DLIO's `proc`).
    pub proc: &'a [f64],
}

/// The metric steps as DLIO configures them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricSteps {
    /// The steps DLIO expects per epoch (`total_training_steps` or `max_steps`).
    pub expected: u64,
    pub exclude_start: u64,
    pub exclude_end: u64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Figures {
    pub au_percent: f64,
    pub samples_per_second: f64,
}

/// Python's `list[start:stop]` bounds for a list of `len` (negative counts from the end).
fn py_slice(len: usize, start: i64, stop: i64) -> std::ops::Range<usize> {
    let clamp = |i: i64| -> usize {
        let i = if i < 0 { i + len as i64 } else { i };
        i.clamp(0, len as i64) as usize
    };
    let (a, b) = (clamp(start), clamp(stop));
    a..b.max(a)
}

/// AU and samples/s of one rank's block.
pub fn block_figures(block: BlockTimes<'_>, metric: MetricSteps, batch_size: u64) -> Figures {
    let start = metric.exclude_start as i64;
    let end = metric.expected as i64 - 1 - metric.exclude_end as i64; // inclusive
    let compute: f64 = block.compute[py_slice(block.compute.len(), start, end + 1)]
        .iter()
        .sum();
    let head: f64 = block.proc[py_slice(block.proc.len(), 0, start)]
        .iter()
        .sum();
    let tail: f64 = block.proc[py_slice(block.proc.len(), end + 1, i64::MAX)]
        .iter()
        .sum();
    let total = block.seconds - head - tail;
    let au = if compute == 0.0 { 0.0 } else { compute / total };
    let samples_per_second = (block.compute.len() as f64 - 2.0) / total * batch_size as f64;
    Figures {
        au_percent: au * 100.0,
        samples_per_second,
    }
}

/// An epoch's figures from its blocks' (figures, steps), weighted by steps; 0 without steps.
pub fn epoch_figures(blocks: &[(Figures, u64)]) -> Figures {
    let steps: u64 = blocks.iter().map(|b| b.1).sum();
    if steps == 0 {
        return Figures {
            au_percent: 0.0,
            samples_per_second: 0.0,
        };
    }
    let weighted = |f: fn(&Figures) -> f64| {
        blocks.iter().map(|(b, n)| f(b) * *n as f64).sum::<f64>() / steps as f64
    };
    Figures {
        au_percent: weighted(|f| f.au_percent),
        samples_per_second: weighted(|f| f.samples_per_second),
    }
}

/// summary.json's training metrics, DLIO's field names in DLIO's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TrainMetric {
    pub train_au_percentage: Vec<f64>,
    pub train_au_mean_percentage: f64,
    /// "success" or "fail".
    pub train_au_meet_expectation: String,
    pub train_au_stdev_percentage: f64,
    pub train_throughput_samples_per_second: Vec<f64>,
    pub train_throughput_mean_samples_per_second: f64,
    pub train_throughput_stdev_samples_per_second: f64,
    #[serde(rename = "train_io_mean_MB_per_second")]
    pub train_io_mean_mb_per_second: f64,
    #[serde(rename = "train_io_stdev_MB_per_second")]
    pub train_io_stdev_mb_per_second: f64,
}

/// The run's training metrics from every rank's per-epoch figures (`ranks[r][e]`), the
/// `metric.au` threshold (a fraction) and the configured mean record length in bytes.
pub fn train_metric(ranks: &[Vec<Figures>], au_threshold: f64, record_length: f64) -> TrainMetric {
    let epochs = ranks.iter().map(Vec::len).min().unwrap_or(0);
    let size = ranks.len() as f64;
    let au: Vec<f64> = (0..epochs)
        .map(|e| ranks.iter().map(|r| r[e].au_percent).sum::<f64>() / size)
        .collect();
    let throughput: Vec<f64> = (0..epochs)
        .map(|e| ranks.iter().map(|r| r[e].samples_per_second).sum())
        .collect();
    let au_mean = mean(&au);
    let throughput_mean = mean(&throughput);
    let throughput_stdev = stdev(&throughput);
    TrainMetric {
        train_au_mean_percentage: au_mean,
        train_au_meet_expectation: if au_mean >= au_threshold * 100.0 {
            "success"
        } else {
            "fail"
        }
        .to_string(),
        train_au_stdev_percentage: stdev(&au),
        train_au_percentage: au,
        train_throughput_samples_per_second: throughput,
        train_throughput_mean_samples_per_second: throughput_mean,
        train_throughput_stdev_samples_per_second: throughput_stdev,
        train_io_mean_mb_per_second: throughput_mean * record_length / 1024.0 / 1024.0,
        train_io_stdev_mb_per_second: throughput_stdev * record_length / 1024.0 / 1024.0,
    }
}

/// numpy's `mean` (NaN for no values, as numpy gives).
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// numpy's `std`: the population standard deviation.
pub fn stdev(values: &[f64]) -> f64 {
    let m = mean(values);
    (values.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / values.len() as f64).sqrt()
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;
