//! A run's marks as the reports show them: each mark with the phase it fell in, and each
//! marked phase's stretches before, between and after its marks (`results::mark::stretches`,
//! which does the arithmetic) with the change against the first stretch.

use crate::phases::phase_key;
use results::mark::{stretches, Stretch};
use results::{PhaseResult, RunResult};
use serde::Serialize;

/// One mark as received.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MarkLine {
    pub text: String,
    pub time: String,
    pub elapsed_s: f64,
    /// `write, iteration 0`; absent for a mark that came between phases.
    pub phase: Option<String>,
    /// Seconds from that phase's start.
    pub phase_t_s: Option<f64>,
}

/// A phase with marks inside: its stretches.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MarkedPhase {
    pub phase: String,
    pub iteration: u32,
    /// The index in the document's `phases`.
    pub index: usize,
    /// `MiB/s` where the phase moved bytes, else `ops/s`: the rate the changes compare.
    pub unit: &'static str,
    pub stretches: Vec<Stretch>,
}

/// `write, iteration 0`.
pub fn phase_label(p: &PhaseResult) -> String {
    format!("{}, iteration {}", phase_key(p), p.iteration)
}

pub fn mark_lines(doc: &RunResult) -> Vec<MarkLine> {
    doc.marks
        .iter()
        .map(|m| MarkLine {
            text: m.text.clone(),
            time: m.time.clone(),
            elapsed_s: m.elapsed_s,
            phase: m.phase.and_then(|i| doc.phases.get(i)).map(phase_label),
            phase_t_s: m.phase_t_s,
        })
        .collect()
}

/// Every phase that has marks inside and a series to cut, in the document's order.
pub fn marked_phases(doc: &RunResult) -> Vec<MarkedPhase> {
    doc.phases
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let s = stretches(p, i, &doc.marks);
            (!s.is_empty()).then(|| MarkedPhase {
                phase: phase_key(p),
                iteration: p.iteration,
                index: i,
                unit: if p.bytes > 0 { "MiB/s" } else { "ops/s" },
                stretches: s,
            })
        })
        .collect()
}

impl MarkedPhase {
    /// The stretch's rate in the phase's unit.
    pub fn rate(&self, s: &Stretch) -> f64 {
        if self.unit == "MiB/s" {
            s.mib_s
        } else {
            s.ops_s
        }
    }
}

/// `10–20 s`: whole seconds without decimals (the usual 1 s interval), else one.
pub fn span_text(s: &Stretch) -> String {
    format!("{}–{} s", secs(s.from_s), secs(s.to_s))
}

fn secs(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// `-37.0 %`, `+1.8 %`; `—` for the first stretch (the base) or a zero base.
pub fn change_text(s: &Stretch) -> String {
    s.change_pct
        .map_or("—".to_string(), |c| format!("{c:+.1} %"))
}
