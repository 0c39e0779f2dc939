//! `iogauge md-workbench` under mpirun against the same command on thread ranks.

use super::{mpirun_line, shape};
use crate::common::{iogauge, json, shm, tree};

#[test]
fn objects_counts_and_document_match_thread_ranks() {
    let d = shm();
    let p = d.path().display();
    // -1 -2 keeps the objects: both must leave the same ones and count the same operations.
    let run = |dir: &str| {
        format!(
            "--no-store md-workbench -P 4 -I 2 -D 3 -R 2 -X -W -w 30 -1 -2 -o {p}/{dir} \
             --run-info-file {p}/{dir}.st --json {p}/{dir}.json --process-reports"
        )
    };
    iogauge(&format!("--tasks 3 {}", run("threads"))).ok();
    let r = mpirun_line(3, &run("mpi")).ok();
    assert_eq!(
        r.stdout.matches("\nbenchmark process").count(),
        2,
        "{}",
        r.stdout
    );
    assert_eq!(
        r.stdout.matches("\n2: benchmark process").count(),
        2,
        "{}",
        r.stdout
    );
    let (tt, tm) = (tree(&d.path().join("threads")), tree(&d.path().join("mpi")));
    assert_eq!(tt.len(), 3 * 3 * 5);
    assert_eq!(tt, tm);
    let (jt, jm) = (
        json(&d.path().join("threads.json")),
        json(&d.path().join("mpi.json")),
    );
    assert_eq!(shape(&jt), shape(&jm), "result schema");
    let counts = |j: &serde_json::Value| -> Vec<serde_json::Value> {
        let phases = j["phases"].as_array().unwrap();
        phases.iter().map(|p| p["counters"].clone()).collect()
    };
    assert_eq!(counts(&jt), counts(&jm));
    assert_eq!(jm["ranks"]["launcher"], "mpi");
    // The cleanup under mpirun takes everything, -o included.
    let clean =
        format!("--no-store md-workbench -P 4 -I 2 -D 3 -3 -o {p}/mpi --run-info-file {p}/mpi.st");
    mpirun_line(3, &clean).ok();
    assert!(!d.path().join("mpi").exists());
}
