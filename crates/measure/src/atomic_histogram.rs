//! A latency histogram that one thread writes and any thread may read while it is written.
//!
//! The bucket layout is exactly [`LatencyHistogram`]'s (HdrHistogram, 1 ns .. [`MAX_LATENCY_NS`],
//! 3 significant digits), so [`AtomicHistogram::snapshot`] converts without losing anything: its
//! summary equals, bit for bit, the summary of a `LatencyHistogram` that recorded the same
//! values. The counts are plain `AtomicU64`s allocated (and touched) once in `new`; `record` is
//! an index computation and a Relaxed load + store, with no locked read-modify-write, because
//! each histogram has a single writer (the rank that owns it).
//!
//! If two threads did record into the same histogram, increments that race would be lost (each
//! writes back its own load + 1), so counts could only come out low; it is never undefined
//! behaviour, since every access is atomic.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::histogram::{LatencyHistogram, LOWEST_NS, MAX_LATENCY_NS, SIGFIG};

// The layout constants, derived from the bounds the way `hdrhistogram::Histogram::new_with_bounds`
// derives them (there with floating-point logarithms; these integer forms are equal for every
// bound and sigfig the crate accepts).

/// log2 of the smallest discernible unit: values are kept in multiples of `1 << UNIT_MAGNITUDE`.
const UNIT_MAGNITUDE: u32 = LOWEST_NS.ilog2();
/// Values up to `2 * 10^SIGFIG` units keep single-unit resolution.
const LARGEST_SINGLE_UNIT: u32 = 2 * 10u32.pow(SIGFIG as u32);
/// log2 of the sub-buckets per bucket: `ceil(log2(LARGEST_SINGLE_UNIT))`.
const SUB_BUCKET_COUNT_MAGNITUDE: u32 = LARGEST_SINGLE_UNIT.next_power_of_two().ilog2();
const SUB_BUCKET_HALF_COUNT_MAGNITUDE: u32 = SUB_BUCKET_COUNT_MAGNITUDE - 1;
const SUB_BUCKET_COUNT: usize = 1 << SUB_BUCKET_COUNT_MAGNITUDE;
/// The bits of a value that bucket 0 covers; or-ing it in maps small values to bucket 0.
const SUB_BUCKET_MASK: u64 = ((SUB_BUCKET_COUNT as u64) - 1) << UNIT_MAGNITUDE;
/// Leading zeros of the largest value in bucket 0; fewer zeros means a higher bucket.
const LEADING_ZERO_COUNT_BASE: u32 = 64 - UNIT_MAGNITUDE - SUB_BUCKET_COUNT_MAGNITUDE;
/// Buckets up to the one holding [`MAX_LATENCY_NS`]: `record` clamps, so no index is higher.
/// (hdrhistogram allocates the rest of that bucket's half too; those slots stay empty there.)
pub(crate) const LEN: usize = index_of(MAX_LATENCY_NS) + 1;

/// hdrhistogram's `index_for` for our bounds: bucket b > 0 holds values with `b` more significant
/// bits than bucket 0 and uses the upper half of its sub-buckets, so the index is
/// `((b + 1) << half) + (sub - half_count)`, which is `(b << half) + sub` without the negative
/// intermediate. `value` must already be clamped to the range.
#[inline(always)]
const fn index_of(value: u64) -> usize {
    let bucket = LEADING_ZERO_COUNT_BASE - (value | SUB_BUCKET_MASK).leading_zeros();
    let sub_bucket = (value >> (bucket + UNIT_MAGNITUDE)) as usize;
    ((bucket as usize) << SUB_BUCKET_HALF_COUNT_MAGNITUDE) + sub_bucket
}

/// The lowest value that falls in bucket `index` (hdrhistogram's `value_for`).
const fn lowest_value_at(index: usize) -> u64 {
    let (bucket, sub_bucket) = if index < SUB_BUCKET_COUNT {
        (0, index)
    } else {
        let bucket = (index >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1;
        (bucket, index - (bucket << SUB_BUCKET_HALF_COUNT_MAGNITUDE))
    };
    (sub_bucket as u64) << (bucket as u32 + UNIT_MAGNITUDE)
}

/// Latencies in nanoseconds, one writer, readers on any thread at any time.
pub struct AtomicHistogram {
    /// A fixed-size array: the pointer is thin and the bounds check compares with a constant.
    counts: Box<[AtomicU64; LEN]>,
}

impl AtomicHistogram {
    /// An empty histogram. Allocates its counts (about 260 KiB) and writes every one of them, so
    /// no page fault is left for the first `record`s inside a timed window.
    pub fn new() -> Self {
        let counts: Box<[AtomicU64]> = (0..LEN).map(|_| AtomicU64::new(0)).collect();
        let counts: Box<[AtomicU64; LEN]> = counts.try_into().expect("collected LEN counts");
        let h = Self { counts };
        // The allocator may hand out lazily zeroed pages and the compiler may turn the zeroing
        // above into such an allocation; atomic stores are never elided, so these touch memory.
        h.reset();
        h
    }

    /// Records one latency. 0 counts as 1 ns and values above [`MAX_LATENCY_NS`] as that, as in
    /// [`LatencyHistogram::record`]. Never allocates, locks or panics. For the single writer only;
    /// see the module docs for what concurrent writers would do.
    #[inline]
    pub fn record(&self, ns: u64) {
        let c = &self.counts[index_of(ns.clamp(LOWEST_NS, MAX_LATENCY_NS))];
        // A load and a store, not fetch_add: the only writer needs no locked instruction.
        c.store(c.load(Relaxed).wrapping_add(1), Relaxed);
    }

    /// Number of recorded latencies. Sums every bucket: for readers, not the hot path.
    pub fn count(&self) -> u64 {
        self.counts
            .iter()
            .fold(0u64, |sum, c| sum.wrapping_add(c.load(Relaxed)))
    }

    /// True when no latency is recorded (scans the buckets).
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|c| c.load(Relaxed) == 0)
    }

    /// Empties the histogram. Counts recorded concurrently with a reset may survive it.
    pub fn reset(&self) {
        for c in self.counts.iter() {
            c.store(0, Relaxed);
        }
    }

    /// Adds every count to `into`, each at a value inside its bucket, which is all a
    /// `LatencyHistogram` keeps of a value. Taken while the writer records, the result holds
    /// each bucket as it was at the moment it was read.
    pub fn add_to(&self, into: &mut LatencyHistogram) {
        for (i, c) in self.counts.iter().enumerate() {
            let n = c.load(Relaxed);
            if n != 0 {
                into.record_n(lowest_value_at(i), n);
            }
        }
    }

    /// The counts as a [`LatencyHistogram`] (allocates one).
    pub fn snapshot(&self) -> LatencyHistogram {
        let mut h = LatencyHistogram::new();
        self.add_to(&mut h);
        h
    }
}

impl Default for AtomicHistogram {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for AtomicHistogram {
    // The counts array is too long to print; the total says what matters.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AtomicHistogram")
            .field("count", &self.count())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hdrhistogram::Histogram;

    fn reference() -> Histogram<u64> {
        Histogram::new_with_bounds(LOWEST_NS, MAX_LATENCY_NS, SIGFIG).unwrap()
    }

    #[test]
    fn constants_match_hdrhistogram() {
        let h = reference();
        assert_eq!(UNIT_MAGNITUDE, 0);
        assert_eq!(SUB_BUCKET_COUNT, 2048);
        assert!(
            LEN <= h.distinct_values(),
            "{LEN} > {}",
            h.distinct_values()
        );
        // The last bucket we keep holds the clamp value and nothing above it is recorded.
        assert_eq!(index_of(MAX_LATENCY_NS), LEN - 1);
        assert_eq!(
            lowest_value_at(LEN - 1),
            h.lowest_equivalent(MAX_LATENCY_NS)
        );
    }

    /// Walks every bucket hdrhistogram has, in index order: our index of its lowest and highest
    /// value is that position, and our lowest value of the position is hdrhistogram's.
    #[test]
    fn every_bucket_matches_hdrhistogram() {
        let h = reference();
        for (i, v) in h.iter_all().enumerate().take(LEN) {
            let high = v.value_iterated_to();
            let low = h.lowest_equivalent(high);
            assert_eq!(index_of(high), i, "highest value {high}");
            assert_eq!(index_of(low), i, "lowest value {low}");
            assert_eq!(lowest_value_at(i), low, "bucket {i}");
            assert_eq!(h.highest_equivalent(lowest_value_at(i)), high);
        }
    }

    #[test]
    fn index_is_monotone_at_power_of_two_edges() {
        for shift in 0..=41 {
            let p = 1u64 << shift;
            for v in [p - 1, p, p + 1] {
                let v = v.clamp(LOWEST_NS, MAX_LATENCY_NS);
                let w = (v + 1).min(MAX_LATENCY_NS);
                assert!(index_of(v) <= index_of(w));
                assert!(index_of(w) <= index_of(v) + 1);
            }
        }
    }

    #[test]
    fn records_clamp_and_reset() {
        let h = AtomicHistogram::new();
        assert!(h.is_empty());
        h.record(0);
        h.record(1);
        h.record(u64::MAX);
        h.record(MAX_LATENCY_NS);
        assert_eq!(h.count(), 4);
        let s = h.snapshot();
        assert_eq!(s.count(), 4);
        assert_eq!(s.min(), 1);
        assert_eq!(s.max(), reference().highest_equivalent(MAX_LATENCY_NS));
        h.reset();
        assert!(h.is_empty());
        assert_eq!(h.count(), 0);
        assert!(h.snapshot().is_empty());
        assert_eq!(format!("{h:?}"), "AtomicHistogram { count: 0 }");
    }

    #[test]
    fn add_to_accumulates() {
        let (a, b) = (AtomicHistogram::new(), AtomicHistogram::new());
        let mut direct = LatencyHistogram::new();
        for v in [3u64, 3, 4_000, 77_777_777] {
            a.record(v);
            direct.record(v);
        }
        b.record(12);
        direct.record(12);
        let mut sum = a.snapshot();
        b.add_to(&mut sum);
        assert_eq!(sum.summary(), direct.summary());
    }
}
