//! Measurement for iogauge: the clock, latency histograms, per-interval series, the per-operation
//! [`Recorder`] every workload times its operations with, the [`LiveBoard`] another thread reads
//! while a phase runs, and statistics.
//!
//! # The one-clock-read rule
//!
//! The per-operation hot path is: one I/O call, then [`Recorder::record`], which does **one**
//! [`now_ns`] read, one [`AtomicHistogram::record`], one [`IntervalSeries::record`] and two
//! Relaxed stores of the rank's running totals to its live counters. The end time of operation k
//! doubles as the start time of operation k + 1, so a single clock read per operation gives both
//! the latency (which therefore includes the loop's own bookkeeping between calls) and the
//! interval the operation completed in. Nothing on that path allocates, locks, formats or makes
//! a syscall: histograms have a fixed range and are allocated with the recorder before the timed
//! window, series preallocate their buckets, each rank owns its recorder, and the only shared
//! state is a few atomics that the rank alone writes (with plain loads and stores, no locked
//! instructions) and that readers only load.
//!
//! # Pieces
//!
//! - The clock: [`now_ns`] (monotonic), [`secs`], and every wall-clock format the workspace
//!   prints ([`rfc3339_utc`], [`compact_utc`], [`local_now`] with [`CTIME_FORMAT`] and friends).
//! - [`LatencyHistogram`]: the owned, serializable histogram that results carry and rank 0 merges.
//! - [`AtomicHistogram`]: the same layout with atomic counts, written by one rank and readable by
//!   any thread; [`AtomicHistogram::snapshot`] gives a `LatencyHistogram` with the same summary.
//! - [`IntervalSeries`]: bytes and operations per time interval.
//! - [`Recorder`] and [`RankRecord`]: one rank's phase, from allocation to the record it sends.
//! - [`LiveBoard`] and [`LiveSnapshot`]: this process's ranks, as a reader sees them mid-phase.
//! - [`Stats`] and [`geometric_mean`]: statistics across repetitions, ranks and phases.

mod atomic_histogram;
mod clock;
mod counters;
mod histogram;
mod layout;
mod live;
mod recorder;
mod series;
mod stats;

pub use atomic_histogram::AtomicHistogram;
pub use clock::{
    compact_utc, init, local, local_now, now_ns, now_rfc3339, rfc3339_seconds_between, rfc3339_utc,
    secs, wall_clock_ns, CTIME_FORMAT, IO500_DATE_FORMAT, IO500_TIMESTAMP_FORMAT,
    MDTEST_DATE_FORMAT,
};
pub use counters::{RankLive, RankState};
pub use histogram::{
    Bucket, HistogramSummary, LatencyHistogram, Percentile, MAX_LATENCY_NS, SUMMARY_PERCENTILES,
};
pub use live::{LiveBoard, LiveSnapshot};
pub use recorder::{RankRecord, Recorder};
pub use series::{IntervalSeries, SeriesBucket, SeriesPoint, SeriesSummary};
pub use stats::{geometric_mean, Stats};
