//! Refusals before any I/O, with the reason: a missing or short data set, an unknown key, an
//! unsupported format; and `datasize`, which prints and runs nothing.

use super::dlio;
use crate::common::{iogauge, listing, shm};

#[test]
fn a_missing_or_short_data_set_is_refused_naming_the_folder() {
    let d = shm();
    let data = d.path().join("none");
    let r = dlio(&data, &d.path().join("out"), &[]).code(2);
    assert!(
        r.stderr
            .contains(&format!("{}/train does not exist", data.display())),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("generate_data=True"), "{}", r.stderr);
    std::fs::create_dir_all(data.join("train")).unwrap();
    let r = dlio(
        &data,
        &d.path().join("out"),
        &["++workload.dataset.num_files_train=4"],
    )
    .code(2);
    assert!(
        r.stderr
            .contains("holds 0 npz file(s); dataset.num_files_train is 4"),
        "{}",
        r.stderr
    );
    assert_eq!(listing(&data), ["train"], "nothing made");
}

#[test]
fn an_unknown_key_and_an_unsupported_format_are_refused_by_name() {
    let d = shm();
    let r = dlio(
        d.path(),
        &d.path().join("out"),
        &["++workload.reader.bogus=1"],
    )
    .code(2);
    assert!(r.stderr.contains("workload.reader.bogus"), "{}", r.stderr);
    let r = dlio(
        d.path(),
        &d.path().join("out"),
        &["++workload.dataset.format=parquet"],
    )
    .code(2);
    assert!(
        r.stderr.contains("parquet is not supported"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_file_drawn_too_large_for_memory_is_refused_before_generating() {
    let d = shm();
    let data = d.path().join("data");
    let r = dlio(
        &data,
        &d.path().join("out"),
        &[
            "++workload.workflow.generate_data=True",
            "++workload.workflow.train=False",
            // A spread far above the 64 KiB mean: some file is drawn at terabytes.
            "++workload.dataset.record_length_bytes_stdev=1000000000000",
            "++workload.dataset.num_files_train=64",
            "--tasks",
            "2",
        ],
    )
    .code(2);
    for part in [
        "dataset.record_length_bytes_stdev: the size distribution draws train file ",
        "2 rank(s) per node each hold one file while generating",
        "more than half this host's memory",
    ] {
        assert!(r.stderr.contains(part), "{part}: {}", r.stderr);
    }
    assert!(!data.exists(), "nothing made");
}

#[test]
fn a_layout_where_the_last_rank_runs_short_is_refused_with_a_fix() {
    let d = shm();
    // 10 samples over 4 ranks, batch 2: ranks hold 3, 3, 3 and 1; the epoch has 1 step, which
    // the last rank cannot fill.
    let r = dlio(
        d.path(),
        &d.path().join("out"),
        &[
            "++workload.workflow.generate_data=True",
            "++workload.dataset.num_files_train=10",
            "--tasks",
            "4",
        ],
    )
    .code(2);
    assert!(r.stderr.contains("fewer steps per epoch"), "{}", r.stderr);
    assert!(
        r.stderr.contains("++workload.dataset.num_files_train="),
        "{}",
        r.stderr
    );
}

#[test]
fn datasize_prints_the_minimum_and_runs_nothing() {
    let r =
        iogauge("dlio datasize resnet50_h100 --accelerators 16 --hosts 2 --host-memory 256g").ok();
    assert!(r.stdout.contains("files: "), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("generate it with: iogauge dlio resnet50_h100"),
        "{}",
        r.stdout
    );
}
