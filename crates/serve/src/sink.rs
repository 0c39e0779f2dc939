//! The sink of the reporting process: phase names and start times from the run's events, the
//! board from the session (`Sink::attach`), all into the [`Exporter`] that the endpoint and the
//! InfluxDB pusher read.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use measure::LiveBoard;
use results::sink::{Event, Sink};
use results::RunResult;

use crate::buckets::Buckets;
use crate::exporter::Exporter;
use crate::figures::{node_of, PhaseKey, RunInfo, Totals};

pub struct MetricsSink {
    exporter: Arc<Exporter>,
}

impl MetricsSink {
    pub fn new(exporter: Arc<Exporter>) -> MetricsSink {
        MetricsSink { exporter }
    }
}

fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

fn info(doc: &RunResult) -> RunInfo {
    RunInfo {
        workload: doc.workload().to_string(),
        host: doc.environment.hostname.clone(),
        version: doc.tool.version.clone(),
        run_id: doc.run_id.clone(),
        labels: Vec::new(),
    }
}

fn key(io500_phase: Option<&String>, operation: results::Operation) -> PhaseKey {
    let op = operation.label().to_string();
    PhaseKey {
        phase: io500_phase.cloned().unwrap_or_else(|| op.clone()),
        operation: op,
    }
}

impl Sink for MetricsSink {
    fn attach(&mut self, board: &Arc<LiveBoard>) {
        self.exporter.set_board(board);
    }

    fn event(&mut self, e: &Event<'_>) {
        match e {
            Event::RunStart(doc) => {
                let r = &doc.ranks;
                let nodes = node_of(
                    r.count as usize,
                    r.nodes as usize,
                    r.placement == "round-robin",
                );
                self.exporter.figures().run_start(info(doc), nodes);
            }
            Event::PhaseStart(p) => {
                let k = key(p.io500_phase.as_ref(), p.operation);
                self.exporter
                    .figures()
                    .phase_start(k, p.iteration, unix_now());
            }
            Event::PhaseEnd(p) => {
                let r = p.result;
                // A training epoch's samples and compute time, all ranks (live readings of
                // other processes may lag its end).
                let (samples, busy_s) = match p.detail.get::<results::dlio::PhaseOutcome>() {
                    Some(results::dlio::PhaseOutcome::Epoch(o)) => {
                        let ranks = o.ranks.iter();
                        let busy = ranks.clone().flat_map(|r| &r.compute).sum::<f64>();
                        (ranks.map(|r| r.samples).sum(), busy)
                    }
                    _ => (0, 0.0),
                };
                let exact = Totals {
                    ops: r.ops,
                    bytes: r.bytes,
                    errors: 0,
                    samples,
                    busy_ns: (busy_s * 1e9) as u64,
                    latency: Buckets::from_hdr(r.latency.buckets.iter().cloned()),
                };
                let local = self.exporter.local();
                let k = key(r.io500_phase.as_ref(), r.operation);
                self.exporter.figures().phase_end(k, exact, &local);
            }
            Event::RunEnd(_) => self.exporter.figures().run_end(),
            Event::Interval(_) | Event::Notice(_) => {}
        }
    }
}
