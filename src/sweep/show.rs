//! `iogauge sweep show ID` and the end of `iogauge sweep`: the stored points of a sweep as
//! the table over repeats, the findings, and on request the HTML page.

use std::path::Path;

use store::{Filter, Label, Store, StoredSweep};
use sweep::{Finding, Matrix, Sample};

use super::design::Design;
use super::run::point_of;
use crate::cli::Format;

/// A sweep read back: its plan and the table of its measured points.
pub struct Loaded {
    pub sweep: StoredSweep,
    pub design: Design,
    pub matrix: Matrix,
    /// Runs of the sweep that failed or did not finish (not in the table).
    pub not_counted: Vec<i64>,
    /// The knee of every `mix` run of the sweep, and for `dlio` runs the most accelerators
    /// at AU ≥ its threshold, as findings.
    pub knees: Vec<Finding>,
}

pub fn load(store: &Store, id: i64) -> Result<Loaded, String> {
    let sweep = store.sweep(id).map_err(|e| e.to_string())?.ok_or_else(|| {
        format!(
            "no sweep {id} in {} (a sweep prints its id when it starts)",
            store.path().display()
        )
    })?;
    let design: Design = serde_json::from_str(&sweep.plan)
        .map_err(|e| format!("sweep {id}: its stored plan does not read back: {e}"))?;
    let filter = Filter {
        labels: vec![Label::new("sweep", &id.to_string())],
        ..Filter::default()
    };
    let runs = store.list(&filter).map_err(|e| e.to_string())?;
    let mut samples = Vec::new();
    let mut not_counted = Vec::new();
    let mut knees = Vec::new();
    let mut au = Vec::new();
    for r in &runs {
        let Some(p) = point_of(&design, &r.labels) else {
            continue;
        };
        if !r.complete || r.exit_code != Some(0) {
            not_counted.push(r.id.0);
            continue;
        }
        // A load ramp's run is listed by its knee (`store::headline`).
        if r.figures.iter().any(|f| f.name == "knee") {
            knees.extend(mix_knee(store, r.id)?);
        }
        if r.workload == "dlio" {
            au.extend(dlio_au(store, r.id, &p.values)?);
        }
        samples.push(Sample {
            values: p.values,
            repeat: p.repeat,
            run: r.id.0,
            figures: r
                .figures
                .iter()
                .filter(|f| f.valid)
                .map(|f| (f.name.clone(), f.unit.clone(), f.value))
                .collect(),
        });
    }
    if let Some(axis) = design.axes.first().filter(|_| !au.is_empty()) {
        knees.extend(sweep::most_accelerators(&axis.name, &au));
    }
    let matrix = Matrix::build(&design.axes, design.repeats, &samples);
    Ok(Loaded {
        sweep,
        design,
        matrix,
        not_counted,
        knees,
    })
}

/// A stored `dlio` run's mean AU against its threshold, at its value of the sweep's first
/// axis (`tasks` in `sweep --vary tasks=1..16 dlio ...`); none without training figures.
fn dlio_au(
    store: &Store,
    id: store::RunId,
    values: &[String],
) -> Result<Option<sweep::AuPoint>, String> {
    let run = store.load(id).map_err(|e| e.to_string())?;
    let (Some(dlio), Some(value)) = (run.doc.dlio, values.first()) else {
        return Ok(None);
    };
    Ok(dlio.metric.map(|m| sweep::AuPoint {
        value: value.clone(),
        au_percent: m.train_au_mean_percentage,
        threshold_percent: dlio.au_threshold_percent,
        run: id.0,
    }))
}

/// A stored `mix` run's knee (none when no step stayed within its latency limit), with the
/// limit's statistic at the knee and at the step before it.
fn mix_knee(store: &Store, id: store::RunId) -> Result<Option<Finding>, String> {
    let run = store.load(id).map_err(|e| e.to_string())?;
    let Some(mix) = run.doc.mix else {
        return Ok(None);
    };
    let Some(knee) = &mix.knee else {
        return Ok(None);
    };
    let below = mix.steps.iter().find(|s| s.step + 1 == knee.step);
    Ok(Some(sweep::knee_finding(&sweep::RampKnee {
        run: id.0,
        load_name: "offered load".to_string(),
        load: knee.requested_ops_s,
        load_unit: "ops/s".to_string(),
        rate: knee.achieved_ops_s,
        rate_unit: "ops/s".to_string(),
        latency_ns: below.map(|b| (mix.limit.statistic_name(), knee.latency_ns, b.latency_ns)),
    })))
}

/// The sweep's findings: those of its table, then the knees of its load ramps.
fn findings(l: &Loaded, threshold: f64) -> Vec<Finding> {
    let mut all = sweep::advise(&l.matrix, threshold);
    all.extend(l.knees.iter().cloned());
    all
}

/// Prints the table and the findings (as text or markdown), or the model as JSON/CSV.
pub fn print(l: &Loaded, format: Format, threshold: f64) {
    let findings = findings(l, threshold);
    match format {
        Format::Json => {
            let doc = serde_json::json!({
                "sweep": l.sweep.id,
                "created": l.sweep.created,
                "plan": l.design,
                "matrix": l.matrix,
                "findings": findings,
                "not_counted": l.not_counted,
            });
            crate::outln!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        }
        Format::Csv => crate::out!("{}", report::render(&l.matrix, report::Format::Csv)),
        Format::Table => crate::out!("{}", text(l, &findings, threshold)),
        // The same text; its table becomes a GFM table and its indented lines list items.
        Format::Markdown => crate::out!("{}", report::markdown(|| text(l, &findings, threshold))),
    }
}

/// The table with a heading line, then the findings.
fn text(l: &Loaded, findings: &[Finding], threshold: f64) -> String {
    let mut out = format!(
        "sweep {} ({}): iogauge {}\n",
        l.sweep.id,
        l.sweep.created,
        super::run::shell_line(&l.design.command)
    );
    out += &report::render(&l.matrix, report::Format::Table);
    if !l.not_counted.is_empty() {
        let ids: Vec<String> = l.not_counted.iter().map(i64::to_string).collect();
        out += &format!(
            "not counted (failed or unfinished): run {}\n",
            ids.join(", ")
        );
    }
    if findings.is_empty() {
        out += "\nNo findings: a parameter needs two measured values or more.\n";
        return out;
    }
    out += &format!("\nFindings (diminishing returns: doubling adds less than {threshold} %):\n");
    let mut last = "";
    for f in findings {
        if f.parameter != last {
            out += &format!("  {}:\n", f.parameter);
            last = &f.parameter;
        }
        out += &format!("    - {}\n", f.text);
    }
    out
}

/// Writes the HTML page.
pub fn write_html(l: &Loaded, threshold: f64, path: &Path) -> Result<(), String> {
    let findings = findings(l, threshold);
    let facts = vec![
        ("sweep".to_string(), l.sweep.id.to_string()),
        ("created".to_string(), l.sweep.created.clone()),
        (
            "command".to_string(),
            format!("iogauge {}", super::run::shell_line(&l.design.command)),
        ),
        ("repeats".to_string(), l.design.repeats.to_string()),
        (
            "threshold".to_string(),
            format!("{threshold} % per doubling"),
        ),
    ];
    let page = sweep::sweep_charts(
        &format!("iogauge sweep {}", l.sweep.id),
        facts,
        &l.matrix,
        &findings,
    );
    std::fs::write(path, report::html::sweep_page(&page))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
