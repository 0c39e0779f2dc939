//! Measurement primitives for iogauge: the clock, latency histograms, per-interval series and
//! statistics.
//!
//! # The one-clock-read rule
//!
//! The per-operation hot path is: one I/O call, **one** [`now_ns`] read, one
//! [`LatencyHistogram::record`] and one [`IntervalSeries::record`]. The end time of operation k
//! doubles as the start time of operation k + 1, so a single clock read per operation gives both
//! the latency (which therefore includes the loop's own bookkeeping between calls) and the
//! interval the operation completed in. Nothing here allocates, locks or formats in
//! steady state: histograms have a fixed range, series preallocate their buckets, and each rank
//! owns its recorders and merges them only after the phase.

mod clock;
mod histogram;
mod series;
mod stats;

pub use clock::{init, now_ns, wall_clock_ns};
pub use histogram::{
    Bucket, HistogramSummary, LatencyHistogram, Percentile, MAX_LATENCY_NS, SUMMARY_PERCENTILES,
};
pub use series::{IntervalSeries, SeriesBucket, SeriesPoint, SeriesSummary};
pub use stats::{geometric_mean, Stats};
