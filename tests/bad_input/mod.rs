//! The bad-input catalogue (issue 18, docs/errors.md): every case in `catalogue.rs` must exit
//! with status 2, print one line on standard error that names the problem, print nothing on
//! standard output, not panic, and leave both the target directory and the result store as
//! they were.

mod catalogue;
mod fixtures;

use std::path::Path;
use std::process::Command;

use crate::common::{bin, tree};

/// One bad command line. `DIR` in `args` is the fixture directory (fixtures.rs), `STORE` a
/// result store holding one run.
pub struct Case {
    pub args: &'static str,
    /// What the message must contain (the option, file or value it is about).
    pub names: &'static str,
    /// Run as an unprivileged user (root ignores permissions): the unwritable-path cases.
    pub unprivileged: bool,
}

pub const fn case(args: &'static str, names: &'static str) -> Case {
    Case {
        args,
        names,
        unprivileged: false,
    }
}

pub const fn as_nobody(args: &'static str, names: &'static str) -> Case {
    Case {
        args,
        names,
        unprivileged: true,
    }
}

/// Sizes and modification times of every path under `dir`: what "nothing changed" compares.
fn snapshot(dir: &Path) -> Vec<(String, u64, Option<std::time::SystemTime>)> {
    tree(dir)
        .into_iter()
        .map(|rel| {
            let m = std::fs::symlink_metadata(dir.join(&rel)).ok();
            // A directory's time changes when SQLite's -wal and -shm files come and go; its
            // entries are in the listing already.
            let file = m.filter(|m| !m.is_dir());
            let len = file.as_ref().map_or(0, |m| m.len());
            (rel, len, file.and_then(|m| m.modified().ok()))
        })
        .collect()
}

/// Runs one case; the problems found, empty when it behaved.
fn check(c: &Case, fx: &fixtures::Fixtures) -> Vec<String> {
    let line = c
        .args
        .replace("DIR", &fx.dir.display().to_string())
        .replace("STORE", &fx.store.display().to_string());
    let before = (snapshot(&fx.dir), snapshot(&fx.data_home));
    let mut cmd = if c.unprivileged {
        match fixtures::unprivileged() {
            Some(cmd) => cmd,
            None => return Vec::new(),
        }
    } else {
        Command::new(bin())
    };
    if c.unprivileged && cmd.get_program() != bin().as_os_str() {
        cmd.arg(bin());
    }
    let out = cmd
        .args(line.split_whitespace())
        .env("XDG_DATA_HOME", &fx.data_home)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("run iogauge");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut bad = Vec::new();
    if out.status.code() != Some(2) {
        bad.push(format!("exit status {:?}, not 2", out.status.code()));
    }
    if lines.len() != 1 {
        bad.push(format!("{} lines on stderr, not 1", lines.len()));
    }
    let names = c.names.replace("DIR", &fx.dir.display().to_string());
    if !stderr.contains(&names) {
        bad.push(format!("the message does not name {:?}", c.names));
    }
    if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
        bad.push("panicked".into());
    }
    if !out.stdout.is_empty() {
        bad.push("printed on stdout".into());
    }
    if snapshot(&fx.dir) != before.0 {
        bad.push(format!("changed the target directory: {:?}", tree(&fx.dir)));
    }
    if snapshot(&fx.data_home) != before.1 {
        bad.push(format!(
            "changed the result store: {:?}",
            tree(&fx.data_home)
        ));
    }
    if bad.is_empty() {
        return bad;
    }
    vec![format!(
        "iogauge {line}\n  {}\n  stderr: {stderr}",
        bad.join("; ")
    )]
}

#[test]
fn every_bad_input_is_refused_cleanly() {
    let fx = fixtures::Fixtures::new();
    assert!(
        catalogue::CASES.len() >= 40,
        "the issue asks for at least 40"
    );
    let failures: Vec<String> = catalogue::CASES
        .iter()
        .flat_map(|c| check(c, &fx))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases misbehaved:\n{}",
        failures.len(),
        catalogue::CASES.len(),
        failures.join("\n")
    );
}
