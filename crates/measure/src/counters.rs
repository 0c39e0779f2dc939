//! One rank's live counters in one phase: the atomics its [`Recorder`](crate::Recorder) writes
//! and a [`LiveBoard`](crate::LiveBoard) reader loads. Shared by both, so neither imports the
//! other's internals.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use crate::atomic_histogram::AtomicHistogram;
use crate::histogram::LatencyHistogram;

/// Where a rank is in its phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RankState {
    /// No phase yet, or the phase's recorder is made but not started.
    Idle,
    /// Between [`Recorder::start`] and the end of the recorder.
    Running,
    /// The recorder finished (or was dropped, as on an error); its counters stay readable until
    /// the rank's next phase publishes new ones.
    Done,
}

impl RankState {
    fn from_u8(v: u8) -> Self {
        match v {
            1 => RankState::Running,
            2 => RankState::Done,
            _ => RankState::Idle,
        }
    }
}

/// The counters of one rank's phase. Aligned to 128 bytes (two cache lines, the unit adjacent-line
/// prefetchers move) so that ranks' counters never share a line.
#[repr(align(128))]
#[derive(Debug)]
pub(crate) struct PhaseCounters {
    pub(crate) ops: AtomicU64,
    pub(crate) bytes: AtomicU64,
    pub(crate) errors: AtomicU64,
    /// Requests in flight now (a queued engine's; 0 for one transfer at a time).
    pub(crate) in_flight: AtomicU64,
    /// Work units the phase counts besides operations (DLIO's samples), and the emulated
    /// accelerators' busy time in ns: a training phase's live samples/s and AU.
    pub(crate) samples: AtomicU64,
    pub(crate) busy_ns: AtomicU64,
    state: AtomicU8,
    /// One histogram per operation kind the phase declared.
    pub(crate) latency: Box<[AtomicHistogram]>,
}

impl PhaseCounters {
    pub(crate) fn new(kinds: usize) -> Self {
        Self {
            ops: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            in_flight: AtomicU64::new(0),
            samples: AtomicU64::new(0),
            busy_ns: AtomicU64::new(0),
            state: AtomicU8::new(RankState::Idle as u8),
            latency: (0..kinds).map(|_| AtomicHistogram::new()).collect(),
        }
    }

    pub(crate) fn set_state(&self, s: RankState) {
        self.state.store(s as u8, Relaxed);
    }

    pub(crate) fn read(&self, with_latency: bool) -> RankLive {
        RankLive {
            generation: 0,
            state: RankState::from_u8(self.state.load(Relaxed)),
            kinds: self.latency.len(),
            ops: self.ops.load(Relaxed),
            bytes: self.bytes.load(Relaxed),
            errors: self.errors.load(Relaxed),
            in_flight: self.in_flight.load(Relaxed),
            samples: self.samples.load(Relaxed),
            busy_ns: self.busy_ns.load(Relaxed),
            latency: if with_latency {
                self.latency.iter().map(AtomicHistogram::snapshot).collect()
            } else {
                Vec::new()
            },
        }
    }
}

/// One rank as a reader saw it.
#[derive(Clone, Debug)]
pub struct RankLive {
    /// How many phases' recorders the rank's slot has published (0 before its first): tells a
    /// reader whose readings cross a phase boundary which phase a reading belongs to.
    pub generation: u64,
    pub state: RankState,
    /// Operation kinds the phase declared (0 before the rank's first phase).
    pub kinds: usize,
    pub ops: u64,
    pub bytes: u64,
    pub errors: u64,
    /// Requests in flight (queued engines).
    pub in_flight: u64,
    /// Samples delivered and emulated accelerator busy time (ns): a training phase's.
    pub samples: u64,
    pub busy_ns: u64,
    /// Per kind, when the snapshot was taken with latencies; empty otherwise.
    pub latency: Vec<LatencyHistogram>,
}
