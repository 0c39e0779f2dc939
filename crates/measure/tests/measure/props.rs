//! Property tests: merging, quantile order, encodings, the atomic histogram's exact snapshot, the
//! recorder against the hand-written meter it replaces, and the wall-clock formats.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use measure::{
    compact_utc, rfc3339_utc, AtomicHistogram, IntervalSeries, LatencyHistogram, Recorder, Stats,
    MAX_LATENCY_NS,
};
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
    /// in the bucket that plain division by the interval gives, for any order of times (by the
    /// final interval: a series past `MAX_POINTS` buckets has widened its intervals).
    #[test]
    fn series_record_matches_division(
        interval in 1u64..1000,
        epoch in 0u64..10_000,
        times in proptest::collection::vec(0u64..50_000, 1..300),
    ) {
        let mut s = IntervalSeries::new(interval, epoch);
        times.iter().for_each(|&t| s.record(t, 1));
        let width = s.interval_ns();
        let mut expect: Vec<u64> = Vec::new();
        for &t in &times {
            let idx = (t.saturating_sub(epoch) / width) as usize;
            if idx >= expect.len() {
                expect.resize(idx + 1, 0);
            }
            expect[idx] += 1;
        }
        let got: Vec<u64> = s.buckets().iter().map(|b| b.ops).collect();
        prop_assert_eq!(got, expect);
    }
}

fn edge_latencies() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(
        prop_oneof![
            Just(0u64),
            Just(1u64),
            Just(u64::MAX),
            Just(MAX_LATENCY_NS),
            MAX_LATENCY_NS - 5_000..MAX_LATENCY_NS + 5_000,
            0u64..5_000,
            0u64..10_000_000_000,
            any::<u64>(),
        ],
        0..300,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Exact equality, floats included: the snapshot keeps every bucket and count, which is all
    /// a LatencyHistogram's summary depends on.
    #[test]
    fn atomic_snapshot_summary_is_exact(v in edge_latencies(), w in edge_latencies()) {
        let atomic = AtomicHistogram::new();
        let mut direct = LatencyHistogram::new();
        for &x in &v {
            atomic.record(x);
            direct.record(x);
        }
        prop_assert_eq!(atomic.count(), v.len() as u64);
        prop_assert_eq!(atomic.is_empty(), v.is_empty());
        let snap = atomic.snapshot();
        prop_assert_eq!(snap.summary(), direct.summary());
        prop_assert_eq!(snap.to_bytes(), direct.to_bytes());
        // Merging snapshots equals merging the directly recorded histograms.
        let other = AtomicHistogram::new();
        let mut direct_other = LatencyHistogram::new();
        for &x in &w {
            other.record(x);
            direct_other.record(x);
        }
        let mut merged = snap.clone();
        merged.merge(&other.snapshot());
        direct.merge(&direct_other);
        prop_assert_eq!(merged.summary(), direct.summary());
    }

    /// The recorder gives what the workloads' meter (clock diff into a LatencyHistogram, the
    /// series, running totals) gives for the same end times.
    #[test]
    fn recorder_equals_the_meter(
        epoch in 0u64..1_000_000,
        lead in 0u64..1_000_000,
        steps in prop::collection::vec((0u64..50_000_000, 0u64..1 << 24), 0..200),
    ) {
        let interval = 1_000_000;
        let mut rec = Recorder::new(1, interval);
        rec.set_epoch(epoch);
        let start = epoch + lead;
        rec.start(start);
        let (mut latency, mut series) =
            (LatencyHistogram::new(), IntervalSeries::new(interval, epoch));
        let (mut prev, mut bytes) = (start, 0u64);
        for &(dt, n) in &steps {
            let now = prev + dt;
            rec.record_at(0, now, n);
            latency.record(now - prev);
            series.record(now, n);
            prev = now;
            bytes += n;
        }
        let out = rec.finish();
        prop_assert_eq!(out.latency[0].summary(), latency.summary());
        prop_assert_eq!(out.series, series);
        prop_assert_eq!((out.ops, out.bytes, out.errors), (steps.len() as u64, bytes, 0));
    }
}

/// results' hand-written RFC 3339 formatting (civil-from-days, H. Hinnant), which
/// `measure::rfc3339_utc` replaces: kept here as the oracle.
fn hinnant_rfc3339(secs: u64, millis: u32) -> String {
    let secs = secs as i64;
    let (days, sod) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        year,
        month,
        day,
        sod / 3600,
        sod / 60 % 60,
        sod % 60,
        millis
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn utc_formats_equal_the_hand_written_ones(
        secs in 0u64..253_402_300_800, // through 9999-12-31
        nanos in 0u32..1_000_000_000,
    ) {
        let t = UNIX_EPOCH + Duration::new(secs, nanos);
        let want = hinnant_rfc3339(secs, nanos / 1_000_000);
        prop_assert_eq!(rfc3339_utc(t), want.clone());
        let compact: String = want[..19].chars().filter(|c| c.is_ascii_digit() || *c == 'T').collect();
        prop_assert_eq!(compact_utc(t), compact + "Z");
    }
}

#[test]
fn every_day_of_four_centuries_formats_like_before() {
    for day in 0..146_097u64 {
        let secs = day * 86_400 + 43_210;
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        assert_eq!(rfc3339_utc(t), hinnant_rfc3339(secs, 0), "day {day}");
    }
}
