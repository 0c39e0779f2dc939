//! Item counts per phase (from --json), as mdtest computes them.

use crate::common::{iogauge, json, shm};
use serde_json::Value;

/// Runs `iogauge mdtest ARGS -d <tmp>/md --json <tmp>/r.json` and returns the document.
fn run(args: &str) -> Value {
    let d = shm();
    let j = d.path().join("r.json");
    iogauge(&format!(
        "mdtest {args} -d {}/md --json {}",
        d.path().display(),
        j.display()
    ))
    .ok();
    json(&j)
}

/// `(operation, ops)` of every phase, in order.
fn ops(doc: &Value) -> Vec<(String, u64)> {
    doc["phases"]
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
}

fn pairs(list: &[(&str, u64)]) -> Vec<(String, u64)> {
    list.iter().map(|(o, n)| (o.to_string(), *n)).collect()
}

#[test]
fn tree_with_dirs_and_files_runs_every_phase_in_mdtest_order() {
    // -n 12 over 7 directories: 1 item each, 7 per task (n rounded down), 14 in all.
    let doc = run("--tasks 2 -n 12 -z 2 -b 2");
    assert_eq!(
        ops(&doc),
        pairs(&[
            ("tree-create", 7),
            ("dir-create", 14),
            ("dir-stat", 14),
            ("dir-rename", 14),
            ("dir-remove", 14),
            ("file-create", 14),
            ("file-stat", 14),
            ("file-read", 14),
            ("file-remove", 14),
            ("tree-remove", 7),
        ])
    );
    let r = &doc["parameters"]["resolved"];
    assert_eq!(
        (r["num_dirs"].as_u64(), r["items_per_task"].as_u64()),
        (Some(7), Some(7))
    );
    for p in doc["phases"].as_array().unwrap() {
        assert_eq!(p["per_rank"].as_array().unwrap().len(), 2);
        // One latency per operation (the shared tree is made by task 0 alone).
        assert_eq!(p["latency"]["count"], p["ops"], "{}", p["operation"]);
        assert!(p["iops"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(doc["exit_code"], 0);
}

#[test]
fn items_per_directory_leaves_and_directory_loops() {
    // -I 5 on the 4 leaves of -z 2 -b 2, a tree per task.
    let doc = run("--tasks 2 -I 5 -z 2 -b 2 -L -u -F");
    assert_eq!(ops(&doc)[1], ("file-create".to_string(), 40));
    // -n 100 -I 20: five test directories of 20 items per task.
    let doc = run("--tasks 2 -n 100 -I 20 -F -C");
    assert_eq!(
        ops(&doc),
        pairs(&[("tree-create", 1), ("file-create", 200)])
    );
    assert_eq!(doc["parameters"]["resolved"]["directory_loops"], 5);
}

#[test]
fn iterations_and_the_sample_standard_deviation() {
    let doc = run("--tasks 2 -i 3 -n 25 -u -F");
    let creates: Vec<&Value> = doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["operation"] == "file-create")
        .collect();
    assert_eq!(creates.len(), 3);
    let rates: Vec<f64> = creates
        .iter()
        .map(|p| p["iops"].as_f64().unwrap())
        .collect();
    for (i, p) in creates.iter().enumerate() {
        assert_eq!(
            (p["iteration"].as_u64(), p["ops"].as_u64()),
            (Some(i as u64), Some(50))
        );
    }
    let s = doc["summary"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["operation"] == "file-create")
        .unwrap();
    let mean = rates.iter().sum::<f64>() / 3.0;
    let sd = (rates.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
    let got = s["ops_per_s"]["stddev"].as_f64().unwrap();
    assert!(
        (got - sd).abs() <= 1e-6 * sd.max(1.0),
        "{got} vs sample SD {sd}"
    );
    assert_eq!(s["iterations"], 3);
}
