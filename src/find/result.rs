//! A find outcome as a result document (`results` crate): workload "find", one phase "find"
//! whose `ops` are the examined entries and `iops` the rate; matches, directories, stats and
//! steals are the phase's `counters` (totals, and per rank in `per_rank[].counters`).

use results::find::phase_result;
use results::{FindParameters, Operation, OperationSummary, Parameters, RunResult};
use workload::find::FindOutcome;

use crate::find::cli::FindCommand;
use crate::world::RankSetup;

const VERSION: &str = env!("CARGO_PKG_VERSION");

pub fn result_document(
    cmd: &FindCommand,
    setup: &RankSetup,
    outcome: Option<&FindOutcome>,
    warnings: Vec<String>,
    code: u8,
) -> RunResult {
    let q = &cmd.query;
    let params = Parameters::Find(FindParameters {
        plan: plan::find::FindParams {
            paths: cmd.paths.clone(),
            newer: q.newer.clone(),
            size: q.size,
            name: q.name.as_ref().map(|n| n.as_str().to_string()),
            count_only: cmd.count_only,
            steal_next: cmd.steal_next,
            per_rank: cmd.per_rank,
            queue_length: cmd.queue_length,
        },
        newer_ctime: outcome.and_then(|o| o.newer_ctime),
    });
    let mut doc = RunResult::new(params, std::env::args().collect(), VERSION);
    doc.environment = results::capture(cmd.paths.first().map(|p| p.as_path()));
    doc.ranks = setup.result_ranks();
    if let Some(o) = outcome {
        let p = phase_result(o);
        doc.summary.push(OperationSummary {
            operation: Operation::Find,
            bw_mib_s: Default::default(),
            ops_per_s: results::MinMaxMean::population(&[p.iops]),
            mean_time_s: p.times.total_s,
            iterations: 1,
            stonewall_time_s: None,
            stonewall_mib_s: None,
        });
        doc.phases.push(p);
    }
    doc.warnings = warnings;
    doc.finish(code as i32);
    doc
}
