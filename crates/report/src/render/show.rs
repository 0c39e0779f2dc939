//! One run in full for a terminal; its CSV is the per-phase table.

use super::csv::{num, Csv};
use super::{table, Render};
use crate::fmt::{self, yes_no};
use crate::summary::{Field, PhaseLine, RunSummary};

impl Render for RunSummary {
    fn table(&self) -> String {
        let mut out = String::new();
        let r = &self.run;
        let run_fields = [
            ("run", r.id.clone()),
            ("labels", r.labels.clone()),
            ("workload", r.workload.clone()),
            ("iogauge", self.tool_version.clone()),
            ("started", r.started.clone()),
            ("finished", self.finished.clone()),
            ("complete", r.completion_in_full()),
            ("valid", r.validity()),
            ("exit code", self.exit_code.to_string()),
            ("ranks", format!("{} on {} node(s)", r.ranks, r.nodes)),
            ("verification errors", self.verification_errors.to_string()),
            ("command line", self.command_line.clone()),
        ];
        let t = table::pairs(run_fields.iter().map(|(k, v)| (*k, v.as_str())));
        table::section(&mut out, "Run", &t);
        table::section(&mut out, "Environment", &fields_table(&self.environment));
        table::section(&mut out, "Parameters", &fields_table(&self.parameters));
        table::section(
            &mut out,
            "Phases (latency per operation)",
            &phases_table(&self.phases),
        );
        if !self.iterations.is_empty() {
            let mut t = table::new(
                &[
                    "phase",
                    "figure",
                    "min",
                    "median",
                    "max",
                    "per iteration",
                    "trend",
                ],
                &[2, 3, 4],
            );
            for s in &self.iterations {
                let values: Vec<String> = s.values.iter().map(|v| fmt::number(*v)).collect();
                t.add_row(vec![
                    s.phase.clone(),
                    s.metric.label().to_string(),
                    fmt::figure(s.spread.min, s.unit),
                    fmt::figure(s.spread.median, s.unit),
                    fmt::figure(s.spread.max, s.unit),
                    values.join(" "),
                    s.trend.note(),
                ]);
            }
            table::section(&mut out, "Iterations", &t);
        }
        if let Some(io) = &self.io500 {
            let mut t = table::new(&["phase", "score", "time (s)", "valid", "why not"], &[1, 2]);
            for p in io.phases.iter().filter(|p| p.ran) {
                t.add_row(vec![
                    p.phase.clone(),
                    format!("{} {}", fmt::number(p.score), p.unit.label()),
                    format!("{:.3}", p.time_s),
                    yes_no(p.valid).to_string(),
                    p.invalid.join("; "),
                ]);
            }
            table::section(&mut out, "IO500", &t);
            for (name, s) in [("SCORE", &io.score), ("SCOREX", &io.scorex)] {
                if let Some(s) = s {
                    out.push_str(&format!(
                        "[{name}] bandwidth {} GiB/s, IOPS {} kIOPS, total {}{}\n",
                        s.text[0],
                        s.text[1],
                        s.text[2],
                        if s.valid {
                            String::new()
                        } else {
                            format!(" [INVALID] {}", io.run_invalid.join("; "))
                        }
                    ));
                }
            }
            out.push('\n');
        }
        if let Some(m) = &self.mix {
            let t = ramp_table(m);
            table::section(&mut out, &format!("Load ramp (limit: {})", m.limit), &t);
            out.push_str(&format!("{}\n\n", crate::summary::knee_line(m)));
        }
        super::observed::marks(&mut out, self);
        super::observed::system(&mut out, self);
        if !self.warnings.is_empty() {
            out.push_str("Warnings\n");
            for w in &self.warnings {
                out.push_str(&format!("  - {w}\n"));
            }
        }
        out
    }

    fn csv(&self) -> String {
        let pcts: Vec<f64> = self
            .phases
            .first()
            .map(|p| p.percentiles.iter().map(|q| q.0).collect())
            .unwrap_or_default();
        let mut header: Vec<String> = [
            "phase",
            "iteration",
            "bytes",
            "ops",
            "bandwidth_mib_s",
            "iops",
            "time_s",
            "latency_count",
            "latency_mean_ns",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        header.extend(pcts.iter().map(|p| format!("latency_p{p}_ns")));
        header.extend(
            [
                "latency_max_ns",
                "slowest_rank",
                "slowest_rank_s",
                "median_rank_s",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        let refs: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut c = Csv::new(&refs);
        for p in &self.phases {
            let mut row = vec![
                p.phase.clone(),
                p.iteration.to_string(),
                p.bytes.to_string(),
                p.ops.to_string(),
                num(p.bandwidth_mib_s),
                num(Some(p.iops)),
                num(Some(p.time_s)),
                p.latency_count.to_string(),
                num(Some(p.latency_mean_ns)),
            ];
            row.extend(pcts.iter().map(|want| {
                p.percentiles
                    .iter()
                    .find(|q| q.0 == *want)
                    .map_or(String::new(), |q| q.1.to_string())
            }));
            row.push(p.latency_max_ns.to_string());
            row.push(
                p.ranks
                    .map_or(String::new(), |r| r.slowest_rank.to_string()),
            );
            row.push(num(p.ranks.map(|r| r.slowest_s)));
            row.push(num(p.ranks.map(|r| r.median_s)));
            c.row(row);
        }
        c.finish()
    }
}

fn fields_table(fields: &[Field]) -> comfy_table::Table {
    table::pairs(fields.iter().map(|f| (f.name.as_str(), f.value.as_str())))
}

fn phases_table(phases: &[PhaseLine]) -> comfy_table::Table {
    let pcts: Vec<f64> = phases
        .first()
        .map(|p| p.percentiles.iter().map(|q| q.0).collect())
        .unwrap_or_default();
    let mut header: Vec<String> = ["phase", "iter", "MiB/s", "IOPS", "time (s)"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    header.extend(pcts.iter().map(|p| format!("p{p}")));
    header.extend(["max".to_string(), "slowest rank".to_string()]);
    let refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut t = table::new(&refs, &table::from(1, refs.len()));
    for p in phases {
        let mut row = vec![
            p.phase.clone(),
            p.iteration.to_string(),
            p.bandwidth_mib_s.map_or("—".to_string(), fmt::number),
            fmt::number(p.iops),
            format!("{:.4}", p.time_s),
        ];
        let lat = |ns: f64| {
            if p.latency_count == 0 {
                "—".to_string()
            } else {
                fmt::duration_ns(ns)
            }
        };
        row.extend(pcts.iter().map(|want| {
            p.percentiles
                .iter()
                .find(|q| q.0 == *want)
                .map_or("—".to_string(), |q| lat(q.1 as f64))
        }));
        row.push(lat(p.latency_max_ns as f64));
        row.push(p.ranks.map_or("—".to_string(), |r| r.short()));
        t.add_row(row);
    }
    t
}

/// A `mix` run's steps: the rate asked for and reached, and the limit's statistic.
fn ramp_table(m: &results::mix::MixResult) -> comfy_table::Table {
    let stat = format!("{} latency", m.limit.statistic_name());
    let mut t = table::new(
        &[
            "step",
            "requested ops/s",
            "achieved ops/s",
            &stat,
            "within limit",
            "note",
        ],
        &[0, 1, 2, 3],
    );
    for s in &m.steps {
        t.add_row(vec![
            s.step.to_string(),
            fmt::number(s.requested_ops_s),
            fmt::number(s.achieved_ops_s),
            fmt::duration_ns(s.latency_ns),
            yes_no(s.within_limit).to_string(),
            if s.short_of_requested {
                "short of the requested rate".to_string()
            } else {
                String::new()
            },
        ]);
    }
    t
}
