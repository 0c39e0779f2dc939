//! The sink of the reporting process: phase names and start times from the run's events, the
//! board from the session (`Sink::attach`), all into the [`Exporter`] that the endpoint and the
//! InfluxDB pusher read.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use measure::LiveBoard;
use results::sink::{Event, Notice, Sink};
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

/// Unix seconds of an RFC 3339 time (a mark's, to the millisecond); now if it does not parse.
fn unix_of(rfc3339: &str) -> f64 {
    measure::rfc3339_seconds_between("1970-01-01T00:00:00Z", rfc3339).unwrap_or_else(unix_now)
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
            Event::Notice(Notice::Mark(m)) => {
                let time_s = unix_of(&m.time);
                self.exporter.figures().mark(&m.text, time_s, m.elapsed_s);
            }
            Event::Interval(_) | Event::Notice(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{exposition, line_protocol, opentsdb};

    fn mark(text: &str, time: &str, elapsed_s: f64) -> results::Mark {
        results::Mark {
            text: text.into(),
            time: time.into(),
            elapsed_s,
            phase: Some(0),
            phase_t_s: Some(1.0),
        }
    }

    /// Marks told to the sink reach the scrape (escaped label values), the InfluxDB points
    /// (at the mark's time) and the OpenTSDB points.
    #[test]
    fn marks_reach_every_export() {
        let exporter = Exporter::new(RunInfo {
            workload: "ior".into(),
            host: "h1".into(),
            version: "0.1.0".into(),
            run_id: "r1".into(),
            labels: Vec::new(),
        });
        let mut sink = MetricsSink::new(Arc::clone(&exporter));
        let text = exposition::render(&exporter.view());
        assert!(text.contains("iogauge_marks_total 0\n"), "{text}");
        let first = mark("disk 3 pulled", "2026-11-27T12:00:00.250Z", 3.5);
        let second = mark("say \"hi\"\\\nnow", "2026-11-27T12:00:10.000Z", 13.25);
        sink.event(&Event::Notice(&Notice::Mark(&first)));
        sink.event(&Event::Notice(&Notice::Mark(&second)));

        let v = exporter.view();
        let text = exposition::render(&v);
        assert!(text.contains("iogauge_marks_total 2\n"), "{text}");
        assert!(
            text.contains(
                "iogauge_mark_timestamp_seconds{index=\"1\",text=\"disk 3 pulled\"} 1795780800.25\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                r#"iogauge_mark_timestamp_seconds{index="2",text="say \"hi\"\\\nnow"} 1795780810"#
            ),
            "{text}"
        );

        let lines = line_protocol::marks(&v, &v.marks);
        let run = "host=h1,workload=ior,run_id=r1";
        assert_eq!(
            lines,
            format!(
                "iogauge_mark,{run},index=1 text=\"disk 3 pulled\",elapsed_seconds=3.5 1795780800250000000\n\
                 iogauge_mark,{run},index=2 text=\"say \\\"hi\\\"\\\\ now\",elapsed_seconds=13.25 1795780810000000000\n"
            )
        );

        let points: serde_json::Value =
            serde_json::from_str(&opentsdb::bodies(&[&opentsdb::marks(&v, &v.marks)])[0]).unwrap();
        assert_eq!(points[0]["timestamp"], 1_795_780_800u64);
        assert_eq!(points[0]["tags"]["mark"], "disk_3_pulled");
        assert_eq!(points[1]["tags"]["mark"], "say__hi___now");
        assert_eq!(points[1]["tags"]["index"], "2");
    }
}
