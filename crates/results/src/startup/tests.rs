use measure::{IntervalSeries, LatencyHistogram};

use super::*;

fn rank(start_s: f64, done_s: f64, files: u64) -> RankOutcome {
    RankOutcome {
        rank: (start_s * 2.0) as u64,
        start_s,
        done_s,
        files,
        stats: files,
        opens: files,
        bytes: files * 4096,
    }
}

fn outcome(ranks: Vec<RankOutcome>) -> PhaseOutcome {
    let mut stat = LatencyHistogram::new();
    stat.record(1_000);
    let mut load = LatencyHistogram::new();
    load.record(3_000);
    load.record(5_000);
    PhaseOutcome {
        phase: Operation::TreeRead,
        iteration: 2,
        stagger_s: 0.5,
        ranks,
        latency: vec![stat, load],
        series: IntervalSeries::new(1_000_000_000, 0),
        page_cache: None,
    }
}

#[test]
fn the_last_rank_done_counts_from_the_first_start() {
    // Three ranks started 0.5 s apart; rank 1 was the slowest on its own.
    let o = outcome(vec![
        rank(0.0, 1.0, 10),
        rank(0.5, 2.5, 10),
        rank(1.0, 2.0, 10),
    ]);
    assert_eq!(o.time_to_last_done(), 2.5);
    let own = o.own_times();
    assert_eq!((own.min, own.median, own.max), (1.0, 1.0, 2.0));
    // 30 files: 60 stats and opens, 30 × 4 KiB.
    assert_eq!(o.totals().metadata_ops(), 60);
    assert_eq!(o.metadata_rate(), 24.0);
    assert_eq!(o.data_rate_mib_s(), 30.0 * 4096.0 / 1_048_576.0 / 2.5);
    let even = outcome(vec![rank(0.0, 1.0, 1), rank(0.0, 3.0, 1)]).own_times();
    assert_eq!(even.median, 2.0);
    assert_eq!(outcome(vec![]).own_times(), OwnTimes::default());
}

#[test]
fn the_document_keeps_every_rank_and_kind() {
    let o = outcome(vec![rank(0.0, 1.0, 3), rank(0.5, 2.5, 3)]);
    let p = phase_result(&o);
    assert_eq!((p.operation, p.iteration), (Operation::TreeRead, 2));
    assert_eq!((p.times.total_s, p.times.xfer_s), (2.5, 2.5));
    assert_eq!((p.ops, p.bytes), (12, 6 * 4096));
    assert_eq!(p.iops, 12.0 / 2.5);
    assert_eq!(p.latency.count, 3);
    let by_kind: Vec<&str> = p.latency_by_kind.keys().map(String::as_str).collect();
    assert_eq!(by_kind, ["load", "stat"]);
    assert_eq!(p.per_rank[1].open_start_s, 0.5);
    assert_eq!(p.per_rank[1].close_stop_s, 2.5);
    assert_eq!(p.per_rank[1].counters["opens"], 3);
    assert_eq!(p.counters["files"], 6);
    assert_eq!(p.rank_spread().unwrap().last_done_rank, 1);
    let s = summaries(&[o.clone(), o]);
    assert_eq!(s.len(), 1);
    assert_eq!((s[0].iterations, s[0].mean_time_s), (2, 2.5));
}
