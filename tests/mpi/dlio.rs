//! `iogauge dlio` checkpoints under mpirun against the same command on thread ranks: the
//! same shards, the same document shape and counts, nothing left.

use super::{mpirun_line, shape};
use crate::common::{iogauge, json, shm, tree};

#[test]
fn checkpoints_match_thread_ranks_and_leave_nothing() {
    let d = shm();
    let p = d.path().display();
    let run = |name: &str, keep: &str| {
        format!(
            "--no-store dlio llama3_8b ++workload.model.num_layers=2 \
             ++workload.model.transformer.hidden_size=64 \
             ++workload.model.transformer.ffn_hidden_size=224 \
             ++workload.model.transformer.vocab_size=1000 \
             ++workload.checkpoint.time_between_checkpoints=0 \
             ++workload.checkpoint.num_checkpoints_write=2 \
             ++workload.checkpoint.num_checkpoints_read=2 \
             ++workload.checkpoint.checkpoint_folder={p}/{name} \
             --output {p}/{name}.out --json {p}/{name}.json {keep}"
        )
    };
    iogauge(&format!("--tasks 4 {}", run("threads", "--keep"))).ok();
    mpirun_line(4, &run("mpi", "--keep")).ok();
    let (tt, tm) = (tree(&d.path().join("threads")), tree(&d.path().join("mpi")));
    assert_eq!(tt.len(), 2 + 2 * 8, "{tt:?}");
    assert_eq!(tt, tm);
    let (jt, jm) = (
        json(&d.path().join("threads.json")),
        json(&d.path().join("mpi.json")),
    );
    assert_eq!(shape(&jt), shape(&jm), "result schema");
    let bytes = |j: &serde_json::Value| -> Vec<serde_json::Value> {
        let phases = j["phases"].as_array().unwrap();
        phases.iter().map(|p| p["bytes"].clone()).collect()
    };
    assert_eq!(bytes(&jt), bytes(&jm));
    assert_eq!(jm["ranks"]["launcher"], "mpi");
    assert!(d.path().join("mpi.out/summary.json").exists());
    // Without --keep, nothing of the run is left.
    mpirun_line(4, &run("again", "")).ok();
    assert!(!d.path().join("again").exists());
}
