//! Documents for the tests: real ones from `tests/data` (iogauge runs: ior on the DUMMY engine
//! with a built-in straggler, mdtest) and crafted ones whose figures the tests choose.

use report::{Run, RunInfo};
use results::io500::{Io500Phase, Io500Result, Io500Score, ScoreUnit};
use results::{Operation, PhaseResult, RunResult};
use std::collections::BTreeMap;

/// `ior -a DUMMY --dummy.delay-xfer 1000 --dummy.delay-only-rank0 -N 4 -t 1m -b 2g -w -r -i 3`
pub fn ior4() -> RunResult {
    load(include_str!("../data/ior-dummy-4ranks.json"))
}

/// The same with `-N 2 -b 1g -i 2`.
pub fn ior2() -> RunResult {
    load(include_str!("../data/ior-dummy-2ranks.json"))
}

/// `mdtest --tasks 2 -n 200 -F -u -i 2`
pub fn mdtest() -> RunResult {
    load(include_str!("../data/mdtest-2ranks.json"))
}

fn load(text: &str) -> RunResult {
    results::from_json_str(text).expect("test document parses")
}

pub fn info(id: &str) -> RunInfo {
    RunInfo {
        id: id.to_string(),
        labels: BTreeMap::from([("case".to_string(), id.to_string())]),
        complete: true,
        imported_from: None,
    }
}

/// Pairs documents with infos named `a`, `b`, ... for `Run`s.
pub fn infos(n: usize) -> Vec<RunInfo> {
    (0..n)
        .map(|i| info(&((b'a' + i as u8) as char).to_string()))
        .collect()
}

pub fn runs<'a>(docs: &'a [RunResult], infos: &'a [RunInfo]) -> Vec<Run<'a>> {
    docs.iter()
        .zip(infos)
        .map(|(d, i)| Run::new(d, i))
        .collect()
}

/// A phase with the given bandwidth (MiB/s), IOPS, time and p50/p99 latencies (ns).
pub fn phase(op: Operation, iteration: u32, bw: f64, iops: f64) -> PhaseResult {
    let mut p = PhaseResult::new(op, iteration);
    p.bandwidth_mib_s = bw;
    p.bytes = if bw > 0.0 { 1 << 20 } else { 0 };
    p.iops = iops;
    p.ops = 100;
    p.times.total_s = 1.0;
    p
}

pub fn with_latency(mut p: PhaseResult, p50: u64, p99: u64) -> PhaseResult {
    p.latency.count = 100;
    for q in &mut p.latency.percentiles {
        q.value = if q.p < 99.0 { p50 } else { p99 };
    }
    p
}

pub fn with_time(mut p: PhaseResult, total_s: f64) -> PhaseResult {
    p.times.total_s = total_s;
    p
}

/// A document (the 2-rank ior run's facts) with the given ranks, nodes and phases.
pub fn crafted(ranks: u64, nodes: u64, phases: Vec<PhaseResult>) -> RunResult {
    let mut d = ior2();
    d.ranks.count = ranks;
    d.ranks.nodes = nodes;
    d.ranks.tasks_per_node = ranks / nodes.max(1);
    d.phases = phases;
    d.warnings.clear();
    d
}

/// Writes with one bandwidth per iteration.
pub fn writes(bws: &[f64]) -> Vec<PhaseResult> {
    bws.iter()
        .enumerate()
        .map(|(i, &bw)| phase(Operation::Write, i as u32, bw, bw * 16.0))
        .collect()
}

/// An IO500-like document: the phases carry their IO500 names and the block has scores.
pub fn io500(scores: &[(&str, Operation, f64, ScoreUnit)], total: [f64; 3]) -> RunResult {
    let mut phases = Vec::new();
    let mut lines = Vec::new();
    for &(name, op, score, unit) in scores {
        let mut p = phase(
            op,
            0,
            if unit == ScoreUnit::GibPerS {
                score * 1024.0
            } else {
                0.0
            },
            score * 1000.0,
        );
        p.io500_phase = Some(name.to_string());
        phases.push(p);
        lines.push(Io500Phase {
            phase: name.to_string(),
            score,
            unit,
            time_s: 1.0,
            valid: true,
            invalid: Vec::new(),
            ran: true,
            error: None,
        });
    }
    let mut d = crafted(2, 1, phases);
    d.io500 = Some(Io500Result {
        phases: lines,
        score: Some(Io500Score {
            bandwidth_gib_s: total[0],
            iops_kiops: total[1],
            total: total[2],
            valid: true,
            hash: "0".to_string(),
            text: total.map(|v| format!("{v:.6}")),
        }),
        scorex: None,
        run_invalid: Vec::new(),
    });
    d
}
