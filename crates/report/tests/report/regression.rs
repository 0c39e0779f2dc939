//! The regression verdict on crafted documents.

use crate::docs::{crafted, infos, phase, runs, writes};
use report::{check, Metric};
use results::Operation;

fn two(a: Vec<results::PhaseResult>, b: Vec<results::PhaseResult>) -> Vec<results::RunResult> {
    vec![crafted(2, 1, a), crafted(2, 1, b)]
}

#[test]
fn phases_slower_than_the_threshold_regress() {
    let md = |ops: f64| phase(Operation::FileCreate, 0, 0.0, ops);
    let docs = two(
        [writes(&[100.0, 100.0, 100.0]), vec![md(1000.0)]].concat(),
        [writes(&[80.0, 94.0, 96.0]), vec![md(850.0)]].concat(),
    );
    let infos = infos(2);
    let r = runs(&docs, &infos);
    let v = check(&r[0], &r[1], 10.0);
    let w = v.phases.iter().find(|p| p.phase == "write").unwrap();
    assert_eq!(w.metric, Metric::BandwidthMibS);
    assert_eq!((w.baseline, w.candidate), (100.0, 94.0), "medians");
    assert_eq!(w.slower_percent, (100.0 - 94.0) / 100.0 * 100.0);
    assert!(!w.regressed, "6% is within 10%");
    let f = v.phases.iter().find(|p| p.phase == "file-create").unwrap();
    assert_eq!(
        f.metric,
        Metric::Iops,
        "a phase without bytes is judged by its rate"
    );
    assert!(f.regressed, "15% slower");
    assert!(!v.passed());
    assert_eq!(
        v.regressions()
            .map(|p| p.phase.as_str())
            .collect::<Vec<_>>(),
        ["file-create"]
    );
    // A looser threshold passes; exactly at the threshold is not "more than".
    assert!(check(&r[0], &r[1], 20.0).passed());
    assert!(check(&r[0], &r[1], 15.0 + 1e-9).passed());
}

#[test]
fn faster_runs_pass_and_missing_phases_are_listed() {
    let docs = two(
        [
            writes(&[100.0]),
            vec![phase(Operation::Read, 0, 100.0, 10.0)],
        ]
        .concat(),
        writes(&[150.0]),
    );
    let infos = infos(2);
    let r = runs(&docs, &infos);
    let v = check(&r[0], &r[1], 5.0);
    assert!(v.passed());
    assert_eq!(v.phases[0].slower_percent, -50.0);
    assert_eq!(v.missing, ["read"]);
    assert_eq!((v.baseline.as_str(), v.candidate.as_str()), ("a", "b"));
}
