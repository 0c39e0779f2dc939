//! The bucket layout that [`LatencyHistogram`](crate::LatencyHistogram) and
//! [`AtomicHistogram`](crate::AtomicHistogram) share: HdrHistogram's, for 1 ns ..
//! [`MAX_LATENCY_NS`] at 3 significant digits, as integer arithmetic on a fixed array index.
//!
//! A value lands in bucket `b` (it has `b` more significant bits than the values below
//! `SUB_BUCKET_COUNT`) and sub-bucket `value >> b`; the flat array index is `(b << 10) + sub`.
//! Every slot covers `1 << b` consecutive values. The tests check every slot against the
//! hdrhistogram crate configured as iogauge always configured it.

/// Largest latency kept apart: one hour in ns. Longer operations are counted as exactly this.
pub const MAX_LATENCY_NS: u64 = 3_600_000_000_000;
/// Smallest latency kept apart: 1 ns. 0 is counted as this (a clock that did not advance).
pub(crate) const LOWEST_NS: u64 = 1;
/// Significant decimal digits kept for every latency.
pub(crate) const SIGFIG: u8 = 3;

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
pub(crate) const SUB_BUCKET_COUNT: usize = 1 << SUB_BUCKET_COUNT_MAGNITUDE;
/// The bits of a value that bucket 0 covers; or-ing it in maps small values to bucket 0.
const SUB_BUCKET_MASK: u64 = ((SUB_BUCKET_COUNT as u64) - 1) << UNIT_MAGNITUDE;
/// Leading zeros of the largest value in bucket 0; fewer zeros means a higher bucket.
const LEADING_ZERO_COUNT_BASE: u32 = 64 - UNIT_MAGNITUDE - SUB_BUCKET_COUNT_MAGNITUDE;
/// Slots up to the one holding [`MAX_LATENCY_NS`]: every recorder clamps, so no index is higher.
/// (hdrhistogram allocates the rest of that bucket's half too; those slots stay empty there.)
pub(crate) const LEN: usize = index_of(MAX_LATENCY_NS) + 1;
/// 64-bit words of a bitmap with one bit per slot.
pub(crate) const WORDS: usize = LEN.div_ceil(64);

/// hdrhistogram's `index_for` for our bounds: bucket b > 0 holds values with `b` more significant
/// bits than bucket 0 and uses the upper half of its sub-buckets, so the index is
/// `((b + 1) << half) + (sub - half_count)`, which is `(b << half) + sub` without the negative
/// intermediate. `value` must already be clamped to `LOWEST_NS..=MAX_LATENCY_NS`.
#[inline(always)]
pub(crate) const fn index_of(value: u64) -> usize {
    let bucket = LEADING_ZERO_COUNT_BASE - (value | SUB_BUCKET_MASK).leading_zeros();
    let sub_bucket = (value >> (bucket + UNIT_MAGNITUDE)) as usize;
    ((bucket as usize) << SUB_BUCKET_HALF_COUNT_MAGNITUDE) + sub_bucket
}

/// [`index_of`] of a latency as recorders take it: 0 counts as 1 ns and anything above
/// [`MAX_LATENCY_NS`] as that, so the index is always below [`LEN`].
#[inline(always)]
pub(crate) fn index_of_latency(ns: u64) -> usize {
    index_of(ns.clamp(LOWEST_NS, MAX_LATENCY_NS))
}

/// The bucket of slot `index`: the slot covers `1 << bucket` values. Slots below
/// `SUB_BUCKET_COUNT` are bucket 0; above, `index >> half` is the bucket plus one.
#[inline(always)]
const fn bucket_at(index: usize) -> u32 {
    (index >> SUB_BUCKET_HALF_COUNT_MAGNITUDE).saturating_sub(1) as u32
}

/// The lowest value that falls in slot `index` (hdrhistogram's `value_for`, which is also its
/// `lowest_equivalent` of any value in the slot).
#[inline(always)]
pub(crate) const fn lowest_value_at(index: usize) -> u64 {
    let bucket = bucket_at(index);
    let sub_bucket = index - ((bucket as usize) << SUB_BUCKET_HALF_COUNT_MAGNITUDE);
    (sub_bucket as u64) << (bucket + UNIT_MAGNITUDE)
}

/// How many values slot `index` covers (hdrhistogram's `equivalent_range`).
#[inline(always)]
const fn range_at(index: usize) -> u64 {
    1 << (bucket_at(index) + UNIT_MAGNITUDE)
}

/// The highest value that falls in slot `index` (hdrhistogram's `highest_equivalent`: below
/// [`MAX_LATENCY_NS`]'s bucket end, so neither its `u64::MAX` case nor its saturation applies).
#[inline(always)]
pub(crate) const fn highest_value_at(index: usize) -> u64 {
    lowest_value_at(index) + range_at(index) - 1
}

/// The middle of slot `index`, rounded up (hdrhistogram's `median_equivalent`), which its mean
/// and standard deviation take as every recorded value's.
#[inline(always)]
pub(crate) const fn median_value_at(index: usize) -> u64 {
    lowest_value_at(index) + (range_at(index) >> 1)
}

/// [`median_value_at`] of the slot whose highest value is `highest` (a [`highest_value_at`]):
/// the slot covers `1 << bucket` values ending at `highest`, and its median is half of them above
/// its lowest value.
#[inline(always)]
pub(crate) const fn median_of_highest(highest: u64) -> u64 {
    let bucket = LEADING_ZERO_COUNT_BASE - (highest | SUB_BUCKET_MASK).leading_zeros();
    let range = 1u64 << (bucket + UNIT_MAGNITUDE);
    highest + 1 - range + (range >> 1)
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
        assert_eq!(LEN, 33_421);
        assert_eq!(WORDS, 523);
        assert!(
            LEN <= h.distinct_values(),
            "{LEN} > {}",
            h.distinct_values()
        );
        // The last slot we keep holds the clamp value and nothing above it is recorded.
        assert_eq!(index_of(MAX_LATENCY_NS), LEN - 1);
        assert_eq!(index_of_latency(u64::MAX), LEN - 1);
        assert_eq!(index_of_latency(0), index_of(1));
        assert_eq!(
            lowest_value_at(LEN - 1),
            h.lowest_equivalent(MAX_LATENCY_NS)
        );
        assert_eq!(
            highest_value_at(LEN - 1),
            h.highest_equivalent(MAX_LATENCY_NS)
        );
    }

    /// Walks every slot hdrhistogram has, in index order: our index of its lowest and highest
    /// value is that position, and our lowest, highest and median values of the position are
    /// hdrhistogram's.
    #[test]
    fn every_slot_matches_hdrhistogram() {
        let h = reference();
        let mut seen = 0;
        for (i, v) in h.iter_all().enumerate().take(LEN) {
            let high = v.value_iterated_to();
            let low = h.lowest_equivalent(high);
            assert_eq!(index_of(high), i, "highest value {high}");
            assert_eq!(index_of(low), i, "lowest value {low}");
            assert_eq!(lowest_value_at(i), low, "slot {i}");
            assert_eq!(highest_value_at(i), high, "slot {i}");
            assert_eq!(h.highest_equivalent(lowest_value_at(i)), high);
            assert_eq!(median_value_at(i), h.median_equivalent(high), "slot {i}");
            assert_eq!(median_value_at(i), h.median_equivalent(low), "slot {i}");
            assert_eq!(median_of_highest(high), median_value_at(i), "slot {i}");
            seen += 1;
        }
        assert_eq!(seen, LEN);
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
}
