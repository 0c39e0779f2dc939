//! Per-operation latency histogram (HdrHistogram, 3 significant digits, 1 ns .. 1 h).
//!
//! Fixed range and no auto-resize, so `record` never allocates; every rank's histogram has the same
//! layout, which makes merging exact and the serialized form comparable between ranks.

use hdrhistogram::serialization::{Deserializer, Serializer, V2Serializer};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// Largest latency kept apart: one hour in ns. Longer operations are counted as exactly this.
pub const MAX_LATENCY_NS: u64 = 3_600_000_000_000;
/// Smallest latency kept apart: 1 ns. 0 is counted as this (a clock that did not advance).
pub(crate) const LOWEST_NS: u64 = 1;
/// Significant decimal digits kept for every latency.
pub(crate) const SIGFIG: u8 = 3;
/// Percentiles reported by [`LatencyHistogram::summary`].
pub const SUMMARY_PERCENTILES: [f64; 5] = [50.0, 90.0, 99.0, 99.9, 99.99];

/// Latencies in nanoseconds.
#[derive(Clone, Debug)]
pub struct LatencyHistogram {
    h: Histogram<u64>,
}

/// One reported percentile: `p` in percent, `value` in ns.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Percentile {
    pub p: f64,
    pub value: u64,
}

/// One occupied histogram bucket: `value` is the highest latency (ns) equivalent to the bucket.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Bucket {
    pub value: u64,
    pub count: u64,
}

/// The serializable digest of a histogram that goes into results.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct HistogramSummary {
    /// Always "ns".
    pub unit: String,
    pub count: u64,
    pub min: u64,
    pub max: u64,
    pub mean: f64,
    pub stddev: f64,
    pub percentiles: Vec<Percentile>,
    pub buckets: Vec<Bucket>,
}

impl Default for HistogramSummary {
    fn default() -> Self {
        LatencyHistogram::new().summary()
    }
}

impl LatencyHistogram {
    /// An empty histogram. Allocates its whole counts array here (about 256 KiB), once.
    pub fn new() -> Self {
        let mut h = Histogram::new_with_bounds(LOWEST_NS, MAX_LATENCY_NS, SIGFIG)
            .expect("constant bounds are valid");
        h.auto(false);
        Self { h }
    }

    /// Records one latency. 0 counts as 1 ns, values above an hour as one hour; never panics and
    /// never allocates.
    #[inline]
    pub fn record(&mut self, ns: u64) {
        self.h
            .saturating_record(ns.clamp(LOWEST_NS, MAX_LATENCY_NS));
    }

    /// Records `count` latencies of `ns` each, clamped as [`record`](Self::record). Counts
    /// saturate at `u64::MAX`.
    pub fn record_n(&mut self, ns: u64, count: u64) {
        if count != 0 {
            self.h
                .saturating_record_n(ns.clamp(LOWEST_NS, MAX_LATENCY_NS), count);
        }
    }

    /// Adds every count of `other` to `self`.
    pub fn merge(&mut self, other: &LatencyHistogram) {
        if self.h.add(&other.h).is_err() {
            // Unreachable while all histograms share the bounds; saturate rather than drop counts.
            for v in other.h.iter_recorded() {
                let value = v.value_iterated_to().clamp(LOWEST_NS, MAX_LATENCY_NS);
                self.h.saturating_record_n(value, v.count_at_value());
            }
        }
    }

    /// Number of recorded latencies.
    pub fn count(&self) -> u64 {
        self.h.len()
    }

    pub fn is_empty(&self) -> bool {
        self.h.is_empty()
    }

    /// Smallest recorded latency (lowest equivalent value), 0 when empty.
    pub fn min(&self) -> u64 {
        if self.is_empty() {
            0
        } else {
            self.h.min()
        }
    }

    /// Largest recorded latency (highest equivalent value), 0 when empty.
    pub fn max(&self) -> u64 {
        if self.is_empty() {
            0
        } else {
            self.h.max()
        }
    }

    /// Mean latency in ns, 0 when empty.
    pub fn mean(&self) -> f64 {
        self.h.mean()
    }

    /// Population standard deviation in ns, 0 when empty.
    pub fn stddev(&self) -> f64 {
        self.h.stdev()
    }

    /// Latency at quantile `q` in [0, 1] (clamped; NaN counts as 0); 0 when empty.
    pub fn value_at_quantile(&self, q: f64) -> u64 {
        if self.is_empty() {
            return 0;
        }
        let q = if q.is_nan() { 0.0 } else { q.clamp(0.0, 1.0) };
        self.h.value_at_quantile(q)
    }

    /// HdrHistogram V2 encoding (uncompressed; run-length encoded zeros keep it small).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        V2Serializer::new()
            .serialize(&self.h, &mut out)
            .expect("writing to a Vec cannot fail and counts fit in i64");
        out
    }

    /// Decodes [`to_bytes`](Self::to_bytes) output (or any V2 histogram, re-binned into our range).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let mut reader = bytes;
        let decoded: Histogram<u64> = Deserializer::new()
            .deserialize(&mut reader)
            .map_err(|e| format!("cannot decode latency histogram: {e}"))?;
        let mut out = Self::new();
        let same_layout = decoded.low() == LOWEST_NS
            && decoded.high() == MAX_LATENCY_NS
            && decoded.sigfig() == SIGFIG;
        if same_layout {
            out.h = decoded;
            out.h.auto(false);
        } else {
            out.merge(&Self { h: decoded });
        }
        Ok(out)
    }

    /// Count, extremes, moments, the standard percentiles and every occupied bucket.
    pub fn summary(&self) -> HistogramSummary {
        let percentiles = SUMMARY_PERCENTILES
            .iter()
            .map(|&p| Percentile {
                p,
                value: self.value_at_quantile(p / 100.0),
            })
            .collect();
        let buckets = self
            .h
            .iter_recorded()
            .map(|v| Bucket {
                value: self.h.highest_equivalent(v.value_iterated_to()),
                count: v.count_at_value(),
            })
            .collect();
        HistogramSummary {
            unit: "ns".to_string(),
            count: self.count(),
            min: self.min(),
            max: self.max(),
            mean: self.mean(),
            stddev: self.stddev(),
            percentiles,
            buckets,
        }
    }
}

impl Default for LatencyHistogram {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_is_all_zero() {
        let h = LatencyHistogram::new();
        let s = h.summary();
        assert_eq!((s.count, s.min, s.max), (0, 0, 0));
        assert_eq!((s.mean, s.stddev), (0.0, 0.0));
        assert!(s.percentiles.iter().all(|p| p.value == 0));
        assert!(s.buckets.is_empty());
        assert_eq!(s.unit, "ns");
        assert_eq!(h.value_at_quantile(0.5), 0);
    }

    #[test]
    fn zero_and_huge_values_are_saturated() {
        let mut h = LatencyHistogram::new();
        h.record(0);
        h.record(u64::MAX);
        assert_eq!(h.count(), 2);
        assert_eq!(h.min(), 1);
        assert!(h.max() >= MAX_LATENCY_NS && h.max() < MAX_LATENCY_NS + MAX_LATENCY_NS / 1000);
    }

    #[test]
    fn three_significant_digits() {
        let mut h = LatencyHistogram::new();
        for v in [1_000u64, 2_000, 3_000, 1_234_567] {
            h.record(v);
        }
        assert_eq!(h.count(), 4);
        assert_eq!(h.min(), 1_000);
        let max = h.max();
        assert!(max.abs_diff(1_234_567) <= 1_234_567 / 1000, "max {max}");
        assert_eq!(h.value_at_quantile(0.5), 2_000);
        assert_eq!(h.value_at_quantile(-3.0), 1_000);
        assert_eq!(h.value_at_quantile(f64::NAN), 1_000);
        assert_eq!(h.value_at_quantile(7.0), max);
    }

    #[test]
    fn summary_buckets_and_percentiles() {
        let mut h = LatencyHistogram::new();
        for _ in 0..99 {
            h.record(100);
        }
        h.record(10_000);
        let s = h.summary();
        assert_eq!(s.count, 100);
        assert_eq!(
            s.buckets,
            vec![
                Bucket {
                    value: 100,
                    count: 99
                },
                Bucket {
                    value: 10_007,
                    count: 1
                }
            ]
        );
        let ps: Vec<f64> = s.percentiles.iter().map(|p| p.p).collect();
        assert_eq!(ps, SUMMARY_PERCENTILES.to_vec());
        assert_eq!(s.percentiles[0].value, 100);
        assert_eq!(s.percentiles[1].value, 100);
        assert_eq!(s.percentiles[2].value, 100);
        assert_eq!(s.percentiles[3].value, 10_007);
        assert!((s.mean - (99.0 * 100.0 + 10_002.0) / 100.0).abs() < 1.0);
    }

    #[test]
    fn bytes_round_trip() {
        let mut h = LatencyHistogram::new();
        for v in [5u64, 5, 700, 80_000, 9_000_000_000] {
            h.record(v);
        }
        let bytes = h.to_bytes();
        assert!(bytes.len() < 200, "encoded size {}", bytes.len());
        let back = LatencyHistogram::from_bytes(&bytes).unwrap();
        assert_eq!(back.summary(), h.summary());
        let empty = LatencyHistogram::from_bytes(&LatencyHistogram::new().to_bytes()).unwrap();
        assert_eq!(empty.count(), 0);
    }

    #[test]
    fn from_bytes_rejects_garbage() {
        assert!(LatencyHistogram::from_bytes(&[]).is_err());
        assert!(LatencyHistogram::from_bytes(&[1, 2, 3, 4, 5, 6, 7, 8]).is_err());
    }

    #[test]
    fn foreign_layout_is_rebinned() {
        let mut other = Histogram::<u64>::new_with_bounds(1, u64::MAX / 2, 2).unwrap();
        other.record(50).unwrap();
        other.record(MAX_LATENCY_NS * 10).unwrap();
        let mut bytes = Vec::new();
        V2Serializer::new().serialize(&other, &mut bytes).unwrap();
        let h = LatencyHistogram::from_bytes(&bytes).unwrap();
        assert_eq!(h.count(), 2);
        assert_eq!(h.min(), 50);
        assert!(h.max() < MAX_LATENCY_NS + MAX_LATENCY_NS / 1000);
    }
}
