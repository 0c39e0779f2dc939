//! Every key DLIO's loader reads (`LoadConfig` in `utils/config.py`, branch
//! `mlperf_storage_v2.0`, and the 2.0.0 release's spellings), and what iogauge does with it:
//! a field of [`DlioParams`], accepted only at DLIO's default (it would change nothing), or
//! refused with the reason. A key not in this table is unknown and refused with a suggestion.

use serde::de::{DeserializeOwned, IntoDeserializer};
use yaml_rust2::Yaml;

use super::error::{ConfigError, ErrorKind};
use super::value;
use super::DlioParams;

type Setter = fn(&mut DlioParams, &str, &Yaml) -> Result<(), ConfigError>;

/// How iogauge treats one DLIO key.
pub(super) enum Handling {
    /// A field of [`DlioParams`].
    Set(Setter),
    /// A DLIO key iogauge does not emulate, accepted at DLIO's default (YAML text): such a
    /// value changes nothing in DLIO either.
    DefaultOnly(&'static str),
    /// Refused whatever the value (and, for a mapping, whatever it holds): why.
    Refused(&'static str),
}

pub(super) struct Key {
    /// The path inside the workload: `dataset.record_length_bytes`.
    pub path: &'static str,
    /// The other spelling a DLIO release reads (`dataset.record_length` in 2.0.0).
    pub alias: Option<&'static str>,
    pub handling: Handling,
}

/// Sets a field from the value converted by one of `value`'s functions.
macro_rules! set {
    ($($field:ident).+ = $conv:ident) => {
        Handling::Set(|p, k, v| {
            p.$($field).+ = value::$conv(k, v)?;
            Ok(())
        })
    };
}

/// Sets an optional field; `null` leaves it unset, as in DLIO.
macro_rules! set_opt {
    ($($field:ident).+ = $conv:ident) => {
        Handling::Set(|p, k, v| {
            p.$($field).+ = match v {
                Yaml::Null => None,
                v => Some(value::$conv(k, v)?),
            };
            Ok(())
        })
    };
}

/// Sets a folder; DLIO strips its trailing slashes (`data/unet3d/` is `data/unet3d`).
macro_rules! set_folder {
    ($($field:ident).+) => {
        Handling::Set(|p, k, v| {
            let t = value::text(k, v)?;
            let stripped = t.trim_end_matches('/');
            p.$($field).+ = if stripped.is_empty() && !t.is_empty() { "/".into() } else { stripped.into() };
            Ok(())
        })
    };
}

/// Sets an enumeration: `supported` are its serde names; DLIO's other values are
/// unsupported, anything else is not DLIO's.
macro_rules! set_enum {
    ($($field:ident).+, $supported:expr, $dlio:expr, $what:expr) => {
        Handling::Set(|p, k, v| {
            p.$($field).+ = enumerated(k, v, $supported, $dlio, $what)?;
            Ok(())
        })
    };
}

const FORMATS: &[&str] = &["npz", "tfrecord", "jpeg"];
/// DLIO's `FormatType`, and parquet of MLPerf Storage's later configs.
const DLIO_FORMATS: &[&str] = &[
    "tfrecord",
    "hdf5",
    "csv",
    "npz",
    "npy",
    "hdf5_opt",
    "jpeg",
    "png",
    "indexed_binary",
    "mmap_indexed_binary",
    "synthetic",
    "parquet",
];
const LOADERS: &[&str] = &["pytorch", "tensorflow"];
const DLIO_LOADERS: &[&str] = &[
    "tensorflow",
    "pytorch",
    "dali",
    "native_dali",
    "custom",
    "none",
    "synthetic",
];
const FRAMEWORKS: &[&str] = &["pytorch", "tensorflow"];
const STORAGE: &[&str] = &["local_fs", "direct_fs"];
/// `parallel_fs` is in DLIO's enumeration, but its storage factory refuses it; `direct_fs`
/// is DLIO's later O_DIRECT checkpointing back end (mlcommons/storage#371).
const DLIO_STORAGE: &[&str] = &["local_fs", "parallel_fs", "s3", "direct_fs"];
const DATATYPES: &[&str] = &["int8", "uint8", "fp16", "bf16", "fp32", "fp64"];
const MODES: &[&str] = &["default", "subset"];
const SHUFFLES: &[&str] = &["off", "seed", "random"];
const PROFILERS: &[&str] = &["none", "iostat", "darshan", "tensorboard"];

/// DLIO 2.0.0 read the model's shape under `checkpoint.`; the branch iogauge follows reads
/// it under `model.`.
const CHECKPOINTING: &str = "a key of DLIO 2.0.0's older checkpointing; iogauge emulates the \
     transformer checkpoints of DLIO's mlperf_storage_v2.0 branch, shaped by model.num_layers, \
     model.parallelism.* and model.transformer.* (the llama3 configs)";
const PREDEFINED: &str = "predefined tensor sizes of DLIO's older checkpointing; iogauge builds \
     the shards from model.num_layers and model.transformer, as the llama3 configs do";

/// A value of a DLIO enumeration that iogauge's enum `T` holds.
fn enumerated<T: DeserializeOwned>(
    key: &str,
    v: &Yaml,
    supported: &[&str],
    dlio: &[&str],
    what: &str,
) -> Result<T, ConfigError> {
    let name = value::text(key, v)?;
    if supported.contains(&name.as_str()) {
        let de: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
            name.as_str().into_deserializer();
        return T::deserialize(de).map_err(|e| ConfigError::at(ErrorKind::BadValue, key, e));
    }
    let (kind, message) = if dlio.contains(&name.as_str()) {
        let s = supported.join(", ");
        (
            ErrorKind::Unsupported,
            format!("{name} is not supported by iogauge dlio ({what}: {s})"),
        )
    } else {
        let d = dlio.join(", ");
        (
            ErrorKind::BadValue,
            format!("{name} is not one of DLIO's {what}: {d}"),
        )
    };
    Err(ConfigError::at(kind, key, message))
}

pub(super) const KEYS: &[Key] = &[
    // model
    key("model.name", set!(model.name = text)),
    key("model.type", set_opt!(model.model_type = text)),
    key("model.model_size", set_opt!(model.model_size = count)),
    key(
        "model.model_size_bytes",
        set!(model.model_size_bytes = count),
    ),
    key("model.num_layers", set!(model.num_layers = signed)),
    key(
        "model.model_datatype",
        set_enum!(model.model_datatype, DATATYPES, DATATYPES, "datatypes"),
    ),
    key(
        "model.optimizer_datatype",
        set_enum!(model.optimizer_datatype, DATATYPES, DATATYPES, "datatypes"),
    ),
    key("model.optimization_groups", Handling::Refused(PREDEFINED)),
    key("model.layer_parameters", Handling::Refused(PREDEFINED)),
    key(
        "model.parallelism.tensor",
        set!(model.parallelism.tensor = count),
    ),
    key(
        "model.parallelism.pipeline",
        set!(model.parallelism.pipeline = count),
    ),
    key(
        "model.parallelism.data",
        set!(model.parallelism.data = signed),
    ),
    key(
        "model.parallelism.zero_stage",
        set!(model.parallelism.zero_stage = count),
    ),
    key(
        "model.transformer.vocab_size",
        set!(model.transformer.vocab_size = count),
    ),
    key(
        "model.transformer.hidden_size",
        set!(model.transformer.hidden_size = count),
    ),
    key(
        "model.transformer.ffn_hidden_size",
        set!(model.transformer.ffn_hidden_size = count),
    ),
    key(
        "model.transformer.num_attention_heads",
        set!(model.transformer.num_attention_heads = count),
    ),
    key(
        "model.transformer.num_kv_heads",
        set!(model.transformer.num_kv_heads = count),
    ),
    key(
        "framework",
        set_enum!(framework, FRAMEWORKS, FRAMEWORKS, "frameworks"),
    ),
    // workflow
    key(
        "workflow.generate_data",
        set!(workflow.generate_data = boolean),
    ),
    key("workflow.train", set!(workflow.train = boolean)),
    key("workflow.evaluation", set!(workflow.evaluation = boolean)),
    key("workflow.checkpoint", set!(workflow.checkpoint = boolean)),
    key("workflow.profiling", set!(workflow.profiling = boolean)),
    key("workflow.debug", set!(workflow.debug = boolean)),
    // storage
    key(
        "storage.storage_type",
        set_enum!(storage.storage_type, STORAGE, DLIO_STORAGE, "storage types"),
    ),
    key("storage.storage_root", set!(storage.storage_root = text)),
    // dataset
    key("dataset.data_folder", set_folder!(dataset.data_folder)),
    key(
        "dataset.format",
        set_enum!(dataset.format, FORMATS, DLIO_FORMATS, "formats"),
    ),
    key(
        "dataset.num_files_train",
        set!(dataset.num_files_train = count),
    ),
    key(
        "dataset.num_files_eval",
        set!(dataset.num_files_eval = count),
    ),
    key(
        "dataset.num_samples_per_file",
        set!(dataset.num_samples_per_file = count),
    ),
    Key {
        path: "dataset.record_length_bytes",
        alias: Some("dataset.record_length"),
        handling: set!(dataset.record_length_bytes = real),
    },
    Key {
        path: "dataset.record_length_bytes_stdev",
        alias: Some("dataset.record_length_stdev"),
        handling: set!(dataset.record_length_bytes_stdev = real),
    },
    Key {
        path: "dataset.record_length_bytes_resize",
        alias: Some("dataset.record_length_resize"),
        handling: set!(dataset.record_length_bytes_resize = count),
    },
    key(
        "dataset.num_subfolders_train",
        set!(dataset.num_subfolders_train = count),
    ),
    key(
        "dataset.num_subfolders_eval",
        set!(dataset.num_subfolders_eval = count),
    ),
    key("dataset.file_prefix", set!(dataset.file_prefix = text)),
    key("dataset.compression", Handling::DefaultOnly("none")),
    key("dataset.compression_level", Handling::DefaultOnly("4")),
    key(
        "dataset.generation_buffer_size",
        Handling::DefaultOnly("2147483648"),
    ),
    key("dataset.enable_chunking", Handling::DefaultOnly("False")),
    key("dataset.chunk_size", Handling::DefaultOnly("0")),
    key("dataset.keep_files", Handling::DefaultOnly("True")),
    key(
        "dataset.parquet",
        Handling::Refused("settings of the parquet format, which iogauge dlio does not read"),
    ),
    // reader
    key(
        "reader.data_loader",
        set_enum!(reader.data_loader, LOADERS, DLIO_LOADERS, "data loaders"),
    ),
    key("reader.batch_size", set!(reader.batch_size = count)),
    key(
        "reader.batch_size_eval",
        set!(reader.batch_size_eval = count),
    ),
    key("reader.read_threads", set!(reader.read_threads = count)),
    key(
        "reader.computation_threads",
        set!(reader.computation_threads = count),
    ),
    key("reader.prefetch_size", set!(reader.prefetch_size = count)),
    key(
        "reader.file_shuffle",
        set_enum!(reader.file_shuffle, SHUFFLES, SHUFFLES, "shuffle modes"),
    ),
    key(
        "reader.sample_shuffle",
        set_enum!(reader.sample_shuffle, SHUFFLES, SHUFFLES, "shuffle modes"),
    ),
    key("reader.shuffle_size", set!(reader.shuffle_size = count)),
    key(
        "reader.transfer_size",
        set_opt!(reader.transfer_size = count),
    ),
    key("reader.odirect", set!(reader.odirect = boolean)),
    key("reader.dont_use_mmap", set!(reader.dont_use_mmap = boolean)),
    key("reader.read_type", Handling::DefaultOnly("on_demand")),
    key("reader.file_access", Handling::DefaultOnly("multi")),
    key(
        "reader.multiprocessing_context",
        Handling::DefaultOnly("fork"),
    ),
    key("reader.pin_memory", Handling::DefaultOnly("True")),
    key("reader.preprocess_time", Handling::DefaultOnly("0")),
    key("reader.preprocess_time_stdev", Handling::DefaultOnly("0")),
    key("reader.reader_classname", Handling::DefaultOnly("null")),
    key(
        "reader.data_loader_classname",
        Handling::DefaultOnly("null"),
    ),
    key(
        "reader.data_loader_sampler",
        Handling::Refused(
            "the sampler of a custom data loader; iogauge emulates the pytorch and tensorflow \
             loaders with their own samplers",
        ),
    ),
    // train
    key("train.epochs", set!(train.epochs = count)),
    key(
        "train.computation_time",
        set!(train.computation_time = real),
    ),
    key(
        "train.computation_time_stdev",
        set!(train.computation_time_stdev = real),
    ),
    key(
        "train.total_training_steps",
        set!(train.total_training_steps = signed),
    ),
    key(
        "train.seed_change_epoch",
        set!(train.seed_change_epoch = boolean),
    ),
    key("train.seed", set!(train.seed = signed)),
    // evaluation
    key("evaluation.eval_time", set!(evaluation.eval_time = real)),
    key(
        "evaluation.eval_time_stdev",
        set!(evaluation.eval_time_stdev = real),
    ),
    key(
        "evaluation.eval_after_epoch",
        set!(evaluation.eval_after_epoch = count),
    ),
    key(
        "evaluation.epochs_between_evals",
        set!(evaluation.epochs_between_evals = count),
    ),
    // checkpoint: the checkpoint workload's keys, and the training configs' checkpoint step
    // (recorded; checkpointing during training is refused).
    key(
        "checkpoint.checkpoint_folder",
        set_folder!(checkpoint.checkpoint_folder),
    ),
    key(
        "checkpoint.checkpoint_after_epoch",
        set!(checkpoint.checkpoint_after_epoch = count),
    ),
    key(
        "checkpoint.epochs_between_checkpoints",
        set!(checkpoint.epochs_between_checkpoints = count),
    ),
    key(
        "checkpoint.steps_between_checkpoints",
        set!(checkpoint.steps_between_checkpoints = signed),
    ),
    // Which rank writes DLIO's older model_size checkpoints; the transformer's shards do not
    // read it.
    key("checkpoint.type", Handling::DefaultOnly("rank_zero")),
    key("checkpoint.fsync", set!(checkpoint.fsync = boolean)),
    key(
        "checkpoint.time_between_checkpoints",
        set!(checkpoint.time_between_checkpoints = real),
    ),
    key(
        "checkpoint.num_checkpoints_write",
        set!(checkpoint.num_checkpoints_write = signed),
    ),
    key(
        "checkpoint.num_checkpoints_read",
        set!(checkpoint.num_checkpoints_read = signed),
    ),
    key(
        "checkpoint.recovery_rank_shift",
        set!(checkpoint.recovery_rank_shift = boolean),
    ),
    key("checkpoint.rank_sync", set!(checkpoint.rank_sync = boolean)),
    key(
        "checkpoint.mode",
        set_enum!(checkpoint.mode, MODES, MODES, "checkpoint modes"),
    ),
    key(
        "checkpoint.randomize_tensor",
        set!(checkpoint.randomize_tensor = boolean),
    ),
    key(
        "checkpoint.ksm",
        Handling::Refused(
            "DLIO's kernel same-page merging of the tensors it keeps in memory; iogauge keeps \
             no tensors in memory (one buffer per rank)",
        ),
    ),
    key(
        "checkpoint.checkpoint_mechanism_classname",
        Handling::Refused("a custom Python checkpointing class, which iogauge cannot run"),
    ),
    // DLIO 2.0.0 read the model's shape under checkpoint.
    key("checkpoint.model_size", Handling::Refused(CHECKPOINTING)),
    key("checkpoint.num_layers", Handling::Refused(CHECKPOINTING)),
    key(
        "checkpoint.layer_parameters",
        Handling::Refused(CHECKPOINTING),
    ),
    key(
        "checkpoint.optimization_groups",
        Handling::Refused(CHECKPOINTING),
    ),
    key(
        "checkpoint.tensor_parallelism",
        Handling::Refused(CHECKPOINTING),
    ),
    key(
        "checkpoint.pipeline_parallelism",
        Handling::Refused(CHECKPOINTING),
    ),
    // output
    key("output.folder", set_opt!(output.folder = text)),
    key("output.log_file", set!(output.log_file = text)),
    key(
        "output.metric.exclude_start_steps",
        set!(output.exclude_start_steps = count),
    ),
    key(
        "output.metric.exclude_end_steps",
        set!(output.exclude_end_steps = count),
    ),
    // metric
    key("metric.au", set!(metric.au = real)),
    // profiling
    key(
        "profiling.profiler",
        set_enum!(profiling.profiler, PROFILERS, PROFILERS, "profilers"),
    ),
    key(
        "profiling.iostat_devices",
        Handling::Refused("the devices of DLIO's iostat profiler, which iogauge does not run"),
    ),
];

const fn key(path: &'static str, handling: Handling) -> Key {
    Key {
        path,
        alias: None,
        handling,
    }
}

/// The key at `path` in either spelling.
pub(super) fn find(path: &str) -> Option<&'static Key> {
    KEYS.iter()
        .find(|k| k.path == path || k.alias == Some(path))
}

/// `path` is a section: some key lies below it (`output`, `output.metric`).
pub(super) fn is_section(path: &str) -> bool {
    KEYS.iter().any(|k| {
        [Some(k.path), k.alias].into_iter().flatten().any(|p| {
            p.len() > path.len() && p.starts_with(path) && p.as_bytes()[path.len()] == b'.'
        })
    })
}

/// The names one level below `parent` ("" for the top), for suggestions.
pub(super) fn children(parent: &str) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for p in KEYS.iter().flat_map(|k| [Some(k.path), k.alias]).flatten() {
        let rest = match parent {
            "" => Some(p),
            _ => p.strip_prefix(parent).and_then(|r| r.strip_prefix('.')),
        };
        if let Some(rest) = rest {
            let name = rest.split('.').next().unwrap_or(rest);
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}
