use super::*;

fn count(ok: u64) -> OpCount {
    OpCount { ok, err: 0 }
}

fn rank(time: f64, counts: Counts) -> RankOutcome {
    RankOutcome {
        start: 10.0,
        end: 10.0 + time,
        counts,
        kinds: vec![None; KINDS.len()],
        bytes: 0,
    }
}

fn outcome(phase: Operation, ranks: Vec<RankOutcome>) -> PhaseOutcome {
    PhaseOutcome {
        phase,
        iteration: 0,
        waiting_factor: 0.0,
        read_only: false,
        object_size: 1024,
        ranks,
        latency: (0..KINDS.len()).map(|_| LatencyHistogram::new()).collect(),
        series: IntervalSeries::new(1_000_000_000, 0),
        stonewall: None,
        verification: None,
        warnings: vec![],
        requests: None,
    }
}

fn bench_counts(objects: u64) -> Counts {
    Counts {
        obj_create: count(objects),
        obj_read: count(objects),
        obj_stat: count(objects),
        obj_delete: count(objects),
        ..Counts::default()
    }
}

#[test]
fn rates_follow_print_p_stat() {
    let b = outcome(
        Operation::Benchmark,
        vec![rank(2.0, bench_counts(100)), rank(4.0, bench_counts(100))],
    );
    // 200 objects read, four operations each, over the slowest rank's 4 s.
    assert_eq!(b.time(), 4.0);
    assert_eq!(b.rate(), 200.0);
    // (200 created + 200 read) KiB over 4 s.
    assert_eq!(b.throughput_of(&b.counts(), 4.0), 400.0 / 1024.0 / 4.0);
    assert_eq!(b.balance(), 50.0);
    let s = b.rank_times();
    assert_eq!((s.min, s.max, s.mean), (2.0, 4.0, 3.0));
    let ro = PhaseOutcome {
        read_only: true,
        ..b.clone()
    };
    assert_eq!(ro.rate(), 100.0);
    let pre = Counts {
        dset_create: count(10),
        obj_create: count(30),
        ..Counts::default()
    };
    let p = outcome(Operation::Precreate, vec![rank(2.0, pre)]);
    assert_eq!(p.rate(), 20.0);
    assert_eq!(p.rank_times().stddev_sample, 0.0, "one rank: 0, not NaN");
    let clean = Counts {
        dset_delete: count(10),
        obj_delete: count(30),
        obj_read: OpCount { ok: 0, err: 2 },
        ..Counts::default()
    };
    let c = outcome(Operation::Cleanup, vec![rank(4.0, clean)]);
    assert_eq!((c.rate(), c.errors()), (10.0, 2));
}

#[test]
fn the_document_phase_keeps_every_figure() {
    let mut b = outcome(
        Operation::Benchmark,
        vec![rank(2.0, bench_counts(10)), rank(4.0, bench_counts(10))],
    );
    b.latency[STAT].record(1_000);
    b.latency[CREATE].record(9_000);
    b.latency[MKDIR].record(5);
    b.ranks[1].kinds[CREATE] = Quantiles::of(&b.latency[CREATE].summary());
    let p = phase_result(&b);
    assert_eq!(p.operation, Operation::Benchmark);
    assert_eq!(p.iops, b.rate());
    assert_eq!(p.times.total_s, 4.0);
    assert_eq!(p.bytes, 20 * 2 * 1024);
    assert_eq!(p.ops, 80);
    assert_eq!(p.latency.count, 2, "object operations only");
    let kinds: Vec<&str> = p.latency_by_kind.keys().map(String::as_str).collect();
    assert_eq!(kinds, ["create", "mkdir", "stat"]);
    assert_eq!(p.counters["objects-read"], 20);
    assert_eq!(p.per_rank[1].counters["objects-created"], 10);
    assert_eq!(p.per_rank[1].xfer_stop_s, 4.0);
    assert!(b.op_max() > 8e-6 && b.op_max() < 1e-5, "{}", b.op_max());
    let s = summaries(&[b.clone(), b]);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].iterations, 2);
    assert_eq!(s[0].ops_per_s.stddev, 0.0);
}
