//! The top of a run page: the headline figures, the verdicts (valid, complete, cached,
//! stragglers) and the warnings grouped by id and phase, so the answer comes before the detail.

use crate::fmt;
use crate::metric::Metric;
use crate::phases::PhaseGroup;
use crate::spread::Spread;
use crate::summary::{alert_text, RunSummary};
use results::warnings::phase_label;
use results::{AlertId, RunResult};
use serde::Serialize;

/// One headline figure: a phase's median rate, or an IO500 score.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Figure {
    pub label: String,
    pub value: String,
    pub note: String,
}

/// One verdict; `class` is `ok`, `warn` or `bad`.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Verdict {
    pub name: &'static str,
    pub value: String,
    pub class: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub(super) struct Lead {
    pub figures: Vec<Figure>,
    pub verdicts: Vec<Verdict>,
    pub warnings: Vec<String>,
}

/// The warnings that say a figure may come from memory rather than the device.
const CACHE_IDS: [AlertId; 3] = [
    AlertId::ReadCached,
    AlertId::ReadNotFromDevice,
    AlertId::WriteNotOnDevice,
];

pub(super) fn lead(doc: &RunResult, s: &RunSummary, gs: &[PhaseGroup<'_>]) -> Lead {
    let groups = grouped_alerts(gs);
    // Each id once with its phases; the warnings card names the iterations.
    let flagged = |ids: &[&str]| -> Vec<String> {
        let mut by_id: Vec<(&str, Vec<&str>)> = Vec::new();
        for a in groups.iter().filter(|a| ids.contains(&a.id.as_str())) {
            match by_id.iter_mut().find(|(id, _)| *id == a.id) {
                Some((_, phases)) => phases.push(&a.phase),
                None => by_id.push((&a.id, vec![&a.phase])),
            }
        }
        by_id
            .into_iter()
            .map(|(id, phases)| format!("{id} in {}", phases.join(", ")))
            .collect()
    };
    let cache_ids: Vec<&str> = CACHE_IDS.iter().map(|i| i.as_str()).collect();
    let cached = flagged(&cache_ids);
    let stragglers = flagged(&[AlertId::Straggler.as_str()]);
    let verdict = |name, bad: bool, ok: String, no: String, class| Verdict {
        name,
        value: if bad { no } else { ok },
        class: if bad { class } else { "ok" },
    };
    let verdicts = vec![
        verdict(
            "valid",
            !s.run.invalid.is_empty(),
            "yes".into(),
            s.run.validity(),
            "bad",
        ),
        verdict(
            "complete",
            !s.run.complete,
            s.run.completion_in_full(),
            format!("no, interrupted: {}", s.run.completion_in_full()),
            "bad",
        ),
        verdict(
            "cached",
            !cached.is_empty(),
            "no cache warning".into(),
            format!("maybe: {}", cached.join("; ")),
            "warn",
        ),
        verdict(
            "stragglers",
            !stragglers.is_empty(),
            "none flagged".into(),
            stragglers.join("; "),
            "warn",
        ),
    ];
    let mut warnings = doc.warnings.clone();
    warnings.extend(doc.alerts.iter().map(alert_text));
    warnings.extend(plain_warnings(gs));
    warnings.extend(groups.iter().map(Grouped::line));
    Lead {
        figures: figures(doc, gs),
        verdicts,
        warnings,
    }
}

fn figures(doc: &RunResult, gs: &[PhaseGroup<'_>]) -> Vec<Figure> {
    let mut out = Vec::new();
    if let Some(sc) = doc.io500.as_ref().and_then(|r| r.score.as_ref()) {
        let valid = if sc.valid { "" } else { " (invalid)" };
        out.push(Figure {
            label: "IO500 score".into(),
            value: fmt::number(sc.total),
            note: format!(
                "bandwidth {} GiB/s · IOPS {} kIOPS{valid}",
                fmt::number(sc.bandwidth_gib_s),
                fmt::number(sc.iops_kiops)
            ),
        });
    }
    for g in gs {
        let head = Metric::headline(g);
        let Some(sp) = Spread::of(&head.samples(g)) else {
            continue;
        };
        let mut notes = Vec::new();
        if sp.n > 1 {
            notes.push(format!(
                "median of {}, {}–{}",
                sp.n,
                fmt::number(sp.min),
                fmt::number(sp.max)
            ));
        }
        // A bandwidth phase's IOPS too: transfer size changes one without the other.
        if head == Metric::BandwidthMibS {
            if let Some(i) = Spread::of(&Metric::Iops.samples(g)) {
                notes.push(format!("IOPS {}", fmt::figure(i.median, "ops/s")));
            }
        }
        out.push(Figure {
            label: g.key.clone(),
            value: fmt::figure(sp.median, head.unit()),
            note: notes.join(" · "),
        });
    }
    out
}

/// A warning id in one phase, with the iterations it was raised in.
struct Grouped {
    id: String,
    phase: String,
    /// The first iteration's text: its figures are that iteration's.
    text: String,
    iterations: Vec<u32>,
}

impl Grouped {
    fn line(&self) -> String {
        let its = iterations_text(&self.iterations);
        format!("{} ({its}): {}", self.phase, self.text)
    }
}

/// `iteration 0`, or `iteration 0, also 1, 2`: the text shown is the first's, as on the terminal.
fn iterations_text(its: &[u32]) -> String {
    match its {
        [] => String::new(),
        [one] => format!("iteration {one}"),
        [first, rest @ ..] => {
            let rest: Vec<String> = rest.iter().map(u32::to_string).collect();
            format!("iteration {first}, also {}", rest.join(", "))
        }
    }
}

fn grouped_alerts(gs: &[PhaseGroup<'_>]) -> Vec<Grouped> {
    let mut out: Vec<Grouped> = Vec::new();
    for g in gs {
        for p in &g.iterations {
            for a in &p.alerts {
                match out.iter_mut().find(|x| x.id == a.id && x.phase == g.key) {
                    Some(x) => x.iterations.push(p.iteration),
                    None => out.push(Grouped {
                        id: a.id.clone(),
                        phase: g.key.clone(),
                        text: alert_text(&unprefixed(a, p)),
                        iterations: vec![p.iteration],
                    }),
                }
            }
        }
    }
    out
}

/// The alert without the `write (iteration 0): ` its message may open with: the line names the
/// phase and its iterations already.
fn unprefixed(a: &results::Alert, p: &results::PhaseResult) -> results::Alert {
    let mut a = a.clone();
    let prefix = format!("{}: ", phase_label(p));
    if let Some(rest) = a.message.strip_prefix(&prefix) {
        a.message = rest.to_string();
    }
    a
}

/// A phase's warnings without an id, identical texts once with their iterations.
fn plain_warnings(gs: &[PhaseGroup<'_>]) -> Vec<String> {
    let mut out = Vec::new();
    for g in gs {
        let mut seen: Vec<(&str, Vec<u32>)> = Vec::new();
        for p in &g.iterations {
            for w in &p.warnings {
                match seen.iter_mut().find(|(t, _)| t == w) {
                    Some((_, its)) => its.push(p.iteration),
                    None => seen.push((w, vec![p.iteration])),
                }
            }
        }
        out.extend(
            seen.into_iter()
                .map(|(w, its)| format!("{} ({}): {w}", g.key, iterations_text(&its))),
        );
    }
    out
}
