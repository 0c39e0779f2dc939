//! `LatencyHistogram` against the hdrhistogram crate configured as iogauge's histogram used to
//! wrap it (1 ns .. `MAX_LATENCY_NS`, 3 significant digits, no auto-resize, clamped values
//! recorded with `saturating_record_n`, merges with `add`): every accessor and the whole summary
//! must be equal, floats compared with `==` and bit for bit.

use hdrhistogram::Histogram;
use measure::{
    AtomicHistogram, Bucket, HistogramSummary, LatencyHistogram, Percentile, MAX_LATENCY_NS,
    SUMMARY_PERCENTILES,
};
use proptest::prelude::*;

/// The former `LatencyHistogram`, method for method.
#[derive(Clone)]
struct Reference(Histogram<u64>);

impl Reference {
    fn new() -> Self {
        let mut h = Histogram::new_with_bounds(1, MAX_LATENCY_NS, 3).unwrap();
        h.auto(false);
        Self(h)
    }

    fn record(&mut self, ns: u64) {
        self.0.saturating_record(ns.clamp(1, MAX_LATENCY_NS));
    }

    fn record_n(&mut self, ns: u64, count: u64) {
        if count != 0 {
            self.0
                .saturating_record_n(ns.clamp(1, MAX_LATENCY_NS), count);
        }
    }

    fn merge(&mut self, other: &Reference) {
        self.0.add(&other.0).expect("same bounds");
    }

    fn min(&self) -> u64 {
        if self.0.is_empty() {
            0
        } else {
            self.0.min()
        }
    }

    fn max(&self) -> u64 {
        if self.0.is_empty() {
            0
        } else {
            self.0.max()
        }
    }

    fn value_at_quantile(&self, q: f64) -> u64 {
        if self.0.is_empty() {
            return 0;
        }
        let q = if q.is_nan() { 0.0 } else { q.clamp(0.0, 1.0) };
        self.0.value_at_quantile(q)
    }

    fn summary(&self) -> HistogramSummary {
        HistogramSummary {
            unit: "ns".to_string(),
            count: self.0.len(),
            min: self.min(),
            max: self.max(),
            mean: self.0.mean(),
            stddev: self.0.stdev(),
            percentiles: SUMMARY_PERCENTILES
                .iter()
                .map(|&p| Percentile {
                    p,
                    value: self.value_at_quantile(p / 100.0),
                })
                .collect(),
            buckets: self
                .0
                .iter_recorded()
                .map(|v| Bucket {
                    value: self.0.highest_equivalent(v.value_iterated_to()),
                    count: v.count_at_value(),
                })
                .collect(),
        }
    }
}

/// Quantiles worth asking: the ends, the summary's, just around them, and anything.
const QUANTILES: [f64; 16] = [
    0.0,
    -0.0,
    1.0,
    0.5,
    0.9,
    0.99,
    0.999,
    0.9999,
    0.25,
    1e-9,
    0.999_999_999,
    -1.0,
    2.0,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
];

/// Every figure of `ours` equals `theirs`'s, floats bit for bit; and the encoding round-trips.
fn assert_same(ours: &LatencyHistogram, theirs: &Reference, extra_qs: &[f64]) {
    let (s, r) = (ours.summary(), theirs.summary());
    assert_eq!(s, r);
    assert_eq!(s.mean.to_bits(), r.mean.to_bits());
    assert_eq!(s.stddev.to_bits(), r.stddev.to_bits());
    assert_eq!(ours.count(), theirs.0.len());
    assert_eq!(ours.is_empty(), theirs.0.is_empty());
    assert_eq!(ours.min(), theirs.min());
    assert_eq!(ours.max(), theirs.max());
    assert_eq!(ours.mean().to_bits(), theirs.0.mean().to_bits());
    assert_eq!(ours.stddev().to_bits(), theirs.0.stdev().to_bits());
    for &q in QUANTILES.iter().chain(extra_qs) {
        assert_eq!(
            ours.value_at_quantile(q),
            theirs.value_at_quantile(q),
            "quantile {q}"
        );
    }
    // Quantiles landing exactly on, and just past, a bucket's running count (for some twenty
    // buckets spread over the list: hdrhistogram's scans are slow in debug builds).
    let total = ours.count();
    if total > 0 && total < 1 << 20 {
        let step = r.buckets.len().div_ceil(20).max(1);
        let mut running = 0u64;
        for (i, b) in r.buckets.iter().enumerate() {
            running += b.count;
            if i % step != 0 && i + 1 != r.buckets.len() {
                continue;
            }
            for q in [
                running as f64 / total as f64,
                (running as f64 + 0.5) / total as f64,
            ] {
                assert_eq!(
                    ours.value_at_quantile(q),
                    theirs.value_at_quantile(q),
                    "quantile {q}"
                );
            }
        }
    }
    let back = LatencyHistogram::from_bytes(&ours.to_bytes()).expect("round trip");
    assert_eq!(back.summary(), r);
    assert_eq!(back.to_bytes(), ours.to_bytes());
}

/// A latency: the extremes, values around powers of two and around the slot-width changes
/// (2048 << k), the range a storage benchmark sees, anything.
fn latency() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1u64),
        Just(u64::MAX),
        Just(MAX_LATENCY_NS),
        (0u32..64, -2i64..=2).prop_map(|(k, d)| (1u64 << k).saturating_add_signed(d)),
        (0u32..31, -2i64..=2).prop_map(|(k, d)| (2048u64 << k).saturating_add_signed(d)),
        MAX_LATENCY_NS - 5_000..MAX_LATENCY_NS + 5_000,
        0u64..5_000,
        1_000u64..20_000,
        0u64..10_000_000,
        0u64..10_000_000_000,
        any::<u64>(),
    ]
}

/// How many times a latency is recorded: mostly once, sometimes many, rarely enormously (so that
/// totals pass 2^53, where `q * total` rounds; 300 values of at most 2^50 stay below 2^64).
fn multiplicity() -> impl Strategy<Value = u64> {
    prop_oneof![
        8 => Just(1u64),
        2 => 0u64..1_000,
        1 => 1u64..=1 << 50,
    ]
}

fn recordings() -> impl Strategy<Value = Vec<(u64, u64)>> {
    prop::collection::vec((latency(), multiplicity()), 0..100)
}

fn quantiles() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        prop_oneof![0.0f64..=1.0, 0.99f64..=1.0, -0.5f64..1.5, any::<f64>()],
        0..8,
    )
}

fn build(recs: &[(u64, u64)]) -> (LatencyHistogram, Reference, AtomicHistogram) {
    let (mut ours, mut theirs, atomic) = (
        LatencyHistogram::new(),
        Reference::new(),
        AtomicHistogram::new(),
    );
    for &(v, n) in recs {
        if n == 1 {
            ours.record(v);
            theirs.record(v);
            atomic.record(v);
        } else {
            ours.record_n(v, n);
            theirs.record_n(v, n);
            if n < 1_000 {
                (0..n).for_each(|_| atomic.record(v));
            }
        }
    }
    (ours, theirs, atomic)
}

proptest! {
    // Every case builds hdrhistogram histograms and scans them, slowly in debug builds.
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn every_figure_equals_hdrhistogram(recs in recordings(), qs in quantiles()) {
        let (ours, theirs, _) = build(&recs);
        assert_same(&ours, &theirs, &qs);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Merges of several histograms (into an empty one and into a filled one, in order), the
    /// atomic histogram's snapshot and `add_to`, and a single value alone.
    #[test]
    fn merges_and_snapshots_equal_hdrhistogram(
        parts in prop::collection::vec(recordings(), 1..5),
        single in latency(),
        qs in quantiles(),
    ) {
        let (mut ours, mut theirs) = (LatencyHistogram::new(), Reference::new());
        let (mut ours_filled, mut theirs_filled, _) = build(&parts[0]);
        for part in &parts {
            let (o, t, atomic) = build(part);
            ours.merge(&o);
            theirs.merge(&t);
            ours_filled.merge(&o);
            theirs_filled.merge(&t);
            // Counts below 1000 went into the atomic histogram too: its snapshot is exact.
            if part.iter().all(|&(_, n)| n < 1_000) {
                assert_same(&atomic.snapshot(), &t, &qs);
                let mut sum = o.clone();
                atomic.add_to(&mut sum);
                let mut twice = t.clone();
                twice.merge(&t);
                assert_same(&sum, &twice, &qs);
            }
        }
        assert_same(&ours, &theirs, &qs);
        assert_same(&ours_filled, &theirs_filled, &qs);
        let (mut one, mut one_ref) = (LatencyHistogram::new(), Reference::new());
        one.record(single);
        one_ref.record(single);
        assert_same(&one, &one_ref, &qs);
    }
}

#[test]
fn empty_equals_hdrhistogram() {
    assert_same(&LatencyHistogram::new(), &Reference::new(), &[]);
    assert_eq!(HistogramSummary::default(), Reference::new().summary());
}

/// A realistic phase: 200,000 latencies, mostly 1-20 us with a tail to 6 ms, merged from eight
/// ranks: long float sums over thousands of buckets, every figure still bit for bit.
#[test]
fn a_large_realistic_phase_equals_hdrhistogram() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let (mut ours, mut theirs) = (LatencyHistogram::new(), Reference::new());
    for _ in 0..8 {
        let (mut o, mut t) = (LatencyHistogram::new(), Reference::new());
        for _ in 0..25_000 {
            let r = next();
            let v = match r % 1000 {
                0 => 200_000 + next() % 5_800_000,
                1..=20 => 20_000 + next() % 180_000,
                _ => 1_000 + next() % 19_000,
            };
            o.record(v);
            t.record(v);
        }
        ours.merge(&LatencyHistogram::from_bytes(&o.to_bytes()).unwrap());
        theirs.merge(&t);
    }
    assert_same(&ours, &theirs, &[0.123_456, 0.654_321]);
}

/// Totals past 2^53: `q * total` rounds up past the total for q = 1, and hdrhistogram then finds
/// no bucket and answers 0; so do we.
#[test]
fn huge_totals_round_like_hdrhistogram() {
    for (v, n) in [
        (5u64, (1u64 << 54) - 1),
        (5, (1 << 60) + 1),
        (1_000_000, (1 << 62) - 3),
        (MAX_LATENCY_NS, 1 << 63),
    ] {
        let (mut ours, mut theirs) = (LatencyHistogram::new(), Reference::new());
        ours.record_n(v, n);
        theirs.record_n(v, n);
        ours.record(7);
        theirs.record(7);
        assert_same(&ours, &theirs, &[]);
    }
    // One count of (1 << 54) - 1 alone: q = 1 asks for 2^54 and gets 0.
    let mut h = LatencyHistogram::new();
    h.record_n(5, (1 << 54) - 1);
    assert_eq!(h.value_at_quantile(1.0), 0);
}
