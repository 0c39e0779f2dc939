//! The HTML pages: they hold the run's figures, reference nothing on the network, and render
//! in a real browser with every chart drawn (screenshots kept under the target's tmp dir).

use crate::browser;
use crate::docs;
use report::html::{compare_page, run_page};
use report::RunInfo;
use results::{PhaseResult, RunResult};
use std::path::PathBuf;

mod run_page;

pub(crate) fn out_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-html");
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub(crate) fn key(p: &PhaseResult) -> String {
    p.io500_phase
        .clone()
        .unwrap_or_else(|| p.operation.label().to_string())
}

/// The document's phases by key, in first-seen order.
fn by_key(doc: &RunResult) -> Vec<(String, Vec<&PhaseResult>)> {
    let mut out: Vec<(String, Vec<&PhaseResult>)> = Vec::new();
    for p in &doc.phases {
        match out.iter_mut().find(|(k, _)| *k == key(p)) {
            Some((_, v)) => v.push(p),
            None => out.push((key(p), vec![p])),
        }
    }
    out
}

/// The charts a run page must draw and their points, counted from the document.
pub(crate) fn expected_run_charts(doc: &RunResult) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for (k, ps) in by_key(doc) {
        let sum = |f: &dyn Fn(&PhaseResult) -> usize| ps.iter().map(|p| f(p) as u64).sum::<u64>();
        out.push((format!("series-{k}"), sum(&|p| p.series.buckets.len())));
        out.push((format!("cdf-{k}"), sum(&|p| p.latency.buckets.len())));
        out.push((format!("ranks-{k}"), sum(&|p| p.per_rank.len())));
        if ps.len() > 1 {
            out.push((format!("iters-{k}"), ps.len() as u64));
        }
    }
    out.retain(|(_, n)| *n > 0);
    out
}

fn rate(p: &PhaseResult) -> f64 {
    if p.bytes > 0 {
        p.bandwidth_mib_s
    } else {
        p.iops
    }
}

/// The charts a comparison page must draw: per phase a bar per run that has it, the series of
/// each run's median iteration, the CDF of all its iterations' buckets merged, and the figure
/// per iteration when a run repeated the phase.
pub(crate) fn expected_compare_charts(docs: &[RunResult]) -> Vec<(String, u64)> {
    let grouped: Vec<_> = docs.iter().map(by_key).collect();
    let mut keys: Vec<String> = Vec::new();
    for g in &grouped {
        for (k, _) in g {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
    }
    let mut out = Vec::new();
    for k in keys {
        let found: Vec<&Vec<&PhaseResult>> = grouped
            .iter()
            .filter_map(|g| g.iter().find(|(kk, _)| *kk == k).map(|(_, v)| v))
            .collect();
        out.push((format!("bars-{k}"), found.len() as u64));
        let series: u64 = found
            .iter()
            .map(|ps| {
                let mut sorted: Vec<&&PhaseResult> = ps.iter().collect();
                sorted.sort_by(|a, b| rate(a).total_cmp(&rate(b)));
                sorted[(sorted.len() - 1) / 2].series.buckets.len() as u64
            })
            .sum();
        out.push((format!("series-{k}"), series));
        let cdf: u64 = found
            .iter()
            .map(|ps| {
                let mut values: Vec<u64> = ps
                    .iter()
                    .flat_map(|p| p.latency.buckets.iter().map(|b| b.value))
                    .collect();
                values.sort();
                values.dedup();
                values.len() as u64
            })
            .sum();
        out.push((format!("cdf-{k}"), cdf));
        if found.iter().any(|ps| ps.len() > 1) {
            out.push((
                format!("iters-{k}"),
                found.iter().map(|ps| ps.len() as u64).sum(),
            ));
        }
    }
    out.retain(|(_, n)| *n > 0);
    out
}

/// What a page may not reference: anything fetched from a network.
fn assert_offline(html: &str) {
    let lower = html.to_ascii_lowercase();
    for attr in [
        "src=",
        "href=",
        "url(",
        "@import",
        "fetch(",
        "xmlhttprequest",
        "<link",
    ] {
        let mut rest = lower.as_str();
        while let Some(i) = rest.find(attr) {
            let after = rest[i + attr.len()..].trim_start_matches(['"', '\'', ' ']);
            assert!(
                !after.starts_with("http:")
                    && !after.starts_with("https:")
                    && !after.starts_with("//"),
                "the page references the network: {}",
                &rest[i..(i + 80).min(rest.len())]
            );
            rest = &rest[i + attr.len()..];
        }
    }
    assert!(!lower.contains("<script src"), "an external script");
    assert!(
        !lower.contains("<link"),
        "an external style sheet or resource"
    );
}

/// Writes the page, renders it, checks every expected chart was drawn with its points, and
/// keeps a screenshot; returns the DOM.
pub(crate) fn render_and_check(name: &str, html: &str, expected: &[(String, u64)]) -> String {
    let dir = out_dir();
    let page = dir.join(format!("{name}.html"));
    std::fs::write(&page, html).unwrap();
    let dom = browser::dump_dom(&page);
    let marks = browser::charts(&dom);
    assert!(!expected.is_empty());
    for (id, points) in expected {
        let m = marks
            .iter()
            .find(|m| m.id == *id)
            .unwrap_or_else(|| panic!("{name}: chart {id} is not in the page: {marks:?}"));
        assert_eq!(m.error, None, "{name}: chart {id} failed");
        assert!(m.drawn, "{name}: chart {id} was not drawn");
        assert_eq!(m.points, Some(*points), "{name}: chart {id} points");
    }
    let ids: Vec<&str> = expected.iter().map(|(i, _)| i.as_str()).collect();
    for m in &marks {
        assert!(
            ids.contains(&m.id.as_str()),
            "{name}: unexpected chart {}",
            m.id
        );
    }
    assert!(
        dom.contains("class=\"uplot"),
        "{name}: uPlot built no chart"
    );
    browser::screenshot(&page, &dir.join(format!("{name}.png")), 2000);
    // A taller one for people to look at the whole page.
    browser::screenshot(&page, &dir.join(format!("{name}-full.png")), 6000);
    dom
}

/// The text a reader sees: the HTML's escapes undone.
pub(crate) fn unescape(html: &str) -> String {
    html.replace("&#x2f;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn run_page_holds_the_figures_offline() {
    let doc = docs::ior4();
    let html = run_page_of(&doc);
    assert_offline(&html);
    let html = unescape(&html);
    assert!(html.contains(&doc.run_id));
    assert!(html.contains(&doc.environment.hostname));
    for (k, ps) in by_key(&doc) {
        let mut bw: Vec<f64> = ps.iter().map(|p| p.bandwidth_mib_s).collect();
        bw.sort_by(f64::total_cmp);
        let median = bw[bw.len() / 2]; // odd count in this document
        let text = report::fmt::figure(median, "MiB/s");
        assert!(
            html.contains(&text),
            "{k}: median bandwidth {text} not in the page"
        );
        for p in ps {
            assert!(
                html.contains(&format!(">{}<", p.latency.count)),
                "{k}: operations"
            );
        }
    }
    for w in &doc.warnings {
        assert!(html.contains(w.as_str()));
    }
    assert!(html.contains("data-chart=\"series-write\""));
}

#[test]
fn warnings_with_their_ids_and_evidence_and_every_rank() {
    let mut doc = docs::ior2();
    doc.alerts.push(results::Alert::new(
        results::AlertId::ReadSameNode,
        "same node".into(),
    ));
    let alert = results::Alert::new(results::AlertId::ReadCached, "cached".into())
        .with("resident_fraction", 0.97)
        .with("drop_method", "files");
    doc.phases[1].alerts.push(alert);
    let html = unescape(&run_page_of(&doc));
    assert!(html.contains("[read-same-node] same node"));
    let line = format!(
        "{} (iteration {}): [read-cached] cached (evidence: drop_method files, \
         resident_fraction 0.9700)",
        key(&doc.phases[1]),
        doc.phases[1].iteration
    );
    assert!(html.contains(&line), "{line}");
    // The write iteration whose last rank lagged the median most.
    let lag = |p: &&PhaseResult| p.rank_spread().unwrap().slowest_to_median.unwrap();
    let writes = doc.phases.iter().filter(|p| key(p) == key(&doc.phases[0]));
    let p = writes.max_by(|a, b| lag(a).total_cmp(&lag(b))).unwrap();
    assert!(p.per_rank.len() > 1);
    assert!(html.contains(&format!("Ranks, iteration {}", p.iteration)));
    for r in &p.per_rank {
        assert!(
            html.contains(&format!(">{:.4}<", r.close_stop_s)),
            "rank {}",
            r.rank
        );
    }
}

pub(crate) fn run_page_of(doc: &RunResult) -> String {
    run_page(&report::Run::new(doc, &RunInfo::of(doc)))
}

#[test]
fn page_text_is_escaped() {
    let mut doc = docs::ior2();
    doc.warnings
        .push("<script>alert(1)</script> & </script>".to_string());
    let html = run_page_of(&doc);
    assert!(!html.contains("<script>alert(1)"));
    assert!(html.contains("&lt;script&gt;alert(1)"));
    // A run id goes into the charts' JSON block (line labels): it cannot close the block.
    let docs = vec![doc.clone(), doc];
    let mut infos = docs::infos(2);
    infos[1].id = "b</script><script>alert(2)</script>".to_string();
    let html = compare_page(&docs::runs(&docs, &infos));
    assert!(!html.contains("<script>alert(2)"));
    let data = html.split("id=\"report-data\">").nth(1).unwrap();
    let data = &data[..data.find("</script>").unwrap()];
    assert!(
        data.contains("alert(2)") && !data.contains('<'),
        "escaped in the JSON"
    );
}

#[test]
fn ior_run_page_renders_in_chromium() {
    let doc = docs::ior4();
    render_and_check("run-ior", &run_page_of(&doc), &expected_run_charts(&doc));
}

#[test]
fn mdtest_run_page_renders_in_chromium() {
    let doc = docs::mdtest();
    render_and_check("run-mdtest", &run_page_of(&doc), &expected_run_charts(&doc));
}

#[test]
fn comparison_page_renders_in_chromium() {
    let docs = vec![docs::ior4(), docs::ior2(), docs::ior4()];
    let infos = docs::infos(docs.len());
    let runs = docs::runs(&docs, &infos);
    let html = compare_page(&runs);
    assert_offline(&html);
    for i in &infos {
        assert!(html.contains(&i.id));
    }
    render_and_check("compare-ior", &html, &expected_compare_charts(&docs));
}

/// A sweep's page: the matrix, the findings, and a chart per figure against each varied
/// parameter, one line per value of the other parameter, over named x values.
#[test]
fn sweep_page_draws_a_curve_per_other_value() {
    use report::html::{sweep_page, Line, SweepFigure, SweepPage};
    let line = |label: &str, y: &[f64]| Line {
        label: label.into(),
        x: (0..y.len()).map(|i| i as f64).collect(),
        y: y.to_vec(),
    };
    let page = SweepPage {
        title: "iogauge sweep 3".into(),
        subtitle: "tasks=1,2,4 · t=64k,1m".into(),
        facts: vec![("sweep".into(), "3".into())],
        header: ["tasks", "t", "runs", "write MiB/s"]
            .map(String::from)
            .to_vec(),
        rows: vec![["1", "64k", "3/3", "100.0 [99.0–101.0]"]
            .map(String::from)
            .to_vec()],
        text_columns: 3,
        findings: vec!["write MiB/s (with t=1m): saturates at tasks=2: 200.0 MiB/s".into()],
        figures: vec![
            SweepFigure {
                title: "write MiB/s against tasks".into(),
                x_label: "tasks".into(),
                y_label: "write MiB/s".into(),
                x_names: ["1", "2", "4"].map(String::from).to_vec(),
                lines: vec![
                    line("t=64k", &[100.0, 180.0, 190.0]),
                    line("t=1m", &[150.0, 200.0, 205.0]),
                ],
            },
            SweepFigure {
                title: "write MiB/s against t".into(),
                x_label: "t".into(),
                y_label: "write MiB/s".into(),
                x_names: ["64k", "1m"].map(String::from).to_vec(),
                lines: vec![
                    line("tasks=1", &[100.0, 150.0]),
                    line("tasks=2", &[180.0, 200.0]),
                ],
            },
        ],
    };
    let html = sweep_page(&page);
    assert!(unescape(&html).contains("saturates at tasks=2"));
    render_and_check(
        "sweep",
        &html,
        &[("sweep-0".to_string(), 6), ("sweep-1".to_string(), 4)],
    );
}
