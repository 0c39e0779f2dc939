//! `runs`, `show`, `compare`, `scaling` and `report`: stored runs through the report crate's
//! models and renderers.

use std::path::Path;

use report::{Figure, ListedRun, Render};
use store::Filter;

use super::{imported_from, info_of, open, open_existing, Loaded};
use crate::cli::{Format, ScaleOver};
use crate::world::usage;
use crate::world::Global;

fn print(model: &(impl Render + ?Sized), f: Format) {
    let text = report::render(model, f);
    crate::out!("{text}");
    if !text.ends_with('\n') {
        crate::outln!();
    }
}

/// `iogauge runs`: the stored runs that match the filters (the global `--label`s among them),
/// oldest first.
pub fn runs(global: &Global, workload: Option<String>, host: Option<String>, f: Format) -> u8 {
    use crate::command::registry;
    if let Some(w) = workload.as_deref().filter(|w| registry::find(w).is_none()) {
        return usage(
            "runs",
            format!(
                "--workload {w}: no such workload; the workloads are {}",
                registry::names("and")
            ),
        );
    }
    let store = match open(global, "runs") {
        Ok(s) => s,
        Err(code) => return code,
    };
    let filter = Filter {
        labels: global.storing.labels.clone(),
        workload,
        host,
    };
    let listed = match store.list(&filter) {
        Ok(l) => l,
        Err(e) => return usage("runs", format!("{e}")),
    };
    let rows: Vec<ListedRun> = listed
        .iter()
        .map(|r| {
            let info = info_of(
                r.id,
                &r.labels,
                r.complete,
                imported_from(r.source, &r.origin),
            );
            ListedRun {
                id: info.id,
                when: r.started.clone(),
                host: r.host.clone(),
                workload: r.workload.clone(),
                labels: info.labels,
                complete: r.complete,
                imported_from: info.imported_from,
                headline: r
                    .figures
                    .iter()
                    .map(|fig| Figure {
                        name: fig.name.clone(),
                        value: fig.value,
                        unit: fig.unit.clone(),
                    })
                    .collect(),
            }
        })
        .collect();
    if rows.is_empty() && matches!(f, Format::Table | Format::Markdown) {
        crate::outln!("no stored runs in {}", store.path().display());
        return 0;
    }
    print(rows.as_slice(), f);
    0
}

/// `iogauge show ID`.
pub fn show(global: &Global, id: i64, f: Format) -> u8 {
    let loaded =
        match open_existing(global, "show", &[id]).and_then(|s| Loaded::read(&s, &[id], "show")) {
            Ok(l) => l,
            Err(code) => return code,
        };
    let views = loaded.views();
    print(&report::summarize(&views[0]), f);
    0
}

/// A threshold such as `5%`, `5` or `2.5 %`.
fn percent(text: &str) -> Result<f64, String> {
    let number = text.trim().trim_end_matches('%').trim();
    match number.parse::<f64>() {
        Ok(p) if p.is_finite() && p >= 0.0 => Ok(p),
        _ => Err(format!(
            "--fail-if-slower {text}: expected a percentage such as 5%"
        )),
    }
}

/// `iogauge compare A B [C ...]`: the first run is the baseline; with `--fail-if-slower P%`
/// the exit status is 1 when a phase of a later run is more than P % slower than A's.
pub fn compare(
    global: &Global,
    ids: &[i64],
    fail_if_slower: Option<&str>,
    figures: Option<&str>,
    f: Format,
) -> u8 {
    let threshold = match fail_if_slower.map(percent).transpose() {
        Ok(t) => t,
        Err(e) => return usage("compare", e),
    };
    let figures = match figures.map(report::Figures::parse).transpose() {
        Ok(x) => x,
        Err(e) => return usage("compare", e),
    };
    let loaded = match open_existing(global, "compare", ids)
        .and_then(|s| Loaded::read(&s, ids, "compare"))
    {
        Ok(l) => l,
        Err(code) => return code,
    };
    let views = loaded.views();
    // An invalid run measured something other than what it claims: never a baseline.
    let baseline = &views[0];
    let mut invalid = baseline.doc.invalid_reasons();
    if !baseline.info.complete {
        invalid.push("it never finished".to_string());
    }
    if threshold.is_some() && !invalid.is_empty() {
        return usage(
            "compare",
            format!(
                "--fail-if-slower: run {} is not a valid baseline ({}); name a valid run first",
                baseline.id(),
                invalid.join("; ")
            ),
        );
    }
    let mut comparison = report::compare(&views);
    if let Some(chosen) = &figures {
        comparison.keep(chosen);
    }
    // A slowdown between different workloads, or without a phase in common, means nothing.
    if threshold.is_some() && !comparison.differs.comparable {
        return usage(
            "compare",
            format!(
                "--fail-if-slower: the runs are not comparable ({})",
                comparison.differs.why_not.join("; ")
            ),
        );
    }
    print(&comparison, f);
    // Runs that differ in ranks or nodes also get the scaling table (as a table only, so
    // that JSON and CSV stay one document; `iogauge scaling` prints it in every format).
    let counts = |r: &report::Run<'_>| (r.doc.ranks.count, r.doc.ranks.nodes);
    let tables = matches!(f, Format::Table | Format::Markdown);
    if tables && views.iter().any(|r| counts(r) != counts(&views[0])) {
        if let Ok(table) = report::scaling(&views, None) {
            crate::outln!();
            print(&table, f);
        }
    }
    let Some(p) = threshold else { return 0 };
    let mut code = 0;
    for candidate in &views[1..] {
        let verdict = report::check(&views[0], candidate, p);
        if !verdict.passed() {
            eprint!("{}", report::render(&verdict, report::Format::Table));
            code = 1;
        }
    }
    code
}

/// `iogauge scaling [IDS]`: the runs named, or those with the global `--label`s.
pub fn scaling(global: &Global, ids: &[i64], by: Option<ScaleOver>, f: Format) -> u8 {
    let opened = if ids.is_empty() {
        open(global, "scaling")
    } else {
        open_existing(global, "scaling", ids)
    };
    let store = match opened {
        Ok(s) => s,
        Err(code) => return code,
    };
    let ids: Vec<i64> = if ids.is_empty() {
        if global.storing.labels.is_empty() {
            return usage(
                "scaling",
                "name the runs (iogauge scaling 3 4 5) or a --label they share",
            );
        }
        let filter = Filter {
            labels: global.storing.labels.clone(),
            ..Filter::default()
        };
        match store.list(&filter) {
            Ok(l) => l.iter().map(|r| r.id.0).collect(),
            Err(e) => return usage("scaling", format!("{e}")),
        }
    } else {
        ids.to_vec()
    };
    let loaded = match Loaded::read(&store, &ids, "scaling") {
        Ok(l) => l,
        Err(code) => return code,
    };
    let by = by.map(|b| match b {
        ScaleOver::Ranks => report::ScaleBy::Ranks,
        ScaleOver::Nodes => report::ScaleBy::Nodes,
    });
    match report::scaling(&loaded.views(), by) {
        Ok(table) => {
            print(&table, f);
            0
        }
        Err(e) => usage("scaling", format!("{e}")),
    }
}

/// `iogauge report ID... -o FILE`: one run's page, or the comparison of several.
pub fn report(global: &Global, ids: &[i64], output: &Path, figures: Option<&str>) -> u8 {
    let figures = match figures.map(report::Figures::parse).transpose() {
        Ok(x) => x,
        Err(e) => return usage("report", e),
    };
    if figures.is_some() && ids.len() < 2 {
        return usage(
            "report",
            "--figures chooses the figures of a comparison: name two runs or more",
        );
    }
    let loaded =
        match open_existing(global, "report", ids).and_then(|s| Loaded::read(&s, ids, "report")) {
            Ok(l) => l,
            Err(code) => return code,
        };
    let views = loaded.views();
    let page = if views.len() == 1 {
        report::html::run_page(&views[0])
    } else {
        report::html::compare_page_of(&views, figures.as_ref())
    };
    if let Err(e) = std::fs::write(output, page) {
        return usage("report", format!("-o {}: {e}", output.display()));
    }
    crate::outln!("wrote {}", output.display());
    0
}
