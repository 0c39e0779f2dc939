//! Bytes and operations per fixed-width time interval, for throughput-over-time plots and for
//! spotting stalls and stragglers that a single bandwidth figure hides.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Buckets allocated up front: an hour at the usual 1 s interval, so `record` does not allocate.
const PREALLOCATED: usize = 3600;
/// Hard cap (64 MiB of buckets) so a bogus timestamp cannot exhaust memory; later times land in
/// the last bucket.
const MAX_BUCKETS: usize = 1 << 22;
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
    /// `interval_ns` of 0 is treated as 1. `epoch_ns` is on the [`crate::now_ns`] clock.
    pub fn new(interval_ns: u64, epoch_ns: u64) -> Self {
        Self {
            interval_ns: interval_ns.max(1),
            epoch_ns,
            buckets: Vec::with_capacity(PREALLOCATED),
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

    /// Makes the bucket holding `now_ns` current (the slow path of `record`).
    #[cold]
    fn enter(&mut self, now_ns: u64) {
        let idx = self.index_of(now_ns);
        if idx >= self.buckets.len() {
            self.grow(idx);
        }
        self.cur = idx;
        if now_ns < self.epoch_ns || idx == MAX_BUCKETS - 1 {
            // Clamped buckets have no simple bounds: stay on the slow path.
            self.cur_start = 0;
            self.cur_end = 0;
        } else {
            self.cur_start = self.epoch_ns + idx as u64 * self.interval_ns;
            self.cur_end = self.cur_start.saturating_add(self.interval_ns);
        }
    }

    #[inline]
    fn index_of(&self, now_ns: u64) -> usize {
        let idx = now_ns.saturating_sub(self.epoch_ns) / self.interval_ns;
        idx.min(MAX_BUCKETS as u64 - 1) as usize
    }

    #[cold]
    fn grow(&mut self, idx: usize) {
        self.buckets.resize(idx + 1, SeriesBucket::default());
    }

    /// Adds `other` into `self`. With equal interval and epoch this is a bucket-wise sum; otherwise
    /// each of `other`'s buckets is added to the bucket of `self` that holds its start time, so
    /// totals are always preserved.
    pub fn merge(&mut self, other: &IntervalSeries) {
        let aligned = self.interval_ns == other.interval_ns && self.epoch_ns == other.epoch_ns;
        for (i, ob) in other.buckets.iter().enumerate() {
            let idx = if aligned {
                i
            } else {
                let start = other
                    .epoch_ns
                    .saturating_add((i as u64).saturating_mul(other.interval_ns));
                self.index_of(start)
            };
            if idx >= self.buckets.len() {
                self.grow(idx);
            }
            let b = &mut self.buckets[idx];
            b.bytes = b.bytes.wrapping_add(ob.bytes);
            b.ops = b.ops.wrapping_add(ob.ops);
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
        self.buckets
            .iter()
            .fold(SeriesBucket::default(), |a, b| SeriesBucket {
                bytes: a.bytes.wrapping_add(b.bytes),
                ops: a.ops.wrapping_add(b.ops),
            })
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

    /// Decodes [`to_bytes`](Self::to_bytes) output.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let word = |at: usize| -> u64 {
            u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8-byte slice"))
        };
        if bytes.len() < HEADER_LEN || &bytes[..4] != MAGIC {
            return Err("cannot decode interval series: bad header".to_string());
        }
        let (interval_ns, epoch_ns, n) = (word(4), word(12), word(20));
        let body = bytes.len() - HEADER_LEN;
        if n > MAX_BUCKETS as u64 || body as u64 != n * 16 {
            return Err(format!(
                "cannot decode interval series: {n} buckets announced, {body} bytes of body"
            ));
        }
        let mut s = Self::new(interval_ns, epoch_ns);
        s.buckets = (0..n as usize)
            .map(|i| {
                let at = HEADER_LEN + 16 * i;
                SeriesBucket {
                    bytes: word(at),
                    ops: word(at + 8),
                }
            })
            .collect();
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
    fn absurd_time_is_capped() {
        let mut s = IntervalSeries::new(1, 0);
        s.record(u64::MAX, 1);
        assert_eq!(s.buckets().len(), MAX_BUCKETS);
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
