//! SIGINT in a dlio training epoch: exit 130, the finished epochs kept in the document and
//! DLIO's files, the cut one marked interrupted.

use std::time::Duration;

use super::signal::{interrupt, spawn, wait_for};
use crate::common::{json, shm};

#[test]
fn sigint_mid_epoch_keeps_the_finished_epochs() {
    let d = shm();
    let (data, out, j) = (
        d.path().join("data"),
        d.path().join("out"),
        d.path().join("r.json"),
    );
    let common = [
        "dlio",
        "unet3d_h100",
        "++workload.workflow.checkpoint=False",
        "++workload.dataset.record_length_bytes=4096",
        "++workload.dataset.record_length_bytes_stdev=0",
        "++workload.dataset.num_files_train=16",
        "++workload.reader.batch_size=2",
        "++workload.reader.read_threads=2",
        "--data-dir",
        data.to_str().unwrap(),
        "--tasks",
        "2",
    ];
    let mut gen = common.to_vec();
    gen.extend([
        "++workload.workflow.generate_data=True",
        "++workload.workflow.train=False",
        "--output",
        out.to_str().unwrap(),
    ]);
    crate::common::iogauge_args(&gen).ok();
    // 4 steps of 0.25 s an epoch: the first ends after about 1 s; the signal comes in the second.
    let mut train = common.to_vec();
    train.extend([
        "++workload.train.computation_time=0.25",
        "++workload.train.epochs=20",
        "--output",
        out.to_str().unwrap(),
        "--json",
        j.to_str().unwrap(),
    ]);
    let child = spawn(&train);
    wait_for("the first epoch", || out.join("config.yaml").exists());
    std::thread::sleep(Duration::from_millis(1600));
    let (run, _) = interrupt(child, "INT");
    assert_eq!(
        run.code, 130,
        "stdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    let doc = json(&j);
    let done = doc["dlio"]["epochs"].as_array().unwrap().len();
    assert!((1..20).contains(&done), "{done} epochs");
    // The signal cuts an epoch, or (on a loaded machine) falls between two: then no phase
    // is cut and every epoch phase is a finished one.
    let phases = doc["phases"].as_array().unwrap();
    let epochs = phases.iter().filter(|p| p["operation"] == "dlio-epoch");
    let cut = epochs.clone().filter(|p| p["interrupted"] == true).count();
    assert!(
        (cut == 1 && phases.last().unwrap()["interrupted"] == true)
            || (cut == 0 && epochs.count() == done),
        "{phases:?}"
    );
    assert_eq!(
        json(&out.join("summary.json"))["epochs"].as_u64(),
        Some(done as u64)
    );
}
