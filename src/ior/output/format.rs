//! The figures every format prints (one [`Row`] per phase, one [`OpSummary`] per operation)
//! and the printf-style formatting IOR's text depends on: `PPDouble` and the `%-20s: %s`
//! key/value lines (C's `%f` and `%e` are `text::fixed` and `text::c_exp`).

use measure::Stats;
use text::fixed;
use workload::ior::{Access, PhaseOutcome, StonewallOutcome};

/// IOR's `PPDouble` (left-justified): `%-10.<p>f` followed by `sep`, where p = 6 below 1, 2 below
/// 3600 and 0 above; a negative value prints `   -      ` followed by `sep`.
pub fn pp_double(v: f64, sep: &str) -> String {
    if v < 0.0 {
        return format!("   -      {sep}");
    }
    let prec = if v < 1.0 {
        6
    } else if v < 3600.0 {
        2
    } else {
        0
    };
    format!("{:<10}{sep}", fixed(v, prec))
}

/// IOR's key/value line body `%-20s: %s` (no newline).
pub fn kv(key: &str, value: &str) -> String {
    format!("{key:<20}: {value}")
}

/// The four figures of IOR's `FS` line, split back out of the text the caller computed
/// (`"23.5 GiB   Used FS: 17.0%   Inodes: 2.9 Mi   Used Inodes: 0.9%"`): capacity, used
/// capacity, inodes, used inodes. Parts that are missing come back empty.
pub fn fs_parts(fs_line: &str) -> [String; 4] {
    let mut out: [String; 4] = Default::default();
    let (capacity, rest) = fs_line.split_once("Used FS:").unwrap_or((fs_line, ""));
    out[0] = capacity.trim().to_string();
    let (used, rest) = rest.split_once("Inodes:").unwrap_or((rest, ""));
    out[1] = used.trim().to_string();
    let (inodes, rest) = rest.split_once("Used Inodes:").unwrap_or((rest, ""));
    out[2] = inodes.trim().to_string();
    out[3] = rest.trim().to_string();
    out
}

/// The figures of one phase that rows, summaries and JSON need (the histogram is not kept).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub access: Access,
    pub iteration: u32,
    pub bytes: u64,
    pub bw_mib: f64,
    pub iops: f64,
    /// Rank 0's mean time per transfer (IOR's `Latency(s)`).
    pub latency_s: f64,
    pub block_kib: f64,
    pub xfer_kib: f64,
    pub open_s: f64,
    pub xfer_s: f64,
    pub close_s: f64,
    pub total_s: f64,
    /// Transfers per second over the total window (IOR's summary OPs).
    pub ops_total: f64,
    /// Percentiles and maximum of every transfer's latency over all ranks, seconds; `None`
    /// when no latency was recorded.
    pub p50_s: Option<f64>,
    pub p99_s: Option<f64>,
    pub max_s: Option<f64>,
    pub stonewall: Option<StonewallOutcome>,
}

impl Row {
    pub fn of(p: &PhaseOutcome) -> Row {
        let h = &p.latency;
        let ns = |v: u64| Some(v as f64 / 1e9);
        let (p50_s, p99_s, max_s) = if h.is_empty() {
            (None, None, None)
        } else {
            (
                ns(h.value_at_quantile(0.5)),
                ns(h.value_at_quantile(0.99)),
                ns(h.max()),
            )
        };
        Row {
            access: p.access,
            iteration: p.iteration,
            bytes: p.bytes,
            bw_mib: p.bandwidth_mib(),
            iops: if p.transfer_size > 0 { p.iops() } else { 0.0 },
            latency_s: if p.ranks.is_empty() {
                0.0
            } else {
                p.rank0_latency_s()
            },
            block_kib: p.block_size as f64 / 1024.0,
            xfer_kib: p.transfer_size as f64 / 1024.0,
            open_s: p.open_s,
            xfer_s: p.xfer_s,
            close_s: p.close_s,
            total_s: p.total_s,
            ops_total: if p.transfer_size > 0 {
                p.ops_total_window()
            } else {
                0.0
            },
            p50_s,
            p99_s,
            max_s,
            stonewall: p.stonewall,
        }
    }
}

/// What the JSON `Results` array holds, in order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Record {
    Phase(Row),
    Remove { time_s: f64 },
}

/// Stonewall figures of one operation across its repetitions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct StonewallSummary {
    /// Σ stonewall time / repetitions (IOR's `Stonewall(s)`).
    pub time_avg_s: f64,
    /// Σ mean bytes per task / Σ stonewall time, MiB/s (IOR's per-task `Stonewall(MiB)`).
    pub per_task_mib: f64,
    /// Σ bytes of all tasks / Σ stonewall time, MiB/s.
    pub aggregate_mib: f64,
}

/// One line of `Summary of all tests:`: one operation over the repetitions that ran.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OpSummary {
    pub access: Access,
    pub reps: usize,
    /// Bandwidth (MiB/s) and OPs (transfers/s over the total window) per repetition.
    pub bw: Stats,
    pub ops: Stats,
    pub mean_time_s: f64,
    pub stonewall: Option<StonewallSummary>,
    /// Bytes of the first repetition, MiB (IOR's `aggs(MiB)`).
    pub aggs_mib: f64,
}

const MIB: f64 = 1048576.0;

/// Write, then read: IOR's order. Operations that never ran are left out.
pub(crate) fn summarize(rows: &[&Row]) -> Vec<OpSummary> {
    let mut out = Vec::new();
    for access in [Access::Write, Access::Read] {
        let rs: Vec<&Row> = rows
            .iter()
            .copied()
            .filter(|r| r.access == access)
            .collect();
        if rs.is_empty() {
            continue;
        }
        let bw: Vec<f64> = rs.iter().map(|r| r.bw_mib).collect();
        let ops: Vec<f64> = rs.iter().map(|r| r.ops_total).collect();
        let times: Vec<f64> = rs.iter().map(|r| r.total_s).collect();
        let sws: Vec<&StonewallOutcome> = rs.iter().filter_map(|r| r.stonewall.as_ref()).collect();
        let stonewall = (!sws.is_empty()).then(|| {
            let time: f64 = sws.iter().map(|s| s.time_s).sum();
            let per_task: f64 = sws.iter().map(|s| s.bytes_mean).sum();
            let all: f64 = sws.iter().map(|s| s.bytes_sum as f64).sum();
            StonewallSummary {
                time_avg_s: time / rs.len() as f64,
                per_task_mib: per_task / time / MIB,
                aggregate_mib: all / time / MIB,
            }
        });
        out.push(OpSummary {
            access,
            reps: rs.len(),
            bw: Stats::of(&bw),
            ops: Stats::of(&ops),
            mean_time_s: Stats::of(&times).mean,
            stonewall,
            aggs_mib: rs[0].bytes as f64 / MIB,
        });
    }
    out
}

#[cfg(test)]
pub(crate) mod fixtures {
    use measure::{IntervalSeries, LatencyHistogram};
    use workload::ior::{Access, PhaseOutcome, RankTimes, StonewallOutcome};

    /// A phase of two ranks, 1 MiB transfers in 256 MiB blocks; `times` = open, wr/rd, close,
    /// total; rank 0 moved half the bytes in `rank0_xfer_s`.
    pub fn phase(
        access: Access,
        iteration: u32,
        bytes: u64,
        times: [f64; 4],
        rank0_xfer_s: f64,
    ) -> PhaseOutcome {
        let t = 1u64 << 20;
        let rank = RankTimes {
            open_start: 0.0,
            open_stop: times[0],
            xfer_start: 1.0,
            xfer_stop: 1.0 + rank0_xfer_s,
            close_start: times[3] - times[2],
            close_stop: times[3],
            bytes: bytes / 2,
            ops: bytes / 2 / t,
        };
        PhaseOutcome {
            access,
            iteration,
            transfer_size: t,
            block_size: 256 << 20,
            ranks: vec![rank, rank],
            bytes,
            ops: bytes / t,
            open_s: times[0],
            xfer_s: times[1],
            close_s: times[2],
            total_s: times[3],
            latency: LatencyHistogram::new(),
            series: IntervalSeries::new(1_000_000_000, 0),
            stonewall: None,
            verification: None,
            expected_size: bytes,
            stat_size: bytes,
            size_checked: true,
            warnings: Vec::new(),
            queue: None,
            requests: None,
            mpi_hints: Vec::new(),
        }
    }

    /// Stonewall figures of the reference's wear-out example (2 tasks, 47008-byte transfers).
    pub fn stonewall(time_s: f64, bytes_mean: f64, bytes_sum: u64) -> StonewallOutcome {
        StonewallOutcome {
            deadline_s: 2.0,
            time_s,
            pairs_min: 15754,
            pairs_max: 20082,
            bytes_min: 15754 * 47008,
            bytes_mean,
            bytes_sum,
        }
    }

    /// The write of the reference's first example (512 MiB in 0.570942 s).
    pub fn example_write() -> PhaseOutcome {
        phase(
            Access::Write,
            0,
            512 << 20,
            [0.000033, 0.570919, 0.118197, 0.570942],
            0.57088,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pp_double_switches_precision_at_1_and_3600() {
        assert_eq!(pp_double(0.570942, " "), "0.570942   ");
        assert_eq!(pp_double(0.9999994, " "), "0.999999   ");
        assert_eq!(pp_double(1.0, " "), "1.00       ");
        assert_eq!(pp_double(896.7612, " "), "896.76     ");
        assert_eq!(pp_double(3599.994, " "), "3599.99    ");
        assert_eq!(pp_double(3600.0, " "), "3600       ");
        assert_eq!(pp_double(262144.0, " "), "262144     ");
        assert_eq!(pp_double(0.0, " "), "0.000000   ");
    }

    #[test]
    fn pp_double_negative_and_separator() {
        assert_eq!(pp_double(-1.0, " "), "   -       ");
        assert_eq!(pp_double(-0.5, "  "), "   -        ");
        assert_eq!(pp_double(0.00223, "  "), "0.002230    ");
        // Wider than 10 characters: no truncation, as printf.
        assert_eq!(pp_double(12345678901.0, " "), "12345678901 ");
    }

    #[test]
    fn non_finite_values_print_as_c_does() {
        assert_eq!(pp_double(f64::NAN, " "), "nan        ");
        assert_eq!(pp_double(f64::INFINITY, " "), "inf        ");
    }

    #[test]
    fn kv_pads_key_to_20() {
        assert_eq!(kv("api", "POSIX"), "api                 : POSIX");
        assert_eq!(kv("apiVersion", ""), "apiVersion          : ");
        assert_eq!(kv("stoneWallingWearOut", "1"), "stoneWallingWearOut : 1");
    }

    #[test]
    fn fs_line_splits_into_json_fields() {
        let p = fs_parts("23.5 GiB   Used FS: 17.0%   Inodes: 2.9 Mi   Used Inodes: 0.9%");
        assert_eq!(p, ["23.5 GiB", "17.0%", "2.9 Mi", "0.9%"].map(String::from));
        let empty: [String; 4] = Default::default();
        assert_eq!(fs_parts(""), empty);
    }

    #[test]
    fn population_sd_across_three_iterations() {
        let rows: Vec<Row> = [2329.01, 1683.19, 1576.55]
            .iter()
            .enumerate()
            .map(|(i, bw)| {
                let t = 128.0 / bw;
                Row::of(&fixtures::phase(
                    Access::Write,
                    i as u32,
                    128 << 20,
                    [0.0, t, 0.0, t],
                    t,
                ))
            })
            .collect();
        let refs: Vec<&Row> = rows.iter().collect();
        let s = &summarize(&refs)[0];
        assert_eq!(s.reps, 3);
        assert_eq!(
            format!("{:.2} {:.2}", s.bw.mean, s.bw.stddev_population),
            "1862.92 332.44"
        );
        assert_eq!(
            format!("{:.2} {:.2}", s.bw.max, s.bw.min),
            "2329.01 1576.55"
        );
        // 1 MiB transfers: OPs equal MiB/s.
        assert_eq!(format!("{:.2}", s.ops.stddev_population), "332.44");
        assert_eq!(format!("{:.5}", s.mean_time_s), "0.07073");
        assert_eq!(s.aggs_mib, 128.0);
        assert_eq!(s.stonewall, None);
    }
}
