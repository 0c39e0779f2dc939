//! The end of a run on standard error (`docs/warnings.md`): every warning with its stable id
//! (a phase's warnings once for all its iterations), then how the ranks finished each phase
//! (first done, last done, the slowest against the median), and an object store's requests
//! per phase (per method, throttled, time to first byte). On standard error, after the
//! tool's own output, so that output piped into a program stays as the tool writes it.

use std::io::Write;

use results::sink::{Event, Sink};
use results::warnings::{phase_label, seconds};
use results::{PhaseResult, RunResult};

pub struct Summary {
    /// `--quiet`: the warnings only.
    pub quiet: bool,
}

impl Sink for Summary {
    fn event(&mut self, e: &Event<'_>) {
        if let Event::RunEnd(end) = e {
            let text = text(end.run, self.quiet);
            if !text.is_empty() {
                let _ = std::io::stdout().flush();
                let _ = std::io::stderr().write_all(text.as_bytes());
            }
        }
    }
}

/// The phase's name without its iteration: `write`, or the IO500 phase.
fn key(p: &PhaseResult) -> String {
    p.io500_phase
        .clone()
        .unwrap_or_else(|| p.operation.to_string())
}

/// The summary of `doc`; empty when there is nothing to say.
pub fn text(doc: &RunResult, quiet: bool) -> String {
    let mut out = String::new();
    let mut lines: Vec<String> = doc
        .alerts
        .iter()
        .map(|a| format!("  [{}] {}", a.id, a.message))
        .collect();
    // (id, phase) -> the first message and the other iterations, in first-seen order.
    let mut seen: Vec<(&str, String, &str, Vec<u32>)> = Vec::new();
    for p in &doc.phases {
        for a in &p.alerts {
            match seen.iter_mut().find(|s| s.0 == a.id && s.1 == key(p)) {
                Some(s) => s.3.push(p.iteration),
                None => seen.push((&a.id, key(p), &a.message, Vec::new())),
            }
        }
    }
    for (id, _, message, more) in seen {
        let also = match more.as_slice() {
            [] => String::new(),
            its => {
                let its: Vec<String> = its.iter().map(u32::to_string).collect();
                format!(" (also iteration {})", its.join(", "))
            }
        };
        lines.push(format!("  [{id}] {message}{also}"));
    }
    if !lines.is_empty() {
        out += "iogauge: warnings (what each means and how to adjust it: docs/warnings.md):\n";
        out += &(lines.join("\n") + "\n");
    }
    let spread = spread_lines(doc);
    if !quiet && !spread.is_empty() {
        out += "iogauge: how the ranks finished (first done, last done, slowest against the median):\n";
        out += &(spread.join("\n") + "\n");
    }
    let requests: Vec<String> = doc
        .phases
        .iter()
        .filter_map(|p| {
            Some(format!(
                "  {}: {}",
                phase_label(p),
                results::requests::line(p)?
            ))
        })
        .collect();
    if !quiet && !requests.is_empty() {
        out += "iogauge: object requests per phase (rate over the phase's time; throttled ones \
                retried; time to first byte of GETs):\n";
        out += &(requests.join("\n") + "\n");
    }
    let system = super::system_summary::lines(doc);
    if !quiet && !system.is_empty() {
        out += "iogauge: CPU utilization and devices per phase (CPU time over wall time, above \
                100 % on several CPUs; docs/system.md):\n";
        out += &(system.join("\n") + "\n");
    }
    out
}

/// Per phase, the iteration whose slowest rank lagged the median most.
fn spread_lines(doc: &RunResult) -> Vec<String> {
    let mut worst: Vec<(String, &PhaseResult)> = Vec::new();
    let lag = |p: &PhaseResult| p.spread.and_then(|s| s.slowest_to_median).unwrap_or(0.0);
    for p in doc.phases.iter().filter(|p| p.spread.is_some()) {
        match worst.iter_mut().find(|w| w.0 == key(p)) {
            Some(w) if lag(p) > lag(w.1) => w.1 = p,
            Some(_) => {}
            None => worst.push((key(p), p)),
        }
    }
    worst
        .into_iter()
        .filter_map(|(_, p)| {
            let s = p.spread?;
            let ratio = s
                .slowest_to_median
                .map_or("the median rank finished at once".to_string(), |r| {
                    format!("{r:.2}× the median")
                });
            Some(format!(
                "  {}: first done {} (rank {}), last done {} (rank {}), {ratio}",
                phase_label(p),
                seconds(s.first_done_s),
                s.first_done_rank,
                seconds(s.last_done_s),
                s.last_done_rank
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use results::{Alert, AlertId, Operation, Parameters, RankTimes};

    fn phase(it: u32, done: &[f64], alerts: &[AlertId]) -> PhaseResult {
        let mut p = PhaseResult::new(Operation::Write, it);
        p.per_rank = done
            .iter()
            .enumerate()
            .map(|(r, &d)| RankTimes {
                rank: r as u64,
                close_stop_s: d,
                ops: 1,
                ..Default::default()
            })
            .collect();
        p.spread = p.rank_spread();
        p.alerts = alerts
            .iter()
            .map(|&id| Alert::new(id, format!("it {it}")))
            .collect();
        p
    }

    #[test]
    fn warnings_once_per_phase_and_the_worst_spread() {
        let mut doc = RunResult::new(Parameters::Ior(Default::default()), vec![], "x");
        doc.alerts
            .push(Alert::new(AlertId::ReadSameNode, "same node".into()));
        doc.phases = vec![
            phase(0, &[1.0, 2.0], &[AlertId::ShortPhase]),
            phase(1, &[1.0, 4.0], &[AlertId::ShortPhase, AlertId::Straggler]),
            phase(2, &[1.0, 1.5], &[AlertId::ShortPhase]),
        ];
        assert_eq!(
            text(&doc, false),
            "iogauge: warnings (what each means and how to adjust it: docs/warnings.md):\n\
             \x20 [read-same-node] same node\n\
             \x20 [short-phase] it 0 (also iteration 1, 2)\n\
             \x20 [straggler] it 1\n\
             iogauge: how the ranks finished (first done, last done, slowest against the median):\n\
             \x20 write (iteration 1): first done 1.000 s (rank 0), last done 4.000 s (rank 1), \
             1.60× the median\n"
        );
        assert!(!text(&doc, true).contains("how the ranks finished"));
        doc.alerts.clear();
        for p in &mut doc.phases {
            p.alerts.clear();
            p.spread = None;
        }
        assert_eq!(text(&doc, false), "");
    }
}
