//! `iogauge dlio`: generated files judged by standard readers, training on tmpfs and a disk
//! with several ranks and reader threads, DLIO's result files, the refusals before any I/O.

mod bad_input;
mod checkpoint;
mod checkpoint_safety;
mod generate;
mod live;
mod train;

use std::path::Path;

use crate::common::{iogauge_args, Run};

/// A small unet3d-shaped run (npz, pytorch): `extra` overrides and options after it.
pub(super) fn dlio(data: &Path, out: &Path, extra: &[&str]) -> Run {
    let data = data.to_str().unwrap();
    let out = out.to_str().unwrap();
    let mut args = vec![
        "dlio",
        "unet3d_h100",
        "++workload.workflow.checkpoint=False",
        "++workload.dataset.record_length_bytes=65536",
        "++workload.dataset.record_length_bytes_stdev=0",
        "++workload.reader.batch_size=2",
        "++workload.reader.read_threads=2",
        "++workload.train.epochs=2",
        "--data-dir",
        data,
        "--output",
        out,
    ];
    args.extend_from_slice(extra);
    iogauge_args(&args)
}

/// Generates `files` training files of [`dlio`]'s shape into `data` with `ranks` ranks.
pub(super) fn generate(data: &Path, files: u64, ranks: &str) {
    let out = data.with_extension("gen");
    dlio(
        data,
        &out,
        &[
            "++workload.workflow.generate_data=True",
            "++workload.workflow.train=False",
            &format!("++workload.dataset.num_files_train={files}"),
            "--tasks",
            ranks,
        ],
    )
    .ok();
}
