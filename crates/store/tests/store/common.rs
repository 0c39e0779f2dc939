//! Documents to store: one with every optional part of the model filled, and small runs of
//! each workload; and a store in a temporary directory.

#![allow(dead_code)] // each test file uses its own part

use std::collections::BTreeMap;

use indexmap::IndexMap;
use measure::{IntervalSeries, LatencyHistogram};
use plan::io500::Io500Params;
use results::io500::{Io500Phase, Io500Result, Io500Score, ScoreUnit};
use results::{
    ErrorLocation, FsInfo, MinMaxMean, Operation, OperationSummary, Parameters, PhaseResult,
    PhaseTimes, RankTimes, RunResult, Stonewall, Verification,
};
use store::Store;

pub fn temp_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("results.sqlite")).unwrap();
    (dir, store)
}

/// A measured phase with latency, series, two ranks, stonewall, verification and counters.
pub fn full_phase(op: Operation, iteration: u32) -> PhaseResult {
    let mut h = LatencyHistogram::new();
    let mut s = IntervalSeries::new(1_000_000_000, 0);
    for i in 1..=300u64 {
        h.record(i * 997);
        s.record(i * 7_000_000, 47008);
    }
    let mut p = PhaseResult::new(op, iteration);
    p.io500_phase = Some("ior-hard-write".into());
    p.bytes = 300 * 47008;
    p.ops = 300;
    p.times = PhaseTimes {
        open_s: 0.1 + 0.2, // 0.30000000000000004: must come back to the last bit
        xfer_s: 2.0999999999999996,
        close_s: 1e-9,
        total_s: 2.1234567890123457,
    };
    p.bandwidth_mib_s = results::mib_per_s(p.bytes, p.times.total_s);
    p.iops = results::per_s(300.0, p.times.xfer_s);
    p.latency = h.summary();
    p.series = s.summary();
    let counters = BTreeMap::from([("found".to_string(), 7u64), ("examined".to_string(), 300)]);
    for rank in 0..2 {
        p.per_rank.push(RankTimes {
            rank,
            open_start_s: 0.0,
            open_stop_s: 0.001 * (rank + 1) as f64,
            xfer_start_s: 0.002,
            xfer_stop_s: 2.0,
            close_start_s: 2.0,
            close_stop_s: 2.1234567890123457,
            bytes: 150 * 47008,
            ops: 150,
            counters: counters.clone(),
        });
    }
    p.stonewall = Some(Stonewall {
        deadline_s: 1.0,
        time_s: 1.0000001,
        pairs_min: 140,
        pairs_max: 150,
        bytes_min: 140 * 47008,
        bytes_mean: 145.5 * 47008.0,
        wear_out: true,
    });
    p.verification = Some(Verification {
        errors: 2,
        checked_ops: 300,
        first_error: Some(ErrorLocation {
            file: "/tmp/ior-hard/file".into(),
            offset: 47008 * 3,
            rank: 1,
        }),
    });
    p.counters = counters;
    p.warnings = vec!["INVALID: Errors (2) occured".into()];
    p
}

fn io500_params() -> Io500Params {
    let global: IndexMap<String, Option<String>> = [
        ("datadir", Some("/tmp/d")),
        ("api", None),
        ("api-extra", Some("--posix.odirect")),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
    .collect();
    Io500Params {
        version: "iogauge-0.1.0".into(),
        mode: "extended".into(),
        timestamp: "2026.01.02-03.04.05".into(),
        ranks: 2,
        data_dir: "/tmp/d/2026.01.02-03.04.05".into(),
        result_dir: "/tmp/r/2026.01.02-03.04.05".into(),
        quick: true,
        dry_run: false,
        config_hash: "45139E67".into(),
        config: IndexMap::from([("global".to_string(), global)]),
    }
}

fn score(total: f64, valid: bool) -> Io500Score {
    Io500Score {
        bandwidth_gib_s: total / 2.0,
        iops_kiops: total * 2.0,
        total,
        valid,
        hash: "F69F17DE".into(),
        text: [
            format!("{:.6}", total / 2.0),
            format!("{:.6}", total * 2.0),
            format!("{total:.6}"),
        ],
    }
}

/// An IO500 run with every optional part of the model filled: the file system facts, phases
/// with stonewall, verification, counters and per-rank counters, summaries with stonewall
/// figures, both scores, run and phase invalidity, a failed phase.
pub fn full_io500() -> RunResult {
    let mut doc = RunResult::new(
        Parameters::Io500(io500_params()),
        vec!["iogauge".into(), "io500".into(), "my config.ini".into()],
        "0.1.0",
    );
    doc.environment = results::capture(None);
    doc.environment.target = Some(FsInfo {
        path: "/tmp/d".into(),
        fs_type: "lustre".into(),
        fs_magic: "0x0bd00bd0".into(),
        mount_point: "/lustre".into(),
        mount_source: "10.0.0.1@o2ib:/fs".into(),
        mount_options: "rw,flock,lazystatfs".into(),
        capacity_bytes: u64::MAX,
        free_bytes: 1 << 50,
        inodes: 1 << 40,
        free_inodes: 12345,
    });
    doc.ranks.count = 2;
    doc.ranks.nodes = 2;
    doc.ranks.tasks_per_node = 1;
    doc.ranks.placement = "round-robin".into();
    doc.ranks.launcher = "mpi".into();
    doc.phases = vec![
        full_phase(Operation::Write, 0),
        full_phase(Operation::Find, 0),
    ];
    doc.summary = vec![OperationSummary {
        operation: Operation::Write,
        bw_mib_s: MinMaxMean::population(&[6.5, 6.75]),
        ops_per_s: MinMaxMean::sample(&[140.0, 145.0]),
        mean_time_s: 2.1234567890123457,
        iterations: 2,
        stonewall_time_s: Some(1.0000001),
        stonewall_mib_s: Some(6.123456789),
    }];
    doc.warnings = vec![
        "target is tmpfs".into(),
        "INVALID run: stonewall-time 1s != 300s".into(),
    ];
    doc.verification_errors = 2;
    doc.io500 = Some(Io500Result {
        phases: vec![
            Io500Phase {
                phase: "ior-hard-write".into(),
                score: 0.006_534_123,
                unit: ScoreUnit::GibPerS,
                time_s: 2.5,
                valid: false,
                invalid: vec!["Errors (2) occured".into(), "line 1\nline 2".into()],
                ran: true,
                error: None,
            },
            Io500Phase {
                phase: "mdworkbench-bench".into(),
                score: 0.0,
                unit: ScoreUnit::Kiops,
                time_s: 0.0,
                valid: false,
                invalid: vec![],
                ran: false,
                error: Some("md-workbench is not provided".into()),
            },
        ],
        score: Some(score(1.25, false)),
        scorex: Some(score(0.5, false)),
        run_invalid: vec!["stonewall-time 1s != 300s".into()],
    });
    doc.finish(1);
    doc
}

/// A small finished run of `params` with one phase per operation.
pub fn small(params: Parameters, ops: &[(Operation, f64, f64)]) -> RunResult {
    let mut doc = RunResult::new(params, vec!["iogauge".into()], "0.1.0");
    for (i, &(op, bw, iops)) in ops.iter().enumerate() {
        let mut p = PhaseResult::new(op, i as u32);
        p.bandwidth_mib_s = bw;
        p.iops = iops;
        doc.phases.push(p);
    }
    doc.finish(0);
    doc
}

/// `small` with a run id of its own (two documents made in one second by one process would
/// otherwise share theirs).
pub fn small_as(run_id: &str, params: Parameters, ops: &[(Operation, f64, f64)]) -> RunResult {
    let mut doc = small(params, ops);
    doc.run_id = run_id.to_string();
    doc
}
