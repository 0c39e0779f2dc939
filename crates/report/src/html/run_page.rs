//! The page of one run, the answer first: the headline figures, the verdicts and the warnings
//! grouped by id and phase (`lead`), the summary table and the IO500 scores, then per phase
//! the rate over time, the latency CDF and percentiles, each rank's finish time (and every
//! rank's figures for the iteration with the worst straggler), the figure per iteration, and
//! where recorded the run's marks and the system's figures (`observed`); the run's facts and
//! parameters last (`layout`).

mod layout;
mod lead;

use super::charts;
use super::observed;
use super::rank_table::rank_table;
use super::{Facts, Section, Table, Td};
use crate::fmt::{self, yes_no};
use crate::metric::Metric;
use crate::phases::{groups, slug, PhaseGroup};
use crate::ranks::RankSpread;
use crate::run::Run;
use crate::spread::{Spread, Trend};
use crate::summary::{summarize, Field};
use results::RunResult;

/// The HTML page of one run.
pub fn run_page(run: &Run<'_>) -> String {
    let s = summarize(run);
    let doc = run.doc;
    let field = |n: &str, v: String| Field {
        name: n.to_string(),
        value: v,
    };
    let details = vec![
        Facts {
            title: "Run".to_string(),
            fields: vec![
                field("run", s.run.id.clone()),
                field("labels", s.run.labels.clone()),
                field("workload", s.run.workload.clone()),
                field("started", s.run.started.clone()),
                field("finished", s.finished.clone()),
                field("complete", s.run.completion_in_full()),
                field("valid", s.run.validity()),
                field("exit code", s.exit_code.to_string()),
                field(
                    "ranks",
                    format!(
                        "{} on {} node(s), {}",
                        doc.ranks.count, doc.ranks.nodes, doc.ranks.launcher
                    ),
                ),
                field("verification errors", s.verification_errors.to_string()),
                field("command line", s.command_line.clone()),
                field("iogauge", s.tool_version.clone()),
            ],
            wide: false,
        },
        Facts {
            title: "Environment".to_string(),
            fields: s.environment.clone(),
            wide: false,
        },
        Facts {
            title: "Parameters".to_string(),
            fields: s.parameters.clone(),
            wide: true,
        },
    ];
    let gs = groups(doc);
    let mut tables = io500_tables(run);
    tables.extend(ramp_table(run));
    tables.push(summary_table(&gs));
    tables.extend(observed::marks_table(doc));
    let mut all = Vec::new();
    let sections = gs.iter().map(|g| section(doc, g, &mut all)).collect();
    layout::render(&layout::Layout {
        title: format!("iogauge {} run {}", s.run.workload, s.run.id),
        subtitle: format!(
            "{} on {}, {} rank(s), started {}",
            s.run.workload, s.run.host, s.run.ranks, s.run.started
        ),
        lead: lead::lead(doc, &s, &gs),
        tables,
        sections,
        details,
        charts: all,
    })
}

fn spread_td(values: &[f64], unit: &str) -> Td {
    Td::num(Spread::of(values).map_or("—".to_string(), |s| fmt::spread(&s, unit)))
}

fn summary_table(gs: &[PhaseGroup<'_>]) -> Table {
    // Columns that would be empty for every phase are left out.
    let bytes = gs.iter().any(|g| g.moves_bytes());
    let trends: Vec<String> = gs
        .iter()
        .map(|g| {
            let head = Metric::headline(g);
            let values: Vec<f64> = g
                .iterations
                .iter()
                .filter_map(|p| head.of_phase(p))
                .collect();
            Trend::of(&values, head.direction()).note()
        })
        .collect();
    let any_trend = trends.iter().any(|t| !t.is_empty());
    let mut header = vec!["phase", "iterations"];
    if bytes {
        header.push("bandwidth");
    }
    header.extend(["IOPS", "time", "latency p50", "latency p99"]);
    if any_trend {
        header.push("trend");
    }
    let mut t = Table::new("Summary", &header);
    t.note = "median (min–max) over iterations".to_string();
    for (g, trend) in gs.iter().zip(trends) {
        let col = |m: Metric| spread_td(&m.samples(g), m.unit());
        let mut row = vec![Td::text(&g.key), Td::num(g.iterations.len().to_string())];
        if bytes {
            row.push(if g.moves_bytes() {
                col(Metric::BandwidthMibS)
            } else {
                Td::num("—")
            });
        }
        row.extend([
            col(Metric::Iops),
            col(Metric::TimeS),
            col(Metric::LatencyP50Ns),
            col(Metric::LatencyP99Ns),
        ]);
        if any_trend {
            row.push(Td::text(trend));
        }
        t.rows.push(row);
    }
    t
}

/// A `mix` run's load ramp: a row per step, the knee in the title.
fn ramp_table(run: &Run<'_>) -> Option<Table> {
    let m = run.doc.mix.as_ref()?;
    let title = format!("Load ramp (limit: {})", m.limit);
    let stat = format!("{} latency", m.limit.statistic_name());
    let mut t = Table::new(
        &title,
        &[
            "step",
            "requested ops/s",
            "achieved ops/s",
            &stat,
            "within limit",
            "note",
        ],
    );
    for s in &m.steps {
        t.rows.push(vec![
            Td::num(s.step.to_string()),
            Td::num(fmt::number(s.requested_ops_s)),
            Td::num(fmt::number(s.achieved_ops_s)),
            Td::num(fmt::duration_ns(s.latency_ns)),
            valid_td(s.within_limit),
            Td::text(if s.short_of_requested {
                "short of the requested rate"
            } else {
                ""
            }),
        ]);
    }
    t.note = crate::summary::knee_line(m);
    Some(t)
}

fn io500_tables(run: &Run<'_>) -> Vec<Table> {
    let Some(io) = run.doc.io500.as_ref() else {
        return Vec::new();
    };
    let mut phases = Table::new(
        "IO500 phases",
        &["phase", "score", "time (s)", "valid", "why not"],
    );
    for p in io.phases.iter().filter(|p| p.ran) {
        phases.rows.push(vec![
            Td::text(&p.phase),
            Td::num(format!("{} {}", fmt::number(p.score), p.unit.label())),
            Td::num(format!("{:.3}", p.time_s)),
            valid_td(p.valid),
            Td::text(p.invalid.join("; ")),
        ]);
    }
    let mut scores = Table::new(
        "IO500 score",
        &[
            "",
            "bandwidth (GiB/s)",
            "IOPS (kIOPS)",
            "total",
            "valid",
            "why not",
        ],
    );
    for (name, s) in [("[SCORE]", &io.score), ("[SCOREX]", &io.scorex)] {
        if let Some(s) = s {
            let mut row = vec![Td::text(name)];
            row.extend(s.text.iter().map(Td::num));
            row.push(valid_td(s.valid));
            row.push(Td::text(io.run_invalid.join("; ")));
            scores.rows.push(row);
        }
    }
    let mut out = Vec::new();
    if !scores.rows.is_empty() {
        out.push(scores);
    }
    out.push(phases);
    out
}

fn valid_td(valid: bool) -> Td {
    Td::with_class(yes_no(valid), if valid { "" } else { "bad" })
}

fn section(doc: &RunResult, g: &PhaseGroup<'_>, all: &mut Vec<charts::Chart>) -> Section {
    let n = g.iterations.len();
    let mut s = Section::new(format!(
        "{} — {n} iteration{}",
        g.key,
        if n == 1 { "" } else { "s" }
    ));
    let id = slug(&g.key);
    let label = |p: &results::PhaseResult| format!("iteration {}", p.iteration);
    let lines: Vec<(String, &results::PhaseResult)> =
        g.iterations.iter().map(|p| (label(p), *p)).collect();
    let marks = observed::chart_marks(doc, g);
    s.chart(
        charts::series(&id, &g.key, &lines).map(|c| c.with_marks(marks)),
        all,
        "No interval samples: the phase recorded no per-interval series.",
    );
    if let Some(p) = g.iterations.iter().find(|p| p.series.buckets.len() == 1) {
        if g.iterations.iter().all(|p| p.series.buckets.len() <= 1) {
            s.notes.push(format!(
                "Each iteration lasted less than one series interval ({} s): one sample each.",
                p.series.interval_s
            ));
        }
    }
    let buckets = lines
        .iter()
        .map(|(l, p)| (l.clone(), charts::merge_buckets([*p])))
        .collect();
    s.chart(
        charts::cdf(&id, &g.key, buckets),
        all,
        "No latencies recorded.",
    );
    s.chart(charts::ranks(&id, &g.key, &lines), all, "");
    if n > 1 {
        let head = Metric::headline(g);
        let values = head.samples(g);
        s.notes.push(match Trend::of(&values, head.direction()) {
            Trend::Steady => format!(
                "{} over iterations: no trend (rule: docs/reports.md).",
                head.label()
            ),
            t => format!("{}: {}.", head.label(), t.note()),
        });
        s.chart(
            charts::iterations(&id, &g.key, head, vec![("this run".to_string(), values)]),
            all,
            "",
        );
    }
    for p in &g.iterations {
        if let Some(r) = RankSpread::of(p).filter(|r| r.slowest_s > r.fastest_s) {
            s.notes
                .push(format!("Iteration {}: slowest {}.", p.iteration, r.text()));
        }
    }
    s.tables.extend(observed::stretch_tables(doc, g));
    s.tables.push(percentile_table(g));
    s.tables.extend(rank_table(g));
    observed::system_block(doc, g, &id, &mut s, all);
    s
}

fn percentile_table(g: &PhaseGroup<'_>) -> Table {
    let pcts: Vec<f64> = g
        .iterations
        .first()
        .map(|p| p.latency.percentiles.iter().map(|q| q.p).collect())
        .unwrap_or_default();
    let mut header: Vec<String> = vec!["iteration".into(), "operations".into(), "mean".into()];
    header.extend(pcts.iter().map(|p| format!("p{p}")));
    header.push("max".into());
    let refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut t = Table::new("Latency per operation", &refs);
    for p in &g.iterations {
        let l = &p.latency;
        let mut row = vec![
            Td::text(p.iteration.to_string()),
            Td::num(l.count.to_string()),
            Td::num(fmt::duration_ns(l.mean)),
        ];
        row.extend(
            l.percentiles
                .iter()
                .map(|q| Td::num(fmt::duration_ns(q.value as f64))),
        );
        row.push(Td::num(fmt::duration_ns(l.max as f64)));
        t.rows.push(row);
    }
    t
}
