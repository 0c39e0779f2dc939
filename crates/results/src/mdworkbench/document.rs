//! md-workbench's phases in the result document. `iops` is md-workbench's rate and
//! `bandwidth_mib_s` its `tp`; `times.total_s` (= `xfer_s`) is its `t`, the slowest rank's
//! phase time; `latency` holds every object operation (create, read, stat, delete) and
//! `latency_by_kind` each kind, the data-set directories included; `counters` md-workbench's
//! counts over all ranks (per rank in `per_rank`).

use std::collections::BTreeMap;

use measure::LatencyHistogram;

use super::{Counts, PhaseOutcome, KINDS, PRINTED};
use crate::model::{MinMaxMean, OperationSummary, PhaseResult, PhaseTimes, RankTimes, Stonewall};
use crate::Operation;

/// The counters under their document names; errors over all kinds last.
fn counters(c: &Counts) -> BTreeMap<String, u64> {
    let pairs = [
        ("sets-created", c.dset_create.ok),
        ("sets-deleted", c.dset_delete.ok),
        ("objects-created", c.obj_create.ok),
        ("objects-read", c.obj_read.ok),
        ("objects-stated", c.obj_stat.ok),
        ("objects-deleted", c.obj_delete.ok),
        ("errors", c.errors()),
    ];
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

pub fn phase_result(o: &PhaseOutcome) -> PhaseResult {
    let t0 = o
        .ranks
        .iter()
        .map(|r| r.start)
        .fold(f64::INFINITY, f64::min);
    let c = o.counts();
    let t = o.time();
    let mut p = PhaseResult::new(o.phase, o.iteration);
    p.bytes = (c.obj_create.ok + c.obj_read.ok) * o.object_size;
    p.ops = c.ok();
    p.times = PhaseTimes::window(t);
    p.bandwidth_mib_s = o.throughput_of(&c, t);
    p.iops = o.rate();
    let mut objects = LatencyHistogram::new();
    for k in PRINTED {
        objects.merge(&o.latency[k]);
    }
    p.latency = objects.summary();
    for (k, h) in o.latency.iter().enumerate() {
        if !h.is_empty() {
            p.latency_by_kind.insert(KINDS[k].to_string(), h.summary());
        }
    }
    p.series = o.series.summary();
    p.per_rank = o
        .ranks
        .iter()
        .enumerate()
        .map(|(rank, r)| {
            let (start, stop) = (r.start - t0, r.end - t0);
            let ops = r.counts.ok();
            let mut t = RankTimes::bracket(rank as u64, start, stop, stop, r.bytes, ops);
            t.counters = counters(&r.counts);
            t
        })
        .collect();
    p.counters = counters(&c);
    if let Some(r) = &o.requests {
        r.apply(&mut p);
    }
    p.stonewall = o.stonewall.map(|s| Stonewall {
        deadline_s: s.deadline_s,
        time_s: s.time_s,
        pairs_min: s.reached_min,
        pairs_max: s.iterations,
        bytes_min: 0,
        bytes_mean: 0.0,
        wear_out: s.wear_out,
    });
    if let Some(s) = &o.stonewall {
        p.warnings.push(format!(
            "stonewall -w {}: groups of objects per rank at the wall min {} max {} after {:.3} s; \
             every rank did {}",
            s.deadline_s, s.reached_min, s.reached_max, s.time_s, s.iterations
        ));
    }
    p.verification = o.verification.as_ref().map(crate::ior::verification);
    p.warnings.extend(o.warnings.iter().cloned());
    p
}

/// One summary per phase kind that ran (precreate, benchmark, cleanup), with the sample
/// standard deviation over the benchmark iterations.
pub fn summaries(outcomes: &[PhaseOutcome]) -> Vec<OperationSummary> {
    [
        Operation::Precreate,
        Operation::Benchmark,
        Operation::Cleanup,
    ]
    .into_iter()
    .filter_map(|op| {
        let of: Vec<&PhaseOutcome> = outcomes.iter().filter(|o| o.phase == op).collect();
        if of.is_empty() {
            return None;
        }
        let bw: Vec<f64> = of
            .iter()
            .map(|o| o.throughput_of(&o.counts(), o.time()))
            .collect();
        let rates: Vec<f64> = of.iter().map(|o| o.rate()).collect();
        Some(OperationSummary {
            operation: op,
            bw_mib_s: MinMaxMean::sample(&bw),
            ops_per_s: MinMaxMean::sample(&rates),
            mean_time_s: of.iter().map(|o| o.time()).sum::<f64>() / of.len() as f64,
            iterations: of.len() as u32,
            stonewall_time_s: None,
            stonewall_mib_s: None,
        })
    })
    .collect()
}
