//! Latency histograms in Prometheus' form: a fixed set of upper bounds for storage (1 µs to
//! 10 s, 1-2-5 per decade), counts per bucket and the sum. Re-binned from the recorder's HDR
//! histograms, so a bucket boundary is exact to HDR's three significant digits.

use measure::{Bucket, LatencyHistogram};
use serde::{Deserialize, Serialize};

/// Upper bounds (`le`) in nanoseconds; a last bucket, +Inf, follows.
pub const BOUNDS_NS: [u64; 22] = [
    1_000,
    2_000,
    5_000,
    10_000,
    20_000,
    50_000,
    100_000,
    200_000,
    500_000,
    1_000_000,
    2_000_000,
    5_000_000,
    10_000_000,
    20_000_000,
    50_000_000,
    100_000_000,
    200_000_000,
    500_000_000,
    1_000_000_000,
    2_000_000_000,
    5_000_000_000,
    10_000_000_000,
];

/// One histogram: counts per bucket (not cumulative; the last is above every bound) and the
/// sum of the latencies in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Buckets {
    pub counts: Vec<u64>,
    pub sum_s: f64,
}

impl Default for Buckets {
    fn default() -> Self {
        Buckets {
            counts: vec![0; BOUNDS_NS.len() + 1],
            sum_s: 0.0,
        }
    }
}

impl Buckets {
    /// From HDR buckets (`value` the highest latency of each). The sum counts each latency as
    /// its bucket's highest value: at most 0.1 % high.
    pub fn from_hdr(buckets: impl IntoIterator<Item = Bucket>) -> Buckets {
        let mut b = Buckets::default();
        for Bucket { value, count } in buckets {
            let i = BOUNDS_NS.partition_point(|&le| le < value);
            b.counts[i] = b.counts[i].saturating_add(count);
            b.sum_s += value as f64 / 1e9 * count as f64;
        }
        b
    }

    pub fn from_histogram(h: &LatencyHistogram) -> Buckets {
        Buckets::from_hdr(h.buckets())
    }

    pub fn count(&self) -> u64 {
        self.counts.iter().fold(0, |s, &c| s.saturating_add(c))
    }

    pub fn add(&mut self, other: &Buckets) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a = a.saturating_add(*b);
        }
        self.sum_s += other.sum_s;
    }

    /// Each count and the sum at least `other`'s: what a counter shown before must not fall
    /// below.
    pub fn raise_to(&mut self, other: &Buckets) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a = (*a).max(*b);
        }
        self.sum_s = self.sum_s.max(other.sum_s);
    }

    /// `(le in seconds, count)` pairs for the exposition (counts not cumulative).
    pub fn pairs(&self) -> Vec<(f64, u64)> {
        BOUNDS_NS
            .iter()
            .map(|&le| le as f64 / 1e9)
            .chain([f64::INFINITY])
            .zip(self.counts.iter().copied())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latencies_land_at_or_below_their_bound() {
        let mut h = LatencyHistogram::new();
        for ns in [500, 1_000, 1_001, 3_000_000, 20_000_000_000] {
            h.record(ns);
        }
        let b = Buckets::from_histogram(&h);
        assert_eq!(b.count(), 5);
        assert_eq!(b.counts[0], 2, "500 ns and exactly 1 µs are in le=1e-6");
        assert_eq!(b.counts[1], 1, "1001 ns is above 1 µs");
        assert_eq!(b.counts[11], 1, "3 ms is in le=5e-3");
        assert_eq!(b.counts[22], 1, "20 s is above every bound");
        assert!(
            (b.sum_s - 20.003_002_501).abs() < 20.0 * 1e-3,
            "{}",
            b.sum_s
        );
        let pairs = b.pairs();
        assert_eq!(pairs.len(), 23);
        assert_eq!(pairs[9], (1e-3, 0));
        assert!(pairs[22].0.is_infinite());
    }

    #[test]
    fn add_and_raise() {
        let mut a = Buckets::default();
        a.counts[3] = 2;
        a.sum_s = 1.0;
        let mut b = Buckets::default();
        b.counts[3] = 1;
        b.counts[4] = 5;
        b.sum_s = 3.0;
        let mut s = a.clone();
        s.add(&b);
        assert_eq!((s.counts[3], s.counts[4], s.sum_s), (3, 5, 4.0));
        a.raise_to(&b);
        assert_eq!((a.counts[3], a.counts[4], a.sum_s), (2, 5, 3.0));
    }
}
