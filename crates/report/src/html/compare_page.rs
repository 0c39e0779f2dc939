//! The page comparing runs: who they are, the comparison table with each run's change against
//! the baseline (the first run), then per phase a bar chart of the headline figure and the runs
//! overlaid: rate over time and latency CDF (each run's median iteration for the series, all
//! its iterations for the CDF) and the figure per iteration.

use super::charts;
use super::{render, Page, Section, Table, Td};
use crate::compare::{compare, Cell, MetricRow};
use crate::figures::Figures;
use crate::metric::Metric;
use crate::phases::{groups, slug, PhaseGroup};
use crate::render::{spread_text, COMPACT_AFTER};
use crate::run::Run;
use crate::spread::{median_index, Spread, Trend, Verdict};

/// The HTML page comparing `runs`; the first is the baseline.
pub fn compare_page(runs: &[Run<'_>]) -> String {
    compare_page_of(runs, None)
}

/// The page with only the `figures` chosen (`--figures`), all without.
pub fn compare_page_of(runs: &[Run<'_>], figures: Option<&Figures>) -> String {
    let mut c = compare(runs);
    if let Some(f) = figures {
        c.keep(f);
    }
    let mut who = Table::new(
        "Runs",
        &[
            "#", "run", "labels", "workload", "host", "ranks", "nodes", "started", "complete",
            "valid",
        ],
    );
    for (i, r) in c.runs.iter().enumerate() {
        who.rows.push(vec![
            Td::text(format!(
                "{}{}",
                i + 1,
                if i == 0 { " (baseline)" } else { "" }
            )),
            Td::text(&r.id),
            Td::text(&r.labels),
            Td::text(&r.workload),
            Td::text(&r.host),
            Td::num(r.ranks.to_string()),
            Td::num(r.nodes.to_string()),
            Td::text(&r.started),
            Td::with_class(r.completion(), if r.complete { "" } else { "bad" }),
            Td::with_class(r.validity(), if r.invalid.is_empty() { "" } else { "bad" }),
        ]);
    }
    let mut header = vec!["phase".to_string(), "figure".to_string()];
    header.extend(c.runs.iter().map(|r| r.id.clone()));
    let refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut table = Table::new("Comparison", &refs);
    // More runs than the terminal's compact threshold: the median alone in each cell (its
    // change below it) and the labels as rows above the phases, so six runs fit 1400 px.
    let compact = c.runs.len() > COMPACT_AFTER;
    table.note = match compact {
        true => "median over iterations; the change is against the baseline's median: ▲ better, ▼ worse, ≈ within 1%",
        false => "median (min–max) over iterations; the change is against the baseline's median: ▲ better, ▼ worse, ≈ within 1%",
    }
    .to_string();
    if compact {
        let mut keys: Vec<&String> = c.runs.iter().flat_map(|r| r.label_map.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            let mut tds = vec![Td::text("label"), Td::text(key)];
            tds.extend(
                c.runs
                    .iter()
                    .map(|r| Td::text(r.label_map.get(key).map_or("—", String::as_str))),
            );
            table.rows.push(tds);
        }
    }
    for (phase, row) in c.rows() {
        table.rows.push(row_tds(phase, row, compact));
    }
    let differs_header = header_with("parameter", &c.runs);
    let refs: Vec<&str> = differs_header.iter().map(String::as_str).collect();
    let mut differs = Table::new("What differs", &refs);
    differs.note = if !c.differs.comparable {
        format!("not comparable: {}", c.differs.why_not.join("; "))
    } else if c.differs.differences.is_empty() {
        "no parameter differs (the same options, ranks, host and version)".to_string()
    } else {
        "parameters not listed are the same in every run".to_string()
    };
    for p in &c.differs.differences {
        let mut tds = vec![Td::text(&p.parameter)];
        tds.extend(p.values.iter().map(Td::text));
        differs.rows.push(tds);
    }
    // Warnings after the answer (the page's warning block would open the page): one row each.
    let mut warnings = Table::new("Warnings", &["run", "warning"]);
    for r in runs {
        for w in crate::summary::summarize(r).warnings {
            warnings.rows.push(vec![Td::text(r.id()), Td::text(w)]);
        }
    }
    let grouped: Vec<Vec<PhaseGroup<'_>>> = runs.iter().map(|r| groups(r.doc)).collect();
    let mut all = Vec::new();
    let sections = c
        .phases
        .iter()
        .map(|p| section(&p.phase, runs, &grouped, &mut all))
        .collect();
    let ids: Vec<&str> = runs.iter().map(|r| r.id()).collect();
    render(&Page {
        title: format!("iogauge comparison of {} runs", runs.len()),
        subtitle: ids.join(" · "),
        facts: Vec::new(),
        warnings: Vec::new(),
        // The answer first: what differs and the change per phase, then who the runs are.
        tables: [differs, table, who, warnings]
            .into_iter()
            .filter(|t| t.title != "Warnings" || !t.rows.is_empty())
            .collect(),
        sections,
        charts: all,
    })
}

fn header_with(first: &str, runs: &[crate::compare::RunHeading]) -> Vec<String> {
    let mut h = vec![first.to_string()];
    h.extend(runs.iter().map(|r| r.id.clone()));
    h
}

fn row_tds(phase: &str, row: &MetricRow, compact: bool) -> Vec<Td> {
    let mut tds = vec![Td::text(phase), Td::text(row.metric.label())];
    tds.extend(
        row.cells
            .iter()
            .map(|cell| cell_td(cell, row.unit, compact)),
    );
    tds
}

fn cell_td(cell: &Cell, unit: &str, compact: bool) -> Td {
    let text = match (compact, cell.spread) {
        (true, Some(s)) => crate::fmt::figure(s.median, unit),
        (true, None) => "—".to_string(),
        (false, _) => spread_text(cell, unit),
    };
    let mut td = Td::num(text);
    let mut sub = Vec::new();
    if let Some(d) = cell.delta {
        sub.push(d.text());
        td.sub_class = match d.verdict {
            Verdict::Better => "better",
            Verdict::Worse => "worse",
            Verdict::Same => "same",
        };
    }
    if cell.trend != Trend::Steady {
        sub.push(cell.trend.note());
    }
    td.sub = sub.join(" · ");
    td
}

fn section(
    key: &str,
    runs: &[Run<'_>],
    grouped: &[Vec<PhaseGroup<'_>>],
    all: &mut Vec<charts::Chart>,
) -> Section {
    let found: Vec<(String, &PhaseGroup<'_>)> = runs
        .iter()
        .zip(grouped)
        .filter_map(|(r, gs)| {
            gs.iter()
                .find(|g| g.key == key)
                .map(|g| (r.id().to_string(), g))
        })
        .collect();
    let mut s = Section::new(key.to_string());
    let id = slug(key);
    let Some(head) = found.first().map(|(_, g)| Metric::headline(g)) else {
        return s;
    };
    let bars = runs
        .iter()
        .zip(grouped)
        .map(|(r, gs)| {
            let v = gs
                .iter()
                .find(|g| g.key == key)
                .and_then(|g| Spread::of(&head.samples(g)))
                .map(|s| s.median);
            (r.id().to_string(), v)
        })
        .collect();
    s.chart(charts::bars(&id, key, head, bars), all, "");
    // The series of each run's median iteration (by the headline figure).
    let lines: Vec<(String, &results::PhaseResult)> = found
        .iter()
        .filter_map(|(name, g)| {
            let rate = if g.moves_bytes() {
                Metric::BandwidthMibS
            } else {
                Metric::Iops
            };
            let values: Vec<f64> = g
                .iterations
                .iter()
                .filter_map(|p| rate.of_phase(p))
                .collect();
            let i = median_index(&values)?;
            Some((
                format!("{name} (iteration {})", g.iterations[i].iteration),
                g.iterations[i],
            ))
        })
        .collect();
    s.chart(
        charts::series(&id, key, &lines),
        all,
        "No interval samples in any run.",
    );
    let cdfs = found
        .iter()
        .map(|(name, g)| {
            (
                name.clone(),
                charts::merge_buckets(g.iterations.iter().copied()),
            )
        })
        .collect();
    s.chart(charts::cdf(&id, key, cdfs), all, "No latencies recorded.");
    if found.iter().any(|(_, g)| g.iterations.len() > 1) {
        let per_run = found
            .iter()
            .map(|(name, g)| {
                (
                    name.clone(),
                    g.iterations
                        .iter()
                        .filter_map(|p| head.of_phase(p))
                        .collect(),
                )
            })
            .collect();
        s.chart(charts::iterations(&id, key, head, per_run), all, "");
    }
    s.notes.push(format!(
        "Bars: the median {} per run ({}).",
        head.label(),
        if head.unit().is_empty() {
            "score"
        } else {
            head.unit()
        }
    ));
    s
}
