//! `--metrics` under mpirun: rank 0's endpoint serves every rank (the others push to it), with
//! 4 ranks, and with 4 ranks on 2 fake nodes.

use std::time::Duration;

use super::LIMIT_S;
use crate::common::{bin, launcher, shm};
use crate::monitoring::{free_port, scrape, slow_ior, sum, value, wait_for, Running};

const MIB: f64 = 1_048_576.0;

/// Runs a 4-rank DUMMY write of about 1.5 s under mpirun with `global` before the command;
/// returns a scrape taken while all four ranks ran and the final one.
fn four_ranks(global: &[&str]) -> (String, String) {
    let d = shm();
    let port = free_port();
    let mut args: Vec<String> = global.iter().map(|s| s.to_string()).collect();
    args.extend(slow_ior(d.path(), 1500, &["--metrics-linger", "3"]));
    args.extend(["--metrics".to_string(), format!("127.0.0.1:{port}")]);
    let mut c = launcher(4, LIMIT_S);
    c.arg(bin()).args(&args);
    let run = Running::spawn(&mut c);
    let running = wait_for(Duration::from_secs(60), || {
        scrape(port).filter(|t| sum(t, "iogauge_ranks", &[r#"state="running""#]) == 4.0)
    })
    .expect("a scrape with the four ranks running (three of them pushed from other processes)");
    let last = wait_for(Duration::from_secs(60), || {
        scrape(port).filter(|t| {
            value(t, "iogauge_run_finished") == Some(1.0)
                && sum(t, "iogauge_ranks", &[r#"state="done""#]) == 4.0
        })
    })
    .expect("the final figures of the four ranks");
    run.wait(Duration::from_secs(LIMIT_S)).ok();
    (running, last)
}

fn check_totals(last: &str) {
    let w = r#"{phase="write",operation="write"}"#;
    assert_eq!(
        value(last, &format!("iogauge_bytes_total{w}")),
        Some(4.0 * 1500.0 * MIB),
        "{last}"
    );
    assert_eq!(
        value(last, &format!("iogauge_operations_total{w}")),
        Some(6000.0)
    );
    assert_eq!(
        value(last, &format!("iogauge_operation_latency_seconds_count{w}")),
        Some(6000.0)
    );
}

#[test]
fn rank_zero_serves_every_rank() {
    let (running, last) = four_ranks(&[]);
    // Live bytes from more than rank 0 alone: rank 0's share is at most a quarter.
    let live = value(
        &running,
        r#"iogauge_bytes_total{phase="write",operation="write"}"#,
    );
    assert!(live.is_some(), "{running}");
    check_totals(&last);
    assert_eq!(
        value(&last, r#"iogauge_ranks{node="0",state="done"}"#),
        Some(4.0)
    );
}

#[test]
fn fake_nodes_are_labelled() {
    let (_, last) = four_ranks(&["--fake-nodes", "2"]);
    check_totals(&last);
    assert_eq!(
        value(&last, r#"iogauge_ranks{node="0",state="done"}"#),
        Some(2.0),
        "{last}"
    );
    assert_eq!(
        value(&last, r#"iogauge_ranks{node="1",state="done"}"#),
        Some(2.0),
        "{last}"
    );
}
