//! Starting the binary in the background and sending it real signals.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{bin, Run};

/// `iogauge <args>` in the background, its output captured.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(bin())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start iogauge")
}

/// Waits (up to 30 s) until `ready` holds, e.g. until the run has created its first files.
#[track_caller]
pub fn wait_for(what: &str, ready: impl Fn() -> bool) {
    let until = Instant::now() + Duration::from_secs(30);
    while !ready() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether `dir` holds an entry whose name starts with `prefix`.
pub fn has_entry(dir: &Path, prefix: &str) -> bool {
    crate::common::listing(dir)
        .iter()
        .any(|n| n.starts_with(prefix))
}

/// Sends `sig` (`INT`, `TERM`, `KILL`) to process `pid` with kill(1).
pub fn send(pid: u32, sig: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{sig}"), &pid.to_string()])
        .status()
        .expect("kill")
        .success();
    assert!(ok, "kill -{sig} {pid}");
}

/// Waits (up to 2 s) until no signal is pending for process `pid`: a standard signal sent
/// while the same one is still pending is merged with it, so a test that means two signals
/// must let the first be taken before it sends the second.
pub fn wait_delivered(pid: u32) {
    let until = Instant::now() + Duration::from_secs(2);
    while Instant::now() < until {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            return;
        };
        let pending = status
            .lines()
            .filter(|l| l.starts_with("ShdPnd:") || l.starts_with("SigPnd:"))
            .any(|l| {
                l.split_whitespace()
                    .nth(1)
                    .is_some_and(|m| !m.trim_start_matches('0').is_empty())
            });
        if !pending {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Sends `sig` and waits for the exit: the run's end and how long the stop took.
pub fn interrupt(child: Child, sig: &str) -> (Run, Duration) {
    send(child.id(), sig);
    let sent = Instant::now();
    let out = child.wait_with_output().expect("wait for iogauge");
    let took = sent.elapsed();
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    (run, took)
}
