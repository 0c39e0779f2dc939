//! A run's `parameters`: the plan of its workload, typed per workload, plus what was resolved
//! only when the run started. Serialized next to `"workload"`, which names the variant.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use plan::dlio::DlioParams;
use plan::find::FindParams;
use plan::io500::Io500Params;
use plan::ior::IorParams;
use plan::mdtest::MdtestParams;
use plan::mdworkbench::MdWorkbenchParams;
use plan::mix::MixParams;
use plan::startup::StartupParams;

/// `"workload": "ior", "parameters": {...}` and so on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "workload", content = "parameters", rename_all = "lowercase")]
pub enum Parameters {
    Ior(IorParams),
    Mdtest(MdtestParameters),
    Find(FindParameters),
    Io500(Io500Params),
    #[serde(rename = "md-workbench")]
    MdWorkbench(MdWorkbenchParameters),
    Startup(StartupParameters),
    Mix(MixParameters),
    // Boxed: a DLIO config is several times the size of the other plans.
    Dlio(Box<DlioParameters>),
}

impl Parameters {
    /// The workload's name (`"ior"`, `"mdtest"`, `"find"`, `"io500"`, `"md-workbench"`,
    /// `"startup"`, `"mix"`, `"dlio"`).
    pub fn workload(&self) -> &'static str {
        match self {
            Parameters::Ior(_) => "ior",
            Parameters::Mdtest(_) => "mdtest",
            Parameters::Find(_) => "find",
            Parameters::Io500(_) => "io500",
            Parameters::MdWorkbench(_) => "md-workbench",
            Parameters::Startup(_) => "startup",
            Parameters::Mix(_) => "mix",
            Parameters::Dlio(_) => "dlio",
        }
    }
}

/// An mdtest plan and the layout and seeds it resolved to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MdtestParameters {
    #[serde(flatten)]
    pub plan: MdtestParams,
    pub resolved: MdtestResolved,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MdtestResolved {
    /// Directories in one tree.
    pub num_dirs: u64,
    pub items_per_dir: u64,
    /// Test directories each task works through (`-n` with `-I`).
    pub directory_loops: u64,
    /// Items per task as configured.
    pub items_per_task: u64,
    /// Items per task read from the stonewall status file (runs without a create phase).
    pub items_per_task_from_status_file: Option<u64>,
    /// `-N` after mdtest's tasks-per-node rule.
    pub nstride: u64,
    /// The data seed used (`-G`, or rank 0's clock): a later `-X` run needs it.
    pub data_seed: Option<i64>,
    /// Task 0's `-R` seed (each task adds its rank).
    pub random_seed_task0: Option<u64>,
}

/// A find plan and the `-newer` reference's ctime second it compared against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FindParameters {
    #[serde(flatten)]
    pub plan: FindParams,
    pub newer_ctime: Option<i64>,
}

/// An md-workbench plan and what the run resolved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MdWorkbenchParameters {
    #[serde(flatten)]
    pub plan: MdWorkbenchParams,
    pub resolved: MdWorkbenchResolved,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MdWorkbenchResolved {
    /// The data seed used (`-G`, or rank 0's clock): a later `-2 -X` run needs it.
    pub data_seed: Option<i64>,
    /// The object index the run started at (the status file's `pos`, `--start-item`, or 0).
    pub start_position: u64,
    /// md-workbench's `total objects`: D * (I * R + P) * ranks.
    pub total_objects: u64,
    /// md-workbench's working set: ranks * D * P * S bytes.
    pub working_set_bytes: u64,
}

/// A start-up plan and what the run found to read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StartupParameters {
    #[serde(flatten)]
    pub plan: StartupParams,
    pub resolved: StartupResolved,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StartupResolved {
    /// The tree every rank reads (`--tree`, or the generated one); absent without a tree.
    pub tree_root: Option<std::path::PathBuf>,
    /// Regular files in it, each read by every rank.
    pub tree_files: u64,
    /// Directories in it (the root included).
    pub tree_dirs: u64,
    /// Bytes of its files.
    pub tree_bytes: u64,
    /// Entries of a `--tree` that are neither regular files nor directories (symbolic links,
    /// devices): not read.
    pub tree_skipped: u64,
    /// The common file every rank reads; absent without one.
    pub common_path: Option<std::path::PathBuf>,
    pub common_bytes: u64,
    /// The directory the run makes for what it generates (removed after, unless `keep`).
    pub run_dir: Option<std::path::PathBuf>,
}

/// A mix plan and what it resolved to on the run's ranks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MixParameters {
    #[serde(flatten)]
    pub plan: MixParams,
    pub resolved: MixResolved,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MixResolved {
    /// The requested rate of every step, operations per second for the whole run.
    pub rates: Vec<u64>,
    /// Files prepared over all ranks before the first step.
    pub files: u64,
    /// The longest the steps can take, seconds (every step run).
    pub max_seconds: f64,
}

/// A DLIO workload config as resolved (its sections, DLIO's key names) and what the run
/// resolved from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DlioParameters {
    #[serde(flatten)]
    pub plan: DlioParams,
    pub resolved: DlioResolved,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DlioResolved {
    /// The shipped workload's name or the YAML file's path.
    pub source: String,
    /// The Hydra overrides, as given.
    pub overrides: Vec<String>,
    /// `storage.storage_root` joined with `dataset.data_folder`, as DLIO joins them.
    pub data_folder: std::path::PathBuf,
    /// The DLIO-shaped output directory (summary.json, per-epoch stats, config.yaml).
    pub output_folder: std::path::PathBuf,
    /// The emulated accelerators (ranks).
    pub accelerators: u64,
    /// Training files found on disk (or generated) when the run started; DLIO uses the
    /// first `num_files_train`.
    pub train_files_found: u64,
    /// Steps per epoch of every rank and the samples DLIO counts per epoch over all ranks
    /// (files x samples per file, less the last partial batch of each rank).
    pub steps_per_epoch: u64,
    pub samples_per_epoch: u64,
    /// MLPerf Storage's minimum training files for this run's ranks and host memory.
    pub minimum_files: u64,
    /// What a checkpoint run writes and reads; absent for training.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<CheckpointResolved>,
}

/// A checkpoint run resolved on its ranks.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct CheckpointResolved {
    /// `storage.storage_root` joined with `checkpoint.checkpoint_folder`.
    pub folder: std::path::PathBuf,
    /// Bytes and shard files of one checkpoint over all ranks.
    pub bytes: u64,
    pub files: u64,
    /// Tensor x pipeline x data: the ranks of the whole model (more than the run's ranks in
    /// subset mode).
    pub tensor: u64,
    pub pipeline: u64,
    pub data: u64,
    pub zero_stage: u64,
    /// Checkpoints written, then read (0: none).
    pub writes: u64,
    pub reads: u64,
    /// Reads take the shards of the rank one node over.
    pub rank_shift: bool,
    /// O_DIRECT (`storage.storage_type: direct_fs`).
    pub odirect: bool,
    /// The checkpoint files are left in place (`--keep`).
    pub keep: bool,
}
