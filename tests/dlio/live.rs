//! Samples/s and AU live: the metrics endpoint scraped while an epoch runs and after the run.

use std::time::Duration;

use super::generate;
use crate::common::shm;
use crate::monitoring::{free_port, scrape, value, wait_for, Running};

#[test]
fn the_endpoint_shows_samples_and_au_while_epochs_run() {
    let d = shm();
    let (data, out) = (d.path().join("data"), d.path().join("out"));
    // 24 files, batch 2, 2 ranks: 6 steps of 0.25 s per rank and epoch.
    generate(&data, 24, "2");
    let port = free_port();
    let args: Vec<String> = [
        "dlio",
        "unet3d_h100",
        "++workload.workflow.checkpoint=False",
        "++workload.dataset.record_length_bytes=65536",
        "++workload.dataset.record_length_bytes_stdev=0",
        "++workload.dataset.num_files_train=24",
        "++workload.reader.batch_size=2",
        "++workload.reader.read_threads=2",
        "++workload.train.epochs=2",
        "++workload.train.computation_time=0.25",
        "--tasks",
        "2",
        "--data-dir",
        data.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
        "--metrics",
        &format!("127.0.0.1:{port}"),
        "--metrics-linger",
        "2",
    ]
    .map(String::from)
    .to_vec();
    let run = Running::iogauge(&args);
    let e = r#"{phase="dlio-epoch",operation="dlio-epoch"}"#;
    // Compute dominates (data on tmpfs): past its first steps, the ranks are busy most of
    // the epoch so far. A step's compute counts once done, so AU never passes 1.
    let mut seen = Vec::new();
    let live = wait_for(Duration::from_secs(30), || {
        let t = scrape(port)?;
        let au = value(&t, &format!("iogauge_accelerator_utilization{e}"))?;
        seen.push(au);
        (au > 0.3 && value(&t, &format!("iogauge_samples_total{e}"))? > 0.0).then_some(t)
    })
    .unwrap_or_else(|| panic!("a scrape within an epoch with samples and AU: {seen:?}"));
    assert!(
        seen.iter().all(|au| (0.0..=1.0).contains(au)),
        "{seen:?}:\n{live}"
    );
    let last = wait_for(Duration::from_secs(30), || {
        scrape(port).filter(|t| value(t, "iogauge_run_finished") == Some(1.0))
    })
    .expect("the final figures while the endpoint lingers");
    // 2 epochs x 24 samples; 2 epochs x 2 ranks x 6 steps x 0.25 s of compute.
    assert_eq!(
        value(&last, &format!("iogauge_samples_total{e}")),
        Some(48.0),
        "{last}"
    );
    // The compute as measured (the epochs' own figures at their end: each sleep exact to some
    // µs), not the configured 6.0 s the live readings add up.
    let busy = value(&last, &format!("iogauge_accelerator_busy_seconds_total{e}")).unwrap();
    assert!(busy > 6.0 && busy < 6.05, "busy {busy}:\n{last}");
    assert!(!last.contains("iogauge_accelerator_utilization{"), "{last}");
    let done = run.wait(Duration::from_secs(20)).ok();
    assert!(done.stdout.contains("AU"), "{}", done.stdout);
}
