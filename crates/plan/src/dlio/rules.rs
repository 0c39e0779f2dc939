//! The rules across a loaded config's values: ranges, DLIO's own checks (`validate` in
//! `utils/config.py`), and what a run refuses.

use super::error::{ConfigError, ErrorKind};
use super::{DataLoader, DlioParams, Format, Framework};

fn bad(key: &str, message: impl std::fmt::Display) -> ConfigError {
    ConfigError::at(ErrorKind::BadValue, key, message)
}

/// Every config, for a run or for `datasize`.
pub(super) fn check_values(p: &DlioParams) -> Result<(), ConfigError> {
    let d = &p.dataset;
    if d.num_samples_per_file == 0 {
        return Err(bad(
            "dataset.num_samples_per_file",
            "0: a file holds at least 1 sample",
        ));
    }
    if d.record_length_bytes <= 0.0 {
        return Err(bad(
            "dataset.record_length_bytes",
            format!("{}: a record is at least 1 byte", d.record_length_bytes),
        ));
    }
    if d.record_length_bytes_stdev < 0.0 {
        return Err(bad(
            "dataset.record_length_bytes_stdev",
            "a spread is 0 or more",
        ));
    }
    if p.reader.batch_size == 0 {
        return Err(bad("reader.batch_size", "0: a batch is at least 1 sample"));
    }
    if p.reader.batch_size_eval == 0 {
        return Err(bad(
            "reader.batch_size_eval",
            "0: a batch is at least 1 sample",
        ));
    }
    if p.reader.transfer_size == Some(0) {
        return Err(bad("reader.transfer_size", "0: a read is at least 1 byte"));
    }
    if p.train.epochs == 0 {
        return Err(bad("train.epochs", "0: train at least 1 epoch"));
    }
    if p.train.total_training_steps == 0 || p.train.total_training_steps < -1 {
        return Err(bad(
            "train.total_training_steps",
            format!(
                "{}: at least 1 step, or -1 for every step of every epoch",
                p.train.total_training_steps
            ),
        ));
    }
    for (key, v) in [
        ("train.computation_time", p.train.computation_time),
        (
            "train.computation_time_stdev",
            p.train.computation_time_stdev,
        ),
        ("evaluation.eval_time", p.evaluation.eval_time),
        ("evaluation.eval_time_stdev", p.evaluation.eval_time_stdev),
    ] {
        if v < 0.0 {
            return Err(bad(key, format!("{v}: seconds are 0 or more")));
        }
    }
    if !(p.metric.au > 0.0 && p.metric.au <= 1.0) {
        return Err(bad(
            "metric.au",
            format!(
                "{}: a fraction of the time, above 0 and at most 1 (0.90)",
                p.metric.au
            ),
        ));
    }
    // DLIO's validate(): the loader must be the framework's, and its PyTorch loader has no
    // TFRecord reader. A checkpoint workload reads no data set: its configs (llama3: pytorch)
    // leave the loader at its default, which DLIO keeps as a string that never compares
    // equal to its enumeration, so DLIO does not refuse them either.
    if !p.workflow.train && !p.workflow.generate_data {
        return Ok(());
    }
    let matching = matches!(
        (p.framework, p.reader.data_loader),
        (Framework::Pytorch, DataLoader::Pytorch) | (Framework::Tensorflow, DataLoader::Tensorflow)
    );
    if !matching {
        return Err(bad(
            "reader.data_loader",
            format!(
                "{} with framework {}: DLIO refuses a loader of another framework",
                loader_name(p.reader.data_loader),
                loader_name(match p.framework {
                    Framework::Pytorch => DataLoader::Pytorch,
                    Framework::Tensorflow => DataLoader::Tensorflow,
                })
            ),
        ));
    }
    if d.format == Format::Tfrecord && p.reader.data_loader == DataLoader::Pytorch {
        return Err(ConfigError::at(
            ErrorKind::Unsupported,
            "dataset.format",
            "tfrecord with the pytorch data loader: DLIO has no such reader (use tensorflow)",
        ));
    }
    Ok(())
}

fn loader_name(l: DataLoader) -> &'static str {
    match l {
        DataLoader::Pytorch => "pytorch",
        DataLoader::Tensorflow => "tensorflow",
    }
}

/// What a run (training or generation) refuses beyond [`check_values`].
pub(super) fn check_runnable(p: &DlioParams) -> Result<(), ConfigError> {
    let w = &p.workflow;
    let refuse = |key: &str, why: &str| {
        Err(ConfigError::at(
            ErrorKind::Unsupported,
            key,
            format!(
                "True: {why}; add ++{key_}=False",
                key_ = format_args!("workload.{key}")
            ),
        ))
    };
    if w.checkpoint && w.train {
        // MLPerf Storage v2.0's mlpstorage passes the YAML's workflow through unchanged (its
        // override to False is commented out), so DLIO checkpoints after unet3d's epoch 5;
        // its v3-era unet3d configs set False.
        return refuse(
            "workflow.checkpoint",
            "checkpointing during training (a checkpoint step between epochs) is not emulated; \
             the checkpoint workloads (llama3_*) run with train False",
        );
    }
    if w.evaluation {
        return refuse(
            "workflow.evaluation",
            "evaluation passes are not emulated yet",
        );
    }
    if w.profiling {
        return refuse(
            "workflow.profiling",
            "iogauge does not run DLIO's external profilers",
        );
    }
    if w.debug {
        return refuse(
            "workflow.debug",
            "DLIO's debug logging has no iogauge equivalent",
        );
    }
    if !w.train && !w.generate_data && !w.checkpoint {
        return Err(bad(
            "workflow",
            "nothing to do: train, generate_data and checkpoint are all False",
        ));
    }
    if w.checkpoint {
        super::checkpoint_rules::check(p)?;
    }
    if (w.train || w.generate_data) && p.dataset.num_files_train == 0 {
        return Err(bad(
            "dataset.num_files_train",
            "0: training needs at least 1 file",
        ));
    }
    Ok(())
}
