//! Live counters: what every rank of this process has done so far in its current phase,
//! readable by another thread (a progress display, a metrics exporter) while the phase runs.
//!
//! A [`LiveBoard`] has one slot per local rank and is shared through `Arc`. A rank's
//! [`Recorder`](crate::Recorder) allocates its phase's counters before the timed window and
//! publishes them in its slot ([`LiveBoard::recorder`]); from then on the rank writes them with
//! Relaxed stores and the reader loads them with Relaxed loads. The slot's mutex is taken only to
//! publish (phase start) and by a reader to clone the `Arc` it holds, never per operation, so the
//! I/O path neither locks nor waits for a reader.
//!
//! Readings are not a consistent cut: ops, bytes and each histogram bucket are read one after
//! another while the rank goes on. Each value only grows during a phase (a reader never sees a
//! count go back), and once the rank has finished they are exact.

use std::sync::{Arc, Mutex, PoisonError};

use crate::counters::{PhaseCounters, RankLive, RankState};
use crate::histogram::LatencyHistogram;
use crate::recorder::Recorder;

/// Every rank of the board at (about) one moment, with totals.
#[derive(Clone, Debug, Default)]
pub struct LiveSnapshot {
    /// By slot (local rank index).
    pub ranks: Vec<RankLive>,
    pub ops: u64,
    pub bytes: u64,
    pub errors: u64,
    /// Requests in flight over the ranks (queued engines).
    pub in_flight: u64,
    /// Samples delivered and emulated accelerator busy time (ns) over the ranks (training).
    pub samples: u64,
    pub busy_ns: u64,
    /// Ranks in [`RankState::Running`] and in [`RankState::Done`].
    pub running: usize,
    pub done: usize,
    /// Per kind, all ranks merged, when taken with latencies; empty otherwise.
    pub latency: Vec<LatencyHistogram>,
}

/// One rank's slot: how many recorders it has published, and the current one's counters.
type Slot = Mutex<(u64, Option<Arc<PhaseCounters>>)>;

/// The live counters of this process's ranks; share it through `Arc`.
#[derive(Debug)]
pub struct LiveBoard {
    slots: Box<[Slot]>,
}

impl LiveBoard {
    /// A board for `ranks` local ranks, all idle.
    pub fn new(ranks: usize) -> Self {
        Self {
            slots: (0..ranks).map(|_| Mutex::new((0, None))).collect(),
        }
    }

    /// Number of slots.
    pub fn ranks(&self) -> usize {
        self.slots.len()
    }

    /// Makes the recorder of local rank `slot`'s next phase (see [`Recorder::new`]) and publishes
    /// its counters in the slot, replacing the previous phase's. Call it before the timed window:
    /// it allocates. One recorder per slot at a time; a second one takes the slot over.
    ///
    /// Panics if `slot >= self.ranks()`.
    pub fn recorder(&self, slot: usize, kinds: usize, interval_ns: u64) -> Recorder {
        let rec = Recorder::new(kinds, interval_ns);
        let mut s = lock(&self.slots[slot]);
        *s = (s.0 + 1, Some(Arc::clone(rec.counters())));
        rec
    }

    /// Makes every slot idle (for example between two runs sharing a board).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            lock(s).1 = None;
        }
    }

    /// Counters and states of every rank, without latencies: cheap, for frequent polling.
    pub fn snapshot(&self) -> LiveSnapshot {
        self.read(false)
    }

    /// As [`snapshot`](Self::snapshot), plus each rank's latency histograms and their merge per
    /// kind. Scans every histogram and allocates: for occasional reads.
    pub fn snapshot_with_latency(&self) -> LiveSnapshot {
        self.read(true)
    }

    fn read(&self, with_latency: bool) -> LiveSnapshot {
        let mut snap = LiveSnapshot::default();
        for slot in self.slots.iter() {
            // Hold the lock only to clone the Arc: the counters are read without it.
            let (generation, phase) = lock(slot).clone();
            let mut rank = match phase {
                Some(p) => p.read(with_latency),
                None => RankLive {
                    generation: 0,
                    state: RankState::Idle,
                    kinds: 0,
                    ops: 0,
                    bytes: 0,
                    errors: 0,
                    in_flight: 0,
                    samples: 0,
                    busy_ns: 0,
                    latency: Vec::new(),
                },
            };
            rank.generation = generation;
            snap.ops = snap.ops.wrapping_add(rank.ops);
            snap.bytes = snap.bytes.wrapping_add(rank.bytes);
            snap.errors = snap.errors.wrapping_add(rank.errors);
            snap.in_flight = snap.in_flight.wrapping_add(rank.in_flight);
            snap.samples = snap.samples.wrapping_add(rank.samples);
            snap.busy_ns = snap.busy_ns.wrapping_add(rank.busy_ns);
            match rank.state {
                RankState::Running => snap.running += 1,
                RankState::Done => snap.done += 1,
                RankState::Idle => {}
            }
            for (k, h) in rank.latency.iter().enumerate() {
                if snap.latency.len() <= k {
                    snap.latency.push(LatencyHistogram::new());
                }
                snap.latency[k].merge(h);
            }
            snap.ranks.push(rank);
        }
        snap
    }
}

/// The slot holds only an `Option<Arc>`, which a panic cannot leave half-written.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_board() {
        let board = LiveBoard::new(3);
        let s = board.snapshot();
        assert_eq!(board.ranks(), 3);
        assert_eq!(s.ranks.len(), 3);
        assert!(s
            .ranks
            .iter()
            .all(|r| r.state == RankState::Idle && r.kinds == 0));
        assert_eq!(
            (s.ops, s.bytes, s.errors, s.running, s.done),
            (0, 0, 0, 0, 0)
        );
        assert!(board.snapshot_with_latency().latency.is_empty());
    }

    #[test]
    fn states_follow_the_recorder() {
        let board = LiveBoard::new(2);
        let mut rec = board.recorder(1, 2, 1_000);
        assert_eq!(board.snapshot().ranks[1].state, RankState::Idle);
        assert_eq!(board.snapshot().ranks[1].kinds, 2);
        assert_eq!(board.snapshot().ranks[1].generation, 1);
        assert_eq!(board.snapshot().ranks[0].generation, 0);
        rec.start(100);
        rec.record_at(0, 150, 10);
        rec.record_at(1, 400, 20);
        rec.error();
        rec.add_work(64, 5_000);
        rec.add_work(36, 2_000);
        let s = board.snapshot_with_latency();
        assert_eq!((s.samples, s.busy_ns), (100, 7_000));
        assert_eq!((s.ranks[1].samples, s.ranks[0].samples), (100, 0));
        assert_eq!((s.running, s.done), (1, 0));
        assert_eq!((s.ops, s.bytes, s.errors), (2, 30, 1));
        assert_eq!(s.latency.len(), 2);
        assert_eq!(s.latency[0].count(), 1);
        assert_eq!(s.latency[1].max(), 250);
        assert!(s.ranks[0].latency.is_empty());
        drop(rec); // as on an error path: the slot still ends Done
        let s = board.snapshot();
        assert_eq!((s.running, s.done, s.ops), (0, 1, 2));
        // The next phase replaces the counters.
        let _next = board.recorder(1, 1, 1_000);
        let s = board.snapshot();
        assert_eq!((s.running, s.done, s.ops), (0, 0, 0));
        assert_eq!(s.ranks[1].generation, 2);
        board.clear();
        assert_eq!(board.snapshot().ranks[1].kinds, 0);
    }
}
