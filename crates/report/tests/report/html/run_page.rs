//! The run page leads with the answer (figures and verdicts before any warning, warnings
//! grouped by id and phase), and screenshots at 1400 px of a run page and of a six-run
//! comparison, kept for people to look at (target/tmp/report-html/run.png, compare-6.png).

use super::{expected_run_charts, key, out_dir, render_and_check, run_page_of, unescape};
use crate::browser;
use crate::docs;
use report::html::compare_page;
use results::{Alert, AlertId, RunResult};

const KINDS: [AlertId; 5] = [
    AlertId::ReadCached,
    AlertId::WriteNotOnDevice,
    AlertId::ReadNotFromDevice,
    AlertId::Straggler,
    AlertId::ShortPhase,
];

/// `ior4` (three iterations of write and read) with five warning kinds on every iteration,
/// each with that iteration's own figure, as a real run words them.
fn warned() -> RunResult {
    let mut doc = docs::ior4();
    for p in &mut doc.phases {
        for id in KINDS {
            // Worded as a run words them: the phase and iteration first.
            let msg = format!(
                "{} (iteration {}): {} measured",
                p.operation,
                p.iteration,
                id.as_str()
            );
            p.alerts
                .push(Alert::new(id, msg).with("measured", 0.5 + f64::from(p.iteration)));
        }
    }
    doc
}

/// The `<li>` texts of the page's warnings card.
fn warning_lines(html: &str) -> Vec<String> {
    let at = html
        .find("class=\"card warnings\"")
        .expect("a warnings card");
    let card = &html[at..at + html[at..].find("</section>").unwrap()];
    card.split("<li>")
        .skip(1)
        .map(|l| l[..l.find("</li>").unwrap()].to_string())
        .collect()
}

#[test]
fn run_page_leads_with_figures_and_verdicts_and_groups_warnings() {
    let doc = warned();
    let html = unescape(&run_page_of(&doc));
    let main = &html[html.find("<main>").unwrap()..];
    let bw = main.find("MiB/s").expect("a bandwidth figure");
    let warn = main.find("class=\"card warnings\"").unwrap();
    assert!(
        bw < warn,
        "the first bandwidth figure comes after a warning"
    );
    for v in ["valid", "complete", "cached", "stragglers"] {
        let verdict = format!("<b>{v}</b>");
        assert!(
            main[..warn].contains(&verdict),
            "verdict {v} before warnings"
        );
    }
    assert!(main.contains("<b>cached</b>maybe: read-cached in write, read; write-not-on-device"));
    assert!(main.contains("<b>stragglers</b>straggler in write, read<"));
    // One line per kind and phase, the first iteration's words, the others named.
    let lines = warning_lines(main);
    let phases: Vec<String> = {
        let mut k: Vec<String> = doc.phases.iter().map(key).collect();
        k.dedup();
        k.sort();
        k.dedup();
        k
    };
    assert_eq!(lines.len(), KINDS.len() * phases.len(), "{lines:#?}");
    for id in KINDS {
        for k in &phases {
            let of: Vec<&String> = lines
                .iter()
                .filter(|l| l.starts_with(&format!("{k} (")))
                .filter(|l| l.contains(&format!("[{}]", id.as_str())))
                .collect();
            assert_eq!(of.len(), 1, "{k} {}: {of:?}", id.as_str());
            let want = format!(
                "{k} (iteration 0, also 1, 2): [{id}] {id} measured (evidence: measured 0.5000)",
                id = id.as_str()
            );
            assert_eq!(*of[0], want);
        }
    }
    // Charts before the run's details; the long parameter list folds.
    let chart = main.find("data-chart=").unwrap();
    let facts = main.find("<dt>command line</dt>").unwrap();
    assert!(chart < facts);
    assert!(main.contains("<details><summary>Parameters ("));
}

#[test]
fn a_clean_run_says_so() {
    let doc = docs::ior2();
    let html = unescape(&run_page_of(&doc));
    assert!(html.contains("<b>cached</b>no cache warning"));
    assert!(html.contains("<b>stragglers</b>none flagged"));
    assert!(html.contains("<b>valid</b>yes"));
}

/// `ior4` as if run with transfer size `t`, its rates scaled by `f`.
fn with_transfer(t: u64, f: f64) -> RunResult {
    let mut v = serde_json::to_value(docs::ior4()).unwrap();
    v["parameters"]["transfer_size"] = t.into();
    let mut doc = results::from_json_str(&v.to_string()).unwrap();
    for p in &mut doc.phases {
        p.bandwidth_mib_s *= f;
        p.iops *= f;
    }
    doc
}

#[test]
fn screenshots_of_a_run_page_and_a_six_run_comparison() {
    let dir = out_dir();
    let doc = warned();
    render_and_check("run-lead", &run_page_of(&doc), &expected_run_charts(&doc));
    browser::screenshot_at(&dir.join("run-lead.html"), &dir.join("run.png"), 1400, 2400);
    let docs: Vec<RunResult> = (0..6u32)
        .map(|i| with_transfer(64 << (10 + i), 0.6 + 0.15 * f64::from(i)))
        .collect();
    let infos = docs::infos(docs.len());
    let html = compare_page(&docs::runs(&docs, &infos));
    // Six runs: the compact layout, the median alone in each cell (no min–max to widen it)
    // and the labels as rows, so every run's column fits 1400 px.
    let text = unescape(&html);
    assert!(
        text.contains("median over iterations; the change"),
        "compact note"
    );
    assert!(!text.contains("median (min–max) over iterations"));
    assert!(!text.contains("MiB/s (2"), "a cell with its range");
    assert!(text.contains(">label<"), "label rows");
    let page = dir.join("compare-6.html");
    std::fs::write(&page, &html).unwrap();
    let marks = browser::charts(&browser::dump_dom(&page));
    assert!(!marks.is_empty());
    for m in &marks {
        assert_eq!(m.error, None, "chart {} failed", m.id);
        assert!(m.drawn, "chart {} was not drawn", m.id);
    }
    browser::screenshot_at(&page, &dir.join("compare-6.png"), 1400, 2400);
}
