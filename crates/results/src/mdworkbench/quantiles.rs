//! md-workbench's seven numbers of a latency distribution (min, q1, median, q3, q90, q99,
//! max), read from a histogram's buckets with md-workbench's rules (`compute_histogram`):
//! quantile q is element `round(q * (n - 1) + 0.49)` of the sorted times, and the median of an
//! even count is the mean of the middle pair. A bucket stands for its highest equivalent value
//! (3 significant digits), the minimum for the lowest.

use measure::HistogramSummary;
use serde::{Deserialize, Serialize};

/// Seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Quantiles {
    pub count: u64,
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub q90: f64,
    pub q99: f64,
    pub max: f64,
}

/// md-workbench's index of quantile `q` among `n` sorted values (`runtime_quantile`).
pub fn quantile_index(n: u64, q: f64) -> u64 {
    let pos = (q * (n - 1) as f64 + 0.49).round() as u64;
    pos.min(n - 1)
}

impl Quantiles {
    /// `None` for an empty distribution (md-workbench prints nothing for it).
    pub fn of(h: &HistogramSummary) -> Option<Quantiles> {
        let n = h.count;
        if n == 0 {
            return None;
        }
        // The value of the element at 0-based position k, in ns.
        let at = |k: u64| -> u64 {
            let mut seen = 0u64;
            for b in &h.buckets {
                seen = seen.saturating_add(b.count);
                if seen > k {
                    return b.value;
                }
            }
            h.max
        };
        let s = |ns: u64| ns as f64 / 1e9;
        let median = if n.is_multiple_of(2) {
            (s(at(n / 2)) + s(at(n / 2 - 1))) / 2.0
        } else {
            s(at(n / 2))
        };
        Some(Quantiles {
            count: n,
            min: s(h.min),
            q1: s(at(quantile_index(n, 0.25))),
            median,
            q3: s(at(quantile_index(n, 0.75))),
            q90: s(at(quantile_index(n, 0.90))),
            q99: s(at(quantile_index(n, 0.99))),
            max: s(h.max),
        })
    }

    /// The seven numbers in md-workbench's order.
    pub fn seven(&self) -> [f64; 7] {
        [
            self.min,
            self.q1,
            self.median,
            self.q3,
            self.q90,
            self.q99,
            self.max,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use measure::LatencyHistogram;

    fn of(values: &[u64]) -> Quantiles {
        let mut h = LatencyHistogram::new();
        for &v in values {
            h.record(v);
        }
        Quantiles::of(&h.summary()).unwrap()
    }

    #[test]
    fn md_workbench_positions() {
        // n = 10: q1 -> round(2.25 + 0.49) = 3, q3 -> round(6.75 + 0.49) = 7,
        // q90 -> round(8.1 + 0.49) = 9, q99 -> 9; the median is the mean of elements 4 and 5.
        assert_eq!(quantile_index(10, 0.25), 3);
        assert_eq!(quantile_index(10, 0.75), 7);
        assert_eq!(quantile_index(10, 0.90), 9);
        assert_eq!(quantile_index(1, 0.99), 0);
        let q = of(&[100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
        assert_eq!(q.count, 10);
        let ns = |v: f64| (v * 1e9).round() as u64;
        assert_eq!(
            q.seven().map(ns),
            [100, 400, 550, 800, 1000, 1000, 1000],
            "{q:?}"
        );
        let odd = of(&[5, 1, 3]);
        assert_eq!(ns(odd.median), 3);
        assert_eq!(ns(odd.min), 1);
        assert!(Quantiles::of(&LatencyHistogram::new().summary()).is_none());
    }
}
