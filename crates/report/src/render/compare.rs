//! The comparison: a table of the runs, then one row per phase and figure with each run's
//! median (min–max over iterations) and its change against the baseline, then the trend notes.

use super::csv::{num, Csv};
use super::{name_of, table, Render};
use crate::compare::{Cell, Comparison, MetricRow, RunHeading};
use crate::differs::Differs;
use crate::fmt;
use crate::spread::Trend;

/// `2687 MiB/s (95.04–3662)` or, for one iteration, the value alone; `—` when absent.
pub(crate) fn spread_text(cell: &Cell, unit: &str) -> String {
    match cell.spread {
        None => "—".to_string(),
        Some(s) => fmt::spread(&s, unit),
    }
}

pub(crate) fn runs_table(runs: &[RunHeading]) -> String {
    let mut t = table::new(
        &[
            "#", "run", "labels", "workload", "host", "ranks", "nodes", "started", "complete",
            "valid",
        ],
        &[0, 5, 6],
    );
    for (i, r) in runs.iter().enumerate() {
        let mark = if i == 0 { " (baseline)" } else { "" };
        t.add_row(vec![
            format!("{}", i + 1),
            format!("{}{mark}", r.id),
            r.labels.clone(),
            r.workload.clone(),
            r.host.clone(),
            r.ranks.to_string(),
            r.nodes.to_string(),
            r.started.clone(),
            r.completion().to_string(),
            r.validity(),
        ]);
    }
    t.to_string()
}

impl Render for Comparison {
    fn table(&self) -> String {
        let mut out = differs_text(&self.differs, &self.runs);
        out.push_str(&runs_table(&self.runs));
        out.push_str("\n\n");
        if self.runs.len() > COMPACT_AFTER {
            out.push_str(&compact(self));
            out.push_str(&trend_notes(self));
            return out;
        }
        let mut header = vec!["phase".to_string(), "figure".to_string()];
        header.extend(self.runs.iter().map(|r| r.id.clone()));
        header.extend(
            self.runs
                .iter()
                .skip(1)
                .map(|r| format!("vs baseline: {}", r.id)),
        );
        let refs: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut t = table::new(&refs, &table::from(2, refs.len()));
        for (phase, row) in self.rows() {
            t.add_row(row_cells(phase, row));
        }
        table::section(
            &mut out,
            "Figures: median (min–max) over iterations; ▲ better, ▼ worse, ≈ within 1%",
            &t,
        );
        out.push_str(&trend_notes(self));
        out
    }

    fn csv(&self) -> String {
        // The differing parameters as trailing columns: each row carries its run's values,
        // and the columns by name stay where they were.
        let d = &self.differs;
        let mut header = vec![
            "phase",
            "metric",
            "unit",
            "run",
            "baseline",
            "iterations",
            "min",
            "median",
            "max",
            "percent",
            "verdict",
            "trend",
            "comparable",
        ];
        header.extend(d.differences.iter().map(|p| p.parameter.as_str()));
        let mut c = Csv::new(&header);
        let comparable = d.comparable.to_string();
        for (phase, row) in self.rows() {
            for (i, (cell, run)) in row.cells.iter().zip(&self.runs).enumerate() {
                let s = cell.spread;
                let mut fields = vec![
                    phase.to_string(),
                    name_of(row.metric),
                    row.unit.to_string(),
                    run.id.clone(),
                    (i == 0).to_string(),
                    s.map_or(0, |s| s.n).to_string(),
                    num(s.map(|s| s.min)),
                    num(s.map(|s| s.median)),
                    num(s.map(|s| s.max)),
                    num(cell.delta.map(|d| d.percent)),
                    cell.delta.map_or(String::new(), |d| name_of(d.verdict)),
                    trend_name(cell.trend),
                    comparable.clone(),
                ];
                fields.extend(d.differences.iter().map(|p| p.values[i].clone()));
                c.row(fields);
            }
        }
        c.finish()
    }
}

/// The opening lines: whether the runs compare at all, then each parameter that differs with
/// every run's value.
pub(crate) fn differs_text(d: &Differs, runs: &[RunHeading]) -> String {
    let mut out = String::new();
    if !d.comparable {
        out.push_str(&format!("Not comparable: {}\n", d.why_not.join("; ")));
    }
    if d.differences.is_empty() {
        if runs.len() > 1 {
            out.push_str(
                "What differs: no parameter (the same options, ranks, host and version)\n\n",
            );
        }
        return out;
    }
    let mut header = vec!["parameter".to_string()];
    header.extend(runs.iter().map(|r| r.id.clone()));
    let refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut t = table::new(&refs, &[]);
    for p in &d.differences {
        let mut cells = vec![p.parameter.clone()];
        cells.extend(p.values.iter().cloned());
        t.add_row(cells);
    }
    table::section(&mut out, "What differs", &t);
    out
}

/// More runs than this get the compact layout: one column per run with its change in the
/// same cell, as the configuration tables storage teams keep.
pub(crate) const COMPACT_AFTER: usize = 3;

/// Label rows (one per label key), then every phase's figures, then the IO500 score rows.
fn compact(c: &Comparison) -> String {
    let mut header = vec!["phase".to_string(), "figure".to_string()];
    header.extend(c.runs.iter().enumerate().map(|(i, r)| {
        if i == 0 {
            format!("{} (baseline)", r.id)
        } else {
            r.id.clone()
        }
    }));
    let refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut t = table::new(&refs, &table::from(2, refs.len()));
    let mut keys: Vec<&String> = c.runs.iter().flat_map(|r| r.label_map.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        let mut cells = vec!["label".to_string(), key.clone()];
        cells.extend(c.runs.iter().map(|r| {
            r.label_map
                .get(key)
                .cloned()
                .unwrap_or_else(|| "—".to_string())
        }));
        t.add_row(cells);
    }
    for (phase, row) in c.rows() {
        let mut cells = vec![phase.to_string(), row.metric.label().to_string()];
        cells.extend(row.cells.iter().map(|cell| compact_cell(cell, row.unit)));
        t.add_row(cells);
    }
    let mut out = String::new();
    table::section(
        &mut out,
        "Figures: median over iterations (change against the baseline: ▲ better, ▼ worse, ≈ within 1%)",
        &t,
    );
    out
}

/// `1234 MiB/s (−3.1 % ▼)`; the baseline's figure alone; `—` when absent.
pub(crate) fn compact_cell(cell: &Cell, unit: &str) -> String {
    let Some(s) = cell.spread else {
        return "—".to_string();
    };
    let value = fmt::figure(s.median, unit);
    match cell.delta {
        Some(d) => {
            let sign = if d.percent < 0.0 { "−" } else { "+" };
            format!(
                "{value} ({sign}{:.1} % {})",
                d.percent.abs(),
                d.verdict.arrow()
            )
        }
        None => value,
    }
}

fn trend_notes(c: &Comparison) -> String {
    let mut out = String::new();
    for (phase, row) in c.rows() {
        for (cell, run) in row.cells.iter().zip(&c.runs) {
            if cell.trend != Trend::Steady {
                if out.is_empty() {
                    out.push_str("Trends over iterations:\n");
                }
                out.push_str(&format!(
                    "  {phase} {} in {}: {}\n",
                    row.metric.label(),
                    run.id,
                    cell.trend.note()
                ));
            }
        }
    }
    out
}

fn row_cells(phase: &str, row: &MetricRow) -> Vec<String> {
    let mut cells = vec![phase.to_string(), row.metric.label().to_string()];
    cells.extend(row.cells.iter().map(|c| spread_text(c, row.unit)));
    cells.extend(
        row.cells
            .iter()
            .skip(1)
            .map(|c| c.delta.map_or("n/a".to_string(), |d| d.text())),
    );
    cells
}

fn trend_name(t: Trend) -> String {
    match t {
        Trend::Steady => "steady".to_string(),
        Trend::Degrading { percent } => format!("degrading {percent:.1}%"),
        Trend::Improving { percent } => format!("improving {percent:.1}%"),
    }
}
