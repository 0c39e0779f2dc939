//! IOR outcomes into the result model (`results` crate): one `PhaseResult` per timed phase,
//! one `OperationSummary` per operation across repetitions.

use results::{
    ErrorLocation, MinMaxMean, OperationSummary, PhaseResult, PhaseTimes, RankTimes, Stonewall,
    Verification,
};
use workload::ior::{Access, PhaseOutcome, VerifyOutcome};

pub fn verification(v: &VerifyOutcome) -> Verification {
    Verification {
        errors: v.errors,
        checked_ops: v.checked,
        first_error: v.first_error.as_ref().map(|e| ErrorLocation {
            file: e.file.clone(),
            offset: e.offset,
            rank: e.rank,
        }),
    }
}

pub fn phase_result(o: &PhaseOutcome) -> PhaseResult {
    let t0 = o
        .ranks
        .iter()
        .map(|r| r.open_start)
        .fold(f64::INFINITY, f64::min);
    let mut p = PhaseResult::new(o.access.label(), o.iteration);
    p.bytes = o.bytes;
    p.ops = o.ops;
    p.times = PhaseTimes {
        open_s: o.open_s,
        xfer_s: o.xfer_s,
        close_s: o.close_s,
        total_s: o.total_s,
    };
    p.bandwidth_mib_s = o.bandwidth_mib();
    p.iops = o.iops();
    p.latency = o.latency.summary();
    p.series = o.series.summary();
    p.per_rank = o
        .ranks
        .iter()
        .enumerate()
        .map(|(rank, r)| RankTimes {
            rank: rank as u64,
            open_start_s: r.open_start - t0,
            open_stop_s: r.open_stop - t0,
            xfer_start_s: r.xfer_start - t0,
            xfer_stop_s: r.xfer_stop - t0,
            close_start_s: r.close_start - t0,
            close_stop_s: r.close_stop - t0,
            bytes: r.bytes,
            ops: r.ops,
            counters: Default::default(),
        })
        .collect();
    p.stonewall = o.stonewall.map(|s| Stonewall {
        deadline_s: s.deadline_s as f64,
        time_s: s.time_s,
        pairs_min: s.pairs_min,
        pairs_max: s.pairs_max,
        bytes_min: s.bytes_min,
        bytes_mean: s.bytes_mean,
        wear_out: true,
    });
    p.verification = o.verification.as_ref().map(verification);
    p.warnings = o.warnings.clone();
    p
}

/// IOR's "Summary of all tests" per operation: bandwidth and OPs over the total window of each
/// repetition (population SD); stonewall figures as aggregate MiB/s up to the stonewall.
pub fn summaries(phases: &[PhaseOutcome]) -> Vec<OperationSummary> {
    [Access::Write, Access::Read]
        .into_iter()
        .filter_map(|access| {
            let of: Vec<&PhaseOutcome> = phases.iter().filter(|p| p.access == access).collect();
            if of.is_empty() {
                return None;
            }
            let bw: Vec<f64> = of.iter().map(|p| p.bandwidth_mib()).collect();
            let ops: Vec<f64> = of.iter().map(|p| p.ops_total_window()).collect();
            let walls: Vec<_> = of.iter().filter_map(|p| p.stonewall).collect();
            let (sw_time, sw_mib) = if walls.is_empty() {
                (None, None)
            } else {
                let time: f64 = walls.iter().map(|s| s.time_s).sum();
                let bytes: f64 = walls.iter().map(|s| s.bytes_sum as f64).sum();
                (
                    Some(time / walls.len() as f64),
                    Some(results::mib_per_s(bytes as u64, time)),
                )
            };
            Some(OperationSummary {
                operation: access.label().to_string(),
                bw_mib_s: MinMaxMean::population(&bw),
                ops_per_s: MinMaxMean::population(&ops),
                mean_time_s: of.iter().map(|p| p.total_s).sum::<f64>() / of.len() as f64,
                iterations: of.len() as u32,
                stonewall_time_s: sw_time,
                stonewall_mib_s: sw_mib,
            })
        })
        .collect()
}
