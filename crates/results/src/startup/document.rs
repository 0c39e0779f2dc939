//! Start-up phases in the result document. `times.total_s` (= `xfer_s`) is the time until the
//! last rank was done, from the first rank's start; `ops` are the stats and opens of all ranks
//! and `iops` their rate over that time (the metadata rate); `bytes` and `bandwidth_mib_s` the
//! data read and its rate; `per_rank` each rank's start (its stagger) and finish; `latency`
//! every operation, `latency_by_kind` each kind; `counters` the counts over all ranks.

use std::collections::BTreeMap;

use measure::LatencyHistogram;

use super::{kinds, PhaseOutcome, RankOutcome};
use crate::model::{MinMaxMean, OperationSummary, PhaseResult, PhaseTimes, RankTimes};
use crate::Operation;

fn counters(r: &RankOutcome) -> BTreeMap<String, u64> {
    [("files", r.files), ("stats", r.stats), ("opens", r.opens)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

pub fn phase_result(o: &PhaseOutcome) -> PhaseResult {
    let all = o.totals();
    let t = o.time_to_last_done();
    let mut p = PhaseResult::new(o.phase, o.iteration);
    p.bytes = all.bytes;
    p.ops = all.metadata_ops();
    p.times = PhaseTimes::window(t);
    p.bandwidth_mib_s = o.data_rate_mib_s();
    p.iops = o.metadata_rate();
    let mut merged = LatencyHistogram::new();
    for (name, h) in kinds(o.phase).iter().zip(&o.latency) {
        merged.merge(h);
        if !h.is_empty() {
            p.latency_by_kind.insert(name.to_string(), h.summary());
        }
    }
    p.latency = merged.summary();
    p.series = o.series.summary();
    p.per_rank = o
        .ranks
        .iter()
        .map(|r| {
            let ops = r.metadata_ops();
            let mut t = RankTimes::bracket(r.rank, r.start_s, r.done_s, r.done_s, r.bytes, ops);
            t.counters = counters(r);
            t
        })
        .collect();
    p.counters = counters(&all);
    p.page_cache = o.page_cache.clone();
    p
}

/// One summary per phase that ran, over its iterations (sample standard deviation).
pub fn summaries(outcomes: &[PhaseOutcome]) -> Vec<OperationSummary> {
    [Operation::TreeRead, Operation::CommonRead]
        .into_iter()
        .filter_map(|op| {
            let of: Vec<&PhaseOutcome> = outcomes.iter().filter(|o| o.phase == op).collect();
            if of.is_empty() {
                return None;
            }
            let bw: Vec<f64> = of.iter().map(|o| o.data_rate_mib_s()).collect();
            let rates: Vec<f64> = of.iter().map(|o| o.metadata_rate()).collect();
            let times = of.iter().map(|o| o.time_to_last_done());
            Some(OperationSummary {
                operation: op,
                bw_mib_s: MinMaxMean::sample(&bw),
                ops_per_s: MinMaxMean::sample(&rates),
                mean_time_s: times.sum::<f64>() / of.len() as f64,
                iterations: of.len() as u32,
                stonewall_time_s: None,
                stonewall_mib_s: None,
            })
        })
        .collect()
}
