//! One run in full ("show"): identity, environment, parameters, every phase of every
//! iteration with its rates, latency percentiles and slowest rank, the spread over iterations
//! with the trend note, the IO500 scores, and every warning.

use crate::compare::RunHeading;
use crate::fmt;
use crate::marks::{mark_lines, marked_phases, MarkLine, MarkedPhase};
use crate::metric::Metric;
use crate::phases::{groups, phase_key};
use crate::ranks::RankSpread;
use crate::run::Run;
use crate::spread::{Spread, Trend};
use crate::system::{phase_systems, PhaseSystem};
use results::io500::Io500Result;
use results::RunResult;
use serde::Serialize;
use serde_json::Value;

/// A name and its value as text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Field {
    pub name: String,
    pub value: String,
}

/// One phase of one iteration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseLine {
    pub phase: String,
    pub iteration: u32,
    pub bytes: u64,
    pub ops: u64,
    /// `None` for a phase that moves no bytes.
    pub bandwidth_mib_s: Option<f64>,
    pub iops: f64,
    pub time_s: f64,
    pub latency_count: u64,
    pub latency_mean_ns: f64,
    /// `(p, ns)` as recorded: 50, 90, 99, 99.9, 99.99.
    pub percentiles: Vec<(f64, u64)>,
    pub latency_max_ns: u64,
    pub ranks: Option<RankSpread>,
}

/// A phase's headline figure over its iterations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IterationSpread {
    pub phase: String,
    pub metric: Metric,
    pub unit: &'static str,
    pub values: Vec<f64>,
    pub spread: Spread,
    pub trend: Trend,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunSummary {
    pub run: RunHeading,
    pub tool_version: String,
    pub command_line: String,
    pub finished: String,
    pub exit_code: i32,
    pub verification_errors: u64,
    pub environment: Vec<Field>,
    pub parameters: Vec<Field>,
    pub phases: Vec<PhaseLine>,
    /// Phases with more than one iteration.
    pub iterations: Vec<IterationSpread>,
    pub io500: Option<Io500Result>,
    /// A `mix` run's load ramp: its steps and knee.
    pub mix: Option<results::mix::MixResult>,
    /// The run's warnings, then each phase's (identical ones of a phase's iterations once).
    pub warnings: Vec<String>,
    /// Marks put into the run while it ran (`iogauge mark`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<MarkLine>,
    /// Each phase with marks inside, cut into stretches before, between and after them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marked_phases: Vec<MarkedPhase>,
    /// Each phase's system figures (CPU, devices, page cache, ...), where recorded.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub system: Vec<PhaseSystem>,
}

/// The summary of one run.
pub fn summarize(run: &Run<'_>) -> RunSummary {
    let doc = run.doc;
    RunSummary {
        run: RunHeading::of(run),
        tool_version: doc.tool.version.clone(),
        command_line: command_line(&doc.command_line),
        finished: doc.finished.clone(),
        exit_code: doc.exit_code,
        verification_errors: doc.verification_errors,
        environment: fields(serde_json::to_value(&doc.environment).unwrap_or_default()),
        parameters: fields(
            serde_json::to_value(&doc.parameters)
                .ok()
                .and_then(|v| v.get("parameters").cloned())
                .unwrap_or_default(),
        ),
        phases: doc.phases.iter().map(line).collect(),
        iterations: groups(doc)
            .iter()
            .filter(|g| g.iterations.len() > 1)
            .filter_map(|g| {
                let metric = Metric::headline(g);
                let values = g
                    .iterations
                    .iter()
                    .filter_map(|p| metric.of_phase(p))
                    .collect::<Vec<_>>();
                Some(IterationSpread {
                    phase: g.key.clone(),
                    metric,
                    unit: metric.unit(),
                    spread: Spread::of(&values)?,
                    trend: Trend::of(&values, metric.direction()),
                    values,
                })
            })
            .collect(),
        io500: doc.io500.clone(),
        mix: doc.mix.clone(),
        warnings: warnings(doc),
        marks: mark_lines(doc),
        marked_phases: marked_phases(doc),
        system: phase_systems(doc),
    }
}

fn line(p: &results::PhaseResult) -> PhaseLine {
    PhaseLine {
        phase: phase_key(p),
        iteration: p.iteration,
        bytes: p.bytes,
        ops: p.ops,
        bandwidth_mib_s: (p.bytes > 0).then_some(p.bandwidth_mib_s),
        iops: p.iops,
        time_s: p.times.total_s,
        latency_count: p.latency.count,
        latency_mean_ns: p.latency.mean,
        percentiles: p
            .latency
            .percentiles
            .iter()
            .map(|q| (q.p, q.value))
            .collect(),
        latency_max_ns: p.latency.max,
        ranks: RankSpread::of(p),
    }
}

/// Arguments joined by spaces, quoted where a shell would split them.
fn command_line(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if a.is_empty()
                || a.contains(|c: char| c.is_whitespace() || "'\"$*?;&|<>()".contains(c))
            {
                format!("'{}'", a.replace('\'', "'\\''"))
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Nested objects as dotted names; byte counts (`*_bytes`, `*_size`) also in binary units.
fn fields(v: Value) -> Vec<Field> {
    let mut out = Vec::new();
    flatten("", &v, &mut out);
    out
}

fn flatten(prefix: &str, v: &Value, out: &mut Vec<Field>) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                let name = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&name, v, out);
            }
        }
        _ => {
            let value = match v {
                Value::String(s) => s.clone(),
                Value::Null => "—".to_string(),
                Value::Number(n) if prefix.ends_with("_bytes") || prefix.ends_with("_size") => {
                    match n.as_u64() {
                        Some(b) if b >= 1024 => format!("{b} ({})", fmt::bytes(b)),
                        _ => n.to_string(),
                    }
                }
                other => other.to_string(),
            };
            out.push(Field {
                name: prefix.to_string(),
                value,
            });
        }
    }
}

fn warnings(doc: &RunResult) -> Vec<String> {
    let mut out = doc.warnings.clone();
    out.extend(doc.alerts.iter().map(alert_text));
    // (phase, warning) -> iterations, in first-seen order
    let mut seen: Vec<(String, String, Vec<u32>)> = Vec::new();
    for p in &doc.phases {
        let key = phase_key(p);
        let texts = p.warnings.iter().cloned();
        for w in texts.chain(p.alerts.iter().map(alert_text)) {
            match seen.iter_mut().find(|(k, t, _)| *k == key && *t == w) {
                Some((_, _, its)) => its.push(p.iteration),
                None => seen.push((key.clone(), w, vec![p.iteration])),
            }
        }
    }
    for (key, w, its) in seen {
        let its: Vec<String> = its.iter().map(u32::to_string).collect();
        let label = if its.len() == 1 {
            "iteration"
        } else {
            "iterations"
        };
        out.push(format!("{key} ({label} {}): {w}", its.join(", ")));
    }
    out
}

/// `[id] message (evidence: name value, ...)`: a warning with its id and the figures it rests
/// on.
pub fn alert_text(a: &results::Alert) -> String {
    let evidence: Vec<String> = a
        .evidence
        .iter()
        .map(|(k, v)| match v.as_f64() {
            Some(x) if v.is_f64() => format!("{k} {}", fmt::number(x)),
            _ => format!("{k} {}", v.as_str().map_or(v.to_string(), str::to_string)),
        })
        .collect();
    if evidence.is_empty() {
        format!("[{}] {}", a.id, a.message)
    } else {
        format!(
            "[{}] {} (evidence: {})",
            a.id,
            a.message,
            evidence.join(", ")
        )
    }
}

/// The knee (or why there is none) and why the ramp ended.
pub fn knee_line(m: &results::mix::MixResult) -> String {
    match &m.knee {
        Some(k) => format!(
            "knee: {} ops/s achieved at step {} ({} ops/s requested); the ramp ended: {}",
            fmt::number(k.achieved_ops_s),
            k.step,
            fmt::number(k.requested_ops_s),
            m.stopped
        ),
        None => format!(
            "knee: none (no step stayed within the limit); the ramp ended: {}",
            m.stopped
        ),
    }
}
