//! Runs side by side: per phase (matched by IO500 phase name, else operation) and per figure,
//! each run's spread over its iterations, its trend, and its change against the baseline, which
//! is the first run given.

use crate::differs::{differs, Differs};
use crate::metric::Metric;
use crate::phases::{groups, union_keys, PhaseGroup};
use crate::run::Run;
use crate::spread::{Delta, Spread, Trend};
use serde::Serialize;

/// Who a compared run is, for headings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunHeading {
    pub id: String,
    pub labels: String,
    /// The labels by key, for the compact layout's label rows (JSON has them in `labels`).
    #[serde(skip)]
    pub label_map: std::collections::BTreeMap<String, String>,
    pub complete: bool,
    /// The file or directory an imported run was read from.
    pub imported_from: Option<String>,
    /// Why its results are invalid (an interrupted phase, failed verification, an IO500
    /// rule, a failed run); empty for a valid run.
    pub invalid: Vec<String>,
    pub workload: String,
    pub host: String,
    pub ranks: u64,
    pub nodes: u64,
    pub started: String,
}

impl RunHeading {
    /// `yes`, or `no: ` and the reasons.
    pub fn validity(&self) -> String {
        if self.invalid.is_empty() {
            "yes".to_string()
        } else {
            format!("no: {}", self.invalid.join("; "))
        }
    }

    /// The "complete" cell (`yes`, `no`, `imported`: [`crate::fmt::completion`]).
    pub fn completion(&self) -> &'static str {
        crate::fmt::completion(self.complete, self.imported_from.is_some())
    }

    /// The completion with the path an imported run was read from.
    pub fn completion_in_full(&self) -> String {
        match &self.imported_from {
            Some(path) => format!("{} from {path}", self.completion()),
            None => self.completion().to_string(),
        }
    }

    pub fn of(run: &Run<'_>) -> RunHeading {
        RunHeading {
            id: run.id().to_string(),
            labels: run.labels_text(),
            label_map: run.info.labels.clone(),
            complete: run.info.complete,
            imported_from: run.info.imported_from.clone(),
            invalid: run.doc.invalid_reasons(),
            workload: run.doc.workload().to_string(),
            host: run.doc.environment.hostname.clone(),
            ranks: run.doc.ranks.count,
            nodes: run.doc.ranks.nodes,
            started: run.doc.started.clone(),
        }
    }
}

/// One run's figure in a comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// `None`: the run has no such phase (or figure).
    pub spread: Option<Spread>,
    /// The iterations' values in order.
    pub values: Vec<f64>,
    pub trend: Trend,
    /// Against the baseline's median; `None` for the baseline itself, when either is missing,
    /// or when the baseline is 0.
    pub delta: Option<Delta>,
}

/// One figure across the runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricRow {
    pub metric: Metric,
    pub unit: &'static str,
    /// One per run, in the order the runs were given.
    pub cells: Vec<Cell>,
}

impl MetricRow {
    /// Empty or zero in every run (the IOPS of an imported IO500 bandwidth phase): a row that
    /// says nothing, left out.
    pub fn is_blank(&self) -> bool {
        self.cells
            .iter()
            .all(|c| c.values.iter().all(|v| *v == 0.0))
    }
}

/// One phase across the runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseComparison {
    pub phase: String,
    pub rows: Vec<MetricRow>,
}

/// The whole comparison; the first run is the baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The parameters that differ and whether the runs compare at all: shown first.
    pub differs: Differs,
    pub runs: Vec<RunHeading>,
    pub phases: Vec<PhaseComparison>,
    /// The IO500 `[SCORE]` figures, when any run has them.
    pub io500: Vec<MetricRow>,
}

impl Comparison {
    /// Every row with its phase name, the IO500 score rows last under `io500`.
    pub fn rows(&self) -> impl Iterator<Item = (&str, &MetricRow)> {
        self.phases
            .iter()
            .flat_map(|p| p.rows.iter().map(move |r| (p.phase.as_str(), r)))
            .chain(self.io500.iter().map(|r| ("io500", r)))
    }
}

/// Compares the runs; the first is the baseline. Fewer than two runs give a comparison with
/// no deltas.
pub fn compare(runs: &[Run<'_>]) -> Comparison {
    let grouped: Vec<Vec<PhaseGroup<'_>>> = runs.iter().map(|r| groups(r.doc)).collect();
    let keys = union_keys(grouped.iter().map(|g| g.as_slice()));
    let phases = keys
        .iter()
        .map(|key| {
            let found: Vec<Option<&PhaseGroup<'_>>> = grouped
                .iter()
                .map(|gs| gs.iter().find(|g| &g.key == key))
                .collect();
            PhaseComparison {
                phase: key.clone(),
                rows: metrics_of(&found)
                    .into_iter()
                    .map(|m| {
                        let values = found
                            .iter()
                            .map(|g| g.map(|g| m.samples(g)).unwrap_or_default())
                            .collect();
                        row(m, values)
                    })
                    .filter(|r| !r.is_blank())
                    .collect(),
            }
        })
        .collect();
    let docs: Vec<&results::RunResult> = runs.iter().map(|r| r.doc).collect();
    Comparison {
        differs: differs(&docs),
        runs: runs.iter().map(RunHeading::of).collect(),
        phases,
        io500: io500_rows(runs),
    }
}

/// The figures any run offers for the phase, in the order of the first run that offers each.
fn metrics_of(found: &[Option<&PhaseGroup<'_>>]) -> Vec<Metric> {
    let mut out: Vec<Metric> = Vec::new();
    for g in found.iter().flatten() {
        for m in Metric::for_group(g) {
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }
    out
}

/// A row from each run's values (empty: the run lacks the figure).
pub(crate) fn row(metric: Metric, values: Vec<Vec<f64>>) -> MetricRow {
    let spreads: Vec<Option<Spread>> = values.iter().map(|v| Spread::of(v)).collect();
    let base = spreads.first().copied().flatten();
    let cells = values
        .into_iter()
        .zip(&spreads)
        .enumerate()
        .map(|(i, (values, spread))| Cell {
            spread: *spread,
            trend: Trend::of(&values, metric.direction()),
            delta: match (i, base, spread) {
                (0, _, _) => None,
                (_, Some(b), Some(s)) => Delta::between(b.median, s.median, metric.direction()),
                _ => None,
            },
            values,
        })
        .collect();
    MetricRow {
        metric,
        unit: metric.unit(),
        cells,
    }
}

fn io500_rows(runs: &[Run<'_>]) -> Vec<MetricRow> {
    let scores: Vec<Vec<(Metric, f64)>> =
        runs.iter().map(|r| Metric::io500_scores(r.doc)).collect();
    if scores.iter().all(|s| s.is_empty()) {
        return Vec::new();
    }
    [
        Metric::Io500BandwidthGibS,
        Metric::Io500IopsKiops,
        Metric::Io500Total,
    ]
    .into_iter()
    .map(|m| {
        let values = scores
            .iter()
            .map(|s| s.iter().filter(|(k, _)| *k == m).map(|(_, v)| *v).collect())
            .collect();
        row(m, values)
    })
    .filter(|r| !r.is_blank())
    .collect()
}
