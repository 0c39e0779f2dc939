//! The resolved IOR plan: what `iogauge ior` flags (or an IO500 phase) end up as.
//! Field names follow IOR's own (`blockSize`, `transferSize`, ...) in snake case; defaults
//! are IOR's (`init_IOR_Param_t`) except where the docs say otherwise.

use std::path::PathBuf;

use engine::EngineConfig;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Buffer contents (`-l`, `--dataPacketType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DataPacket {
    /// iogauge's default: pseudo-random words (incompressible) with a 16-byte stamp of the file
    /// offset in every 4 KiB, so every 4 KiB block of a run is unique. `-l incompressible` and
    /// `-l random` select it too (IOR's own "incompressible" compresses ~1000x).
    Incompressible,
    /// IOR's timestamp words `(rank << 32) | (seed + i)`: every transfer of a rank is identical
    /// (compressible, deduplicable). What IOR and the IO500 write by default.
    Timestamp,
    /// IOR's offset pattern: timestamp words plus an offset stamp in word 0 of every 4 KiB.
    Offset,
}

/// `-O summaryFormat=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SummaryFormat {
    Default,
    Json,
    Csv,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
// Missing fields take their defaults, so older and abridged documents still read.
#[serde(default)]
pub struct IorParams {
    /// `-a` (canonical engine name) and the engine's options (`--posix.odirect`,
    /// `-O useO_DIRECT=1`, `--dummy.delay-*`).
    pub engine: EngineConfig,
    /// `-A`
    pub ref_num: i64,
    /// `-b`
    pub block_size: u64,
    /// `-t`
    pub transfer_size: u64,
    /// `-s`
    pub segment_count: u64,
    /// `-F`
    pub file_per_proc: bool,
    /// `-C` (count ignored, as in IOR)
    pub reorder_tasks: bool,
    /// `-Q`
    pub task_per_node_offset: u64,
    /// `-Z` count: 1 = independent random offset per task, 2+ = permutation.
    pub reorder_tasks_random: u32,
    /// `-X`: seed for `-Z`; negative means `-X + repetition`.
    pub reorder_tasks_random_seed: i64,
    /// `-z` count: 1 = shuffled transfers, 2+ = random blocks with replacement (reads only).
    pub random_offset: u32,
    /// `--random-offset-seed`; `None` = rank 0's clock.
    pub random_offset_seed: Option<i64>,
    /// `-e`: fsync after the last write transfer, inside the access window.
    pub fsync: bool,
    /// `-Y`: fsync after every write transfer (once; IOR's POSIX does it twice).
    pub fsync_per_write: bool,
    /// `-c`: collective transfers (`-a MPIIO`, `-a HDF5`): the ranks of a file move each
    /// transfer together.
    pub collective: bool,
    /// `-g`: barriers after open and before close.
    pub intra_test_barriers: bool,
    /// `-w`, `-r`, `-W`, `-R` (after IOR's rule: none given = write and read).
    pub write_file: bool,
    pub read_file: bool,
    pub check_write: bool,
    pub check_read: bool,
    /// `-k`, `-K`, `-E`
    pub keep_file: bool,
    pub keep_file_with_error: bool,
    pub use_existing_test_file: bool,
    /// `-i`
    pub repetitions: u32,
    /// `-d`: seconds rank 0 sleeps before each write and read phase; a fraction is honoured
    /// (IOR's parser cuts `-d 0.5` to 0).
    #[serde(serialize_with = "crate::whole::serialize")]
    #[schemars(range(min = 0))]
    pub inter_test_delay_s: f64,
    /// `-o`: one name, or several separated by `@`.
    pub test_file: String,
    /// `-u`
    pub unique_dir: bool,
    /// `-D`: stonewall deadline, seconds (0 = off); may carry a fraction.
    #[serde(serialize_with = "crate::whole::serialize")]
    #[schemars(range(min = 0))]
    pub deadline_for_stonewalling_s: f64,
    /// `-T`: minutes, checked before each phase (0 = off); may carry a fraction.
    #[serde(serialize_with = "crate::whole::serialize")]
    #[schemars(range(min = 0))]
    pub max_time_duration_min: f64,
    /// `-G`: data signature; `None` = rank 0's clock, new every repetition.
    pub time_stamp_signature: Option<i64>,
    /// `-l`
    pub data_packet: DataPacket,
    /// `-v` count
    pub verbose: u32,
    /// `-q`: stop at the first verification error.
    pub quit_on_error: bool,
    /// `-m`: a new file per repetition (suffix `.<rep>`).
    pub multi_file: bool,
    /// `-x`: do not retry short transfers.
    pub single_xfer_attempt: bool,
    /// `-O stoneWallingWearOut=1`
    pub stonewall_wear_out: bool,
    /// `-O stoneWallingWearOutIterations=N` (0 = off).
    pub stonewall_wear_out_iterations: u64,
    /// `-O stoneWallingStatusFile=F`
    pub stonewall_status_file: Option<PathBuf>,
    /// `-O summaryFormat=`
    pub summary_format: SummaryFormat,
    /// `-O summaryFile=F`
    pub summary_file: Option<PathBuf>,
    /// `-O saveRankPerformanceDetailsCSV=F`
    pub rank_details_csv: Option<PathBuf>,
}

impl Default for IorParams {
    fn default() -> Self {
        IorParams {
            engine: EngineConfig::default(),
            ref_num: 0,
            block_size: 1 << 20,
            transfer_size: 256 << 10,
            segment_count: 1,
            file_per_proc: false,
            reorder_tasks: false,
            task_per_node_offset: 1,
            reorder_tasks_random: 0,
            reorder_tasks_random_seed: 0,
            random_offset: 0,
            random_offset_seed: None,
            fsync: false,
            fsync_per_write: false,
            collective: false,
            intra_test_barriers: false,
            write_file: false,
            read_file: false,
            check_write: false,
            check_read: false,
            keep_file: false,
            keep_file_with_error: false,
            use_existing_test_file: false,
            repetitions: 1,
            inter_test_delay_s: 0.0,
            test_file: "testFile".to_string(),
            unique_dir: false,
            deadline_for_stonewalling_s: 0.0,
            max_time_duration_min: 0.0,
            time_stamp_signature: None,
            data_packet: DataPacket::Incompressible,
            verbose: 0,
            quit_on_error: false,
            multi_file: false,
            single_xfer_attempt: false,
            stonewall_wear_out: false,
            stonewall_wear_out_iterations: 0,
            stonewall_status_file: None,
            summary_format: SummaryFormat::Default,
            summary_file: None,
            rank_details_csv: None,
        }
    }
}

impl IorParams {
    /// Transfers per block (b / t).
    pub fn transfers_per_block(&self) -> u64 {
        self.block_size / self.transfer_size
    }
    /// Transfers per rank over the whole phase (s * b / t).
    pub fn transfers_per_rank(&self) -> u64 {
        self.segment_count * self.transfers_per_block()
    }
    /// IOR's `expectedAggFileSize` = b * s * N.
    pub fn expected_aggregate_size(&self, tasks: u64) -> u64 {
        self.block_size * self.segment_count * tasks
    }
    /// Size of one file when the phase completes: s*b per file with `-F`, N*s*b shared.
    pub fn file_size(&self, tasks: u64) -> u64 {
        if self.file_per_proc {
            self.block_size * self.segment_count
        } else {
            self.expected_aggregate_size(tasks)
        }
    }
    /// The names given with `-o a@b@c`.
    pub fn test_file_names(&self) -> Vec<&str> {
        self.test_file.split('@').collect()
    }
}
