//! The result document: md-workbench's figures per phase, the latency of each kind of
//! operation, the counters per rank.

use crate::common::{iogauge, json, shm};

#[test]
fn every_phase_with_its_kinds_and_counts() {
    let d = shm();
    let p = d.path();
    iogauge(&format!(
        "--no-store md-workbench --tasks 2 -P 3 -I 2 -D 2 -R 2 -o {}/out --run-info-file {}/st --json {}/r.json",
        p.display(),
        p.display(),
        p.display()
    ))
    .ok();
    let doc = json(&p.join("r.json"));
    assert_eq!(doc["workload"], "md-workbench");
    assert_eq!(
        doc["parameters"]["resolved"]["total_objects"],
        2 * 2 * (2 * 2 + 3)
    );
    let phases = doc["phases"].as_array().unwrap();
    let kinds = |i: usize| -> Vec<String> {
        let m = phases[i]["latency_by_kind"].as_object().unwrap();
        m.keys().cloned().collect()
    };
    let ops: Vec<&str> = phases
        .iter()
        .map(|p| p["operation"].as_str().unwrap())
        .collect();
    assert_eq!(ops, ["precreate", "benchmark", "benchmark", "cleanup"]);
    assert_eq!(kinds(0), ["create", "mkdir"]);
    assert_eq!(kinds(1), ["create", "delete", "read", "stat"]);
    assert_eq!(kinds(3), ["delete", "rmdir"]);
    // 2 ranks x 2 sets x 2 objects, each stated, read, deleted and created.
    let b = &phases[1];
    assert_eq!(b["counters"]["objects-read"], 8);
    assert_eq!(b["latency"]["count"], 32);
    assert_eq!(b["latency_by_kind"]["stat"]["count"], 8);
    assert_eq!(b["per_rank"][1]["counters"]["objects-created"], 4);
    // iops is md-workbench's rate: four operations per object read, over the phase time.
    let rate = 8.0 * 4.0 / b["times"]["total_s"].as_f64().unwrap();
    assert!((b["iops"].as_f64().unwrap() - rate).abs() < 1e-6 * rate);
    let s: Vec<&str> = doc["summary"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["operation"].as_str().unwrap())
        .collect();
    assert_eq!(s, ["precreate", "benchmark", "cleanup"]);
}
