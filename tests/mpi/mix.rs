//! `iogauge mix` under mpirun against the same command on thread ranks: the same seed gives
//! every rank the same operations, so the counts per step and operation agree, and the trees
//! are gone after both.

use super::mpirun_line;
use crate::common::{iogauge, json, shm, tree};

#[test]
fn steps_and_counts_match_thread_ranks() {
    let d = shm();
    let p = d.path().display();
    let mix = d.path().join("m.toml");
    std::fs::write(
        &mix,
        "[operations]\nstat = 40\nopen-read = 20\ncreate = 15\nunlink = 10\nrename = 10\n\
         readdir = 5\n[tree]\ndirs = 3\nfiles-per-dir = 5\nfile-size = 1024\n",
    )
    .unwrap();
    let run = |name: &str| {
        format!(
            "--no-store mix --dir {p}/{name} --mix {} --ramp 100:100:200 --step-seconds 0.5 \
             --latency-limit 2s --json {p}/{name}.json",
            mix.display()
        )
    };
    iogauge(&format!("--tasks 2 {}", run("threads"))).ok();
    let r = mpirun_line(2, &run("mpi")).ok();
    assert!(r.stdout.contains("knee: "), "{}", r.stdout);
    assert_eq!(tree(d.path()), ["m.toml", "mpi.json", "threads.json"]);
    let (jt, jm) = (
        json(&d.path().join("threads.json")),
        json(&d.path().join("mpi.json")),
    );
    assert_eq!(jm["ranks"]["launcher"], "mpi");
    let steps = |j: &serde_json::Value| -> Vec<(u64, serde_json::Value)> {
        j["mix"]["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let counts: serde_json::Map<String, serde_json::Value> = s["operations"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), v["completed"].clone()))
                    .collect();
                (s["scheduled"].as_u64().unwrap(), counts.into())
            })
            .collect()
    };
    assert_eq!(steps(&jt).len(), 2);
    assert_eq!(steps(&jt), steps(&jm));
    let phases = |j: &serde_json::Value| j["phases"].as_array().unwrap().len();
    assert_eq!(phases(&jm), 4);
    assert_eq!(
        jm["phases"][1]["per_rank"].as_array().unwrap().len(),
        2,
        "both MPI ranks reported"
    );
}
