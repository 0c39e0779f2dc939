//! A crafted step through the document: rates, the shortfall, the counters and the warnings.

use measure::{IntervalSeries, LatencyHistogram};
use plan::mix::{LatencyLimit, MixOp, Statistic};

use super::*;

fn hist(values: &[u64]) -> LatencyHistogram {
    let mut h = LatencyHistogram::new();
    for &v in values {
        h.record(v);
    }
    h
}

fn rank(start: f64, end: f64, stats: u64, creates: u64, not_started: u64) -> RankStep {
    let mut done = vec![0; KINDS];
    done[MixOp::Stat as usize] = stats;
    done[MixOp::Create as usize] = creates;
    RankStep {
        start,
        end,
        done,
        bytes: creates * 4096,
        scheduled: stats + creates + not_started,
        not_started,
        substituted: 1,
    }
}

fn step(requested: u64, ranks: Vec<RankStep>, waits: &[u64]) -> PhaseOutcome {
    let mut latency: Vec<LatencyHistogram> = (0..KINDS).map(|_| LatencyHistogram::new()).collect();
    let stats: u64 = ranks.iter().map(|r| r.done[MixOp::Stat as usize]).sum();
    let creates: u64 = ranks.iter().map(|r| r.done[MixOp::Create as usize]).sum();
    latency[MixOp::Stat as usize] = hist(&vec![1_000; stats as usize]);
    latency[MixOp::Create as usize] = hist(&vec![100_000; creates as usize]);
    let not_started = hist(waits);
    let limit = LatencyLimit {
        statistic: Statistic::Percentile(99.0),
        limit_ns: 50_000,
    };
    let mut all = LatencyHistogram::new();
    for h in &latency {
        all.merge(h);
    }
    let verdict = Some(judge(&limit, &all, &not_started));
    PhaseOutcome {
        phase: Operation::MixStep,
        step: 2,
        requested_ops_s: requested,
        ranks,
        latency,
        not_started,
        service: hist(&[500, 600]),
        series: IntervalSeries::new(1_000_000_000, 0),
        window_s: 1.0,
        verdict,
        warnings: Vec::new(),
    }
}

#[test]
fn a_step_that_kept_up() {
    // 2 ranks, the slower took 1.0 s: 100 operations in 1 s.
    let o = step(
        100,
        vec![rank(10.0, 10.5, 45, 0, 0), rank(3.0, 4.0, 55, 0, 0)],
        &[],
    );
    assert_eq!(o.elapsed(), 1.0);
    assert_eq!(o.achieved(), 100.0);
    assert!(!o.short());
    let s = step_record(&o);
    assert_eq!((s.scheduled, s.completed, s.not_started), (100, 100, 0));
    assert!(s.within_limit && !s.short_of_requested);
    assert_eq!(s.operations["stat"].completed, 100);
    assert!(!s.operations.contains_key("create"));
    let p = phase_result(&o);
    assert_eq!(p.ops, 100);
    assert_eq!(p.counters["requested-ops-per-s"], 100);
    assert_eq!(p.counters["substituted"], 2);
    assert_eq!(p.per_rank.len(), 2);
    // Each rank on its own clock: times from the earliest start, never negative.
    assert!(p.per_rank.iter().all(|r| r.open_start_s >= 0.0));
    assert!(p.warnings.iter().any(|w| w.contains("ran as a create")));
    assert!(!p.warnings.iter().any(|w| w.contains("fell short")));
}

#[test]
fn a_step_that_fell_behind() {
    // 1000 asked, 90 done in 1 s, 910 never started: short, and over the p99 limit through
    // the creates and the waits.
    let o = step(1000, vec![rank(0.0, 1.0, 80, 10, 910)], &vec![200_000; 910]);
    assert!(o.short());
    let s = step_record(&o);
    assert!(s.short_of_requested && !s.within_limit);
    assert_eq!(s.not_started, 910);
    assert!(s.latency_ns >= 100_000.0);
    let p = phase_result(&o);
    assert!(p
        .warnings
        .iter()
        .any(|w| w.contains("fell short of the requested 1000")));
    assert!(p
        .warnings
        .iter()
        .any(|w| w.contains("910 of 1000 scheduled")));
    assert_eq!(p.bytes, 10 * 4096);
}

#[test]
fn summaries_per_phase_kind() {
    let a = step(100, vec![rank(0.0, 1.0, 100, 0, 0)], &[]);
    let b = step(200, vec![rank(0.0, 1.0, 150, 0, 0)], &[]);
    let s = summaries(&[a, b]);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].operation, Operation::MixStep);
    assert_eq!(s[0].iterations, 2);
    assert_eq!(s[0].ops_per_s.max, 150.0);
}

#[test]
fn a_poisson_step_is_judged_by_what_its_schedule_offered() {
    // 100 ops/s asked for 1 s; the Poisson draw put only 80 in the window and all ran on
    // time: not short. Had 80 been asked for with fixed arrivals, the same.
    let o = step(100, vec![rank(0.0, 1.0, 80, 0, 0)], &[]);
    assert_eq!(o.offered(), 80.0);
    assert!(!o.short());
    // 80 scheduled, 60 done, 20 never started: short of what was offered.
    let o = step(100, vec![rank(0.0, 1.0, 60, 0, 20)], &[1_000; 20]);
    assert!(o.short());
}
