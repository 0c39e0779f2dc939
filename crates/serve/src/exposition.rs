//! A [`View`] in the Prometheus text format (0.0.4), written by the Prometheus project's client
//! (`prometheus-client`): only the mapping from the figures to metric families is ours. Every
//! family is listed in [`FAMILIES`], which `docs/monitoring.md` documents and the tests hold
//! against a real scrape.

use prometheus_client::collector::Collector;
use prometheus_client::encoding::DescriptorEncoder;
use prometheus_client::metrics::MetricType;
use prometheus_client::registry::Registry;

use crate::figures::{PhaseKey, View};

/// The content type of [`render`]'s text.
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// Every series name the endpoint serves (histograms by their base name).
pub const FAMILIES: [&str; 15] = [
    "iogauge_bytes_total",
    "iogauge_operations_total",
    "iogauge_errors_total",
    "iogauge_samples_total",
    "iogauge_accelerator_busy_seconds_total",
    "iogauge_accelerator_utilization",
    "iogauge_operation_latency_seconds",
    "iogauge_phase_start_time_seconds",
    "iogauge_current_phase",
    "iogauge_ranks",
    "iogauge_in_flight",
    "iogauge_run_finished",
    "iogauge_run_info",
    "iogauge_marks_total",
    "iogauge_mark_timestamp_seconds",
];

/// The text of one scrape.
pub fn render(view: &View) -> String {
    let mut registry = Registry::default();
    registry.register_collector(Box::new(Snapshot(view.clone())));
    let mut out = String::new();
    prometheus_client::encoding::prometheus_text::encode(&mut out, &registry)
        .expect("writing to a String does not fail");
    out
}

#[derive(Debug)]
struct Snapshot(View);

type Labels = Vec<(String, String)>;

fn phase_labels(k: &PhaseKey) -> Labels {
    vec![
        ("phase".into(), k.phase.clone()),
        ("operation".into(), k.operation.clone()),
    ]
}

/// A `--label` key as a Prometheus label name: `label_` and the key, any character other than
/// a letter, digit or `_` made `_` (`--label run-id=3` is `label_run_id="3"`).
pub fn label_name(key: &str) -> String {
    let safe: String = key
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("label_{safe}")
}

/// A counter family: `name` without `_total` (the client adds it).
fn counter(
    enc: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    rows: &[(Labels, u64)],
) -> Result<(), std::fmt::Error> {
    let mut m = enc.encode_descriptor(name, help, None, MetricType::Counter)?;
    for (labels, v) in rows {
        m.encode_family(labels)?
            .encode_counter::<Labels, u64, f64>(v, None)?;
    }
    Ok(())
}

fn gauge<V: prometheus_client::encoding::EncodeGaugeValue>(
    enc: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    rows: &[(Labels, V)],
) -> Result<(), std::fmt::Error> {
    let mut m = enc.encode_descriptor(name, help, None, MetricType::Gauge)?;
    for (labels, v) in rows {
        m.encode_family(labels)?.encode_gauge(v)?;
    }
    Ok(())
}

impl Collector for Snapshot {
    fn encode(&self, mut enc: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let v = &self.0;
        let per_phase = |f: &dyn Fn(&crate::figures::Totals) -> u64| -> Vec<(Labels, u64)> {
            v.phases
                .iter()
                .map(|(k, t)| (phase_labels(k), f(t)))
                .collect()
        };
        counter(
            &mut enc,
            "iogauge_bytes",
            "Bytes moved, per phase and operation (all ranks, all repetitions).",
            &per_phase(&|t| t.bytes),
        )?;
        counter(
            &mut enc,
            "iogauge_operations",
            "Operations completed, per phase and operation (all ranks, all repetitions).",
            &per_phase(&|t| t.ops),
        )?;
        counter(
            &mut enc,
            "iogauge_errors",
            "Operations that failed, per phase and operation.",
            &per_phase(&|t| t.errors),
        )?;
        counter(
            &mut enc,
            "iogauge_samples",
            "Training samples delivered to the emulated accelerators, per phase (dlio epochs; 0 elsewhere).",
            &per_phase(&|t| t.samples),
        )?;
        let mut m = enc.encode_descriptor(
            "iogauge_accelerator_busy_seconds",
            "Emulated accelerator compute seconds, all ranks, per phase (dlio epochs): its rate over the ranks is the AU.",
            None,
            MetricType::Counter,
        )?;
        for (k, t) in &v.phases {
            m.encode_family(&phase_labels(k))?
                .encode_counter::<Labels, f64, f64>(&(t.busy_ns as f64 / 1e9), None)?;
        }
        let au: Vec<(Labels, f64)> = v
            .current
            .iter()
            .zip(v.accelerator_utilization)
            .map(|(c, au)| (phase_labels(&c.key), au))
            .collect();
        gauge(
            &mut enc,
            "iogauge_accelerator_utilization",
            "The running training phase's AU so far: emulated compute time over the ranks' time since it started (0..1; absent otherwise).",
            &au,
        )?;
        let mut m = enc.encode_descriptor(
            "iogauge_operation_latency_seconds",
            "Latency of each operation, per phase and operation.",
            None,
            MetricType::Histogram,
        )?;
        for (k, t) in &v.phases {
            let labels = phase_labels(k);
            let h = &t.latency;
            m.encode_family(&labels)?.encode_histogram::<Labels>(
                h.sum_s,
                h.count(),
                &h.pairs(),
                None,
            )?;
        }
        let starts: Vec<(Labels, f64)> = v
            .starts
            .iter()
            .map(|(k, s)| (phase_labels(k), *s))
            .collect();
        gauge(
            &mut enc,
            "iogauge_phase_start_time_seconds",
            "Unix time the phase's latest repetition started.",
            &starts,
        )?;
        let current: Vec<(Labels, u64)> = v
            .current
            .iter()
            .map(|c| {
                let mut l = phase_labels(&c.key);
                l.push(("iteration".into(), c.iteration.to_string()));
                (l, 1)
            })
            .collect();
        gauge(
            &mut enc,
            "iogauge_current_phase",
            "1 for the phase running now (absent between phases).",
            &current,
        )?;
        let states = ["idle", "running", "done"];
        let ranks: Vec<(Labels, u64)> = v
            .ranks
            .iter()
            .flat_map(|(node, counts)| {
                states.iter().zip(counts).map(move |(s, n)| {
                    let l = vec![
                        ("node".into(), node.to_string()),
                        ("state".into(), s.to_string()),
                    ];
                    (l, *n)
                })
            })
            .collect();
        gauge(
            &mut enc,
            "iogauge_ranks",
            "Ranks per node in each state of their current phase (idle, running, done).",
            &ranks,
        )?;
        gauge(
            &mut enc,
            "iogauge_in_flight",
            "Requests in flight now over the running ranks (a queued engine's depth at work; 0 for one transfer at a time).",
            &[(Labels::new(), v.in_flight)],
        )?;
        gauge(
            &mut enc,
            "iogauge_run_finished",
            "1 once the run has ended (the endpoint lingers with the final figures).",
            &[(Labels::new(), u64::from(v.finished))],
        )?;
        let i = &v.info;
        let mut info: Labels = vec![
            ("workload".into(), i.workload.clone()),
            ("host".into(), i.host.clone()),
            ("version".into(), i.version.clone()),
            ("run_id".into(), i.run_id.clone()),
        ];
        info.extend(i.labels.iter().map(|(k, v)| (label_name(k), v.clone())));
        let mut m = enc.encode_descriptor(
            "iogauge_run",
            "The run: workload, host, iogauge version, run id and its --label pairs.",
            None,
            MetricType::Info,
        )?;
        m.encode_info(&info)?;
        counter(
            &mut enc,
            "iogauge_marks",
            "Marks put into the run so far (iogauge mark).",
            &[(Labels::new(), v.marks.len() as u64)],
        )?;
        // One series per mark, its value the time: Grafana annotates with it
        // ("Series value as timestamp", the query times 1000) and takes `text` as the note.
        let marks: Vec<(Labels, f64)> = v
            .marks
            .iter()
            .map(|m| {
                let l = vec![
                    ("index".into(), m.index.to_string()),
                    ("text".into(), m.text.clone()),
                ];
                (l, m.time_s)
            })
            .collect();
        gauge(
            &mut enc,
            "iogauge_mark_timestamp_seconds",
            "Unix time of each mark put into the run (iogauge mark), by its index (1 first) and text.",
            &marks,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::{Current, RunInfo, Totals};

    #[test]
    fn every_family_and_the_conventions() {
        let key = PhaseKey {
            phase: "ior-easy-write".into(),
            operation: "write".into(),
        };
        let mut v = View {
            info: RunInfo {
                workload: "io500".into(),
                host: "h1".into(),
                version: "0.1.0".into(),
                run_id: "r1".into(),
                labels: vec![("run-id".into(), "a\"b".into())],
            },
            ..View::default()
        };
        let mut t = Totals {
            ops: 3,
            bytes: 4096,
            samples: 300,
            busy_ns: 1_500_000_000,
            ..Totals::default()
        };
        t.latency.counts[9] = 3;
        t.latency.sum_s = 0.003;
        v.phases.insert(key.clone(), t);
        v.starts.insert(key.clone(), 1.5e9);
        v.current = Some(Current {
            key,
            iteration: 0,
            start_s: 1.5e9,
        });
        v.ranks.insert(0, [0, 2, 1]);
        v.accelerator_utilization = Some(0.75);
        let text = render(&v);
        for f in FAMILIES {
            assert!(
                text.contains(&format!("# TYPE {f} ")),
                "{f} missing:\n{text}"
            );
        }
        let l = r#"{phase="ior-easy-write",operation="write"}"#;
        assert!(
            text.contains(&format!("iogauge_bytes_total{l} 4096\n")),
            "{text}"
        );
        assert!(
            text.contains(&format!("iogauge_operations_total{l} 3\n")),
            "{text}"
        );
        assert!(text.contains(
            r#"iogauge_operation_latency_seconds_bucket{phase="ior-easy-write",operation="write",le="0.001"} 3"#
        ), "{text}");
        assert!(text.contains(r#"le="+Inf"} 3"#), "{text}");
        assert!(
            text.contains(r#"iogauge_ranks{node="0",state="running"} 2"#),
            "{text}"
        );
        assert!(text.contains(r#"label_run_id="a\"b""#), "{text}");
        assert!(
            text.contains(&format!("iogauge_samples_total{l} 300\n")),
            "{text}"
        );
        assert!(
            text.contains(&format!("iogauge_accelerator_busy_seconds_total{l} 1.5\n")),
            "{text}"
        );
        assert!(
            text.contains(&format!("iogauge_accelerator_utilization{l} 0.75\n")),
            "{text}"
        );
        assert!(
            text.contains(
                r#"iogauge_current_phase{phase="ior-easy-write",operation="write",iteration="0"} 1"#
            ),
            "{text}"
        );
    }
}
