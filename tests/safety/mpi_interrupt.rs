//! SIGINT to `mpirun -np 4` (once, as a terminal's Ctrl-C sends it): Open MPI sends the ranks
//! SIGTERM; they stop, remove the test files, keep the cut phase as interrupted, and the
//! document says 143.

use std::time::{Duration, Instant};

use super::signal::{has_entry, send, wait_for};
use crate::common::{bin, json, launcher, listing, tmp};

/// `mpirun -np 4 iogauge ior` writing 2 GiB a rank (`-D 30` bounds it) into a new directory
/// `DIR/t` that holds a user's file, started once every rank's file exists. `extra`: more
/// arguments (`--json PATH`). Returns the job and `DIR/t`.
pub(super) fn long_write_under_mpirun(
    dir: &std::path::Path,
    extra: &[&str],
) -> (std::process::Child, std::path::PathBuf) {
    let t = dir.join("t");
    std::fs::create_dir(&t).unwrap();
    std::fs::write(t.join("user.txt"), "mine").unwrap();
    let o = t.join("f");
    let child = launcher(4, 60)
        .arg(bin())
        .args([
            "--no-store",
            "ior",
            "-w",
            "-t",
            "1m",
            "-b",
            "2g",
            "-F",
            "-D",
            "30",
        ])
        .args(["-o", o.to_str().unwrap()])
        .args(extra)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for("the test files", || has_entry(&t, "f.00000003"));
    (child, t)
}

#[test]
fn sigint_to_mpirun_stops_every_rank_and_removes_the_files() {
    let d = tmp();
    let j = d.path().join("r.json");
    let (child, t) = long_write_under_mpirun(d.path(), &["--json", j.to_str().unwrap()]);
    std::thread::sleep(Duration::from_millis(300));
    // To mpirun itself, as a terminal's Ctrl-C: `timeout` would pass it on to mpirun and
    // again to its process group, mpirun included, and a second SIGINT makes mpirun kill the
    // ranks at once ("hit ctrl-c again to forcibly terminate").
    send(mpirun_of(child.id()), "INT");
    let sent = Instant::now();
    let out = child.wait_with_output().unwrap();
    let took = sent.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert_eq!(listing(&t), ["user.txt"], "{stderr}");
    let doc = json(&j);
    assert_eq!(doc["exit_code"], 143, "{stderr}");
    assert_eq!(doc["phases"][0]["interrupted"], true);
}

/// The pid of the `mpirun` that `timeout` (pid `timeout`) started.
fn mpirun_of(timeout: u32) -> u32 {
    let children = std::fs::read_to_string(format!("/proc/{timeout}/task/{timeout}/children"))
        .expect("the children of timeout");
    children
        .split_whitespace()
        .next()
        .and_then(|p| p.parse().ok())
        .expect("timeout's child, mpirun")
}
