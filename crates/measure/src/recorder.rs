//! The per-operation recorder of one rank in one phase: every workload times its operations
//! through it.
//!
//! # Life of a recorder
//!
//! 1. [`LiveBoard::recorder`](crate::LiveBoard::recorder) (or [`Recorder::new`], unpublished)
//!    before the timed window: allocates the latency histograms (one per operation kind the
//!    phase declared), the interval series and the live counters, and touches their memory.
//! 2. [`set_epoch`](Recorder::set_epoch) once the opening barrier has fixed the series' epoch;
//!    [`start`](Recorder::start) with the time the first operation starts.
//! 3. Per operation, [`record`](Recorder::record) (or [`record_since`](Recorder::record_since));
//!    [`restart`](Recorder::restart) after a pause that must not count as an operation's
//!    latency; [`error`](Recorder::error) per failed operation.
//! 4. [`finish`](Recorder::finish) after the window: the [`RankRecord`] to send to rank 0.
//!
//! # The hot path
//!
//! `record` does one clock read ([`now_ns`]), one [`AtomicHistogram::record`] (an index
//! computation, a load and a store), one [`IntervalSeries::record`] (a compare and two adds in
//! the common case), and two Relaxed stores publishing the rank's running op and byte totals.
//! No allocation (everything was allocated in step 1), no lock, no formatting, no syscall
//! besides the vDSO clock read, no locked instruction. The totals are kept in plain fields and
//! only stored to the shared atomics, so a reader costs the rank at most a cache-line transfer.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

use crate::atomic_histogram::AtomicHistogram;
use crate::clock::now_ns;
use crate::counters::{PhaseCounters, RankState};
use crate::histogram::LatencyHistogram;
use crate::series::IntervalSeries;

/// What one rank measured in one phase: what it sends to rank 0.
#[derive(Clone, Debug)]
pub struct RankRecord {
    /// One histogram per operation kind, in kind order.
    pub latency: Vec<LatencyHistogram>,
    /// Bytes and operations per interval, all kinds together.
    pub series: IntervalSeries,
    pub ops: u64,
    pub bytes: u64,
    pub errors: u64,
}

/// The live counters as the recorder holds them: dropping the recorder, finished or not (an
/// error path), tells readers the rank is done.
#[derive(Debug)]
struct Live(Arc<PhaseCounters>);

impl Drop for Live {
    fn drop(&mut self) {
        self.0.set_state(RankState::Done);
    }
}

/// Times one rank's operations in one phase; see the module docs.
#[derive(Debug)]
pub struct Recorder {
    live: Live,
    series: IntervalSeries,
    /// End of the previous operation, which is the start of the next one.
    prev: u64,
    ops: u64,
    bytes: u64,
    errors: u64,
    epoch_set: bool,
}

impl Recorder {
    /// A recorder for `kinds` operation kinds (0 is taken as 1) and a series of `interval_ns`
    /// intervals, not published on any board. Allocates; the series' epoch is set later.
    pub fn new(kinds: usize, interval_ns: u64) -> Self {
        Self {
            live: Live(Arc::new(PhaseCounters::new(kinds.max(1)))),
            series: IntervalSeries::new(interval_ns, 0),
            prev: 0,
            ops: 0,
            bytes: 0,
            errors: 0,
            epoch_set: false,
        }
    }

    pub(crate) fn counters(&self) -> &Arc<PhaseCounters> {
        &self.live.0
    }

    /// Anchors the interval series at `epoch_ns` (on the [`now_ns`] clock), typically rank 0's
    /// clock after the opening barrier. Call before the first record.
    pub fn set_epoch(&mut self, epoch_ns: u64) {
        self.series.set_epoch(epoch_ns);
        self.epoch_set = true;
    }

    /// The first operation starts at `now_ns`: the rank is running from here. Without an earlier
    /// [`set_epoch`](Self::set_epoch), `now_ns` is the series' epoch as well.
    pub fn start(&mut self, now_ns: u64) {
        if !self.epoch_set {
            self.set_epoch(now_ns);
        }
        self.prev = now_ns;
        self.live.0.set_state(RankState::Running);
    }

    /// The next operation starts at `now_ns`, so the time since the last one (a stonewall
    /// agreement, a barrier) is not counted as its latency.
    pub fn restart(&mut self, now_ns: u64) {
        self.prev = now_ns;
    }

    /// Counts one operation of kind `kind` that moved `bytes` and ended now; its latency is the
    /// time since the previous one ended (or since [`start`](Self::start)). Returns the clock
    /// reading, for deadline checks. Panics if `kind` is not below the declared kinds.
    #[inline]
    pub fn record(&mut self, kind: usize, bytes: u64) -> u64 {
        let now = now_ns();
        self.record_at(kind, now, bytes);
        now
    }

    /// [`record`](Self::record) with the end time given rather than read: for a caller that has
    /// just read the clock for its own reasons, and for tests.
    #[inline]
    pub fn record_at(&mut self, kind: usize, now_ns: u64, bytes: u64) {
        self.note(kind, now_ns.saturating_sub(self.prev), now_ns, bytes);
    }

    /// Counts one operation that started at `start_ns` and ended now, timing just that call
    /// rather than the chain from the previous operation (find times each readdir this way).
    /// Returns the clock reading.
    #[inline]
    pub fn record_since(&mut self, kind: usize, start_ns: u64, bytes: u64) -> u64 {
        let now = now_ns();
        self.note(kind, now.saturating_sub(start_ns), now, bytes);
        now
    }

    /// Counts one operation that was submitted at `start_ns` and completed at `end_ns` (a
    /// queued request: its latency runs from its submission to its completion, fio's `clat`;
    /// the series buckets it by its completion). No clock read: the caller reads the clock
    /// once per batch of completions.
    #[inline]
    pub fn record_span(&mut self, kind: usize, start_ns: u64, end_ns: u64, bytes: u64) {
        self.note(kind, end_ns.saturating_sub(start_ns), end_ns, bytes);
    }

    #[inline(always)]
    fn note(&mut self, kind: usize, latency_ns: u64, now: u64, bytes: u64) {
        let live = &*self.live.0;
        live.latency[kind].record(latency_ns);
        self.series.record(now, bytes);
        self.prev = now;
        self.ops += 1;
        self.bytes = self.bytes.wrapping_add(bytes);
        live.ops.store(self.ops, Relaxed);
        live.bytes.store(self.bytes, Relaxed);
    }

    /// Publishes the requests this rank has in flight (queued engines), for live readers.
    #[inline]
    pub fn set_in_flight(&mut self, n: u64) {
        self.live.0.in_flight.store(n, Relaxed);
    }

    /// Counts `samples` work units delivered and `busy_ns` of emulated accelerator time (a
    /// training step's batch and compute), for live readers only: the phase's figures come
    /// from the workload's own accounting.
    #[inline]
    pub fn add_work(&mut self, samples: u64, busy_ns: u64) {
        let live = &*self.live.0;
        live.samples.fetch_add(samples, Relaxed);
        live.busy_ns.fetch_add(busy_ns, Relaxed);
    }

    /// Counts one failed operation (not an op, no latency).
    pub fn error(&mut self) {
        self.errors += 1;
        self.live.0.errors.store(self.errors, Relaxed);
    }

    /// Operations recorded so far.
    pub fn ops(&self) -> u64 {
        self.ops
    }

    /// Bytes recorded so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Errors counted so far.
    pub fn errors(&self) -> u64 {
        self.errors
    }

    /// End of the last operation (or the start time).
    pub fn prev(&self) -> u64 {
        self.prev
    }

    /// Operation kinds declared.
    pub fn kinds(&self) -> usize {
        self.live.0.latency.len()
    }

    /// The live histogram of `kind`.
    pub fn latency(&self, kind: usize) -> &AtomicHistogram {
        &self.live.0.latency[kind]
    }

    /// The series so far.
    pub fn series(&self) -> &IntervalSeries {
        &self.series
    }

    /// Ends the phase for this rank (readers see it done, its final counters stay readable) and
    /// returns what it measured. Allocates: call after the timed window.
    pub fn finish(self) -> RankRecord {
        let Recorder {
            live,
            series,
            ops,
            bytes,
            errors,
            ..
        } = self;
        let latency = live
            .0
            .latency
            .iter()
            .map(AtomicHistogram::snapshot)
            .collect();
        drop(live);
        RankRecord {
            latency,
            series,
            ops,
            bytes,
            errors,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chained_latencies_and_series() {
        let mut r = Recorder::new(1, 100);
        r.set_epoch(1_000);
        r.start(1_050);
        r.record_at(0, 1_060, 4);
        r.record_at(0, 1_160, 8);
        r.restart(5_000);
        r.record_at(0, 5_001, 16);
        r.error();
        assert_eq!(
            (r.ops(), r.bytes(), r.errors(), r.prev()),
            (3, 28, 1, 5_001)
        );
        let rec = r.finish();
        let mut expect = LatencyHistogram::new();
        for v in [10, 100, 1] {
            expect.record(v);
        }
        assert_eq!(rec.latency.len(), 1);
        assert_eq!(rec.latency[0].summary(), expect.summary());
        assert_eq!((rec.ops, rec.bytes, rec.errors), (3, 28, 1));
        assert_eq!(rec.series.epoch_ns(), 1_000);
        let b = rec.series.buckets();
        assert_eq!((b[0].ops, b[0].bytes, b[1].ops, b[40].ops), (1, 4, 1, 1));
    }

    #[test]
    fn start_without_epoch_anchors_the_series() {
        let mut r = Recorder::new(0, 1_000_000);
        assert_eq!(r.kinds(), 1);
        let t0 = now_ns();
        r.start(t0);
        let t1 = r.record(0, 1);
        assert!(t1 >= t0);
        let t2 = r.record_since(0, t1, 2);
        assert!(t2 >= t1);
        assert_eq!(r.series().epoch_ns(), t0);
        assert_eq!(r.latency(0).count(), 2);
        let rec = r.finish();
        assert_eq!(rec.series.total().ops, 2);
        assert_eq!(rec.series.total().bytes, 3);
    }

    #[test]
    fn kinds_are_kept_apart() {
        let mut r = Recorder::new(3, 1_000);
        r.start(0);
        r.record_at(2, 7, 0);
        r.record_at(0, 9, 0);
        let rec = r.finish();
        let counts: Vec<u64> = rec.latency.iter().map(LatencyHistogram::count).collect();
        assert_eq!(counts, [1, 0, 1]);
        assert_eq!(rec.latency[2].max(), 7);
        assert_eq!(rec.latency[0].max(), 2);
    }

    #[test]
    #[should_panic]
    fn undeclared_kind_panics() {
        let mut r = Recorder::new(1, 1_000);
        r.record_at(1, 1, 0);
    }
}
