//! Every workload reports the same events in the same order to its sinks, proved through the
//! event-log sink (`--events PATH`, one file and one line in `src/sinks.rs`): run-start first,
//! run-end last, each phase-start followed by its phase-end with only live samples and notices
//! between, and the document growing by one phase per phase-end.

use std::path::Path;

use serde_json::Value;

use crate::common::{iogauge_args, shm};
use crate::io500::small_ini;

fn events(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn kind(e: &Value) -> &str {
    e["event"].as_str().unwrap()
}

/// Checks the order rules and returns the phases as (operation, iteration, io500 phase).
fn check_order(ev: &[Value]) -> Vec<(String, u64, Option<String>)> {
    assert!(ev.len() >= 2, "{ev:?}");
    assert_eq!(kind(&ev[0]), "run-start");
    assert_eq!(kind(ev.last().unwrap()), "run-end");
    let mut open: Option<&Value> = None;
    let mut phases = Vec::new();
    for (i, e) in ev.iter().enumerate().skip(1).take(ev.len() - 2) {
        match kind(e) {
            "phase-start" => {
                assert!(
                    open.is_none(),
                    "event {i}: a phase starts inside another: {e}"
                );
                open = Some(e);
            }
            "phase-end" => {
                let start = open
                    .take()
                    .unwrap_or_else(|| panic!("event {i}: an end without a start"));
                for key in ["operation", "iteration", "io500_phase"] {
                    assert_eq!(start[key], e[key], "event {i}: {key}");
                }
                phases.push((
                    e["operation"].as_str().unwrap().to_string(),
                    e["iteration"].as_u64().unwrap(),
                    e["io500_phase"].as_str().map(str::to_string),
                ));
                assert_eq!(e["phases_in_document"], phases.len() as u64, "event {i}");
            }
            "interval" => assert!(open.is_some(), "event {i}: a sample outside a phase"),
            "notice" => {}
            other => panic!("event {i}: {other} in the middle of the run"),
        }
    }
    assert!(open.is_none(), "a phase never ended");
    assert_eq!(ev.last().unwrap()["phases"], phases.len() as u64);
    phases
}

#[test]
fn ior_events_with_live_samples() {
    let d = shm();
    let log = d.path().join("ev.jsonl");
    // 12 transfers of 100 ms per rank: a phase lasts about 1.2 s, long enough for a sample.
    iogauge_args(&[
        "--events",
        log.to_str().unwrap(),
        "ior",
        "-a",
        "DUMMY",
        "--dummy.delay-xfer=100000",
        "-N",
        "2",
        "-t",
        "1m",
        "-b",
        "12m",
        "-w",
        "-r",
        "-o",
        d.path().join("f").to_str().unwrap(),
    ])
    .ok();
    let ev = events(&log);
    let phases = check_order(&ev);
    assert_eq!(
        phases,
        [("write".into(), 0, None), ("read".into(), 0, None)]
    );
    let samples: Vec<&Value> = ev.iter().filter(|e| kind(e) == "interval").collect();
    assert!(!samples.is_empty(), "no live sample in 2.4 s");
    for s in samples {
        assert_eq!(s["ranks_running"], 2, "{s}");
        assert!(s["ops"].as_u64().unwrap() <= 24, "{s}");
    }
    let notices: Vec<&str> = ev
        .iter()
        .filter(|e| kind(e) == "notice")
        .map(|e| e["notice"].as_str().unwrap())
        .collect();
    assert_eq!(notices, ["ior-repetition", "ior-remove"]);
}

#[test]
fn mdtest_events() {
    let d = shm();
    let log = d.path().join("ev.jsonl");
    let dir = d.path().join("md");
    iogauge_args(&[
        "--events",
        log.to_str().unwrap(),
        "mdtest",
        "--tasks",
        "2",
        "-n",
        "20",
        "-i",
        "2",
        "-d",
        dir.to_str().unwrap(),
    ])
    .ok();
    let phases = check_order(&events(&log));
    let names: Vec<&str> = phases.iter().map(|p| p.0.as_str()).collect();
    let one = [
        "tree-create",
        "dir-create",
        "dir-stat",
        "dir-rename",
        "dir-remove",
        "file-create",
        "file-stat",
        "file-read",
        "file-remove",
        "tree-remove",
    ];
    assert_eq!(names, [one, one].concat());
    assert_eq!(phases[10].1, 1, "the second iteration");
}

#[test]
fn find_events() {
    let d = shm();
    let log = d.path().join("ev.jsonl");
    let tree = d.path().join("t/a/b");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(tree.join("x01"), b"").unwrap();
    iogauge_args(&[
        "--events",
        log.to_str().unwrap(),
        "find",
        "--tasks",
        "2",
        d.path().join("t").to_str().unwrap(),
        "-name",
        "*01*",
        "-C",
    ])
    .ok();
    let ev = events(&log);
    assert_eq!(check_order(&ev), [("find".into(), 0, None)]);
    // A warning of the walk's counts comes after the phase, before the end: no directory is
    // unreadable here, so there is none.
    assert!(!ev.iter().any(|e| e["notice"] == "warning"), "{ev:?}");
}

#[test]
fn io500_events_follow_the_phase_table() {
    let d = shm();
    let log = d.path().join("ev.jsonl");
    let ini = small_ini(d.path(), "");
    iogauge_args(&[
        "--events",
        log.to_str().unwrap(),
        "io500",
        ini.to_str().unwrap(),
        "--tasks",
        "2",
        "--timestamp",
        "T",
    ])
    .ok();
    let ev = events(&log);
    let phases = check_order(&ev);
    let names: Vec<&str> = phases.iter().map(|p| p.2.as_deref().unwrap()).collect();
    assert_eq!(
        names,
        [
            "ior-easy-write",
            "mdtest-easy-write",
            "ior-hard-write",
            "mdtest-hard-write",
            "find",
            "ior-easy-read",
            "mdtest-easy-stat",
            "ior-hard-read",
            "mdtest-hard-stat",
            "mdtest-easy-delete",
            "mdtest-hard-read",
            "mdtest-hard-delete",
            "ior-rnd4K-easy-read",
        ]
    );
    let ops: Vec<&str> = phases.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(&ops[..2], ["write", "file-create"]);
    // result.txt and the summary reach the sinks as the IO500's text, from the start on.
    assert_eq!(ev[1]["notice"], "io500-result");
}
