//! Tests of `histogram.rs` (its equivalence with hdrhistogram is in `tests/hdr_equivalence.rs`).

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
    assert_eq!((h.min(), h.max(), h.mean(), h.stddev()), (0, 0, 0.0, 0.0));
}

#[test]
fn default_summary_is_the_empty_histograms() {
    assert_eq!(
        HistogramSummary::default(),
        LatencyHistogram::new().summary()
    );
}

#[test]
fn buckets_are_the_summarys() {
    let mut h = LatencyHistogram::new();
    for v in [5, 5, 70_000, 3_000_000_000] {
        h.record(v);
    }
    let b: Vec<Bucket> = h.buckets().collect();
    assert_eq!(b.len(), 3);
    assert_eq!(b[0], Bucket { value: 5, count: 2 });
    assert_eq!(b, h.summary().buckets);
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
    assert_eq!(back.to_bytes(), bytes);
    let empty = LatencyHistogram::from_bytes(&LatencyHistogram::new().to_bytes()).unwrap();
    assert_eq!(empty.count(), 0);
    assert!(empty.summary().buckets.is_empty());
}

#[test]
fn from_bytes_rejects_garbage() {
    assert!(LatencyHistogram::from_bytes(&[]).is_err());
    assert!(LatencyHistogram::from_bytes(&[1, 2, 3, 4, 5, 6, 7, 8]).is_err());
    assert!(LatencyHistogram::from_bytes(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).is_err());
}

#[test]
fn from_bytes_rejects_damaged_encodings() {
    let mut h = LatencyHistogram::new();
    for v in [1u64, 3, 3, 2_500, 300_000, 1 << 40, MAX_LATENCY_NS] {
        h.record(v);
    }
    h.record_n(77, u64::MAX / 3);
    let good = h.to_bytes();
    assert!(LatencyHistogram::from_bytes(&good).is_ok());
    // Every cut is detected: inside the header, inside a varint, between pairs.
    for len in 0..good.len() {
        assert!(
            LatencyHistogram::from_bytes(&good[..len]).is_err(),
            "cut at {len}"
        );
    }
    let with = |at: usize, byte: u8| {
        let mut b = good.clone();
        b[at] = byte;
        LatencyHistogram::from_bytes(&b)
    };
    assert!(with(0, b'x').is_err(), "magic");
    assert!(with(4, 2).is_err(), "version");
    assert!(with(5, good[5] + 1).is_err(), "one pair more than present");
    assert!(with(5, good[5] - 1).is_err(), "trailing pair");
    let mut trailing = good.clone();
    trailing.push(0);
    assert!(LatencyHistogram::from_bytes(&trailing).is_err());
    // A slot past the end, a zero count, a varint over 64 bits.
    let pair = |gap: u64, count: u64| {
        let mut b = MAGIC.to_vec();
        b.push(VERSION);
        b.extend_from_slice(&1u32.to_le_bytes());
        put_varint(&mut b, gap);
        put_varint(&mut b, count);
        b
    };
    assert!(LatencyHistogram::from_bytes(&pair(LEN as u64 - 1, 5)).is_ok());
    assert!(LatencyHistogram::from_bytes(&pair(LEN as u64, 5)).is_err());
    assert!(LatencyHistogram::from_bytes(&pair(u64::MAX, 5)).is_err());
    assert!(LatencyHistogram::from_bytes(&pair(3, 0)).is_err());
    let mut overlong = pair(3, 1);
    overlong.truncate(HEADER_LEN + 1);
    overlong.extend_from_slice(&[0xff; 9]);
    overlong.push(0x02);
    assert!(LatencyHistogram::from_bytes(&overlong).is_err());
    let mut too_many = MAGIC.to_vec();
    too_many.push(VERSION);
    too_many.extend_from_slice(&(LEN as u32 + 1).to_le_bytes());
    assert!(LatencyHistogram::from_bytes(&too_many).is_err());
}

#[test]
fn varints_round_trip() {
    for v in [
        0u64,
        1,
        127,
        128,
        16_383,
        16_384,
        u64::MAX / 2,
        u64::MAX - 1,
        u64::MAX,
    ] {
        let mut b = Vec::new();
        put_varint(&mut b, v);
        let mut s = &b[..];
        assert_eq!(take_varint(&mut s), Some(v));
        assert!(s.is_empty());
    }
}

#[test]
fn clone_and_debug() {
    let mut h = LatencyHistogram::new();
    h.record(5);
    h.record(10_000);
    let c = h.clone();
    h.record(7);
    assert_eq!(c.count(), 2);
    assert_eq!(
        format!("{c:?}"),
        "LatencyHistogram { count: 2, buckets: {5: 1, 10007: 1} }"
    );
}

#[test]
fn occupied_walk_covers_the_last_word() {
    let mut h = LatencyHistogram::new();
    h.record(u64::MAX);
    h.record(1);
    let slots: Vec<(usize, u64)> = h.occupied().collect();
    assert_eq!(slots, vec![(1, 1), (LEN - 1, 1)]);
    assert_eq!(h.max(), highest_value_at(LEN - 1));
}
