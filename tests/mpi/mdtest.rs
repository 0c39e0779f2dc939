//! `iogauge mdtest` under mpirun against the same command on thread ranks.

use super::{mpirun, mpirun_line, shape};
use crate::common::{iogauge, json, listing, shm, tree};

/// `-C` keeps the tree: both runs must leave the same paths and count the same items.
fn same_as_threads(np: usize, extra: &str) {
    let d = shm();
    for sub in ["threads", "mpi"] {
        std::fs::create_dir_all(d.path().join(sub)).unwrap();
    }
    let run = |dir: &str| {
        format!(
            "mdtest -n 60 {extra} -C -d {0}/{dir}/md --json {0}/{dir}.json",
            d.path().display()
        )
    };
    iogauge(&format!("--tasks {np} {}", run("threads"))).ok();
    let args = run("mpi");
    let r = mpirun_line(np, &args).ok();
    assert_eq!(r.stdout.matches("SUMMARY rate").count(), 1, "{}", r.stdout);
    let (tt, tm) = (
        tree(&d.path().join("threads/md")),
        tree(&d.path().join("mpi/md")),
    );
    assert!(!tt.is_empty());
    assert_eq!(tt, tm, "np {np} {extra}");
    let (jt, jm) = (
        json(&d.path().join("threads.json")),
        json(&d.path().join("mpi.json")),
    );
    assert_eq!(shape(&jt), shape(&jm), "result schema");
    let items = |j: &serde_json::Value| -> Vec<(String, u64)> {
        j["phases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["operation"].as_str().unwrap().to_string(),
                    p["ops"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(items(&jt), items(&jm));
    assert_eq!(jm["ranks"]["count"], np);
}

#[test]
fn trees_and_item_counts_match_thread_ranks_with_2_and_4_ranks() {
    same_as_threads(2, "-F -u");
    same_as_threads(4, "-F");
    same_as_threads(4, "-u -z 2 -b 2 -N 1");
}

#[test]
fn a_full_run_removes_what_it_created() {
    let d = shm();
    let md = d.path().join("md");
    let r = mpirun(
        4,
        &[
            "mdtest",
            "-n",
            "100",
            "-F",
            "-u",
            "-w",
            "10",
            "-e",
            "10",
            "-X",
            "-d",
            md.to_str().unwrap(),
        ],
    )
    .ok();
    for op in ["File creation", "File stat", "File read", "File removal"] {
        assert_eq!(r.stdout.matches(op).count(), 1, "{op}: {}", r.stdout);
    }
    assert!(listing(&md).is_empty(), "{:?}", listing(&md));
}
