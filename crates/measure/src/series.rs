//! Bytes and operations per fixed-width time interval, for throughput-over-time plots and for
//! spotting stalls and stragglers that a single bandwidth figure hides.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most buckets a series holds. A record that would need bucket `MAX_POINTS` or later first
/// merges neighbouring buckets (2i and 2i+1 into i) and doubles the interval until it fits, so
/// a series always ends with between half the cap and the cap in use, whatever the phase's
/// length. 4096: at the usual 1 s interval a phase of up to 68 minutes keeps its full
/// resolution and a day-long one ends at 32 s intervals (2700 points), more points than a chart
/// has pixels; a rank's buckets are 64 KiB (allocated once, up front, so `record` never
/// allocates), on the wire as well; a phase adds at most about 4096 points to a result document.
/// A power of two, so the shift that fits an index is its bit length minus `MAX_POINTS_LOG2`.
const MAX_POINTS: usize = 1 << MAX_POINTS_LOG2;
const MAX_POINTS_LOG2: u32 = 12;
const MAGIC: &[u8; 4] = b"IGS1";
const HEADER_LEN: usize = 4 + 8 + 8 + 8;

/// Totals of one interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeriesBucket {
    pub bytes: u64,
    pub ops: u64,
}

/// A per-interval series; bucket i covers `[epoch + i*interval, epoch + (i+1)*interval)`.
#[derive(Clone, Debug)]
pub struct IntervalSeries {
    interval_ns: u64,
    epoch_ns: u64,
    buckets: Vec<SeriesBucket>,
    /// The bucket the last operation fell in and its time bounds: nearly every operation lands
    /// in the same bucket as the one before, so `record` compares instead of dividing.
    /// `cur_end == 0` means no current bucket (the buckets vector may then be empty).
    cur: usize,
    cur_start: u64,
    cur_end: u64,
}

impl PartialEq for IntervalSeries {
    fn eq(&self, other: &Self) -> bool {
        (self.interval_ns, self.epoch_ns, &self.buckets)
            == (other.interval_ns, other.epoch_ns, &other.buckets)
    }
}

/// One point of a [`SeriesSummary`]; `t_s` is the start of the interval relative to the epoch.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct SeriesPoint {
    pub t_s: f64,
    pub bytes: u64,
    pub ops: u64,
}

/// The serializable form that goes into results.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default, JsonSchema)]
pub struct SeriesSummary {
    pub interval_s: f64,
    pub buckets: Vec<SeriesPoint>,
}

impl IntervalSeries {
    /// The most buckets a series holds; see the module's `MAX_POINTS`.
    pub const MAX_POINTS: usize = MAX_POINTS;

    /// `interval_ns` of 0 is treated as 1. `epoch_ns` is on the [`crate::now_ns`] clock.
    /// Allocates the buckets (at most [`MAX_POINTS`](Self::MAX_POINTS)) up front.
    pub fn new(interval_ns: u64, epoch_ns: u64) -> Self {
        Self {
            interval_ns: interval_ns.max(1),
            epoch_ns,
            buckets: Vec::with_capacity(MAX_POINTS),
            cur: 0,
            cur_start: 0,
            cur_end: 0,
        }
    }

    /// Moves the epoch of an empty series, so a series can be allocated before a timed window
    /// and anchored once the window's start is known.
    pub fn set_epoch(&mut self, epoch_ns: u64) {
        debug_assert!(self.buckets.is_empty(), "set_epoch on a series with data");
        self.epoch_ns = epoch_ns;
        self.cur_end = 0;
    }

    /// Counts one operation of `bytes` at time `now_ns`. Times before the epoch count in bucket 0.
    #[inline]
    pub fn record(&mut self, now_ns: u64, bytes: u64) {
        if now_ns < self.cur_start || now_ns >= self.cur_end {
            self.enter(now_ns);
        }
        let b = &mut self.buckets[self.cur];
        b.bytes = b.bytes.wrapping_add(bytes);
        b.ops += 1;
    }

    /// Makes the bucket holding `now_ns` current (the slow path of `record`), first widening
    /// the intervals if that bucket would be past the cap.
    #[cold]
    fn enter(&mut self, now_ns: u64) {
        let idx = self.slot(now_ns);
        self.cur = idx;
        if now_ns < self.epoch_ns {
            // Bucket 0 also holds earlier times, so it has no simple bounds: stay on the slow path.
            self.cur_start = 0;
            self.cur_end = 0;
        } else {
            self.cur_start = self.epoch_ns + idx as u64 * self.interval_ns;
            // Saturated at the end of the clock: `u64::MAX` itself then takes the slow path.
            self.cur_end = self.cur_start.saturating_add(self.interval_ns);
        }
    }

    /// The index of the bucket holding `now_ns`, coarsening the series if needed so that the
    /// index is below the cap, and growing the buckets to include it.
    fn slot(&mut self, now_ns: u64) -> usize {
        let mut idx = self.index_of(now_ns);
        if idx >= MAX_POINTS as u64 {
            self.coarsen(shift_to_fit(idx));
            idx = self.index_of(now_ns);
        }
        let idx = idx as usize;
        if idx >= self.buckets.len() {
            self.grow(idx);
        }
        idx
    }

    /// The bucket index of `now_ns` at the current width, unbounded.
    #[inline]
    fn index_of(&self, now_ns: u64) -> u64 {
        now_ns.saturating_sub(self.epoch_ns) / self.interval_ns
    }

    /// Widens every interval by `2^shift`: buckets `i << shift` to `((i + 1) << shift) - 1`
    /// become bucket `i`, in place, so totals are kept and the epoch stays.
    #[cold]
    fn coarsen(&mut self, shift: u32) {
        if shift == 0 {
            return;
        }
        // Only ever called to fit an index below the cap, or to take the width of another
        // series, so the new width is a valid u64 (see `shift_to_fit`).
        self.interval_ns = self
            .interval_ns
            .checked_mul(1u64 << shift)
            .expect("coarsened interval fits in u64");
        let n = self.buckets.len();
        let kept = n.div_ceil(1 << shift);
        for i in 0..kept {
            // Reads start at i << shift >= i, so no bucket is read after it was overwritten.
            let lo = i << shift;
            let hi = ((i + 1) << shift).min(n);
            let sum = self.buckets[lo..hi]
                .iter()
                .fold(SeriesBucket::default(), add);
            self.buckets[i] = sum;
        }
        self.buckets.truncate(kept);
        // The current bucket's bounds are stale: the next record takes the slow path.
        self.cur = 0;
        self.cur_start = 0;
        self.cur_end = 0;
    }

    #[cold]
    fn grow(&mut self, idx: usize) {
        self.buckets.resize(idx + 1, SeriesBucket::default());
    }

    /// Adds `other` into `self`, keeping both totals exactly. The result has the coarser of the
    /// two widths when they differ by a power of two (`self` is coarsened first if `other` is
    /// the coarser), and in any case at most [`MAX_POINTS`](Self::MAX_POINTS) buckets. With the
    /// same epoch this equals recording both series' operations into one. With another epoch or
    /// width, each of `other`'s buckets is added to the bucket of `self` that holds its start.
    pub fn merge(&mut self, other: &IntervalSeries) {
        if other.interval_ns > self.interval_ns
            && other.interval_ns.is_multiple_of(self.interval_ns)
        {
            let ratio = other.interval_ns / self.interval_ns;
            if ratio.is_power_of_two() {
                self.coarsen(ratio.trailing_zeros());
            }
        }
        let same_width = self.interval_ns == other.interval_ns;
        if same_width && self.epoch_ns == other.epoch_ns && other.buckets.len() <= MAX_POINTS {
            if other.buckets.len() > self.buckets.len() {
                self.grow(other.buckets.len() - 1);
            }
            for (b, ob) in self.buckets.iter_mut().zip(&other.buckets) {
                *b = add(*b, ob);
            }
            return;
        }
        for (i, ob) in other.buckets.iter().enumerate() {
            if *ob == SeriesBucket::default() {
                continue;
            }
            let start = other
                .epoch_ns
                .saturating_add((i as u64).saturating_mul(other.interval_ns));
            let idx = self.slot(start);
            self.buckets[idx] = add(self.buckets[idx], ob);
        }
    }

    /// Buckets from the epoch to the last one touched.
    pub fn buckets(&self) -> &[SeriesBucket] {
        &self.buckets
    }

    pub fn interval_ns(&self) -> u64 {
        self.interval_ns
    }

    pub fn epoch_ns(&self) -> u64 {
        self.epoch_ns
    }

    /// Sum over all buckets.
    pub fn total(&self) -> SeriesBucket {
        self.buckets.iter().fold(SeriesBucket::default(), add)
    }

    /// Little-endian encoding: `"IGS1"`, interval_ns, epoch_ns, bucket count, then per bucket
    /// bytes and ops, all u64.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + 16 * self.buckets.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.interval_ns.to_le_bytes());
        out.extend_from_slice(&self.epoch_ns.to_le_bytes());
        out.extend_from_slice(&(self.buckets.len() as u64).to_le_bytes());
        for b in &self.buckets {
            out.extend_from_slice(&b.bytes.to_le_bytes());
            out.extend_from_slice(&b.ops.to_le_bytes());
        }
        out
    }

    /// Decodes [`to_bytes`](Self::to_bytes) output. A series of more than
    /// [`MAX_POINTS`](Self::MAX_POINTS) buckets (which this version never encodes) is coarsened
    /// to fit, as recording would have done.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let word = |at: usize| -> u64 {
            u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8-byte slice"))
        };
        if bytes.len() < HEADER_LEN || &bytes[..4] != MAGIC {
            return Err("cannot decode interval series: bad header".to_string());
        }
        let (interval_ns, epoch_ns, n) = (word(4), word(12), word(20));
        let body = bytes.len() - HEADER_LEN;
        if n.checked_mul(16) != Some(body as u64) {
            return Err(format!(
                "cannot decode interval series: {n} buckets announced, {body} bytes of body"
            ));
        }
        let mut s = Self::new(interval_ns, epoch_ns);
        let shift = n.checked_sub(1).map_or(0, shift_to_fit);
        if s.interval_ns.checked_mul(1u64 << shift).is_none() {
            return Err(format!(
                "cannot decode interval series: {n} buckets of {interval_ns} ns \
                 do not fit {MAX_POINTS} buckets within the u64 clock"
            ));
        }
        s.interval_ns <<= shift;
        s.buckets
            .resize((n as usize).div_ceil(1 << shift), SeriesBucket::default());
        for i in 0..n as usize {
            let at = HEADER_LEN + 16 * i;
            let b = &mut s.buckets[i >> shift];
            *b = add(
                *b,
                &SeriesBucket {
                    bytes: word(at),
                    ops: word(at + 8),
                },
            );
        }
        Ok(s)
    }

    /// Seconds-based points with trailing empty buckets trimmed.
    pub fn summary(&self) -> SeriesSummary {
        let interval_s = self.interval_ns as f64 / 1e9;
        let used = self
            .buckets
            .iter()
            .rposition(|b| b.ops != 0 || b.bytes != 0)
            .map_or(0, |i| i + 1);
        let buckets = self.buckets[..used]
            .iter()
            .enumerate()
            .map(|(i, b)| SeriesPoint {
                t_s: i as f64 * interval_s,
                bytes: b.bytes,
                ops: b.ops,
            })
            .collect();
        SeriesSummary {
            interval_s,
            buckets,
        }
    }
}

/// Wrapping sum of two buckets (wrapping as `record`'s byte count).
fn add(a: SeriesBucket, b: &SeriesBucket) -> SeriesBucket {
    SeriesBucket {
        bytes: a.bytes.wrapping_add(b.bytes),
        ops: a.ops.wrapping_add(b.ops),
    }
}

/// The least `shift` with `idx >> shift < MAX_POINTS`. When `idx >= MAX_POINTS` is an index at
/// width `w`, `w << shift` is at most `2 * idx * w / MAX_POINTS` (below 2^53), so it never
/// overflows.
fn shift_to_fit(idx: u64) -> u32 {
    (u64::BITS - idx.leading_zeros()).saturating_sub(MAX_POINTS_LOG2)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn records_into_intervals() {
        let mut s = IntervalSeries::new(10 * MS, 1_000 * MS);
        s.record(500 * MS, 1); // before the epoch
        s.record(1_000 * MS, 2);
        s.record(1_009 * MS, 4);
        s.record(1_010 * MS, 8);
        s.record(1_035 * MS, 16);
        let b = s.buckets();
        assert_eq!(b.len(), 4);
        assert_eq!(b[0], SeriesBucket { bytes: 7, ops: 3 });
        assert_eq!(b[1], SeriesBucket { bytes: 8, ops: 1 });
        assert_eq!(b[2], SeriesBucket::default());
        assert_eq!(b[3], SeriesBucket { bytes: 16, ops: 1 });
        assert_eq!(s.total(), SeriesBucket { bytes: 31, ops: 5 });
    }

    #[test]
    fn summary_trims_and_times() {
        let mut s = IntervalSeries::new(500 * MS, 0);
        s.record(600 * MS, 10);
        s.merge(&IntervalSeries::new(500 * MS, 0));
        let mut padded = s.clone();
        padded.grow(9);
        let sum = padded.summary();
        assert_eq!(sum, s.summary());
        assert_eq!(sum.interval_s, 0.5);
        assert_eq!(sum.buckets.len(), 2);
        assert_eq!(sum.buckets[1].t_s, 0.5);
        assert_eq!(sum.buckets[1].bytes, 10);
        assert!(IntervalSeries::new(MS, 0).summary().buckets.is_empty());
    }

    #[test]
    fn merge_with_other_interval_keeps_totals() {
        let mut a = IntervalSeries::new(10 * MS, 0);
        a.record(5 * MS, 1);
        let mut b = IntervalSeries::new(5 * MS, 0);
        b.record(2 * MS, 10);
        b.record(27 * MS, 100);
        a.merge(&b);
        assert_eq!(a.buckets()[0], SeriesBucket { bytes: 11, ops: 2 });
        assert_eq!(a.buckets()[2], SeriesBucket { bytes: 100, ops: 1 });
    }

    #[test]
    fn absurd_time_coarsens_instead_of_clamping() {
        let mut s = IntervalSeries::new(1, 0);
        s.record(3, 1);
        s.record(u64::MAX, 2);
        s.record(u64::MAX, 4);
        assert!(s.buckets().len() <= MAX_POINTS);
        assert_eq!(s.interval_ns(), 1 << (64 - MAX_POINTS_LOG2));
        assert_eq!(s.buckets()[0], SeriesBucket { bytes: 1, ops: 1 });
        assert_eq!(
            s.buckets()[MAX_POINTS - 1],
            SeriesBucket { bytes: 6, ops: 2 }
        );
        assert_eq!(s.total(), SeriesBucket { bytes: 7, ops: 3 });
    }

    /// A million one-second intervals (a long `-D` phase) end in at most MAX_POINTS buckets of
    /// a power-of-two number of seconds, each holding exactly the operations of its seconds.
    #[test]
    fn a_million_seconds_coarsen_to_the_cap() {
        const SEC: u64 = 1_000_000_000;
        const N: u64 = 1_000_000;
        let epoch = 7 * SEC + 5;
        let mut s = IntervalSeries::new(SEC, epoch);
        for i in 0..N {
            s.record(epoch + i * SEC + 123, 4096);
            assert!(s.buckets().len() <= MAX_POINTS);
        }
        assert_eq!(s.epoch_ns(), epoch);
        assert_eq!(
            s.total(),
            SeriesBucket {
                bytes: 4096 * N,
                ops: N
            }
        );
        let secs = s.interval_ns() / SEC;
        assert_eq!(s.interval_ns() % SEC, 0);
        assert!(secs.is_power_of_two(), "{secs} s");
        // The least width that fits: half of it would need more than MAX_POINTS buckets.
        assert!((N - 1) / (secs / 2) >= MAX_POINTS as u64);
        let b = s.buckets();
        assert_eq!(b.len() as u64, N.div_ceil(secs));
        for (i, bucket) in b.iter().enumerate() {
            let covered = secs.min(N - i as u64 * secs);
            assert_eq!(bucket.ops, covered, "bucket {i}");
            assert_eq!(bucket.bytes, 4096 * covered, "bucket {i}");
        }
        let sum = s.summary();
        assert_eq!(sum.interval_s, secs as f64);
        assert_eq!(sum.buckets.len(), b.len());
        assert_eq!(sum.buckets[3].t_s, 3.0 * secs as f64);
        // Recording goes on at the new width.
        s.record(epoch + N * SEC, 1);
        assert_eq!(s.total().ops, N + 1);
    }

    /// Rank 0 merges ranks that ran for different times: the one that ran long has coarsened.
    #[test]
    fn merging_fine_and_coarse_equals_recording_all() {
        const SEC: u64 = 1_000_000_000;
        let epoch = 1_000;
        let (mut long, mut short, mut all) = (
            IntervalSeries::new(SEC, epoch),
            IntervalSeries::new(SEC, epoch),
            IntervalSeries::new(SEC, epoch),
        );
        for i in 0..20_000u64 {
            let (t, n) = (epoch + i * SEC + i % 7, i % 5 + 1);
            long.record(t, n);
            all.record(t, n);
        }
        for i in 0..300u64 {
            let (t, n) = (epoch + i * (SEC / 3), 1000 + i);
            short.record(t, n);
            all.record(t, n);
        }
        short.record(epoch - 1, 9); // before the epoch: bucket 0
        all.record(epoch - 1, 9);
        assert!(long.interval_ns() > short.interval_ns());

        let mut fine_into_coarse = long.clone();
        fine_into_coarse.merge(&short);
        let mut coarse_into_fine = short.clone();
        coarse_into_fine.merge(&long);
        for merged in [&fine_into_coarse, &coarse_into_fine] {
            assert_eq!(merged.interval_ns(), long.interval_ns());
            assert_eq!(merged.total(), all.total());
            assert_eq!(*merged, all);
            assert_eq!(merged.summary(), all.summary());
        }
    }

    /// Series created with widths a power of two apart merge at the coarser width.
    #[test]
    fn merge_takes_the_coarser_power_of_two_width() {
        let mut fine = IntervalSeries::new(MS, 0);
        let mut coarse = IntervalSeries::new(4 * MS, 0);
        fine.record(5 * MS, 1);
        fine.record(9 * MS, 2);
        coarse.record(6 * MS, 4);
        let mut a = fine.clone();
        a.merge(&coarse);
        let mut b = coarse.clone();
        b.merge(&fine);
        assert_eq!(a, b);
        assert_eq!(a.interval_ns(), 4 * MS);
        assert_eq!(
            a.buckets(),
            [
                SeriesBucket::default(),
                SeriesBucket { bytes: 5, ops: 2 },
                SeriesBucket { bytes: 2, ops: 1 }
            ]
        );
        // The merged series records on at its width.
        a.record(13 * MS, 8);
        assert_eq!(a.buckets()[3], SeriesBucket { bytes: 8, ops: 1 });
    }

    #[test]
    fn decoding_an_oversized_series_coarsens_it() {
        let n = MAX_POINTS as u64 + 5;
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        for w in [1u64, 0, n] {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        for i in 0..n {
            bytes.extend_from_slice(&i.to_le_bytes());
            bytes.extend_from_slice(&1u64.to_le_bytes());
        }
        let s = IntervalSeries::from_bytes(&bytes).unwrap();
        assert_eq!(s.interval_ns(), 2);
        assert_eq!(s.buckets().len(), (n as usize).div_ceil(2));
        assert_eq!(s.buckets()[0], SeriesBucket { bytes: 1, ops: 2 });
        assert_eq!(
            s.total(),
            SeriesBucket {
                bytes: n * (n - 1) / 2,
                ops: n
            }
        );
        // Too wide to coarsen within the clock.
        bytes[4..12].copy_from_slice(&(1u64 << 63).to_le_bytes());
        assert!(IntervalSeries::from_bytes(&bytes).is_err());
    }

    /// Buckets by plain division at `width`.
    fn direct(width: u64, epoch: u64, ops: &[(u64, u64)]) -> Vec<SeriesBucket> {
        let mut out = Vec::new();
        for &(t, n) in ops {
            let idx = (t.saturating_sub(epoch) / width) as usize;
            if idx >= out.len() {
                out.resize(idx + 1, SeriesBucket::default());
            }
            out[idx] = add(out[idx], &SeriesBucket { bytes: n, ops: 1 });
        }
        out
    }

    /// Operations at random times up to one of several spans (so that series of one test
    /// coarsen to different widths), the end of the clock included; or, as a run makes them,
    /// many operations at rising times, which fill every bucket when the series coarsens.
    fn times() -> impl Strategy<Value = Vec<(u64, u64)>> {
        let scattered = prop_oneof![
            Just(100_000u64),
            Just(10_000_000),
            Just(1 << 40),
            Just(u64::MAX)
        ]
        .prop_flat_map(|span| {
            let t = prop_oneof![0..=span, Just(span)];
            prop::collection::vec((t, 0u64..1 << 30), 0..400)
        });
        let rising = (0u64..2_000_000, 1u64..5_000, 0usize..20_000).prop_map(|(t0, step, n)| {
            (0..n as u64)
                .map(|i| (t0 + i * step + i * i % step, i % 4096))
                .collect()
        });
        prop_oneof![scattered, rising]
    }

    use proptest::prelude::*;

    proptest! {
        /// Recording with coarsening equals bucketing every operation directly at the final
        /// width, which is the initial one times the least power of two that fits the cap.
        #[test]
        fn coarsened_equals_direct_bucketing(
            interval in 1u64..5_000,
            epoch in 0u64..1_000_000,
            ops in times(),
        ) {
            let mut s = IntervalSeries::new(interval, epoch);
            for &(t, n) in &ops {
                s.record(t, n);
            }
            let w = s.interval_ns();
            prop_assert!(w.is_multiple_of(interval) && (w / interval).is_power_of_two());
            prop_assert!(s.buckets().len() <= MAX_POINTS);
            if w > interval {
                let finer = direct(w / 2, epoch, &ops);
                prop_assert!(finer.len() > MAX_POINTS);
            }
            prop_assert_eq!(s.buckets(), &direct(w, epoch, &ops)[..]);
            prop_assert_eq!(s.epoch_ns(), epoch);
            let back = IntervalSeries::from_bytes(&s.to_bytes()).unwrap();
            prop_assert_eq!(back, s);
        }

        /// Merging series of widths a power of two apart (same epoch) equals direct bucketing
        /// of all operations at the merged width, which is the coarser one.
        #[test]
        fn merge_equals_direct_bucketing(
            interval in 1u64..5_000,
            epoch in 0u64..1_000_000,
            (sa, sb) in (0u32..4, 0u32..4),
            a in times(),
            b in times(),
        ) {
            let mut x = IntervalSeries::new(interval << sa, epoch);
            let mut y = IntervalSeries::new(interval << sb, epoch);
            a.iter().for_each(|&(t, n)| x.record(t, n));
            b.iter().for_each(|&(t, n)| y.record(t, n));
            let width = x.interval_ns().max(y.interval_ns());
            let all: Vec<(u64, u64)> = a.iter().chain(&b).copied().collect();
            let mut xy = x.clone();
            xy.merge(&y);
            y.merge(&x);
            for m in [&xy, &y] {
                prop_assert_eq!(m.interval_ns(), width);
                prop_assert_eq!(m.buckets(), &direct(width, epoch, &all)[..]);
            }
        }
    }

    #[test]
    fn bytes_round_trip_and_errors() {
        let mut s = IntervalSeries::new(MS, 42);
        s.record(42 + 3 * MS, 4096);
        let back = IntervalSeries::from_bytes(&s.to_bytes()).unwrap();
        assert_eq!(back, s);
        let bytes = s.to_bytes();
        assert!(IntervalSeries::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(IntervalSeries::from_bytes(b"nope").is_err());
    }
}
