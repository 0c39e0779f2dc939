//! The system figures under MPI (`docs/system.md`): each node's first rank reads its node, the
//! other ranks' CPU time is added to their node's, and rank 0 records every node. One machine
//! stands for two nodes with `--fake-nodes 2`.

use crate::common::{json, tmp};

use super::mpirun_line;

#[test]
fn every_node_is_read_and_every_rank_s_cpu_counts() {
    let dir = tmp();
    let d = dir.path().display();
    mpirun_line(
        4,
        &format!("ior -w -t 1m -b 16m -o {d}/f --fake-nodes 2 --no-store --json {d}/doc.json"),
    )
    .ok();
    let doc = json(&dir.path().join("doc.json"));
    let s = &doc["phases"][0]["system"];
    assert_eq!(s["other_nodes"].as_array().map(Vec::len), Some(1), "{s:#}");
    assert_eq!(s["ranks"], serde_json::json!([0, 1]));
    let other = &s["other_nodes"][0];
    assert_eq!(other["ranks"], serde_json::json!([2, 3]));
    for node in [s, other] {
        let cpu = &node["cpu"];
        let used = cpu["user_s"].as_f64().unwrap() + cpu["system_s"].as_f64().unwrap();
        assert!(used > 0.0, "{node:#}");
        assert!(node["window_s"].as_f64().unwrap() > 0.0);
        assert!(node["page_cache"]["dirty_end_bytes"].is_u64());
    }

    // One node: rank 0 reads it, and the three other processes' CPU time is added to it.
    mpirun_line(
        4,
        &format!("ior -w -t 1m -b 16m -o {d}/g --no-store --json {d}/one.json"),
    )
    .ok();
    let doc = json(&dir.path().join("one.json"));
    let s = &doc["phases"][0]["system"];
    assert!(s.get("other_nodes").is_none());
    assert!(s["cpu"]["system_s"].as_f64().unwrap() > 0.0);
}

/// The IO500's phases run in sessions nested in the suite's: the suite's hub reads rank 0's
/// node and takes the other nodes' figures gathered in each phase.
#[test]
fn the_io500_reads_every_node_too() {
    let d = tmp();
    let ini = crate::io500::small_ini(d.path(), "");
    let ini = ini.to_str().unwrap();
    super::mpirun(4, &["--fake-nodes", "2", "io500", ini, "--timestamp", "S"]).ok();
    let doc = json(&d.path().join("res/S/result.json"));
    let phases = doc["phases"].as_array().unwrap();
    let write = phases
        .iter()
        .find(|p| p["io500_phase"] == "ior-easy-write")
        .expect("ior-easy-write");
    let s = &write["system"];
    assert_eq!(s["other_nodes"].as_array().map(Vec::len), Some(1), "{s:#}");
    assert_eq!(s["other_nodes"][0]["ranks"], serde_json::json!([2, 3]));
    // Every phase the suite timed has its figures, each with both nodes.
    for p in phases {
        let nodes = p["system"]["other_nodes"].as_array().map_or(0, Vec::len);
        assert_eq!(nodes, 1, "{}", p["io500_phase"]);
    }
}
