//! A latency histogram that one thread writes and any thread may read while it is written.
//!
//! The bucket layout is exactly [`LatencyHistogram`]'s (HdrHistogram, 1 ns ..
//! [`MAX_LATENCY_NS`](crate::MAX_LATENCY_NS), 3 significant digits; see `layout.rs`), so
//! [`AtomicHistogram::snapshot`] converts without losing anything: it holds the same counts in the
//! same slots as a `LatencyHistogram` that recorded the same values. The counts are plain
//! `AtomicU64`s allocated (and touched) once in `new`; `record` is an index computation and a
//! Relaxed load + store, with no locked read-modify-write, because each histogram has a single
//! writer (the rank that owns it).
//!
//! If two threads did record into the same histogram, increments that race would be lost (each
//! writes back its own load + 1), so counts could only come out low; it is never undefined
//! behaviour, since every access is atomic.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::histogram::LatencyHistogram;
use crate::layout::{index_of_latency, LEN};

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

    /// Records one latency. 0 counts as 1 ns and values above
    /// [`MAX_LATENCY_NS`](crate::MAX_LATENCY_NS) as that, as in
    /// [`LatencyHistogram::record`]. Never allocates, locks or panics. For the single writer only;
    /// see the module docs for what concurrent writers would do.
    #[inline]
    pub fn record(&self, ns: u64) {
        let c = &self.counts[index_of_latency(ns)];
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

    /// Adds every count to `into`. Taken while the writer records, the result holds each bucket
    /// as it was at the moment it was read.
    ///
    /// Reads every count once (eight at a time, or-ed together to skip empty runs) and a nonzero
    /// group a second time: a constant cost, whatever the latencies, plus a little per occupied
    /// slot.
    pub fn add_to(&self, into: &mut LatencyHistogram) {
        const GROUP: usize = 8;
        let mut groups = self.counts.chunks_exact(GROUP);
        for (g, group) in groups.by_ref().enumerate() {
            if group.iter().fold(0, |any, c| any | c.load(Relaxed)) != 0 {
                for (j, c) in group.iter().enumerate() {
                    let n = c.load(Relaxed);
                    if n != 0 {
                        into.add_at(g * GROUP + j, n);
                    }
                }
            }
        }
        let base = LEN - LEN % GROUP;
        for (j, c) in groups.remainder().iter().enumerate() {
            let n = c.load(Relaxed);
            if n != 0 {
                into.add_at(base + j, n);
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
    use crate::histogram::MAX_LATENCY_NS;
    use crate::layout::highest_value_at;

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
        assert_eq!(s.max(), highest_value_at(LEN - 1));
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

    /// The last slots sit in the tail after the groups of eight: each slot, from the first to the
    /// last, comes back alone and in its place.
    #[test]
    fn snapshot_sees_every_slot() {
        let h = AtomicHistogram::new();
        for index in (0..LEN).step_by(997).chain(LEN - 9..LEN) {
            h.reset();
            let v = crate::layout::lowest_value_at(index).max(1);
            h.record(v);
            h.record(v);
            let mut direct = LatencyHistogram::new();
            direct.record_n(v, 2);
            assert_eq!(h.snapshot().to_bytes(), direct.to_bytes(), "slot {index}");
        }
    }
}
