//! Per-phase values and the aggregate scores (reference §4): GiB/s = 2^30 bytes, kIOPS = 1000
//! operations per second; BW and MD are geometric means over their groups, TOTAL = sqrt(BW*MD).

use super::phases::{Group, Phase};

pub const GIB: f64 = (1u64 << 30) as f64;

fn per_s(amount: f64, seconds: f64) -> f64 {
    if seconds > 0.0 && amount.is_finite() {
        amount / seconds
    } else {
        0.0
    }
}

/// An IOR phase: bytes moved by all ranks (wear-out included) over IOR's total window, GiB/s.
pub fn ior_gib_s(bytes: u64, total_s: f64) -> f64 {
    per_s(bytes as f64, total_s) / GIB
}

/// An mdtest phase: items of all ranks over the slowest rank's time, kIOPS. find: entries
/// examined (not matched) over the slowest rank's walk, kIOPS.
pub fn kiops(items: u64, seconds: f64) -> f64 {
    per_s(items as f64, seconds) / 1000.0
}

/// IOR's stonewall figure for result.txt: the mean bytes per rank at the wall, times the ranks,
/// over the time to the wall (`throughput-stonewall`, GiB/s).
pub fn ior_stonewall_gib_s(bytes_mean: f64, ranks: usize, time_s: f64) -> f64 {
    per_s(bytes_mean * ranks as f64, time_s) / GIB
}

/// A measured phase as the aggregates see it.
#[derive(Debug, Clone, Copy)]
pub struct Scored<'a> {
    pub phase: &'a Phase,
    pub score: f64,
}

/// The three aggregates.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Scores {
    pub bw: f64,
    pub md: f64,
    pub total: f64,
}

/// The geometric mean as the IO500 computes it (`calc_score`): the product, then the n-th root;
/// values <= 0 are left out (n shrinks), and no value at all gives 0.
pub fn geomean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (mut product, mut n) = (1.0f64, 0u32);
    for v in values {
        if v > 0.0 {
            product *= v;
            n += 1;
        }
    }
    if n == 0 {
        0.0
    } else {
        product.powf(1.0 / n as f64)
    }
}

/// `[SCORE ]` (standard) or `[SCOREX]` (extended: the optional phases too). Validity does not
/// enter: an invalid phase still counts with its measured value.
pub fn aggregate(measured: &[Scored], extended: bool) -> Scores {
    let group = |g: Group| {
        geomean(
            measured
                .iter()
                .filter(|m| m.phase.group == g && (extended || !m.phase.optional()))
                .map(|m| m.score),
        )
    };
    let (md, bw) = (group(Group::Md), group(Group::Bw));
    Scores {
        bw,
        md,
        total: (1.0 * md * bw).sqrt(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io500::phases::by_name;

    fn scored(pairs: &[(&str, f64)]) -> Vec<Scored<'static>> {
        pairs
            .iter()
            .map(|&(n, s)| Scored {
                phase: by_name(n).unwrap(),
                score: s,
            })
            .collect()
    }

    #[test]
    fn units() {
        assert_eq!(ior_gib_s(3 << 30, 2.0), 1.5);
        assert_eq!(ior_gib_s(1, 0.0), 0.0);
        assert_eq!(kiops(5000, 2.0), 2.5);
        assert_eq!(kiops(5, -1.0), 0.0);
        assert_eq!(ior_stonewall_gib_s((1u64 << 30) as f64, 4, 2.0), 2.0);
    }

    #[test]
    fn geometric_means_skip_non_positive() {
        assert!((geomean([2.0, 8.0]) - 4.0).abs() < 1e-12);
        assert!((geomean([2.0, 0.0, 8.0, -3.0]) - 4.0).abs() < 1e-12);
        assert_eq!(geomean([0.0, -1.0]), 0.0);
        assert_eq!(geomean([]), 0.0);
    }

    #[test]
    fn groups_and_total() {
        let m = scored(&[
            ("ior-easy-write", 4.0),
            ("ior-hard-write", 1.0),
            ("mdtest-easy-write", 9.0),
            ("find", 1.0),
            ("timestamp", 0.0),
            ("ior-rnd4K-easy-read", 1000.0),
            ("find-easy", 100.0),
        ]);
        let s = aggregate(&m, false);
        assert!((s.bw - 2.0).abs() < 1e-12 && (s.md - 3.0).abs() < 1e-12);
        assert!((s.total - 6f64.sqrt()).abs() < 1e-12);
        // Extended mode adds find-easy to MD; the unscored rnd4K never counts.
        let x = aggregate(&m, true);
        assert!((x.md - 900f64.powf(1.0 / 3.0)).abs() < 1e-9);
        assert!((x.bw - 2.0).abs() < 1e-12);
    }

    #[test]
    fn md_workbench_counts_in_scorex_only_with_its_benchmark() {
        let m = scored(&[
            ("mdtest-easy-write", 2.0),
            ("mdworkbench-create", 300.0),
            ("mdworkbench-bench", 8.0),
            ("mdworkbench-delete", 700.0),
        ]);
        assert_eq!(aggregate(&m, false).md, 2.0);
        assert!((aggregate(&m, true).md - 4.0).abs() < 1e-12);
    }

    #[test]
    fn a_phase_that_did_not_run_is_left_out_not_zero() {
        let m = scored(&[("ior-easy-write", 4.0), ("ior-hard-write", 0.0)]);
        assert_eq!(aggregate(&m, false).bw, 4.0);
        let nothing = aggregate(&scored(&[("find", 5.0)]), false);
        assert_eq!((nothing.bw, nothing.total), (0.0, 0.0));
    }
}
