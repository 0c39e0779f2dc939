//! SIGINT and SIGTERM during a phase: the ranks stop within a second, the test files go
//! (unless -k), finished phases are kept in the store and the JSON, the cut phase is marked
//! interrupted, the exit code is 128 + the signal; a second SIGINT ends the process at once.

use std::path::Path;
use std::time::Duration;

use super::signal::{has_entry, interrupt, send, spawn, wait_delivered, wait_for};
use crate::common::{iogauge, json, listing, tmp, Run};

/// How long a stop may take on a busy shared machine (ranks stop within a poll, 0.1 s; the
/// rest is the store and the clean-up).
pub(super) const STOP_LIMIT: Duration = Duration::from_secs(2);

/// The target directory with a user's file in it, which every run must leave alone.
pub(super) fn target_with_user_file(d: &Path) -> std::path::PathBuf {
    let t = d.join("target");
    std::fs::create_dir(&t).unwrap();
    std::fs::write(t.join("user.txt"), "mine").unwrap();
    t
}

#[track_caller]
pub(super) fn assert_only_user_file(t: &Path) {
    assert_eq!(listing(t), ["user.txt"], "left in {}", t.display());
    assert_eq!(std::fs::read_to_string(t.join("user.txt")).unwrap(), "mine");
}

#[track_caller]
pub(super) fn assert_interrupted_run(run: &Run, code: i32, took: Duration, name: &str) {
    assert_eq!(
        run.code, code,
        "stdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    assert!(took < STOP_LIMIT, "the stop took {took:?}");
    assert!(
        run.stderr.contains(&format!("interrupted by {name}")),
        "{}",
        run.stderr
    );
}

/// The stored document of the only run in `db`.
pub(super) fn stored(db: &Path) -> serde_json::Value {
    let r = iogauge(&format!("--db {} show 1 --format json", db.display())).ok();
    serde_json::from_str(&r.stdout).unwrap()
}

#[test]
fn sigint_in_an_ior_write_cuts_the_phase_and_removes_the_files() {
    let d = tmp();
    let t = target_with_user_file(d.path());
    let (j, db) = (d.path().join("r.json"), d.path().join("db.sqlite"));
    let o = t.join("f");
    // 4 GiB a rank: far more than the seconds before the signal write; -D 30 bounds it.
    let child = spawn(&[
        "--db",
        db.to_str().unwrap(),
        "ior",
        "-w",
        "-r",
        "-t",
        "1m",
        "-b",
        "4g",
        "-F",
        "--tasks",
        "2",
        "-D",
        "30",
        "-o",
        o.to_str().unwrap(),
        "--json",
        j.to_str().unwrap(),
    ]);
    wait_for("the test files", || has_entry(&t, "f."));
    std::thread::sleep(Duration::from_millis(300));
    let (run, took) = interrupt(child, "INT");
    assert_interrupted_run(&run, 130, took, "SIGINT");
    assert_only_user_file(&t);
    let doc = json(&j);
    assert_eq!(doc["exit_code"], 130);
    let phases = doc["phases"].as_array().unwrap();
    assert_eq!(phases.len(), 1, "only the write ran");
    assert_eq!(phases[0]["interrupted"], true);
    assert!(phases[0]["bytes"].as_u64().unwrap() > 0);
    let invalid = doc["invalid"].as_array().unwrap();
    assert!(
        invalid.iter().any(|r| r == "interrupted by SIGINT"),
        "{invalid:?}"
    );
    assert!(stored(&db).to_string().contains("interrupted by SIGINT"));
}

#[test]
fn sigterm_between_ior_repetitions_keeps_the_finished_ones() {
    let d = tmp();
    let t = target_with_user_file(d.path());
    let (j, db) = (d.path().join("r.json"), d.path().join("db.sqlite"));
    let o = t.join("f");
    let child = spawn(&[
        "--db",
        db.to_str().unwrap(),
        "ior",
        "-w",
        "-r",
        "-t",
        "64k",
        "-b",
        "4m",
        "-i",
        "100000",
        "--tasks",
        "2",
        "-o",
        o.to_str().unwrap(),
        "--json",
        j.to_str().unwrap(),
    ]);
    wait_for("the test file", || has_entry(&t, "f"));
    std::thread::sleep(Duration::from_millis(800));
    let (run, took) = interrupt(child, "TERM");
    assert_interrupted_run(&run, 143, took, "SIGTERM");
    assert_only_user_file(&t);
    let doc = json(&j);
    let phases = doc["phases"].as_array().unwrap();
    assert!(
        phases.len() >= 2,
        "finished repetitions kept: {}",
        phases.len()
    );
    // Only the last phase can be the cut one.
    let cut = phases.iter().filter(|p| p["interrupted"] == true).count();
    assert!(
        cut <= 1
            && phases[..phases.len() - 1]
                .iter()
                .all(|p| p["interrupted"] != true)
    );
    let kept = stored(&db);
    assert_eq!(kept["exit_code"], 143);
}

/// A write far longer than the test waits (4 GiB; -D 30 bounds it), started once its test
/// file exists.
fn long_write(t: &Path, extra: &[&str]) -> std::process::Child {
    let o = t.join("f");
    let mut args = vec![
        "--no-store",
        "ior",
        "-w",
        "-t",
        "1m",
        "-b",
        "4g",
        "-D",
        "30",
    ];
    args.extend(extra);
    args.extend(["-o", o.to_str().unwrap()]);
    let child = spawn(&args);
    wait_for("the test file", || has_entry(t, "f"));
    child
}

#[test]
fn sigint_in_the_delay_before_a_phase_stops_at_once() {
    let d = tmp();
    let t = target_with_user_file(d.path());
    let o = t.join("f");
    // -d 30: rank 0 sleeps 30 s before the write; the signal must end that sleep.
    let child = spawn(&[
        "--no-store",
        "ior",
        "-w",
        "-r",
        "-t",
        "64k",
        "-b",
        "1m",
        "-F",
        "--tasks",
        "2",
        "-d",
        "30",
        "-o",
        o.to_str().unwrap(),
    ]);
    std::thread::sleep(Duration::from_millis(700));
    let (run, took) = interrupt(child, "INT");
    assert_interrupted_run(&run, 130, took, "SIGINT");
    assert_only_user_file(&t);
}

#[test]
fn keep_flag_keeps_the_files_after_an_interrupt() {
    let d = tmp();
    let t = target_with_user_file(d.path());
    let (run, took) = interrupt(long_write(&t, &["-k"]), "INT");
    assert_interrupted_run(&run, 130, took, "SIGINT");
    assert_eq!(listing(&t), ["f", "user.txt"]);
}

#[test]
fn a_second_sigint_exits_at_once() {
    let d = tmp();
    let t = target_with_user_file(d.path());
    let child = long_write(&t, &[]);
    send(child.id(), "INT");
    wait_delivered(child.id());
    let (run, took) = interrupt(child, "INT");
    assert_eq!(run.code, 130, "{}", run.stderr);
    assert!(took < STOP_LIMIT, "{took:?}");
    assert!(run.stderr.contains("second signal"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(t.join("user.txt")).unwrap(), "mine");
}

#[test]
fn sigterm_in_mdtest_stops_the_ranks_and_removes_their_tree() {
    let d = tmp();
    let t = target_with_user_file(d.path());
    let j = d.path().join("r.json");
    let child = spawn(&[
        "--no-store",
        "mdtest",
        "-n",
        "50000",
        "-F",
        "-w",
        "10",
        "--tasks",
        "2",
        "-d",
        t.to_str().unwrap(),
        "--json",
        j.to_str().unwrap(),
    ]);
    wait_for("the test directory", || has_entry(&t, "test-dir"));
    std::thread::sleep(Duration::from_millis(300));
    let (run, took) = interrupt(child, "TERM");
    assert_eq!(
        run.code, 143,
        "stdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    // The ranks stop within a poll; the clean-up then removes every name they may have made.
    assert!(took < Duration::from_secs(15), "{took:?}");
    assert_only_user_file(&t);
    let doc = json(&j);
    let invalid = doc["invalid"].as_array().unwrap();
    assert!(
        invalid.iter().any(|r| r == "interrupted by SIGTERM"),
        "{invalid:?}"
    );
    let phases = doc["phases"].as_array().unwrap();
    assert!(
        phases.iter().all(|p| p["operation"] != "file-remove"),
        "no clean-up phase reported"
    );
}

#[test]
fn sigint_in_md_workbench_cleans_up_every_data_set() {
    let d = tmp();
    let t = target_with_user_file(d.path());
    let j = d.path().join("r.json");
    let st = d.path().join("st");
    let child = spawn(&[
        "--no-store",
        "md-workbench",
        "--tasks",
        "2",
        "-I",
        "20",
        "-P",
        "50",
        "-D",
        "2",
        "-R",
        "100000",
        "-o",
        t.to_str().unwrap(),
        "--run-info-file",
        st.to_str().unwrap(),
        "--json",
        j.to_str().unwrap(),
    ]);
    wait_for("the data sets", || has_entry(&t, "1_1"));
    std::thread::sleep(Duration::from_millis(500));
    let (run, took) = interrupt(child, "INT");
    assert_interrupted_run(&run, 130, took, "SIGINT");
    assert_only_user_file(&t);
    let doc = json(&j);
    let phases = doc["phases"].as_array().unwrap();
    let cut: Vec<_> = phases.iter().filter(|p| p["interrupted"] == true).collect();
    assert_eq!(cut.len(), 1, "one phase cut");
    assert_eq!(phases.last().unwrap()["operation"], "cleanup");
}
