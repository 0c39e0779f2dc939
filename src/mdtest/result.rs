//! mdtest outcomes into the result model (`results` crate): one `PhaseResult` per phase and
//! iteration, one `OperationSummary` per operation across iterations (sample SD, as mdtest).
//!
//! Mapping of mdtest's clock readings onto the IOR-shaped per-rank times: `xfer_start` is the
//! phase start after the opening barrier, `xfer_stop` the end of the last operation, and
//! `close_stop` the end of the closing barrier; `open_*` equal `xfer_start`, `close_start`
//! equals `xfer_stop`. `times.xfer_s` is the longest rank's time before the barrier,
//! `times.total_s` mdtest's phase time (barrier to barrier); `iops` is mdtest's rate.

use results::{MinMaxMean, OperationSummary, PhaseResult, PhaseTimes, RankTimes, Stonewall};
use workload::mdtest::{Op, PhaseOutcome};

use crate::ior::result::verification;

pub fn phase_result(o: &PhaseOutcome, write_bytes: u64) -> PhaseResult {
    let t0 = o
        .ranks
        .iter()
        .map(|r| r.start)
        .fold(f64::INFINITY, f64::min);
    let mut p = PhaseResult::new(o.op.label(), o.iteration);
    p.bytes = o.bytes();
    p.ops = o.items();
    p.times = PhaseTimes {
        open_s: 0.0,
        xfer_s: o.time_before_barrier(),
        close_s: 0.0,
        total_s: o.time(),
    };
    p.bandwidth_mib_s = results::mib_per_s(p.bytes, p.times.total_s);
    p.iops = o.rate();
    p.latency = o.latency.summary();
    p.series = o.series.summary();
    p.per_rank = o
        .ranks
        .iter()
        .enumerate()
        .map(|(rank, r)| {
            let (start, stop) = (r.start - t0, r.end_before_barrier - t0);
            RankTimes {
                rank: rank as u64,
                open_start_s: start,
                open_stop_s: start,
                xfer_start_s: start,
                xfer_stop_s: stop,
                close_start_s: stop,
                close_stop_s: r.end - t0,
                bytes: r.bytes,
                ops: r.items,
                counters: Default::default(),
            }
        })
        .collect();
    p.stonewall = o.stonewall.map(|s| Stonewall {
        deadline_s: s.deadline_s as f64,
        time_s: s.time_s,
        pairs_min: s.items_min,
        pairs_max: s.items_max,
        bytes_min: s.items_min * write_bytes,
        bytes_mean: s.items_mean() * write_bytes as f64,
        wear_out: s.hit,
    });
    if let Some(s) = &o.stonewall {
        p.warnings.push(format!(
            "stonewall -W {}: items per task at the wall min {} max {} sum {} after {:.3} s{}",
            s.deadline_s,
            s.items_min,
            s.items_max,
            s.items_sum,
            s.time_s,
            if s.hit {
                "; every task continued to the max"
            } else {
                ""
            }
        ));
    }
    p.verification = o.verification.as_ref().map(verification);
    p.warnings.extend(o.warnings.iter().cloned());
    p
}

/// One summary per operation that ran, in mdtest's table order.
pub fn summaries(outcomes: &[PhaseOutcome]) -> Vec<OperationSummary> {
    Op::ALL
        .into_iter()
        .filter_map(|op| {
            let of: Vec<&PhaseOutcome> = outcomes.iter().filter(|o| o.op == op).collect();
            if of.is_empty() {
                return None;
            }
            let bw: Vec<f64> = of
                .iter()
                .map(|o| results::mib_per_s(o.bytes(), o.time()))
                .collect();
            let rates: Vec<f64> = of.iter().map(|o| o.rate()).collect();
            let walls: Vec<f64> = of
                .iter()
                .filter_map(|o| o.stonewall)
                .map(|s| s.time_s)
                .collect();
            Some(OperationSummary {
                operation: op.label().to_string(),
                bw_mib_s: MinMaxMean::sample(&bw),
                ops_per_s: MinMaxMean::sample(&rates),
                mean_time_s: of.iter().map(|o| o.time()).sum::<f64>() / of.len() as f64,
                iterations: of.len() as u32,
                stonewall_time_s: (!walls.is_empty())
                    .then(|| walls.iter().sum::<f64>() / walls.len() as f64),
                stonewall_mib_s: None,
            })
        })
        .collect()
}
