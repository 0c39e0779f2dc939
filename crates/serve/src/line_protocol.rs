//! A [`View`] in InfluxDB's line protocol: the same figures as the Prometheus endpoint, under the
//! same names, one point per series and push. Every point carries the run's tags (host,
//! workload, run id, `--label`s), so InfluxDB needs no join to tell runs apart.

use std::fmt::Write;

use crate::buckets::BOUNDS_NS;
use crate::exposition::label_name;
use crate::figures::{MarkPoint, PhaseKey, View};

/// Escapes a tag key or value (commas, equals signs and spaces).
fn tag(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, ',' | '=' | ' ' | '\\') {
            out.push('\\');
        }
        // A line break would end the point; a tag value cannot hold one.
        out.push(if c == '\n' { ' ' } else { c });
    }
    out
}

/// A string field's value, quoted: quotes and backslashes escaped.
fn string_field(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        // InfluxDB 1.x takes no line break inside a field value either.
        out.push(if matches!(c, '\n' | '\r') { ' ' } else { c });
    }
    out.push('"');
    out
}

/// The tags every point of the run has.
fn run_tags(v: &View) -> String {
    let i = &v.info;
    let mut t = format!(
        "host={},workload={},run_id={}",
        tag(&i.host),
        tag(&i.workload),
        tag(&i.run_id)
    );
    for (k, val) in &i.labels {
        // An empty tag value is not allowed in line protocol.
        if !val.is_empty() {
            let _ = write!(t, ",{}={}", tag(&label_name(k)), tag(val));
        }
    }
    t
}

fn phase_tags(k: &PhaseKey) -> String {
    format!("phase={},operation={}", tag(&k.phase), tag(&k.operation))
}

/// A training phase's samples and accelerator busy seconds, as more fields of its point.
fn training_fields(t: &crate::figures::Totals) -> String {
    if t.samples == 0 {
        return String::new();
    }
    format!(
        ",samples_total={}i,accelerator_busy_seconds_total={}",
        t.samples,
        t.busy_ns as f64 / 1e9
    )
}

/// The points of one push, stamped `time_ns` (unix nanoseconds).
pub fn render(v: &View, time_ns: u128) -> String {
    let run = run_tags(v);
    let mut out = String::new();
    for (k, t) in &v.phases {
        let p = phase_tags(k);
        let _ = writeln!(
            out,
            "iogauge_phase,{run},{p} bytes_total={}i,operations_total={}i,errors_total={}i{} {time_ns}",
            t.bytes,
            t.ops,
            t.errors,
            training_fields(t)
        );
        let h = &t.latency;
        let _ = writeln!(
            out,
            "iogauge_operation_latency_seconds,{run},{p} count={}i,sum={} {time_ns}",
            h.count(),
            h.sum_s
        );
        let mut cumulative = 0u64;
        for (i, c) in h.counts.iter().enumerate() {
            cumulative = cumulative.saturating_add(*c);
            let le = BOUNDS_NS
                .get(i)
                .map_or("+Inf".to_string(), |ns| (*ns as f64 / 1e9).to_string());
            let _ = writeln!(
                out,
                "iogauge_operation_latency_seconds,{run},{p},le={} bucket={cumulative}i {time_ns}",
                tag(&le)
            );
        }
    }
    for (k, s) in &v.starts {
        let p = phase_tags(k);
        let _ = writeln!(
            out,
            "iogauge_phase_start_time_seconds,{run},{p} value={s} {time_ns}"
        );
    }
    if let Some(c) = &v.current {
        let p = phase_tags(&c.key);
        let _ = writeln!(
            out,
            "iogauge_current_phase,{run},{p} iteration={}i,start_time_seconds={}{} {time_ns}",
            c.iteration,
            c.start_s,
            v.accelerator_utilization
                .map_or(String::new(), |au| format!(",accelerator_utilization={au}"))
        );
    }
    for (node, [idle, running, done]) in &v.ranks {
        let _ = writeln!(
            out,
            "iogauge_ranks,{run},node={node} idle={idle}i,running={running}i,done={done}i {time_ns}"
        );
    }
    let _ = writeln!(
        out,
        "iogauge_in_flight,{run} value={}i {time_ns}",
        v.in_flight
    );
    let _ = writeln!(
        out,
        "iogauge_run,{run},version={} finished={} {time_ns}",
        tag(&v.info.version),
        v.finished
    );
    out
}

/// One point per mark, stamped with the mark's own time, tagged with its index so that two
/// marks in the same millisecond stay two points.
pub fn marks(v: &View, marks: &[MarkPoint]) -> String {
    let run = run_tags(v);
    let mut out = String::new();
    for m in marks {
        let _ = writeln!(
            out,
            "iogauge_mark,{run},index={} text={},elapsed_seconds={} {}",
            m.index,
            string_field(&m.text),
            m.elapsed_s,
            // Through microseconds: f64 nanoseconds of today would not end in zeros.
            (m.time_s * 1e6).round() as u128 * 1000
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::{RunInfo, Totals};

    #[test]
    fn points_with_escaped_tags() {
        let mut v = View {
            info: RunInfo {
                workload: "ior".into(),
                host: "node 1".into(),
                version: "0.1.0".into(),
                run_id: "r,1".into(),
                labels: vec![("site".into(), "a=b".into()), ("empty".into(), "".into())],
            },
            ..View::default()
        };
        let key = PhaseKey {
            phase: "write".into(),
            operation: "write".into(),
        };
        v.phases.insert(
            key,
            Totals {
                ops: 2,
                bytes: 8,
                ..Totals::default()
            },
        );
        v.ranks.insert(1, [0, 1, 3]);
        let text = render(&v, 42);
        let run = r"host=node\ 1,workload=ior,run_id=r\,1,label_site=a\=b";
        assert!(text.contains(&format!(
            "iogauge_phase,{run},phase=write,operation=write bytes_total=8i,operations_total=2i,errors_total=0i 42\n"
        )), "{text}");
        assert!(text.contains(&format!(
            "iogauge_ranks,{run},node=1 idle=0i,running=1i,done=3i 42\n"
        )));
        assert!(text.contains("le=+Inf bucket=0i 42\n"), "{text}");
        assert!(text.contains("le=0.000001 bucket=0i"), "{text}");
        assert!(!text.contains("label_empty"));
        assert!(text.lines().all(|l| l.ends_with(" 42")));
    }

    #[test]
    fn a_training_phase_carries_samples_busy_time_and_au() {
        let key = PhaseKey {
            phase: "dlio-epoch".into(),
            operation: "dlio-epoch".into(),
        };
        let mut v = View {
            accelerator_utilization: Some(0.5),
            current: Some(crate::figures::Current {
                key: key.clone(),
                iteration: 2,
                start_s: 10.0,
            }),
            ..View::default()
        };
        let t = Totals {
            ops: 4,
            samples: 400,
            busy_ns: 2_500_000_000,
            ..Totals::default()
        };
        v.phases.insert(key, t);
        let text = render(&v, 7);
        assert!(text.contains(
            "bytes_total=0i,operations_total=4i,errors_total=0i,samples_total=400i,accelerator_busy_seconds_total=2.5 7\n"
        ), "{text}");
        assert!(
            text.contains("iteration=2i,start_time_seconds=10,accelerator_utilization=0.5 7\n"),
            "{text}"
        );
    }
}
