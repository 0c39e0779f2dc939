//! The plan of `iogauge dlio`: a DLIO workload config (MLPerf Storage's training workloads),
//! read from a shipped name or a YAML file with Hydra's overrides on top (`load.rs`), held
//! in DLIO's own sections and key names with DLIO's defaults (`utils/config.py` on DLIO's
//! `mlperf_storage_v2.0` branch), and written back in DLIO's shape (`render.rs`).
//!
//! Every key DLIO's loader reads is known (`keys.rs`): the ones iogauge emulates become a
//! field here; the others are refused by name, never ignored.

mod checkpoint_rules;
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
    /// `model.num_layers`: the transformer's layers, whose shape makes a checkpoint's shards
    /// (DLIO: -1, no transformer).
    pub num_layers: i64,
    /// `model.model_datatype`: the model's parameters (DLIO: fp16).
    pub model_datatype: Datatype,
    /// `model.optimizer_datatype`: the optimizer's state (DLIO: fp32).
    pub optimizer_datatype: Datatype,
    pub parallelism: Parallelism,
    pub transformer: Transformer,
}

impl Default for Model {
    fn default() -> Self {
        Model {
            name: "default".into(),
            model_type: None,
            model_size: None,
            model_size_bytes: 10240,
            num_layers: -1,
            model_datatype: Datatype::Fp16,
            optimizer_datatype: Datatype::Fp32,
            parallelism: Parallelism::default(),
            transformer: Transformer::default(),
        }
    }
}

/// A tensor's element type (`model.model_datatype`, `model.optimizer_datatype`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Datatype {
    Int8,
    Uint8,
    Fp16,
    Bf16,
    Fp32,
    Fp64,
}

impl Datatype {
    /// Bytes per element, as DLIO's `get_datatype_size`.
    pub fn bytes(self) -> u64 {
        match self {
            Datatype::Int8 | Datatype::Uint8 => 1,
            Datatype::Fp16 | Datatype::Bf16 => 2,
            Datatype::Fp32 => 4,
            Datatype::Fp64 => 8,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Datatype::Int8 => "int8",
            Datatype::Uint8 => "uint8",
            Datatype::Fp16 => "fp16",
            Datatype::Bf16 => "bf16",
            Datatype::Fp32 => "fp32",
            Datatype::Fp64 => "fp64",
        }
    }
}

/// `model.parallelism.*`: how the model is split over the ranks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Parallelism {
    /// Tensor parallelism (DLIO: 1).
    pub tensor: u64,
    /// Pipeline parallelism (DLIO: 1).
    pub pipeline: u64,
    /// Data parallelism: -1 (DLIO's default) is ranks / (tensor x pipeline); set only in
    /// `checkpoint.mode: subset`.
    pub data: i64,
    /// DeepSpeed's ZeRO stage, 0 to 3 (DLIO: 0).
    pub zero_stage: u64,
}

impl Default for Parallelism {
    fn default() -> Self {
        Parallelism {
            tensor: 1,
            pipeline: 1,
            data: -1,
            zero_stage: 0,
        }
    }
}

/// `model.transformer.*`: the shape of each layer (DLIO's defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Transformer {
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub ffn_hidden_size: u64,
    pub num_attention_heads: u64,
    pub num_kv_heads: u64,
}

impl Default for Transformer {
    fn default() -> Self {
        Transformer {
            vocab_size: 32000,
            hidden_size: 2048,
            ffn_hidden_size: 8192,
            num_attention_heads: 32,
            num_kv_heads: 8,
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

/// `storage.storage_type`: a file system only (S3 comes with the S3 engine). `direct_fs`
/// (DLIO's later checkpointing back end) is the same file system with O_DIRECT checkpoints.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StorageType {
    #[default]
    LocalFs,
    DirectFs,
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
    /// Checkpointing: with `train` False, the checkpoint workload (writes, then reads);
    /// during training it is refused (`DlioParams::check_runnable`).
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

/// `checkpoint.*`: the checkpoint workload's (llama3) keys, and the training configs' keys
/// of a checkpoint step, which are recorded only (checkpointing during training is refused).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Checkpoint {
    /// Without trailing slashes (DLIO strips them); DLIO: `./checkpoints`.
    pub checkpoint_folder: String,
    pub checkpoint_after_epoch: u64,
    pub epochs_between_checkpoints: u64,
    /// -1: by epochs, not steps.
    pub steps_between_checkpoints: i64,
    /// `checkpoint.fsync`: each shard file is fsynced before it is closed (DLIO: False).
    pub fsync: bool,
    /// Seconds of emulated training before each checkpoint (DLIO: -1, none).
    pub time_between_checkpoints: f64,
    /// Checkpoints written, then read (DLIO: -1, none).
    pub num_checkpoints_write: i64,
    pub num_checkpoints_read: i64,
    /// Each rank reads the shards of the rank one node over (recovery on another node).
    pub recovery_rank_shift: bool,
    /// A barrier after each rank's shards, inside the timed window.
    pub rank_sync: bool,
    pub mode: CheckpointMode,
    /// Random tensor contents (DLIO: True); False writes the datatype's ones.
    pub randomize_tensor: bool,
}

impl Default for Checkpoint {
    fn default() -> Self {
        Checkpoint {
            checkpoint_folder: "./checkpoints".into(),
            checkpoint_after_epoch: 1,
            epochs_between_checkpoints: 1,
            steps_between_checkpoints: -1,
            fsync: false,
            time_between_checkpoints: -1.0,
            num_checkpoints_write: -1,
            num_checkpoints_read: -1,
            recovery_rank_shift: false,
            rank_sync: false,
            mode: CheckpointMode::Default,
            randomize_tensor: true,
        }
    }
}

/// `checkpoint.mode`: `default` writes the whole model over ranks = tensor x pipeline x
/// data; `subset` (node-local storage) runs a part of it, `model.parallelism.data` given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CheckpointMode {
    #[default]
    Default,
    Subset,
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
    /// The checkpoint workload: `workflow.checkpoint` without training (the llama3 configs).
    pub fn is_checkpoint_run(&self) -> bool {
        self.workflow.checkpoint && !self.workflow.train
    }

    /// The refusals of a run (not of `datasize`, which only reads the sizes): checkpointing
    /// (the next issue), DLIO's profiler and debug logging, and a workflow that does nothing.
    pub fn check_runnable(&self) -> Result<(), ConfigError> {
        rules::check_runnable(self)
    }
}
