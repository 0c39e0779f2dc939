//! The resolved mdtest plan: what `iogauge mdtest` flags (or an IO500 phase) end up as.
//! Defaults are mdtest's (`mdtest_init_args`) except the data pattern (see `data_packet`).

use std::path::PathBuf;

use engine::EngineConfig;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ior::DataPacket;

/// Which phases run (mdtest's `-C -T -E -r -U`; none given = all five).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Phases {
    pub create: bool,
    pub stat: bool,
    pub read: bool,
    pub remove: bool,
    /// Directory rename (`-U`).
    pub rename: bool,
}

impl Phases {
    pub fn any(&self) -> bool {
        self.create || self.stat || self.read || self.remove || self.rename
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
// Missing fields take their defaults, so older and abridged documents still read.
#[serde(default)]
pub struct MdtestParams {
    /// `-a` (canonical engine name: `POSIX`, `DUMMY`) and the engine's options
    /// (`--dummy.delay-create`, ...).
    pub engine: EngineConfig,
    /// `-d`: one directory, or several separated by `@` (needs `-u`).
    pub dirs: Vec<PathBuf>,
    /// `-n`: items per task.
    pub items: u64,
    /// `-I`: items per directory.
    pub items_per_dir: u64,
    /// `-z`
    pub depth: u32,
    /// `-b`
    pub branch: u64,
    /// `-L`
    pub leaf_only: bool,
    /// `-u`
    pub unique_dir: bool,
    /// `-t`: with `-u`, the per-task directory set-up is inside the create phase's time.
    pub time_unique_dir_overhead: bool,
    /// Files and directories tested (after mdtest's rule: neither `-F` nor `-D` = both).
    pub files: bool,
    pub dirs_too: bool,
    pub phases: Phases,
    /// `-w`: bytes written into each file after its create.
    pub write_bytes: u64,
    /// `-e`: bytes read from each file in the read phase.
    pub read_bytes: u64,
    /// `-y`: fsync each file after its write.
    pub sync_file: bool,
    /// `-Y`: `sync` after every phase, inside its time.
    pub call_sync: bool,
    /// `-N`: rank stride between phases, as given (multiplied by tasks per node on several
    /// block-mapped nodes, as mdtest does).
    pub nstride: u64,
    /// `-i`
    pub iterations: u32,
    /// `-R` (or `--random-seed` > 0, as in mdtest): stat and read in a random order.
    pub random: bool,
    /// `--random-seed`; `None` = rank 0's clock. Each task adds its rank.
    pub random_seed: Option<u64>,
    /// `-X` / `--verify-read`
    pub verify_read: bool,
    /// `-W`: stonewall seconds for the file create phase (0 = off); may carry a fraction
    /// (mdtest's parser cuts `-W 0.5` to 0).
    #[serde(serialize_with = "crate::whole::serialize")]
    #[schemars(range(min = 0))]
    pub stonewall_s: f64,
    /// `-x`: stonewall status file.
    pub status_file: Option<PathBuf>,
    /// `-G`: data seed; `None` = rank 0's clock.
    pub seed: Option<i64>,
    /// `--dataPacketType`. iogauge's default is incompressible (mdtest's is timestamp).
    pub data_packet: DataPacket,
    /// `-P`: rate and time tables.
    pub print_rate_and_time: bool,
    /// `-Z`: the time table instead of the rate table.
    pub print_time: bool,
    /// `--showRankStatistics`
    pub show_rank_statistics: bool,
    /// `-v` count, or `-V N`.
    pub verbose: u32,
    /// `--saveRankPerformanceDetails`
    pub rank_details_csv: Option<PathBuf>,
}

impl Default for MdtestParams {
    fn default() -> Self {
        MdtestParams {
            engine: EngineConfig::default(),
            dirs: vec![PathBuf::from("./out")],
            items: 0,
            items_per_dir: 0,
            depth: 0,
            branch: 1,
            leaf_only: false,
            unique_dir: false,
            time_unique_dir_overhead: false,
            files: true,
            dirs_too: true,
            phases: Phases {
                create: true,
                stat: true,
                read: true,
                remove: true,
                rename: true,
            },
            write_bytes: 0,
            read_bytes: 0,
            sync_file: false,
            call_sync: false,
            nstride: 0,
            iterations: 1,
            random: false,
            random_seed: None,
            verify_read: false,
            stonewall_s: 0.0,
            status_file: None,
            seed: None,
            data_packet: DataPacket::Incompressible,
            print_rate_and_time: false,
            print_time: false,
            show_rank_statistics: false,
            verbose: 0,
            rank_details_csv: None,
        }
    }
}

impl MdtestParams {
    /// `-d` of rank `rank` (mdtest: `rank % path_count`).
    pub fn dir_of(&self, rank: u64) -> &PathBuf {
        &self.dirs[(rank % self.dirs.len() as u64) as usize]
    }

    /// What mdtest's `N tasks, M ...` line calls the items.
    pub fn item_noun(&self) -> &'static str {
        match (self.files, self.dirs_too) {
            (true, true) => "files/directories",
            (true, false) => "files",
            _ => "directories",
        }
    }
}
