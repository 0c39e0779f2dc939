//! A rank SIGKILLed mid-phase under `mpirun -np 4`: the job ends within seconds with a
//! non-zero status, mpirun's report names the dead rank and its host, and the phases that
//! finished before are in the store and the JSON.

use std::time::{Duration, Instant};

use super::signal::send;
use crate::common::{bin, iogauge, json, launcher, tmp};
use crate::mpi::failure::rank_pid;

#[test]
fn a_rank_killed_mid_phase_ends_the_job_and_keeps_the_finished_phases() {
    let d = tmp();
    let (db, j) = (d.path().join("db.sqlite"), d.path().join("r.json"));
    let o = d.path().join("f");
    // 20 transfers of 10 ms a phase: a phase ends every 0.2 s, for 40 s if nothing happens.
    let child = launcher(4, 60)
        .arg(bin())
        .args(["--db", db.to_str().unwrap(), "ior", "-a", "DUMMY"])
        .args([
            "--dummy.delay-xfer=10000",
            "-t",
            "1m",
            "-b",
            "20m",
            "-F",
            "-w",
            "-r",
        ])
        .args([
            "-i",
            "100",
            "-o",
            o.to_str().unwrap(),
            "--json",
            j.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    let victim = loop {
        if let Some(pid) = rank_pid(child.id() as i32, 2) {
            break pid;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "rank 2 never started"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    // Some phases finish first.
    std::thread::sleep(Duration::from_millis(2500));
    send(victim as u32, "KILL");
    let killed = Instant::now();
    let out = child.wait_with_output().unwrap();
    let took = killed.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        took < Duration::from_secs(10),
        "the job took {took:?} to end"
    );
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let named = stderr
        .lines()
        .find(|l| l.contains("process rank 2") && l.contains("signal 9"))
        .unwrap_or_else(|| panic!("no line names rank 2:\n{stderr}"));
    assert!(
        named.contains(&format!("on node {}", host.trim())),
        "{named}"
    );
    let doc = json(&j);
    let kept = doc["phases"].as_array().unwrap().len();
    assert!(kept >= 2, "phases kept in the JSON: {kept}");
    let shown = iogauge(&format!("--db {} show 1 --format json", db.display())).ok();
    let stored: serde_json::Value = serde_json::from_str(&shown.stdout).unwrap();
    assert!(stored["phases"].as_array().unwrap().len() >= 2);
    assert_eq!(stored["run"]["complete"], false);
}

/// The survivors of a dead rank take the interrupt path: mpirun's SIGTERM cuts their write,
/// and each removes its own test file at once (the agreement to stop, which needs the dead
/// rank, then waits for mpirun's SIGKILL). What the dead rank was writing stays: no other
/// rank can know it is dead.
#[test]
fn the_survivors_of_a_dead_rank_remove_their_own_files() {
    let d = tmp();
    let (child, t) = super::mpi_interrupt::long_write_under_mpirun(d.path(), &[]);
    let victim = rank_pid(child.id() as i32, 2).expect("rank 2's process");
    send(victim as u32, "KILL");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert_eq!(
        crate::common::listing(&t),
        ["f.00000002", "user.txt"],
        "{stderr}"
    );
}
