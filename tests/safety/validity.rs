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

/// `compare BASE OTHER --fail-if-slower 5%` in `db`: exit 2 naming the base and `reason`.
#[track_caller]
fn refused_as_baseline(db: &str, base: u32, other: u32, reason: &str) {
    let r = iogauge(&format!(
        "--db {db} compare {base} {other} --fail-if-slower 5%"
    ))
    .code(2);
    assert!(
        r.stderr
            .contains(&format!("run {base} is not a valid baseline ("))
            && r.stderr.contains(reason),
        "{}",
        r.stderr
    );
}

#[test]
fn failed_verification_a_failed_run_and_an_invalid_io500_are_never_baselines() {
    let d = tmp();
    let db = d.path().join("db.sqlite");
    let db = db.to_str().unwrap();
    let f = d.path().join("f");
    // 1: a good run whose file stays; 2: its read after one byte changed fails the check.
    iogauge(&format!(
        "--db {db} ior -w -k -t 4k -b 64k -G 7 -o {}",
        f.display()
    ))
    .ok();
    let mut bytes = std::fs::read(&f).unwrap();
    bytes[5000] ^= 0xff;
    std::fs::write(&f, bytes).unwrap();
    iogauge(&format!(
        "--db {db} ior -r -R -k -t 4k -b 64k -G 7 -o {}",
        f.display()
    ))
    .code(1);
    // 3: a run that failed (an injected EIO in its read).
    iogauge(&format!(
        "--db {db} ior -w -r -t 4k -b 64k -a DUMMY --dummy.fail-at=20 -o {}",
        f.display()
    ))
    .code(1);
    // 4: a small IO500 run: valid as a run, invalid by the IO500's rules (stonewall 1 s).
    let ini = crate::io500::small_ini(d.path(), "");
    iogauge(&format!("--db {db} io500 {} --tasks 2", ini.display())).ok();
    refused_as_baseline(db, 2, 1, "verification");
    refused_as_baseline(db, 3, 1, "Input/output error");
    refused_as_baseline(db, 4, 4, "stonewall-time");
    let shown = iogauge(&format!("--db {db} show 2")).ok();
    assert!(shown.stdout.contains("no: "), "{}", shown.stdout);
    let compared = iogauge(&format!("--db {db} compare 1 2 3")).ok();
    assert!(
        compared.stdout.contains("verification") && compared.stdout.contains("Input/output"),
        "{}",
        compared.stdout
    );
}
