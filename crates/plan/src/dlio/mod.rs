//! The plan of `iogauge dlio`: a DLIO workload config (MLPerf Storage's training workloads),
//! read from a shipped name or a YAML file with Hydra's overrides on top (`load.rs`), held
//! in DLIO's own sections and key names with DLIO's defaults (`utils/config.py` on DLIO's
//! `mlperf_storage_v2.0` branch), and written back in DLIO's shape (`render.rs`).
//!
//! Every key DLIO's loader reads is known (`keys.rs`): the ones iogauge emulates become a
//! field here; the others are refused by name, never ignored.

pub mod datasize;
mod error;
mod keys;
mod load;
mod overrides;
mod render;
mod rules;
pub mod shipped;
mod value;

#[cfg(test)]
mod tests;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use error::{ConfigError, ErrorKind};
pub use load::{load, parse_yaml, Loaded, Source};
pub use overrides::{is_override, Override, OverrideKind};
pub use render::to_dlio_yaml;

/// A resolved DLIO workload config: the YAML's sections, every key with its value or
/// DLIO's default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct DlioParams {
    pub model: Model,
    /// `framework`: which framework's loader is emulated (none is linked).
    pub framework: Framework,
    pub workflow: Workflow,
    pub storage: Storage,
    pub dataset: Dataset,
    pub reader: Reader,
    pub train: Train,
    pub evaluation: Evaluation,
    pub checkpoint: Checkpoint,
    pub output: Output,
    pub metric: Metric,
    pub profiling: Profiling,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Model {
    /// `model.name` (DLIO: `default`).
    pub name: String,
    /// `model.type` (`cnn`, ...): a label.
    #[serde(rename = "type")]
    pub model_type: Option<String>,
    /// `model.model_size`, as MLPerf Storage's unet3d configs spell it. DLIO's loader does
    /// not read this key (it reads `model_size_bytes`), so it changes nothing; kept so the
    /// resolved config shows it.
    pub model_size: Option<u64>,
    /// `model.model_size_bytes`: the checkpoint size DLIO would write (default 10240).
    pub model_size_bytes: u64,
}

impl Default for Model {
    fn default() -> Self {
        Model {
            name: "default".into(),
            model_type: None,
            model_size: None,
            model_size_bytes: 10240,
        }
    }
}

/// `framework`: DLIO's default is tensorflow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Framework {
    #[default]
    Tensorflow,
    Pytorch,
}

/// `reader.data_loader`: the loader whose reads are emulated (DLIO's default: tensorflow).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DataLoader {
    #[default]
    Tensorflow,
    Pytorch,
}

/// `dataset.format`: the formats iogauge generates and reads (DLIO's default: tfrecord).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Npz,
    #[default]
    Tfrecord,
    Jpeg,
}

/// `reader.file_shuffle` / `reader.sample_shuffle` (DLIO's default: off).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Shuffle {
    #[default]
    Off,
    Seed,
    Random,
}

/// `storage.storage_type`: a file system only (S3 comes with the S3 engine).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StorageType {
    #[default]
    LocalFs,
}

/// `profiling.profiler`: DLIO's choice of external profiler; only recorded, since iogauge
/// refuses `workflow.profiling: True`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Profiler {
    None,
    #[default]
    Iostat,
    Darshan,
    Tensorboard,
}

/// `workflow.*`: what the run does (DLIO: train only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Workflow {
    pub generate_data: bool,
    pub train: bool,
    pub evaluation: bool,
    /// Refused when set for a run (`DlioParams::check_runnable`): checkpointing is the
    /// next issue.
    pub checkpoint: bool,
    /// DLIO's external profiler (darshan, iostat); refused when set for a run.
    pub profiling: bool,
    /// `workflow.debug` (DLIO 2.0.0's debug logging); refused when set for a run.
    pub debug: bool,
}

impl Default for Workflow {
    fn default() -> Self {
        Workflow {
            generate_data: false,
            train: true,
            evaluation: false,
            checkpoint: false,
            profiling: false,
            debug: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Storage {
    pub storage_type: StorageType,
    /// `storage.storage_root` (DLIO: `./`): DLIO joins it before `dataset.data_folder`
    /// (an absolute data folder wins, as with `os.path.join`).
    pub storage_root: String,
}

impl Default for Storage {
    fn default() -> Self {
        Storage {
            storage_type: StorageType::LocalFs,
            storage_root: "./".into(),
        }
    }
}

/// `dataset.*`: the data set's files and their records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Dataset {
    /// `dataset.data_folder` without trailing slashes (DLIO strips them); default `./data`.
    pub data_folder: String,
    pub format: Format,
    pub num_files_train: u64,
    pub num_files_eval: u64,
    pub num_samples_per_file: u64,
    /// `record_length_bytes` (`record_length` in DLIO 2.0.0): the mean record size. A real
    /// number, as DLIO keeps it (resnet50's 114660.07); DLIO's derived MB/s uses it.
    #[serde(serialize_with = "crate::whole::serialize")]
    pub record_length_bytes: f64,
    /// `record_length_bytes_stdev` (`record_length_stdev`): the spread of record sizes.
    #[serde(serialize_with = "crate::whole::serialize")]
    pub record_length_bytes_stdev: f64,
    /// `record_length_bytes_resize` (`record_length_resize`): the size DLIO's readers
    /// resize a sample to in memory (0: none); no bytes on disk.
    pub record_length_bytes_resize: u64,
    pub num_subfolders_train: u64,
    pub num_subfolders_eval: u64,
    /// `dataset.file_prefix` (DLIO: `img`): generated files are `{prefix}_{i}_of_{n}.{ext}`.
    pub file_prefix: String,
}

impl Default for Dataset {
    fn default() -> Self {
        Dataset {
            data_folder: "./data".into(),
            format: Format::Tfrecord,
            num_files_train: 8,
            num_files_eval: 0,
            num_samples_per_file: 1,
            record_length_bytes: 65536.0,
            record_length_bytes_stdev: 0.0,
            record_length_bytes_resize: 0,
            num_subfolders_train: 0,
            num_subfolders_eval: 0,
            file_prefix: "img".into(),
        }
    }
}

/// `reader.*`: the data loader.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Reader {
    pub data_loader: DataLoader,
    pub batch_size: u64,
    pub batch_size_eval: u64,
    /// Loader workers per rank (PyTorch `num_workers`; 0: the rank itself reads).
    pub read_threads: u64,
    /// TensorFlow's parallel map threads.
    pub computation_threads: u64,
    /// Batches each loader keeps ready.
    pub prefetch_size: u64,
    pub file_shuffle: Shuffle,
    pub sample_shuffle: Shuffle,
    /// TensorFlow's shuffle buffer, in samples.
    pub shuffle_size: u64,
    /// Bytes per read of a TFRecord stream (DLIO: unset, TensorFlow's own buffer).
    pub transfer_size: Option<u64>,
    /// Read with O_DIRECT.
    pub odirect: bool,
    /// Read npz files with plain reads instead of a mapping.
    pub dont_use_mmap: bool,
}

impl Default for Reader {
    fn default() -> Self {
        Reader {
            data_loader: DataLoader::Tensorflow,
            batch_size: 1,
            batch_size_eval: 1,
            read_threads: 1,
            computation_threads: 1,
            prefetch_size: 2,
            file_shuffle: Shuffle::Off,
            sample_shuffle: Shuffle::Off,
            shuffle_size: 1024,
            transfer_size: None,
            odirect: false,
            dont_use_mmap: false,
        }
    }
}

/// `train.*`: the emulated training loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Train {
    pub epochs: u64,
    /// Seconds of emulated accelerator work per step (DLIO: 0).
    pub computation_time: f64,
    pub computation_time_stdev: f64,
    /// Steps after which training stops (-1: every step of every epoch).
    pub total_training_steps: i64,
    /// Shuffle with `seed + epoch` rather than `seed` in every epoch.
    pub seed_change_epoch: bool,
    pub seed: i64,
}

impl Default for Train {
    fn default() -> Self {
        Train {
            epochs: 1,
            computation_time: 0.0,
            computation_time_stdev: 0.0,
            total_training_steps: -1,
            seed_change_epoch: true,
            seed: 123,
        }
    }
}

/// `evaluation.*`: the evaluation pass DLIO runs with `workflow.evaluation`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Evaluation {
    /// Seconds of emulated work per evaluation step.
    pub eval_time: f64,
    pub eval_time_stdev: f64,
    pub eval_after_epoch: u64,
    pub epochs_between_evals: u64,
}

impl Default for Evaluation {
    fn default() -> Self {
        Evaluation {
            eval_time: 0.0,
            eval_time_stdev: 0.0,
            eval_after_epoch: 1,
            epochs_between_evals: 1,
        }
    }
}

/// `checkpoint.*` keys of the training configs: parsed and recorded; checkpointing itself
/// is refused (`workflow.checkpoint`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Checkpoint {
    /// Without trailing slashes (DLIO strips them); DLIO: `./checkpoints`.
    pub checkpoint_folder: String,
    pub checkpoint_after_epoch: u64,
    pub epochs_between_checkpoints: u64,
    /// -1: by epochs, not steps.
    pub steps_between_checkpoints: i64,
}

impl Default for Checkpoint {
    fn default() -> Self {
        Checkpoint {
            checkpoint_folder: "./checkpoints".into(),
            checkpoint_after_epoch: 1,
            epochs_between_checkpoints: 1,
            steps_between_checkpoints: -1,
        }
    }
}

/// `output.*`: where DLIO's result files go and which steps its metrics leave out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Output {
    /// `output.folder` (DLIO: Hydra's run directory); `--output DIR` sets it.
    pub folder: Option<String>,
    pub log_file: String,
    /// `output.metric.exclude_start_steps`: steps at the start of each epoch left out of AU.
    pub exclude_start_steps: u64,
    /// `output.metric.exclude_end_steps`.
    pub exclude_end_steps: u64,
}

impl Default for Output {
    fn default() -> Self {
        Output {
            folder: None,
            log_file: "dlio.log".into(),
            exclude_start_steps: 1,
            exclude_end_steps: 0,
        }
    }
}

/// `metric.*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Metric {
    /// The AU a run must reach to pass (a fraction: 0.90).
    pub au: f64,
}

impl Default for Metric {
    fn default() -> Self {
        Metric { au: 0.90 }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Profiling {
    pub profiler: Profiler,
}

impl DlioParams {
    /// The refusals of a run (not of `datasize`, which only reads the sizes): checkpointing
    /// (the next issue), DLIO's profiler and debug logging, and a workflow that does nothing.
    pub fn check_runnable(&self) -> Result<(), ConfigError> {
        rules::check_runnable(self)
    }
}
