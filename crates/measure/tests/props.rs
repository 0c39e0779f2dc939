//! Property tests: merging, quantile order and encodings.

use measure::{IntervalSeries, LatencyHistogram, Stats};
use proptest::prelude::*;

fn latencies() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(
        prop_oneof![0u64..10_000, 0u64..10_000_000_000, any::<u64>()],
        0..200,
    )
}

proptest! {
    // Histograms are 256 KiB and iterated in debug builds: fewer cases keep the suite quick.
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn histogram_merge_equals_recording_all(a in latencies(), b in latencies()) {
        let (mut ha, mut hb, mut all) =
            (LatencyHistogram::new(), LatencyHistogram::new(), LatencyHistogram::new());
        a.iter().for_each(|&v| { ha.record(v); all.record(v); });
        b.iter().for_each(|&v| { hb.record(v); all.record(v); });
        ha.merge(&hb);
        prop_assert_eq!(ha.summary(), all.summary());
    }

    #[test]
    fn quantiles_are_monotone(v in latencies(), qs in prop::collection::vec(0.0f64..=1.0, 1..20)) {
        let mut h = LatencyHistogram::new();
        v.iter().for_each(|&x| h.record(x));
        let mut qs = qs;
        qs.sort_by(f64::total_cmp);
        let vals: Vec<u64> = qs.iter().map(|&q| h.value_at_quantile(q)).collect();
        prop_assert!(vals.windows(2).all(|w| w[0] <= w[1]));
        if !v.is_empty() {
            prop_assert!(vals[0] >= h.min() && *vals.last().unwrap() <= h.max());
        }
        let ps: Vec<u64> = h.summary().percentiles.iter().map(|p| p.value).collect();
        prop_assert!(ps.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn histogram_bytes_round_trip(v in latencies()) {
        let mut h = LatencyHistogram::new();
        v.iter().for_each(|&x| h.record(x));
        let back = LatencyHistogram::from_bytes(&h.to_bytes()).unwrap();
        prop_assert_eq!(back.summary(), h.summary());
        prop_assert_eq!(back.count(), v.len() as u64);
    }

    #[test]
    fn series_merge_sums(
        a in prop::collection::vec((0u64..50_000, 0u64..1 << 20), 0..100),
        b in prop::collection::vec((0u64..50_000, 0u64..1 << 20), 0..100),
    ) {
        let (mut sa, mut sb, mut all) = (
            IntervalSeries::new(1_000, 100),
            IntervalSeries::new(1_000, 100),
            IntervalSeries::new(1_000, 100),
        );
        a.iter().for_each(|&(t, n)| { sa.record(t, n); all.record(t, n); });
        b.iter().for_each(|&(t, n)| { sb.record(t, n); all.record(t, n); });
        sa.merge(&sb);
        prop_assert_eq!(sa.summary(), all.summary());
        prop_assert_eq!(sa.total().ops, (a.len() + b.len()) as u64);
        let back = IntervalSeries::from_bytes(&sa.to_bytes()).unwrap();
        prop_assert_eq!(back, sa);
    }

    #[test]
    fn stats_bounds(v in prop::collection::vec(-1e9f64..1e9, 0..50)) {
        let s = Stats::of(&v);
        prop_assert_eq!(s.count, v.len());
        prop_assert!(s.stddev_population.is_finite() && s.stddev_sample.is_finite());
        if !v.is_empty() {
            prop_assert!(s.min <= s.mean + 1e-6 && s.mean <= s.max + 1e-6);
            prop_assert!(s.stddev_population <= s.stddev_sample + 1e-9);
        }
    }
}

proptest! {
    /// The fast path of `record` (compare with the current bucket's bounds) puts every operation
    /// in the bucket that plain division by the interval gives, for any order of times.
    #[test]
    fn series_record_matches_division(
        interval in 1u64..1000,
        epoch in 0u64..10_000,
        times in proptest::collection::vec(0u64..50_000, 1..300),
    ) {
        let mut s = IntervalSeries::new(interval, epoch);
        let mut expect: Vec<u64> = Vec::new();
        for &t in &times {
            s.record(t, 1);
            let idx = (t.saturating_sub(epoch) / interval) as usize;
            if idx >= expect.len() {
                expect.resize(idx + 1, 0);
            }
            expect[idx] += 1;
        }
        let got: Vec<u64> = s.buckets().iter().map(|b| b.ops).collect();
        prop_assert_eq!(got, expect);
    }
}
