//! dlio phases in the result document, and the document's `dlio` block.
//!
//! The generation is a write phase: `ops` the files, `bytes` their bytes, `bandwidth_mib_s`
//! over the time until the last rank was done, `latency` per file. An epoch: `ops` the
//! samples DLIO counts and `iops` DLIO's samples/s (the ranks' sum); `bytes` what the reader
//! threads actually read and `bandwidth_mib_s` that over the epoch's time; `latency` the
//! per-step wait for data; `counters` the steps and samples. AU, DLIO's derived MiB/s and the
//! pass/fail against `metric.au` are in the `dlio` block ([`DlioResult`]), one entry per epoch,
//! with summary.json's training metrics over all epochs.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::checkpoint::{
    checkpoint_result, CheckpointFigures, CheckpointMetric, CheckpointOutcome,
};
use super::outcome::{EpochOutcome, GenerateOutcome, PhaseOutcome};
use super::stats::{train_metric, Figures, TrainMetric};
use crate::model::{MinMaxMean, OperationSummary, PhaseResult, PhaseTimes, RankTimes};
use crate::{mib_per_s, per_s, Operation};

/// The document's `dlio` block (workload dlio only).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DlioResult {
    /// `metric.au` in percent: the AU an epoch and the run must reach.
    pub au_threshold_percent: f64,
    /// The epochs that ran to their end, in order.
    pub epochs: Vec<EpochFigures>,
    /// summary.json's `metric` over those epochs (DLIO's names); absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<TrainMetric>,
    /// The checkpoints written and read that ran to their end, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checkpoints: Vec<CheckpointFigures>,
    /// summary.json's checkpoint figures over them (DLIO's names); absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint_metric: Option<CheckpointMetric>,
}

/// One epoch's figures over all ranks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EpochFigures {
    /// 1-based; the document's phase `dlio-epoch` with this iteration.
    pub epoch: u64,
    /// DLIO's accelerator utilisation, the mean over ranks (percent).
    pub au_percent: f64,
    /// The epoch's AU reaches `metric.au`.
    pub au_met: bool,
    /// DLIO's throughput: samples per second, the sum over ranks.
    pub samples_per_second: f64,
    /// DLIO's "MB/s": samples/s x the configured mean record length / 2^20 (derived).
    pub dlio_mib_per_second: f64,
    /// The bytes the reader threads actually read over the epoch's time, MiB/s.
    pub read_mib_per_second: f64,
    pub bytes_read: u64,
    pub seconds: f64,
    /// Steps of each rank and samples of all ranks.
    pub steps: u64,
    pub samples: u64,
}

/// The `dlio` block's entry of one epoch.
pub fn epoch_entry(o: &EpochOutcome) -> EpochFigures {
    let f = o.figures();
    EpochFigures {
        epoch: o.epoch,
        au_percent: f.au_percent,
        au_met: o.au_met(),
        samples_per_second: f.samples_per_second,
        dlio_mib_per_second: o.dlio_mib_per_second(),
        read_mib_per_second: o.read_mib_per_second(),
        bytes_read: o.bytes_read(),
        seconds: o.seconds(),
        steps: o.steps(),
        samples: o.samples(),
    }
}

/// The `dlio` block of the epochs that ran to their end (an interrupted one is left out, as
/// DLIO has no figures for it).
pub fn dlio_result(epochs: &[&EpochOutcome], au_threshold: f64, record_length: f64) -> DlioResult {
    let done: Vec<&EpochOutcome> = epochs.iter().copied().filter(|e| !e.stopped).collect();
    let metric = (!done.is_empty()).then(|| {
        let ranks = done.first().map_or(0, |e| e.ranks.len());
        let by_rank: Vec<Vec<Figures>> = (0..ranks)
            .map(|r| done.iter().map(|e| e.ranks[r].figures).collect())
            .collect();
        train_metric(&by_rank, au_threshold, record_length)
    });
    DlioResult {
        au_threshold_percent: au_threshold * 100.0,
        epochs: done.iter().map(|e| epoch_entry(e)).collect(),
        metric,
        ..DlioResult::default()
    }
}

fn counters(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// The document's phase of `o`.
pub fn phase_result(o: &PhaseOutcome) -> PhaseResult {
    match o {
        PhaseOutcome::Generate(g) => generate_result(g),
        PhaseOutcome::Epoch(e) => epoch_result(e),
        PhaseOutcome::Checkpoint(c) => checkpoint_result(c),
    }
}

fn generate_result(g: &GenerateOutcome) -> PhaseResult {
    let t = g.seconds();
    let mut p = PhaseResult::new(Operation::DlioGenerate, 0);
    p.bytes = g.bytes();
    p.ops = g.files();
    p.times = PhaseTimes::window(t);
    p.bandwidth_mib_s = mib_per_s(p.bytes, t);
    p.iops = per_s(p.ops as f64, t);
    p.latency = g.latency.summary();
    p.series = g.series.summary();
    p.per_rank = g
        .ranks
        .iter()
        .map(|r| {
            let mut t = RankTimes::bracket(r.rank, 0.0, r.done_s, r.done_s, r.bytes, r.files);
            t.counters = counters(&[("files", r.files)]);
            t
        })
        .collect();
    p.counters = counters(&[("files", p.ops)]);
    p.flushed = Some(g.flushed);
    p
}

fn epoch_result(e: &EpochOutcome) -> PhaseResult {
    let t = e.seconds();
    let f = e.figures();
    let mut p = PhaseResult::new(Operation::DlioEpoch, e.epoch as u32);
    p.bytes = e.bytes_read();
    p.ops = e.samples();
    p.times = PhaseTimes::window(t);
    p.bandwidth_mib_s = e.read_mib_per_second();
    p.iops = f.samples_per_second;
    p.latency = e.latency.summary();
    p.series = e.series.summary();
    let first = e.ranks.iter().map(|r| r.start_s).fold(f64::MAX, f64::min);
    p.per_rank = e
        .ranks
        .iter()
        .map(|r| {
            let (start, end) = (r.start_s - first, r.end_s - first);
            let mut t = RankTimes::bracket(r.rank, start, end, end, r.bytes_read, r.samples);
            t.counters = counters(&[("steps", r.steps()), ("samples", r.samples)]);
            t
        })
        .collect();
    p.counters = counters(&[("steps", e.steps()), ("samples", p.ops)]);
    p.page_cache = e.page_cache.clone();
    p.interrupted = e.stopped;
    p
}

/// One summary per kind of phase that ran: the generation; the epochs (bandwidth the bytes
/// read, the rate DLIO's samples/s; population standard deviation as DLIO's numpy).
pub fn summaries(outcomes: &[PhaseOutcome]) -> Vec<OperationSummary> {
    let mut out = Vec::new();
    let gen: Vec<&GenerateOutcome> = outcomes
        .iter()
        .filter_map(|o| match o {
            PhaseOutcome::Generate(g) => Some(g),
            _ => None,
        })
        .collect();
    if !gen.is_empty() {
        let bw: Vec<f64> = gen
            .iter()
            .map(|g| mib_per_s(g.bytes(), g.seconds()))
            .collect();
        let rates: Vec<f64> = gen
            .iter()
            .map(|g| per_s(g.files() as f64, g.seconds()))
            .collect();
        out.push(summary(
            Operation::DlioGenerate,
            &bw,
            &rates,
            gen.iter().map(|g| g.seconds()),
        ));
    }
    let epochs: Vec<&EpochOutcome> = outcomes
        .iter()
        .filter_map(|o| match o {
            PhaseOutcome::Epoch(e) if !e.stopped => Some(e),
            _ => None,
        })
        .collect();
    for op in [
        Operation::DlioCheckpointWrite,
        Operation::DlioCheckpointRead,
    ] {
        let done: Vec<&CheckpointOutcome> = outcomes
            .iter()
            .filter_map(|o| match o {
                PhaseOutcome::Checkpoint(c) if !c.stopped && c.operation() == op => Some(c),
                _ => None,
            })
            .collect();
        if done.is_empty() {
            continue;
        }
        let bw: Vec<f64> = done
            .iter()
            .map(|c| mib_per_s(c.bytes(), c.seconds()))
            .collect();
        let rates: Vec<f64> = done
            .iter()
            .map(|c| per_s(c.files() as f64, c.seconds()))
            .collect();
        out.push(summary(op, &bw, &rates, done.iter().map(|c| c.seconds())));
    }
    if !epochs.is_empty() {
        let bw: Vec<f64> = epochs.iter().map(|e| e.read_mib_per_second()).collect();
        let rates: Vec<f64> = epochs
            .iter()
            .map(|e| e.figures().samples_per_second)
            .collect();
        out.push(summary(
            Operation::DlioEpoch,
            &bw,
            &rates,
            epochs.iter().map(|e| e.seconds()),
        ));
    }
    out
}

fn summary(
    operation: Operation,
    bw: &[f64],
    rates: &[f64],
    times: impl Iterator<Item = f64>,
) -> OperationSummary {
    let times: Vec<f64> = times.collect();
    OperationSummary {
        operation,
        bw_mib_s: MinMaxMean::population(bw),
        ops_per_s: MinMaxMean::population(rates),
        mean_time_s: times.iter().sum::<f64>() / times.len().max(1) as f64,
        iterations: times.len() as u32,
        stonewall_time_s: None,
        stonewall_mib_s: None,
    }
}

#[cfg(test)]
mod tests {
    use measure::{IntervalSeries, LatencyHistogram};

    use super::*;
    use crate::dlio::outcome::EpochRank;

    fn rank(rank: u64, au: f64, sps: f64, bytes: u64) -> EpochRank {
        EpochRank {
            rank,
            start_s: 0.5,
            end_s: 2.5,
            samples: 40,
            bytes_read: bytes,
            load: vec![0.1; 10],
            proc: vec![0.2; 10],
            compute: vec![0.1; 10],
            figures: Figures {
                au_percent: au,
                samples_per_second: sps,
            },
            ..EpochRank::default()
        }
    }

    fn epoch(n: u64, stopped: bool) -> EpochOutcome {
        EpochOutcome {
            epoch: n,
            ranks: vec![rank(0, 95.0, 20.0, 1 << 20), rank(1, 85.0, 22.0, 3 << 20)],
            latency: LatencyHistogram::new(),
            series: IntervalSeries::new(1_000_000_000, 0),
            page_cache: None,
            record_length: 1048576.0,
            au_threshold: 0.9,
            stopped,
        }
    }

    #[test]
    fn an_epoch_is_a_phase_of_samples_with_the_bytes_actually_read() {
        let e = epoch(2, false);
        let p = phase_result(&PhaseOutcome::Epoch(e.clone()));
        assert_eq!((p.operation, p.iteration), (Operation::DlioEpoch, 2));
        assert_eq!((p.ops, p.bytes), (80, 4 << 20));
        assert_eq!(p.iops, 42.0);
        assert!(
            (p.bandwidth_mib_s - 2.0).abs() < 1e-12,
            "{}",
            p.bandwidth_mib_s
        );
        assert_eq!(p.counters["steps"], 10);
        let f = epoch_entry(&e);
        assert_eq!(f.au_percent, 90.0);
        assert!(f.au_met);
        // DLIO's MB/s: samples/s x the mean record length, not the bytes read.
        assert_eq!(f.dlio_mib_per_second, 42.0);
    }

    #[test]
    fn the_block_keeps_finished_epochs_and_dlios_metric() {
        let (a, b, cut) = (epoch(1, false), epoch(2, false), epoch(3, true));
        let r = dlio_result(&[&a, &b, &cut], 0.9, 1048576.0);
        assert_eq!(r.epochs.len(), 2);
        let m = r.metric.unwrap();
        assert_eq!(m.train_au_percentage, vec![90.0, 90.0]);
        assert_eq!(m.train_au_meet_expectation, "success");
        let none = dlio_result(&[&cut], 0.9, 1.0);
        assert!(none.metric.is_none() && none.epochs.is_empty());
    }
}
