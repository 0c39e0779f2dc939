//! A run invalid by a rule (here: an interrupted phase) is stored with its reasons, shown by
//! show, compare and report, and refused as the baseline of `compare --fail-if-slower`.

use super::signal::{has_entry, interrupt, spawn, wait_for};
use crate::common::{iogauge, tmp};

#[test]
fn an_interrupted_run_is_marked_invalid_and_never_a_baseline() {
    let d = tmp();
    let db = d.path().join("db.sqlite");
    let db = db.to_str().unwrap();
    let o = d.path().join("f");
    let child = spawn(&[
        "--db",
        db,
        "ior",
        "-w",
        "-t",
        "1m",
        "-b",
        "4g",
        "-D",
        "30",
        "-o",
        o.to_str().unwrap(),
    ]);
    wait_for("the test file", || has_entry(d.path(), "f"));
    let (run, _) = interrupt(child, "INT");
    assert_eq!(run.code, 130, "{}", run.stderr);
    iogauge(&format!("--db {db} ior -w -t 1m -b 4m -o {}", o.display())).ok();

    let shown = iogauge(&format!("--db {db} show 1")).ok();
    assert!(
        shown.stdout.contains("no: interrupted by SIGINT"),
        "{}",
        shown.stdout
    );
    let shown = iogauge(&format!("--db {db} show 2")).ok();
    assert!(!shown.stdout.contains("no: "), "{}", shown.stdout);
    let compared = iogauge(&format!("--db {db} compare 2 1")).ok();
    assert!(
        compared.stdout.contains("no: interrupted by SIGINT"),
        "{}",
        compared.stdout
    );
    let html = d.path().join("r.html");
    iogauge(&format!("--db {db} report 1 -o {}", html.display())).ok();
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("interrupted by SIGINT"));

    let refused = iogauge(&format!("--db {db} compare 1 2 --fail-if-slower 5%")).code(2);
    assert!(
        refused
            .stderr
            .contains("run 1 is not a valid baseline (interrupted by SIGINT"),
        "{}",
        refused.stderr
    );
    assert!(refused.stdout.is_empty());
    // A valid baseline is checked as before.
    iogauge(&format!("--db {db} compare 2 2 --fail-if-slower 5%")).ok();
}
