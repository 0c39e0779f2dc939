//! Bad input: exit code 2, a message naming the problem, nothing on stdout, no walk.

use crate::common::{iogauge_args, tmp};

#[track_caller]
fn refused(args: &[&str], needle: &str) {
    let d = tmp();
    let dir = d.path().display().to_string();
    let args: Vec<String> = args.iter().map(|a| a.replace("DIR", &dir)).collect();
    let mut all = vec!["find"];
    all.extend(args.iter().map(String::as_str));
    // A regular file inside the temporary directory, for "not a directory".
    std::fs::write(d.path().join("file"), b"").unwrap();
    let needle = needle.replace("DIR", &dir);
    let r = iogauge_args(&all).code(2);
    assert!(
        r.stderr.contains(&needle),
        "{args:?}\nwanted {needle:?} in stderr:\n{}",
        r.stderr
    );
    assert!(
        r.stdout.is_empty(),
        "{args:?}: nothing on stdout for usage errors: {}",
        r.stdout
    );
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}

#[test]
fn paths() {
    refused(&[], "no path given");
    refused(&["-C"], "no path given");
    refused(&["DIR/missing"], "DIR/missing");
    refused(&["DIR/file"], "DIR/file: not a directory");
    refused(
        &["DIR", "-name", "a", "DIR"],
        "paths must come before the predicates",
    );
}

#[test]
fn predicates() {
    refused(
        &["DIR", "-newer", "DIR/no-such-reference"],
        "-newer DIR/no-such-reference",
    );
    refused(&["DIR", "-newer"], "-newer needs a reference file");
    refused(&["DIR", "-size", "3901"], "c suffix");
    refused(&["DIR", "-size", "3k"], "c suffix");
    refused(&["DIR", "-size", "+3901c"], "no +/- ranges");
    refused(&["DIR", "-name", "file?"], "'?' is not supported");
    refused(&["DIR", "-name", "[ab]"], "'[' is not supported");
    refused(
        &["DIR", "-size", "1c", "-size", "2c"],
        "-size is given twice",
    );
}

#[test]
fn options() {
    refused(&["DIR", "-sise", "3901c"], "did you mean -size?");
    refused(&["DIR", "-nmae", "x"], "did you mean -name?");
    refused(&["DIR", "-type", "f"], "unknown option or predicate -type");
    refused(&["--task", "2", "DIR"], "did you mean --tasks?");
    refused(&["--tasks", "0", "DIR"], "at least 1");
    refused(&["DIR", "-H", "1"], "-H is not supported");
    refused(&["DIR", "-e"], "never deletes");
    refused(&["DIR", "-q", "9"], "at least 10");
    refused(
        &["DIR", "--json", "DIR/no/such/dir/x.json"],
        "does not exist",
    );
}

#[test]
fn help_exits_zero() {
    let r = iogauge_args(&["find", "--help"]).ok();
    assert!(
        r.stdout.contains("-newer FILE") && r.stdout.contains("MATCHED"),
        "{}",
        r.stdout
    );
}
