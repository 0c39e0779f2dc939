//! The live progress line: drawn on a terminal (a pseudo-terminal from util-linux's `script`),
//! never when standard error is not one (as in every other test) or with `--quiet`.

use std::process::Command;

use crate::common::{bin, iogauge, shm};

/// Twelve 100 ms transfers per rank: 1.2 s per phase, time for the one-second samples.
fn slow_ior(dir: &str) -> String {
    format!("ior -a DUMMY --dummy.delay-xfer=100000 -N 2 -t 1m -b 12m -w -o {dir}/f --no-store")
}

/// What the terminal showed while `iogauge <args>` ran in a pseudo-terminal; `None` without
/// `script`.
fn on_a_terminal(args: &str) -> Option<String> {
    let line = format!("{} {args}", bin().display());
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &line, "/dev/null"])
        .env("COLUMNS", "200")
        .output()
        .ok()?;
    assert!(out.status.success(), "{out:?}");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn drawn_on_a_terminal_and_cleared_before_the_tools_lines() {
    let dir = shm();
    let Some(screen) = on_a_terminal(&slow_ior(dir.path().to_str().unwrap())) else {
        eprintln!("no `script` (util-linux): skipped");
        return;
    };
    let drawn: Vec<&str> = screen
        .split("\r\x1b[2K")
        .filter(|l| l.starts_with("write #0  "))
        .collect();
    assert!(!drawn.is_empty(), "no progress line in {screen:?}");
    let line = drawn[0];
    for part in ["MiB/s", " %", "slowest rank"] {
        assert!(line.contains(part), "{part}: {line:?}");
    }
    eprintln!("progress line: {line}");
    // Every drawn line is erased again before anything else prints, and IOR's result row
    // follows on a clean line.
    assert!(drawn.iter().all(|l| !l.contains('\n')), "{screen:?}");
    let after = screen.rsplit("\r\x1b[2K").next().unwrap();
    assert!(after.contains("\nwrite     "), "{screen:?}");
}

#[test]
fn quiet_on_a_terminal_draws_nothing() {
    let dir = shm();
    let args = format!("{} --quiet", slow_ior(dir.path().to_str().unwrap()));
    let Some(screen) = on_a_terminal(&args) else {
        return;
    };
    assert!(!screen.contains("\x1b[2K"), "{screen:?}");
}

#[test]
fn not_a_terminal_draws_nothing() {
    let dir = shm();
    let r = iogauge(&slow_ior(dir.path().to_str().unwrap())).ok();
    assert!(!r.stderr.contains('\x1b') && !r.stdout.contains('\x1b'));
}
