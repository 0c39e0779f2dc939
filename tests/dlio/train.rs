//! Training on /dev/shm and on a disk directory with several ranks and reader threads: the
//! samples DLIO counts, AU when the computation dominates and when it is tiny, pass/fail, and
//! DLIO's result files.

use super::{dlio, generate};
use crate::common::{json, listing, shm};

/// A disk directory (not tmpfs) under /var/tmp, else the default temp dir.
fn disk() -> tempfile::TempDir {
    tempfile::tempdir_in("/var/tmp").unwrap_or_else(|_| crate::common::tmp())
}

#[test]
fn samples_per_epoch_drop_the_last_partial_batch_and_au_is_high_when_compute_dominates() {
    let d = shm();
    let (data, out, j) = (
        d.path().join("data"),
        d.path().join("out"),
        d.path().join("r.json"),
    );
    // 26 files, batch 2, 3 ranks: 4 steps per rank, 24 samples per epoch (2 are not read).
    generate(&data, 26, "3");
    let run = dlio(
        &data,
        &out,
        &[
            "++workload.dataset.num_files_train=26",
            "++workload.train.computation_time=0.05",
            "--tasks",
            "3",
            "--json",
            j.to_str().unwrap(),
        ],
    )
    .ok();
    assert!(
        run.stdout.contains("not an MLPerf Storage submission"),
        "{}",
        run.stdout
    );
    let doc = json(&j);
    let epochs = doc["dlio"]["epochs"].as_array().unwrap();
    assert_eq!(epochs.len(), 2);
    for e in epochs {
        assert_eq!(
            (e["samples"].as_u64(), e["steps"].as_u64()),
            (Some(24), Some(4)),
            "{e}"
        );
        assert!(e["au_percent"].as_f64().unwrap() > 90.0, "{e}");
        assert_eq!(e["au_met"], true);
    }
    assert_eq!(
        doc["dlio"]["metric"]["train_au_meet_expectation"],
        "success"
    );
    let mut names = listing(&out);
    names.sort();
    assert_eq!(
        names,
        [
            "0_output.json",
            "0_per_epoch_stats.json",
            "1_output.json",
            "1_per_epoch_stats.json",
            "2_output.json",
            "2_per_epoch_stats.json",
            "config.yaml",
            "summary.json"
        ]
    );
    let s = json(&out.join("summary.json"));
    assert_eq!(s["num_accelerators"], 3);
    assert_eq!(s["epochs"], 2);
    assert_eq!(s["num_files_train"], 26);
    assert_eq!(
        s["metric"]["train_au_percentage"].as_array().unwrap().len(),
        2
    );
    for key in [
        "train_throughput_mean_samples_per_second",
        "train_io_mean_MB_per_second",
    ] {
        assert!(s["metric"][key].as_f64().unwrap() > 0.0, "{key}");
    }
    let r0 = json(&out.join("0_output.json"));
    assert_eq!(r0["1"]["load"]["block1"].as_array().unwrap().len(), 4);
    assert!(json(&out.join("2_per_epoch_stats.json"))["2"]["block1"]["duration"].is_string());
}

#[test]
fn au_is_low_when_compute_is_tiny_on_a_disk_directory_and_the_run_fails_metric_au() {
    let d = disk();
    let (data, out, j) = (
        d.path().join("data"),
        d.path().join("out"),
        d.path().join("r.json"),
    );
    generate(&data, 24, "2");
    dlio(
        &data,
        &out,
        &[
            "++workload.dataset.num_files_train=24",
            "++workload.train.computation_time=0",
            "--tasks",
            "2",
            "--fake-nodes",
            "2",
            "--json",
            j.to_str().unwrap(),
        ],
    )
    .ok();
    let doc = json(&j);
    // Two (fake) nodes: summary.json lists each node's host, as its ranks reported it.
    let s = json(&out.join("summary.json"));
    let cpus = doc["environment"]["cpus"].as_u64().unwrap();
    assert_eq!(s["num_hosts"], 2);
    assert_eq!(s["host_cpu_count"], serde_json::json!([cpus, cpus]));
    let mem = s["host_memory_GB"].as_array().unwrap();
    assert_eq!(mem.len(), 2);
    assert!(mem.iter().all(|m| m.as_f64().unwrap() > 0.0), "{mem:?}");
    assert_eq!(s["potential_caching"], serde_json::json!([1, 1]));
    assert_eq!(json(&out.join("1_output.json"))["host_cpu_count"], cpus);
    for e in doc["dlio"]["epochs"].as_array().unwrap() {
        assert_eq!(e["samples"].as_u64(), Some(24), "{e}");
        assert!(e["au_percent"].as_f64().unwrap() < 50.0, "{e}");
        assert_eq!(e["au_met"], false);
        // Every sample is a whole file: the bytes actually read are the data set's.
        assert!(e["bytes_read"].as_u64().unwrap() >= 24 * 65536, "{e}");
    }
    assert_eq!(
        json(&out.join("summary.json"))["metric"]["train_au_meet_expectation"],
        "fail"
    );
    let phases: Vec<&str> = doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["operation"].as_str().unwrap())
        .collect();
    assert_eq!(phases, ["dlio-epoch", "dlio-epoch"]);
}
