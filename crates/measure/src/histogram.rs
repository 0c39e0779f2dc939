//! Per-operation latency histogram: HdrHistogram's layout for 1 ns .. 1 h at 3 significant digits,
//! as a fixed array of counts.
//!
//! Fixed range and no resizing, so `record` never allocates; every rank's histogram has the same
//! layout, which makes merging exact and the encoded form comparable between ranks.
//!
//! # Same figures as HdrHistogram, at a cost that does not grow with the latencies
//!
//! iogauge used to keep an `hdrhistogram::Histogram` here. Every walk over one (its mean, standard
//! deviation, quantiles, iterators, encoding and `add`) costs about a hundred instructions per
//! slot up to the largest latency's, so the work at the end of a phase grew with the slowest
//! operation and a phase with a 6 ms outlier cost a few hundred thousand instructions more than one
//! with a 2 ms outlier. This histogram keeps the counts in the same slots (see `layout.rs`)
//! plus a bitmap of the occupied ones, so every walk visits the 523 bitmap words and then only the
//! occupied slots; merging adds only the other histogram's occupied slots.
//!
//! Every figure is HdrHistogram's, bit for bit, floats included: `min`, `max`, `value_at_quantile`
//! and the summary's buckets are the same slot bounds, and `mean` and `stddev` repeat its
//! floating-point operations in its order (a sum over the occupied slots in value order of
//! `median * count / total`, then of `(median - mean)^2 * count`). `tests/hdr_equivalence.rs`
//! checks that against the hdrhistogram crate configured as this module used to configure it.
//! (Only when the total count exceeds `u64::MAX`, which no run gets near, could the quantiles
//! differ: hdrhistogram's running sums then wrap, these saturate.)

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::layout::{
    highest_value_at, index_of_latency, lowest_value_at, median_of_highest, median_value_at, LEN,
    WORDS,
};

pub use crate::layout::MAX_LATENCY_NS;
/// Percentiles reported by [`LatencyHistogram::summary`].
pub const SUMMARY_PERCENTILES: [f64; 5] = [50.0, 90.0, 99.0, 99.9, 99.99];

/// Start of every [`LatencyHistogram::to_bytes`] encoding: "iogauge latency histogram".
const MAGIC: [u8; 4] = *b"iglh";
/// Version of the encoding after the magic.
const VERSION: u8 = 1;
/// Magic, version and the number of occupied slots (u32, little-endian).
const HEADER_LEN: usize = MAGIC.len() + 1 + 4;

/// Latencies in nanoseconds.
pub struct LatencyHistogram {
    /// Count per slot of the shared layout.
    counts: Box<[u64; LEN]>,
    /// Bit `i % 64` of word `i / 64` is set exactly when `counts[i] != 0`.
    occupied: Box<[u64; WORDS]>,
    /// Number of recorded latencies (saturating, like every count).
    total: u64,
}

/// One reported percentile: `p` in percent, `value` in ns.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct Percentile {
    pub p: f64,
    pub value: u64,
}

/// One occupied histogram bucket: `value` is the highest latency (ns) equivalent to the bucket.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct Bucket {
    pub value: u64,
    pub count: u64,
}

/// The serializable digest of a histogram that goes into results.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
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
    /// The summary of an empty histogram, without building one.
    fn default() -> Self {
        HistogramSummary {
            unit: "ns".to_string(),
            count: 0,
            min: 0,
            max: 0,
            mean: 0.0,
            stddev: 0.0,
            percentiles: SUMMARY_PERCENTILES
                .iter()
                .map(|&p| Percentile { p, value: 0 })
                .collect(),
            buckets: Vec::new(),
        }
    }
}

/// A zeroed boxed array, allocated zeroed (no array on the stack, no separate zeroing pass where
/// the allocator hands out fresh pages).
fn zeroed<const N: usize>() -> Box<[u64; N]> {
    vec![0u64; N]
        .into_boxed_slice()
        .try_into()
        .expect("a vec of N elements")
}

/// A copy of a boxed array, without an array on the stack.
fn copied<const N: usize>(a: &[u64; N]) -> Box<[u64; N]> {
    a.to_vec()
        .into_boxed_slice()
        .try_into()
        .expect("a copy of N elements")
}

/// The occupied slots and their counts, in slot (that is, value) order.
struct Occupied<'a> {
    counts: &'a [u64; LEN],
    words: &'a [u64; WORDS],
    /// Index of the word `bits` came from.
    word: usize,
    /// The bits of that word not yet yielded.
    bits: u64,
}

impl Iterator for Occupied<'_> {
    type Item = (usize, u64);

    #[inline]
    fn next(&mut self) -> Option<(usize, u64)> {
        while self.bits == 0 {
            self.word += 1;
            self.bits = *self.words.get(self.word)?;
        }
        let index = self.word * 64 + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some((index, self.counts[index]))
    }
}

/// hdrhistogram's `value_at_quantile` over `slots` (the occupied slots in order, holding `total`
/// counts): the first slot at which the running count reaches `ceil(q * total)` (at least 1),
/// reported as its highest value, or its lowest for `q == 0`; 0 if the counts never reach it.
fn quantile_of(total: u64, q: f64, slots: impl Iterator<Item = (usize, u64)>) -> u64 {
    let (target, lowest) = quantile_target(total, q);
    let mut running = 0u64;
    for (index, count) in slots {
        running = running.saturating_add(count);
        if running >= target {
            return slot_value(index, lowest);
        }
    }
    0
}

/// The running count `value_at_quantile(q)` looks for, and whether it reports a slot's lowest
/// value (`q == 0`) rather than its highest: hdrhistogram's arithmetic, step by step.
#[inline]
fn quantile_target(total: u64, q: f64) -> (u64, bool) {
    let q = if q > 1.0 { 1.0 } else { q };
    let fractional_count = q * total as f64;
    let target = (fractional_count.ceil() as u64).max(1);
    (target, q == 0.0)
}

#[inline]
fn slot_value(index: usize, lowest: bool) -> u64 {
    if lowest {
        lowest_value_at(index)
    } else {
        highest_value_at(index)
    }
}

/// The quantile argument as the accessors take it: NaN as 0, then clamped to [0, 1].
#[inline]
fn clamp_quantile(q: f64) -> f64 {
    if q.is_nan() {
        0.0
    } else {
        q.clamp(0.0, 1.0)
    }
}

/// hdrhistogram's `mean` and `stdev` (which computes the mean the same way first), term by term:
/// `terms()` lists each occupied slot's median (the value hdrhistogram takes for all of the slot's
/// counts) and count, in value order; the slots hold `total` counts.
///
/// `mean = fold(0, |sum| sum + median * count / total)`, then
/// `stdev = sqrt(fold(0, |sq| sq + (median - mean)^2 * count) / total)`, with each `as f64`
/// conversion and operation in hdrhistogram's order, so the results are bit for bit its own.
#[inline(always)]
fn moments<I: Iterator<Item = (u64, u64)>>(total: u64, terms: impl Fn() -> I) -> (f64, f64) {
    if total == 0 {
        return (0.0, 0.0);
    }
    let total_f = total as f64;
    let sums = |count_f64: fn(u64) -> f64| {
        // Medians are below 2^43, so exact through i64 (one instruction on x86-64).
        let mean = terms().fold(0.0_f64, |sum, (median, count)| {
            sum + (median as i64 as f64) * count_f64(count) / total_f
        });
        let squares = terms().fold(0.0_f64, |squares, (median, count)| {
            let dev = (median as i64 as f64) - mean;
            squares + (dev * dev) * count_f64(count)
        });
        (mean, (squares / total_f).sqrt())
    };
    // Every count is at most the total: below 2^63, `c as i64 as f64` is `c as f64` (the same
    // correctly rounded value) in one instruction instead of several.
    if total <= i64::MAX as u64 {
        sums(|c| c as i64 as f64)
    } else {
        sums(|c| c as f64)
    }
}

impl LatencyHistogram {
    /// An empty histogram. Allocates its whole counts array here (about 260 KiB), once.
    pub fn new() -> Self {
        Self {
            counts: zeroed(),
            occupied: zeroed(),
            total: 0,
        }
    }

    /// Adds `count` (not 0) to slot `index` (below `LEN`).
    #[inline(always)]
    pub(crate) fn add_at(&mut self, index: usize, count: u64) {
        let c = &mut self.counts[index];
        *c = c.saturating_add(count);
        self.occupied[index / 64] |= 1 << (index % 64);
        self.total = self.total.saturating_add(count);
    }

    /// Records one latency. 0 counts as 1 ns, values above an hour as one hour; never panics and
    /// never allocates.
    #[inline]
    pub fn record(&mut self, ns: u64) {
        self.add_at(index_of_latency(ns), 1);
    }

    /// Records `count` latencies of `ns` each, clamped as [`record`](Self::record). Counts
    /// saturate at `u64::MAX`.
    pub fn record_n(&mut self, ns: u64, count: u64) {
        if count != 0 {
            self.add_at(index_of_latency(ns), count);
        }
    }

    /// Adds every count of `other` to `self`. Visits only `other`'s occupied slots.
    pub fn merge(&mut self, other: &LatencyHistogram) {
        for (index, count) in other.occupied() {
            let c = &mut self.counts[index];
            *c = c.saturating_add(count);
        }
        for (mine, theirs) in self.occupied.iter_mut().zip(other.occupied.iter()) {
            *mine |= theirs;
        }
        self.total = self.total.saturating_add(other.total);
    }

    /// How many slots are occupied (a popcount of the bitmap: constant cost).
    fn occupied_len(&self) -> usize {
        self.occupied.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The occupied slots and their counts, in value order.
    fn occupied(&self) -> Occupied<'_> {
        Occupied {
            counts: &self.counts,
            words: &self.occupied,
            word: 0,
            bits: self.occupied[0],
        }
    }

    /// Every occupied bucket in value order, `value` its highest latency: for re-binning into
    /// coarser buckets (a Prometheus histogram) without building a summary.
    pub fn buckets(&self) -> impl Iterator<Item = Bucket> + '_ {
        self.occupied().map(|(index, count)| Bucket {
            value: highest_value_at(index),
            count,
        })
    }

    /// Number of recorded latencies.
    pub fn count(&self) -> u64 {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Smallest recorded latency (lowest equivalent value), 0 when empty.
    pub fn min(&self) -> u64 {
        self.occupied()
            .next()
            .map_or(0, |(index, _)| lowest_value_at(index))
    }

    /// Largest recorded latency (highest equivalent value), 0 when empty.
    pub fn max(&self) -> u64 {
        self.occupied.iter().rposition(|&w| w != 0).map_or(0, |w| {
            let index = w * 64 + 63 - self.occupied[w].leading_zeros() as usize;
            highest_value_at(index)
        })
    }

    /// hdrhistogram's mean and standard deviation over the occupied slots.
    fn moments(&self) -> (f64, f64) {
        moments(self.total, || {
            self.occupied()
                .map(|(index, count)| (median_value_at(index), count))
        })
    }

    /// Mean latency in ns, 0 when empty.
    pub fn mean(&self) -> f64 {
        self.moments().0
    }

    /// Population standard deviation in ns, 0 when empty.
    pub fn stddev(&self) -> f64 {
        self.moments().1
    }

    /// Latency at quantile `q` in [0, 1] (clamped; NaN counts as 0); 0 when empty.
    pub fn value_at_quantile(&self, q: f64) -> u64 {
        if self.is_empty() {
            return 0;
        }
        quantile_of(self.total, clamp_quantile(q), self.occupied())
    }

    /// A compact encoding for sending a histogram between the ranks of one run: a magic and
    /// version, the number of occupied slots, then per occupied slot, in order, the gap to it from
    /// the slot after the previous one and its count, both LEB128 varints.
    pub fn to_bytes(&self) -> Vec<u8> {
        // Most pairs take two or three bytes; sized so that it rarely grows.
        let mut out = Vec::with_capacity(HEADER_LEN + 5 * self.occupied_len());
        out.extend_from_slice(&MAGIC);
        out.push(VERSION);
        out.extend_from_slice(&[0; 4]);
        let (mut pairs, mut next) = (0u32, 0usize);
        for (index, count) in self.occupied() {
            put_varint(&mut out, (index - next) as u64);
            put_varint(&mut out, count);
            next = index + 1;
            pairs += 1;
        }
        out[MAGIC.len() + 1..HEADER_LEN].copy_from_slice(&pairs.to_le_bytes());
        out
    }

    /// Decodes [`to_bytes`](Self::to_bytes) output. Anything else (another magic or version, a
    /// slot out of range or out of order, a zero count, missing or trailing bytes) is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let err = |what: &str| format!("cannot decode latency histogram: {what}");
        let Some((header, mut rest)) = bytes.split_first_chunk::<HEADER_LEN>() else {
            return Err(err("shorter than its header"));
        };
        if header[..MAGIC.len()] != MAGIC {
            return Err(err("not an iogauge latency histogram"));
        }
        if header[MAGIC.len()] != VERSION {
            return Err(err(&format!(
                "encoding version {} (expected {VERSION})",
                header[MAGIC.len()]
            )));
        }
        let pairs = u32::from_le_bytes(
            header[MAGIC.len() + 1..]
                .try_into()
                .expect("four header bytes"),
        );
        if pairs as usize > LEN {
            return Err(err(&format!("{pairs} occupied slots (at most {LEN})")));
        }
        let mut h = Self::new();
        let mut next = 0usize;
        for _ in 0..pairs {
            let gap = take_varint(&mut rest).ok_or_else(|| err("truncated"))?;
            let count = take_varint(&mut rest).ok_or_else(|| err("truncated"))?;
            let index = usize::try_from(gap)
                .ok()
                .and_then(|gap| next.checked_add(gap))
                .filter(|&i| i < LEN)
                .ok_or_else(|| err("slot out of range"))?;
            if count == 0 {
                return Err(err("empty slot"));
            }
            h.add_at(index, count);
            next = index + 1;
        }
        if !rest.is_empty() {
            return Err(err(&format!("{} trailing bytes", rest.len())));
        }
        Ok(h)
    }

    /// Count, extremes, moments, the standard percentiles and every occupied bucket: one walk over
    /// the occupied slots lists the buckets, and short loops over that list give the rest.
    pub fn summary(&self) -> HistogramSummary {
        let total = self.total;
        // Sized once: growing would copy (and a large copy costs an instruction a byte under
        // callgrind, which measures iogauge's cost per operation).
        let mut buckets = Vec::with_capacity(self.occupied_len());
        buckets.extend(self.buckets());

        let (mean, stddev) = moments(total, || {
            buckets
                .iter()
                .map(|b| (median_of_highest(b.value), b.count))
        });

        // What `value_at_quantile` looks for, per percentile. The targets do not decrease, so the
        // first bucket whose running count reaches a target is found in the same walk as the
        // previous one's. `value_at_quantile` reports a bucket's highest value (lowest for
        // q = 0, which no summary percentile is).
        let mut values = [0u64; SUMMARY_PERCENTILES.len()];
        let targets =
            SUMMARY_PERCENTILES.map(|p| quantile_target(total, clamp_quantile(p / 100.0)));
        let (mut found, mut running) = (0usize, 0u64);
        for b in &buckets {
            running = running.saturating_add(b.count);
            while found < targets.len() && running >= targets[found].0 {
                debug_assert!(!targets[found].1);
                values[found] = b.value;
                found += 1;
            }
            if found == targets.len() {
                break;
            }
        }

        HistogramSummary {
            unit: "ns".to_string(),
            count: total,
            min: self.min(),
            max: buckets.last().map_or(0, |b| b.value),
            mean,
            stddev,
            percentiles: SUMMARY_PERCENTILES
                .iter()
                .zip(values)
                .map(|(&p, value)| Percentile { p, value })
                .collect(),
            buckets,
        }
    }
}

/// Appends `v` as an LEB128 varint (7 bits a byte, low bits first).
#[inline]
fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Takes an LEB128 varint off the front of `bytes`; `None` if it is cut off or exceeds `u64`.
#[inline(always)]
fn take_varint(bytes: &mut &[u8]) -> Option<u64> {
    // Most gaps and counts fit in one byte.
    let (&first, rest) = bytes.split_first()?;
    if first < 0x80 {
        *bytes = rest;
        return Some(u64::from(first));
    }
    let mut v = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        let bits = u64::from(b & 0x7f);
        if i == 9 && bits > 1 {
            return None;
        }
        v |= bits << (7 * i);
        if b & 0x80 == 0 {
            *bytes = &bytes[i + 1..];
            return Some(v);
        }
    }
    None
}

impl Default for LatencyHistogram {
    fn default() -> Self {
        Self::new()
    }
}

impl Clone for LatencyHistogram {
    fn clone(&self) -> Self {
        Self {
            counts: copied(&self.counts),
            occupied: copied(&self.occupied),
            total: self.total,
        }
    }
}

impl std::fmt::Debug for LatencyHistogram {
    /// The count and the occupied buckets (highest equivalent value, count), not 33,421 slots.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        struct Buckets<'a>(&'a LatencyHistogram);
        impl std::fmt::Debug for Buckets<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_map()
                    .entries(
                        self.0
                            .occupied()
                            .map(|(index, count)| (highest_value_at(index), count)),
                    )
                    .finish()
            }
        }
        f.debug_struct("LatencyHistogram")
            .field("count", &self.total)
            .field("buckets", &Buckets(self))
            .finish()
    }
}

#[cfg(test)]
#[path = "histogram_tests.rs"]
mod tests;
