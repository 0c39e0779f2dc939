//! `iogauge startup` under mpirun with 2 and 4 ranks against the same command on thread ranks.

use super::{mpirun_line, shape};
use crate::common::{iogauge, json, listing, shm};

#[test]
fn every_mpi_rank_reads_what_a_thread_rank_reads_and_the_run_cleans_up() {
    let d = shm();
    let p = d.path().display();
    let run = |name: &str| {
        format!(
            "--no-store startup --dir {p} --files 80 --common-size 1m --transfer 128k \
             --stagger 1ms --json {p}/{name}.json"
        )
    };
    for np in [2, 4] {
        iogauge(&format!("--tasks {np} {}", run(&format!("threads{np}")))).ok();
        mpirun_line(np, &run(&format!("mpi{np}"))).ok();
        let (jt, jm) = (
            json(&d.path().join(format!("threads{np}.json"))),
            json(&d.path().join(format!("mpi{np}.json"))),
        );
        assert_eq!(shape(&jt), shape(&jm), "result schema");
        let figures = |j: &serde_json::Value| -> Vec<(serde_json::Value, serde_json::Value)> {
            let phases = j["phases"].as_array().unwrap();
            phases
                .iter()
                .map(|p| (p["counters"].clone(), p["bytes"].clone()))
                .collect()
        };
        assert_eq!(figures(&jt), figures(&jm));
        assert_eq!(jm["phases"][0]["counters"]["files"], 80 * np);
        assert_eq!(jm["phases"][0]["per_rank"].as_array().unwrap().len(), np);
        assert_eq!(jm["ranks"]["launcher"], "mpi");
    }
    // One host: with one reader per node only rank 0 reads; the others wait at the barriers.
    mpirun_line(3, &format!("{} --ranks-per-node 1", run("one"))).ok();
    let one = json(&d.path().join("one.json"));
    let readers = one["phases"][0]["per_rank"].as_array().unwrap();
    assert_eq!(
        (readers.len(), &readers[0]["rank"]),
        (1, &serde_json::json!(0))
    );
    assert_eq!(one["phases"][0]["counters"]["files"], 80);
    let mut left = listing(d.path());
    left.retain(|f| !f.ends_with(".json"));
    assert!(left.is_empty(), "the runs removed what they made: {left:?}");
}
