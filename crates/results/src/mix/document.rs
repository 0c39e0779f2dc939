//! A mix run's phases in the result document. `iops` is the achieved rate (operations
//! completed over the slowest rank's time), `times.total_s` that time; `latency` merges every
//! operation, `latency_by_kind` holds each operation of the mix (a step's from each
//! operation's scheduled start); `counters` the requested rate and the counts per operation.

use std::collections::BTreeMap;

use super::model::{MixOpStep, MixStep};
use super::{PhaseOutcome, RankStep};
use crate::model::{MinMaxMean, OperationSummary, PhaseResult, PhaseTimes, RankTimes};
use crate::{per_s, Operation};
use plan::mix::MixOp;

/// Completed operations per kind; a step's requested rate and schedule counts as well.
fn counters(o: &PhaseOutcome) -> BTreeMap<String, u64> {
    let mut c: BTreeMap<String, u64> = MixOp::ALL
        .iter()
        .map(|&op| (op.label().to_string(), o.done(op)))
        .filter(|(_, n)| *n > 0)
        .collect();
    if o.phase == Operation::MixStep {
        c.insert("requested-ops-per-s".into(), o.requested_ops_s);
        c.insert("scheduled".into(), o.scheduled());
        c.insert("not-started".into(), o.not_started());
        c.insert("substituted".into(), o.substituted());
    }
    c
}

fn rank_counters(r: &RankStep) -> BTreeMap<String, u64> {
    MixOp::ALL
        .iter()
        .zip(&r.done)
        .filter(|(_, n)| **n > 0)
        .map(|(op, n)| (op.label().to_string(), *n))
        .collect()
}

pub fn phase_result(o: &PhaseOutcome) -> PhaseResult {
    let t0 = o
        .ranks
        .iter()
        .map(|r| r.start)
        .fold(f64::INFINITY, f64::min);
    let t = o.elapsed();
    let mut p = PhaseResult::new(o.phase, o.step);
    p.bytes = o.bytes();
    p.ops = o.completed();
    p.times = PhaseTimes::window(t);
    p.bandwidth_mib_s = crate::mib_per_s(p.bytes, t);
    p.iops = o.achieved();
    p.latency = o.merged().summary();
    for (op, h) in MixOp::ALL.iter().zip(&o.latency) {
        if !h.is_empty() {
            p.latency_by_kind
                .insert(op.label().to_string(), h.summary());
        }
    }
    p.series = o.series.summary();
    p.per_rank = o
        .ranks
        .iter()
        .enumerate()
        .map(|(rank, r)| {
            // Each rank's own clock under MPI: its times from its own start.
            let start = if t0.is_finite() { r.start - t0 } else { 0.0 };
            let stop = start + r.time();
            let mut t = RankTimes::bracket(rank as u64, start, stop, stop, r.bytes, r.completed());
            t.counters = rank_counters(r);
            t
        })
        .collect();
    p.counters = counters(o);
    p.warnings = o.warnings.clone();
    if o.not_started() > 0 {
        p.warnings.push(format!(
            "{} of {} scheduled operations had not started when the step's window ended \
             (the load was more than the ranks could issue); their waits count toward the \
             latency limit as lower bounds",
            o.not_started(),
            o.scheduled()
        ));
    }
    if o.short() {
        p.warnings.push(format!(
            "the achieved rate {:.1} ops/s fell short of the requested {} ops/s (the schedule \
             offered {:.1}): the latencies describe the load that was carried, not the one \
             requested",
            o.achieved(),
            o.requested_ops_s,
            o.offered()
        ));
    }
    if o.substituted() > 0 {
        p.warnings.push(format!(
            "{} operations had no target (no file or empty directory left) and ran as a create \
             or mkdir instead",
            o.substituted()
        ));
    }
    p
}

/// A step's line of the document's `mix` block.
pub fn step_record(o: &PhaseOutcome) -> MixStep {
    let t = o.elapsed();
    let operations = MixOp::ALL
        .iter()
        .zip(&o.latency)
        .filter(|(_, h)| !h.is_empty())
        .map(|(op, h)| {
            let s = MixOpStep {
                completed: h.count(),
                achieved_ops_s: per_s(h.count() as f64, t),
                mean_ns: h.mean(),
                p50_ns: h.value_at_quantile(0.5),
                p90_ns: h.value_at_quantile(0.9),
                p99_ns: h.value_at_quantile(0.99),
                max_ns: h.max(),
            };
            (op.label().to_string(), s)
        })
        .collect();
    let v = o.verdict.unwrap_or(super::Verdict {
        value_ns: 0.0,
        within: false,
    });
    MixStep {
        step: o.step,
        requested_ops_s: o.requested_ops_s as f64,
        achieved_ops_s: o.achieved(),
        elapsed_s: t,
        scheduled: o.scheduled(),
        completed: o.completed(),
        not_started: o.not_started(),
        substituted: o.substituted(),
        latency_ns: v.value_ns,
        within_limit: v.within,
        short_of_requested: o.short(),
        service_mean_ns: o.service.mean(),
        service_p99_ns: o.service.value_at_quantile(0.99),
        operations,
    }
}

/// One summary per phase kind that ran; the steps' with the spread of their achieved rates.
pub fn summaries(outcomes: &[PhaseOutcome]) -> Vec<OperationSummary> {
    [
        Operation::MixPrepare,
        Operation::MixStep,
        Operation::MixCleanup,
    ]
    .into_iter()
    .filter_map(|op| {
        let of: Vec<&PhaseOutcome> = outcomes.iter().filter(|o| o.phase == op).collect();
        if of.is_empty() {
            return None;
        }
        let rates: Vec<f64> = of.iter().map(|o| o.achieved()).collect();
        let bw: Vec<f64> = of
            .iter()
            .map(|o| crate::mib_per_s(o.bytes(), o.elapsed()))
            .collect();
        Some(OperationSummary {
            operation: op,
            bw_mib_s: MinMaxMean::sample(&bw),
            ops_per_s: MinMaxMean::sample(&rates),
            mean_time_s: of.iter().map(|o| o.elapsed()).sum::<f64>() / of.len() as f64,
            iterations: of.len() as u32,
            stonewall_time_s: None,
            stonewall_mib_s: None,
        })
    })
    .collect()
}
