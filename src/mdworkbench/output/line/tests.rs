use super::*;
use measure::{IntervalSeries, LatencyHistogram};
use results::mdworkbench::{OpCount, RankOutcome, StonewallOutcome, CREATE, READ, STAT};

fn ok(n: u64) -> OpCount {
    OpCount { ok: n, err: 0 }
}

fn bench() -> PhaseOutcome {
    let counts = Counts {
        obj_create: ok(10),
        obj_read: ok(10),
        obj_stat: ok(10),
        obj_delete: ok(10),
        ..Counts::default()
    };
    let mut latency: Vec<LatencyHistogram> =
        KINDS.iter().map(|_| LatencyHistogram::new()).collect();
    for v in [1000, 2000, 3000, 4000] {
        latency[READ].record(v);
    }
    latency[CREATE].record(50_000);
    let kinds: Vec<Option<Quantiles>> = latency
        .iter()
        .map(|h| Quantiles::of(&h.summary()))
        .collect();
    let rank = |t: f64| RankOutcome {
        start: 1.0,
        end: 1.0 + t,
        counts,
        kinds: kinds.clone(),
        bytes: 0,
    };
    PhaseOutcome {
        phase: Operation::Benchmark,
        iteration: 0,
        waiting_factor: 0.0,
        read_only: false,
        object_size: 1048576,
        ranks: vec![rank(0.5), rank(1.0)],
        latency,
        series: IntervalSeries::new(1_000_000_000, 0),
        stonewall: None,
        verification: None,
        warnings: vec![],
        requests: None,
    }
}

#[test]
fn the_benchmark_line_as_md_workbench_prints_it() {
    // Reads of 1, 2, 3 and 4 us: q1 is element round(0.25 * 3 + 0.49) = 1, q3 element 3, the
    // median the mean of elements 1 and 2; each value is its histogram bucket's highest (3000
    // and 4000 sit in 2 ns buckets), the minimum its lowest (50 us in a 32 ns bucket).
    let o = bench();
    assert_eq!(
        phase_line(&o, false),
        "benchmark process max:1.00s min:0.50s mean: 0.75s balance:50.0 stddev:0.4 \
         rate:80.0 iops/s objects:20 rate:20.0 obj/s tp:40.0 MiB/s op-max:5.0015e-05s (0 errs) \
         read(1.0000e-06s, 2.0000e-06s, 2.5005e-06s, 4.0010e-06s, 4.0010e-06s, 4.0010e-06s, 4.0010e-06s) \
         create(4.9984e-05s, 5.0015e-05s, 5.0015e-05s, 5.0015e-05s, 5.0015e-05s, 5.0015e-05s, 5.0015e-05s)"
    );
    assert_eq!(
        rank_line(&o, 0, false).split(" rate:").next().unwrap(),
        "0: benchmark process max:0.50s"
    );
    assert!(rank_line(&o, 0, false).contains("rate:80.0 iops/s objects:10 rate:20.0 obj/s"));
    // -q drops `(0 errs)` but never the errors.
    assert!(!phase_line(&o, true).contains("errs"));
    let mut bad = o.clone();
    bad.ranks[1].counts.obj_read.err = 2;
    assert!(phase_line(&bad, true).contains(" (2 errs!!!)"));
    assert_eq!(detailed_line(&bad), "benchmark err\t0\t0\t0\t2\t0\t0");
    assert_eq!(
        detailed_line(&o),
        "benchmark \t0\t0\t20\t20\t20\t20\t1.000s\t1.000s\t40.00 MiB/s 5.0015e-05"
    );
    assert!(
        !phase_line(&o, false).contains("stat("),
        "no stat recorded: not printed"
    );
    assert!(o.quantiles(STAT).is_none());
}

#[test]
fn stonewall_and_waiting_marks() {
    let mut o = bench();
    o.waiting_factor = 0.0625;
    o.stonewall = Some(StonewallOutcome {
        deadline_s: 1.0,
        wear_out: true,
        iterations: 7,
        reached_min: 6,
        reached_max: 7,
        time_s: 1.25,
        rank0_hit: true,
    });
    let l = phase_line(&o, false);
    assert!(
        l.contains("op-max:5.0015e-05s waiting_factor:0.06 (0 errs) stonewall-iter:7 read("),
        "{l}"
    );
    assert_eq!(
        wear_out_line(&o).unwrap(),
        "stonewall wear out 1.250000s (7 iter)"
    );
}
