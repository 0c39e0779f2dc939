//! SIGINT during `iogauge find`: every rank's walk stops (the work-stealing queues included),
//! the find phase is recorded as interrupted with the counts of what was walked, exit 130.

use std::time::Duration;

use super::interrupts::{assert_interrupted_run, STOP_LIMIT};
use super::signal::{interrupt, spawn};
use crate::common::{json, tmp};

#[test]
fn sigint_stops_every_rank_of_a_find_walk() {
    let d = tmp();
    let dir = d.path().join("d");
    std::fs::create_dir(&dir).unwrap();
    for i in 0..1000 {
        std::fs::write(dir.join(format!("f{i:04}")), "").unwrap();
    }
    let j = d.path().join("r.json");
    // The same directory as 20000 roots: 20 million entries, seconds of walking (about
    // 3 million a second on two ranks here), built from a thousand files.
    let root = dir.to_str().unwrap();
    let mut args = vec!["--no-store", "find", "--tasks", "2", "-C"];
    args.extend(std::iter::repeat_n(root, 20_000));
    args.extend(["-name", "*01*", "--json", j.to_str().unwrap()]);
    let child = spawn(&args);
    std::thread::sleep(Duration::from_millis(500));
    let (run, took) = interrupt(child, "INT");
    assert_interrupted_run(&run, 130, took, "SIGINT");
    assert!(took < STOP_LIMIT, "{took:?}");
    let doc = json(&j);
    assert_eq!(doc["exit_code"], 130);
    let phases = doc["phases"].as_array().unwrap();
    assert_eq!(phases.len(), 1);
    assert_eq!(phases[0]["interrupted"], true);
    // pfind's last line covers what was walked: less than the whole.
    let matched = run.stdout.lines().last().unwrap_or_default();
    let examined: u64 = matched
        .rsplit('/')
        .next()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{matched}"));
    assert!(examined > 0 && examined < 20_000_000, "{matched}");
}
