//! SIGINT and SIGTERM during `startup` and `mix`: the ranks stop, the cut phase is marked
//! interrupted, what the run made is removed (a user's file beside it stays), and the exit
//! code is 128 + the signal.

use std::time::Duration;

use super::interrupts::{
    assert_interrupted_run, assert_only_user_file, stored, target_with_user_file, STOP_LIMIT,
};
use super::signal::{has_entry, interrupt, spawn, wait_for};
use crate::common::{json, tmp};

#[test]
fn sigterm_in_startup_cuts_the_read_and_removes_the_generated_tree() {
    let d = tmp();
    let t = target_with_user_file(d.path());
    let (j, db) = (d.path().join("r.json"), d.path().join("db.sqlite"));
    // Far more iterations than the test waits for.
    let child = spawn(&[
        "--db",
        db.to_str().unwrap(),
        "startup",
        "--dir",
        t.to_str().unwrap(),
        "--files",
        "200",
        "--iterations",
        "1000000",
        "--tasks",
        "2",
        "--json",
        j.to_str().unwrap(),
    ]);
    wait_for("the generated tree", || has_entry(&t, "iogauge-startup"));
    wait_for("a finished phase", || {
        std::fs::read_to_string(&j).is_ok_and(|s| s.contains("tree-read"))
    });
    let (run, took) = interrupt(child, "TERM");
    assert_interrupted_run(&run, 143, took, "SIGTERM");
    assert_only_user_file(&t);
    let doc = json(&j);
    assert_eq!(doc["exit_code"], 143);
    let phases = doc["phases"].as_array().unwrap();
    assert!(!phases.is_empty());
    // The phase running at the signal is the cut one (a phase that starts after the signal
    // stops at its first file), the finished ones are whole.
    let (last, done) = phases.split_last().unwrap();
    assert!(done.iter().all(|p| p["interrupted"] != true));
    assert_eq!(last["interrupted"], true);
    let invalid = doc["invalid"].as_array().unwrap();
    assert!(
        invalid.iter().any(|r| r == "interrupted by SIGTERM"),
        "{invalid:?}"
    );
    assert_eq!(stored(&db)["exit_code"], 143);
}

#[test]
fn sigint_in_a_mix_step_wakes_the_schedule_and_removes_the_trees() {
    let d = tmp();
    let t = target_with_user_file(d.path());
    let j = d.path().join("r.json");
    // One operation a second for the run: each of the two ranks waits 2 s between its
    // operations (rank 0's are due at 0, 2, 4 s of the step, rank 1's at 1, 3, 5 s).
    let child = spawn(&[
        "--no-store",
        "mix",
        "--dir",
        t.to_str().unwrap(),
        "--tasks",
        "2",
        "--ramp",
        "1:1:2",
        "--step-seconds",
        "60",
        "--json",
        j.to_str().unwrap(),
    ]);
    wait_for("the first step", || {
        std::fs::read_to_string(&j).is_ok_and(|s| s.contains("mix-prepare"))
    });
    // About 1.3 s into the step: rank 0 sleeps until 2 s, rank 1 until 3 s. The waits look
    // at the flag every 0.1 s, so neither sleeps on to its due time (checked below on the
    // step's own window, which a loaded machine's slow exit does not lengthen).
    std::thread::sleep(Duration::from_millis(1300));
    let (run, took) = interrupt(child, "INT");
    assert_eq!(run.code, 130, "{}", run.stderr);
    assert!(
        run.stderr.contains("interrupted by SIGINT"),
        "{}",
        run.stderr
    );
    // The exit (store, clean-up) on a loaded machine: a generous bound.
    assert!(took < 5 * STOP_LIMIT, "{took:?}");
    assert_only_user_file(&t);
    let doc = json(&j);
    let ops: Vec<(&str, bool)> = doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["operation"].as_str().unwrap(), p["interrupted"] == true))
        .collect();
    assert_eq!(
        ops,
        [
            ("mix-prepare", false),
            ("mix-step", true),
            ("mix-cleanup", false)
        ]
    );
    let step = &doc["phases"][1];
    let window = step["times"]["total_s"].as_f64().unwrap();
    assert!(
        window < 2.8,
        "the cut step lasted {window} s: a rank slept to its due time"
    );
    // The cut step is not judged: no knee from a window that did not run to its end.
    assert_eq!(doc["mix"]["steps"].as_array().map_or(0, Vec::len), 0);
    assert!(
        doc["mix"]["stopped"]
            .as_str()
            .unwrap()
            .starts_with("interrupted by SIGINT"),
        "{}",
        doc["mix"]["stopped"]
    );
}
