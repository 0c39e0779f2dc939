//! What differs between runs, on crafted documents: only the parameters that differ, in the
//! tool's own terms, and the not-comparable verdict.

use crate::docs::{crafted, ior2, mdtest, writes};
use report::differs;
use results::Parameters;

fn ior_with(transfer: u64) -> results::RunResult {
    let mut d = ior2();
    let Parameters::Ior(p) = &mut d.parameters else {
        panic!("not ior")
    };
    p.transfer_size = transfer;
    d
}

#[test]
fn only_the_differing_parameters_in_the_tools_terms() {
    let (a, b) = (ior_with(1 << 20), ior_with(256 << 10));
    let d = differs(&[&a, &b]);
    assert!(d.comparable && d.why_not.is_empty());
    assert_eq!(d.differences.len(), 1, "{:?}", d.differences);
    assert_eq!(d.differences[0].parameter, "-t");
    assert_eq!(d.differences[0].values, ["1 MiB", "256 KiB"]);
}

#[test]
fn ranks_host_engine_options_and_version_are_named() {
    let a = ior2();
    let mut b = ior2();
    b.ranks.count *= 2;
    b.environment.hostname = "other".into();
    b.tool.version = "9.9.9".into();
    let Parameters::Ior(p) = &mut b.parameters else {
        panic!("not ior")
    };
    p.engine.options.insert(
        "posix.odirect".into(),
        serde_json::from_str("true").unwrap(),
    );
    let d = differs(&[&a, &b]);
    let names: Vec<&str> = d.differences.iter().map(|x| x.parameter.as_str()).collect();
    for n in ["ranks", "host", "iogauge version", "--posix.odirect"] {
        assert!(names.contains(&n), "{n} in {names:?}");
    }
    let host = d
        .differences
        .iter()
        .find(|x| x.parameter == "host")
        .unwrap();
    assert_eq!(host.values[1], "other");
}

#[test]
fn the_same_runs_differ_in_nothing() {
    let a = ior2();
    let d = differs(&[&a, &a]);
    assert!(d.comparable && d.differences.is_empty());
}

#[test]
fn another_workload_or_no_common_phase_is_not_comparable() {
    let (a, b) = (ior2(), mdtest());
    let d = differs(&[&a, &b]);
    assert!(!d.comparable);
    assert_eq!(d.why_not, ["run 2 is mdtest, the baseline is ior"]);
    assert!(d.differences.iter().any(|x| x.parameter == "workload"));

    let mut reads = crafted(2, 1, writes(&[100.0]));
    for p in &mut reads.phases {
        p.operation = results::Operation::Read;
    }
    let d = differs(&[&crafted(2, 1, writes(&[100.0])), &reads]);
    assert!(!d.comparable);
    assert!(
        d.why_not[0].contains("no phase in common"),
        "{:?}",
        d.why_not
    );
}

#[test]
fn the_compare_page_opens_with_what_differs_then_the_changes_then_charts() {
    let docs = vec![ior_with(1 << 20), ior_with(256 << 10)];
    let infos = crate::docs::infos(2);
    let page = report::html::compare_page(&crate::docs::runs(&docs, &infos));
    let at = |needle: &str| {
        page.find(needle)
            .unwrap_or_else(|| panic!("no {needle} in the page"))
    };
    assert!(at("What differs") < at(">Comparison<"), "differs first");
    assert!(at("256 KiB") < at(">Comparison<"));
    assert!(at(">Comparison<") < at(">Runs<"));
    if let Some(chart) = page.find("data-chart") {
        assert!(at(">Runs<") < chart, "charts after the tables");
    }
}
