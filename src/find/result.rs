//! A find outcome as a result document (`results` crate): workload "find", one phase "find"
//! whose `ops` are the examined entries and `iops` the rate; matches, directories, stats and
//! steals are the phase's `counters` (totals, and per rank in `per_rank[].counters`).

use results::{OperationSummary, PhaseResult, PhaseTimes, RankTimes, RunResult};
use serde_json::json;
use std::collections::BTreeMap;
use workload::find::{Counts, FindOutcome};

use crate::find::cli::FindCommand;
use crate::world::RankSetup;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn counters(c: &Counts) -> BTreeMap<String, u64> {
    [
        ("found", c.found),
        ("examined", c.examined),
        ("directories", c.dirs),
        ("dirents", c.dirents),
        ("lstat_calls", c.stats),
        ("unknown_type_entries", c.unknown),
        ("stat_errors", c.stat_errors),
        ("unreadable_directories", c.unreadable_dirs),
        ("steal_tries", c.steal_tries),
        ("directories_stolen", c.stolen),
        ("directories_spilled", c.spilled),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

pub(crate) fn phase(o: &FindOutcome) -> PhaseResult {
    let t0 = o.ranks.iter().map(|r| r.start_ns).min().unwrap_or(0);
    let rel = |ns: u64| ns.saturating_sub(t0) as f64 / 1e9;
    let runtime = o.runtime_s();
    let mut p = PhaseResult::new("find", 0);
    p.ops = o.total.examined;
    // pfind's runtime (the slowest rank's walk) is the whole window; there is no open or close.
    p.times = PhaseTimes {
        open_s: 0.0,
        xfer_s: runtime,
        close_s: 0.0,
        total_s: runtime,
    };
    p.iops = o.rate();
    p.latency = o.latency.summary();
    p.per_rank = o
        .ranks
        .iter()
        .enumerate()
        .map(|(rank, r)| RankTimes {
            rank: rank as u64,
            open_start_s: rel(r.start_ns),
            open_stop_s: rel(r.start_ns),
            xfer_start_s: rel(r.start_ns),
            xfer_stop_s: rel(r.end_ns),
            close_start_s: rel(r.end_ns),
            close_stop_s: rel(r.end_ns),
            bytes: 0,
            ops: r.counts.examined,
            counters: counters(&r.counts),
        })
        .collect();
    p.counters = counters(&o.total);
    p
}

pub fn result_document(
    cmd: &FindCommand,
    setup: &RankSetup,
    outcome: Option<&FindOutcome>,
    warnings: Vec<String>,
    code: u8,
) -> RunResult {
    let mut doc = RunResult::new("find", std::env::args().collect(), VERSION);
    doc.environment = results::capture(cmd.paths.first().map(|p| p.as_path()));
    doc.ranks = setup.result_ranks();
    let q = &cmd.query;
    let params = json!({
        "paths": cmd.paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "newer": q.newer.as_ref().map(|p| p.display().to_string()),
        "newer_ctime": outcome.and_then(|o| o.newer_ctime),
        "size": q.size,
        "name": q.name.as_ref().map(|n| n.as_str()),
        "count_only": cmd.count_only,
        "queue_length": cmd.queue_length,
        "steal_next": cmd.steal_next,
        "latency": "per directory: the engine's read_dir (open, read every entry, close)",
    });
    if let Some(o) = outcome {
        let p = phase(o);
        doc.summary.push(OperationSummary {
            operation: "find".to_string(),
            bw_mib_s: Default::default(),
            ops_per_s: results::MinMaxMean::population(&[p.iops]),
            mean_time_s: p.times.total_s,
            iterations: 1,
            stonewall_time_s: None,
            stonewall_mib_s: None,
        });
        doc.phases.push(p);
    }
    doc.parameters = params;
    doc.warnings = warnings;
    doc.finish(code as i32);
    doc
}
