//! SIGTERM during an IO500 phase: the phase's tool stops, the phase is recorded as
//! interrupted, the phases after it do not run, the data the run wrote is removed (a user's
//! file in the data directory stays), the finished phases stay in the result files, the JSON
//! and the store, and the exit code is 143.

use std::path::Path;
use std::time::Duration;

use super::interrupts::{stored, STOP_LIMIT};
use super::signal::{interrupt, spawn, wait_for};
use crate::common::{json, listing, tmp};

/// Some file under `dir` (any depth) named `name`.
fn find_file(dir: &Path, name: &str) -> Option<std::path::PathBuf> {
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        if p.file_name().is_some_and(|n| n == name) {
            return Some(p);
        }
        if p.is_dir() {
            if let Some(f) = find_file(&p, name) {
                return Some(f);
            }
        }
    }
    None
}

#[test]
fn sigterm_in_an_io500_phase_keeps_the_finished_ones_and_removes_the_data() {
    let d = tmp();
    let data = d.path().join("data");
    let res = d.path().join("res");
    std::fs::create_dir(&data).unwrap();
    std::fs::write(data.join("user.txt"), "mine").unwrap();
    let (j, db) = (d.path().join("r.json"), d.path().join("db.sqlite"));
    // mdtest-easy-write creates files until its 30 s stonewall: the signal finds it running.
    let ini = d.path().join("s.ini");
    std::fs::write(
        &ini,
        format!(
            "[global]\ndatadir = {}\nresultdir = {}\ntimestamp-datadir = FALSE\n\n\
             [debug]\nstonewall-time = 30\n\n[ior-easy]\ntransferSize = 256k\nblockSize = 4m\n\n\
             [mdtest-easy]\nn = 10000000\n",
            data.display(),
            res.display()
        ),
    )
    .unwrap();
    let child = spawn(&[
        "--db",
        db.to_str().unwrap(),
        "io500",
        ini.to_str().unwrap(),
        "--tasks",
        "2",
        "--json",
        j.to_str().unwrap(),
    ]);
    wait_for("mdtest-easy-write", || {
        find_file(&res, "mdtest-easy-write.txt").is_some()
    });
    std::thread::sleep(Duration::from_millis(500));
    let (run, took) = interrupt(child, "TERM");
    assert_eq!(
        run.code, 143,
        "stdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    // The ranks stop within a poll; the delete phase then removes every file they made.
    assert!(took < STOP_LIMIT * 5, "{took:?}");
    assert!(
        run.stderr.contains("interrupted by SIGTERM"),
        "{}",
        run.stderr
    );
    assert_eq!(listing(&data), ["user.txt"]);
    assert_eq!(
        std::fs::read_to_string(data.join("user.txt")).unwrap(),
        "mine"
    );
    let summary = find_file(&res, "result_summary.txt").unwrap();
    let summary = std::fs::read_to_string(summary).unwrap();
    assert!(summary.contains("ior-easy-write"), "{summary}");
    assert!(
        summary.contains("[INTERRUPTED] interrupted by SIGTERM during mdtest-easy-write"),
        "{summary}"
    );
    assert!(!summary.contains("ior-hard-write"), "{summary}");
    let doc = json(&j);
    assert_eq!(doc["exit_code"], 143);
    let phases: Vec<(&str, bool)> = doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["io500_phase"].as_str().unwrap(), p["interrupted"] == true))
        .collect();
    assert_eq!(
        phases,
        [("ior-easy-write", false), ("mdtest-easy-write", true)]
    );
    let invalid = doc["invalid"].as_array().unwrap();
    assert!(
        invalid.iter().any(|r| r == "interrupted by SIGTERM"),
        "{invalid:?}"
    );
    let kept = stored(&db);
    assert_eq!(kept["exit_code"], 143);
    assert_eq!(kept["phases"].as_array().map_or(0, Vec::len), 2);
}
