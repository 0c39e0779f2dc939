//! Live metrics of a run for the monitoring stacks sites run: a Prometheus endpoint
//! (`--metrics`), an InfluxDB push (`--influx`) and an OpenTSDB push (`--opentsdb`), from the
//! recorders' live counters, read by threads of their own (docs/monitoring.md). No workload or
//! engine code links this crate.
//!
//! - [`figures`]: the bookkeeping (phases from the sink's events, live readings, pushes).
//! - [`buckets`]: latency histograms re-binned into Prometheus buckets.
//! - [`exposition`], [`line_protocol`] and [`opentsdb`]: the formats.
//! - [`exporter`]: the endpoint (`/metrics`, `/push`); [`influx`] and [`opentsdb`]: the
//!   pushers, on the thread, backlog and retries they share (`pusher`).
//! - [`sink`]: the reporting process's sink; [`push`]: the other MPI processes' sink.

pub mod buckets;
pub mod client;
pub mod exporter;
pub mod exposition;
pub mod figures;
pub mod influx;
pub mod line_protocol;
pub mod opentsdb;
pub mod push;
mod pusher;
pub mod sink;
mod ticker;

pub use exporter::{Endpoint, Exporter};
pub use figures::RunInfo;
pub use influx::{Influx, InfluxConfig};
pub use opentsdb::{OpenTsdb, OpenTsdbConfig};
pub use push::{PushSink, PushTarget};
pub use sink::MetricsSink;
