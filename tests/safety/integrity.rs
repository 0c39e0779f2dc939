//! The result store survives a process killed while it writes: SIGKILL at moments spread over
//! runs that store a phase every few milliseconds, then the store must open, pass SQLite's
//! integrity check (with the sqlite3 tool), list every run it took, show each, and take
//! the next run.

use std::process::Command;
use std::time::Duration;

use super::signal::{send, spawn};
use crate::common::{iogauge, tmp};

#[test]
fn a_kill_while_storing_leaves_the_store_readable_and_consistent() {
    let d = tmp();
    let db = d.path().join("db.sqlite");
    let db_arg = db.to_str().unwrap();
    let kills = 6;
    for i in 0..kills {
        let o = d.path().join(format!("f{i}"));
        // Tiny phases: the store rewrites the document at every phase's end.
        let mut child = spawn(&[
            "--db",
            db_arg,
            "ior",
            "-w",
            "-r",
            "-t",
            "4k",
            "-b",
            "64k",
            "-i",
            "100000",
            "-o",
            o.to_str().unwrap(),
        ]);
        std::thread::sleep(Duration::from_millis(150 + 97 * i));
        send(child.id(), "KILL");
        child.wait().unwrap();
    }
    // SQLite's own check, by its own tool (scripts/test.sh installs it).
    let out = Command::new("sqlite3")
        .args([db_arg, "PRAGMA integrity_check;"])
        .output()
        .expect("sqlite3 (Debian package sqlite3)");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok");
    let listed = iogauge(&format!("--db {db_arg} runs --format json")).ok();
    let runs: Vec<serde_json::Value> = serde_json::from_str(&listed.stdout).unwrap();
    assert!(
        !runs.is_empty() && runs.len() <= kills as usize,
        "{}",
        listed.stdout
    );
    for r in &runs {
        assert_eq!(r["complete"], false, "a killed run never reached its end");
        let id = r["id"].as_str().unwrap();
        let shown = iogauge(&format!("--db {db_arg} show {id} --format json")).ok();
        let doc: serde_json::Value = serde_json::from_str(&shown.stdout).unwrap();
        assert!(
            !doc["phases"].as_array().unwrap().is_empty(),
            "phases kept: {id}"
        );
    }
    // The store still takes runs.
    let o = d.path().join("after");
    let r = iogauge(&format!(
        "--db {db_arg} ior -w -t 4k -b 64k -o {}",
        o.display()
    ))
    .ok();
    assert!(r.stderr.contains("stored as run"), "{}", r.stderr);
}
