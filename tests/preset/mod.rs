//! `iogauge preset`: the list, a preset's file, and every preset run small (`--small`, the
//! sizes each file gives for tests) in a temporary directory it leaves as it found it.

use crate::common::{iogauge, listing, shm, tmp};

#[test]
fn list_and_show() {
    let r = iogauge("preset list").ok();
    for name in [
        "ior-easy",
        "ior-hard",
        "mdtest-easy",
        "mdtest-hard",
        "thread-scaling",
        "small-io-latency",
        "files-vs-shared",
        "cache-defeat",
        "ior-hard-read",
        "startup",
    ] {
        assert!(
            r.stdout.contains(&format!("{name:<18} ")),
            "{name}: {}",
            r.stdout
        );
    }
    let s = iogauge("--tasks 2 preset show cache-defeat").ok();
    assert!(
        s.stdout.starts_with("# A block per client"),
        "the file itself"
    );
    for said in [
        "source = \"The original IOR guidance",
        "# On this machine, with 2 ranks",
        "#   iogauge --tasks 2 ior -w -r -e -C -F -t 1m -b ",
    ] {
        assert!(s.stdout.contains(said), "{said}: {}", s.stdout);
    }
    let bad = iogauge("preset show ior-esay").code(2);
    assert!(
        bad.stderr.contains("did you mean ior-easy"),
        "{}",
        bad.stderr
    );
    let bad = iogauge("preset run ior-easy --small --set nope=1").code(2);
    assert!(bad.stderr.contains("has no value nope"), "{}", bad.stderr);
    let bad = iogauge("preset run ior-easy --dir /nonexistent/x").code(2);
    assert!(bad.stderr.contains("no such directory"), "{}", bad.stderr);
}

/// Runs `name` small on a fresh directory with its own store; the runs are labelled.
fn runs_small(name: &str, steps: usize) {
    let d = shm();
    let store = tmp();
    let db = store.path().join("r.sqlite");
    let db = db.to_str().unwrap();
    let r = iogauge(&format!(
        "--db {db} preset run {name} --small --dir {}",
        d.path().display()
    ))
    .ok();
    assert_eq!(
        r.stdout.matches(&format!("== {name} / ")).count(),
        steps,
        "{}",
        r.stdout
    );
    assert_eq!(
        listing(d.path()),
        Vec::<String>::new(),
        "{name} leaves nothing behind"
    );
    let runs = iogauge(&format!("--db {db} --label preset={name} runs")).ok();
    assert!(runs.stdout.lines().count() > steps, "{}", runs.stdout);
}

#[test]
fn ior_easy_runs_small() {
    runs_small("ior-easy", 1);
}

#[test]
fn ior_hard_runs_small() {
    runs_small("ior-hard", 1);
}

#[test]
fn mdtest_easy_runs_small() {
    runs_small("mdtest-easy", 1);
}

#[test]
fn mdtest_hard_runs_small() {
    runs_small("mdtest-hard", 1);
}

#[test]
fn thread_scaling_runs_small() {
    runs_small("thread-scaling", 1);
}

#[test]
fn small_io_latency_runs_small() {
    runs_small("small-io-latency", 2);
}

#[test]
fn files_vs_shared_runs_small() {
    runs_small("files-vs-shared", 2);
}

#[test]
fn cache_defeat_runs_small() {
    runs_small("cache-defeat", 1);
}

#[test]
fn ior_hard_read_runs_small() {
    runs_small("ior-hard-read", 2);
}

#[test]
fn startup_runs_small() {
    runs_small("startup", 1);
}
