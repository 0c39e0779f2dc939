//! The resolved md-workbench plan: what `iogauge md-workbench` flags (or an IO500
//! mdworkbench phase) end up as. Defaults are md-workbench's (`init_options` in hpc/ior's
//! `md-workbench.c`) except the data pattern (see `data_packet`).

use std::path::PathBuf;

use engine::EngineConfig;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ior::DataPacket;

/// Which phases run (`-1 -2 -3`; none given = all three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Phases {
    pub precreate: bool,
    pub benchmark: bool,
    pub cleanup: bool,
}

impl Default for Phases {
    fn default() -> Self {
        Phases {
            precreate: true,
            benchmark: true,
            cleanup: true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
// Missing fields take their defaults, so abridged documents still read.
#[serde(default)]
pub struct MdWorkbenchParams {
    /// `-a` (canonical engine name: `POSIX`, `DUMMY`) and the engine's options.
    pub engine: EngineConfig,
    /// `-o`: the output directory; data sets are `<dir>/<rank>_<set>`.
    pub dir: PathBuf,
    /// `-O`: rank distance between a writer and the reader of its objects.
    pub offset: u64,
    /// `-I`: objects per data set and benchmark iteration.
    pub objects_per_set: u64,
    /// `-P`: objects precreated per data set.
    pub precreate_per_set: u64,
    /// `-D`: data sets (directories) per rank.
    pub data_sets: u64,
    /// `-S`: object size in bytes.
    pub object_size: u64,
    /// `-R`: benchmark iterations.
    pub iterations: u32,
    /// `-G`: data seed; `None` = rank 0's clock.
    pub seed: Option<i64>,
    /// `-t`: after each operation wait this factor times its latency (think time).
    pub waiting_factor: f64,
    /// `-T`: after each iteration, seven more with waiting factors 0.0625 * 2^r.
    pub adaptive_waiting: bool,
    pub phases: Phases,
    /// `-w`: stop each benchmark iteration after this many seconds (0 = off); may carry a
    /// fraction (md-workbench's parser cuts `-w 0.5` to 0).
    #[serde(serialize_with = "crate::whole::serialize")]
    #[schemars(range(min = 0))]
    pub stonewall_s: f64,
    /// `-W`: on the stonewall every rank continues to the largest count (wear-out).
    pub wear_out: bool,
    /// `-X`: check the bytes read.
    pub verify_read: bool,
    /// `--dataPacketType`. iogauge's default is incompressible (md-workbench's is timestamp).
    pub data_packet: DataPacket,
    /// `--start-item`: the object index to start at, instead of the status file's.
    pub start_item: Option<u64>,
    /// `--read-only`: the benchmark only stats and reads.
    pub read_only: bool,
    /// `--ignore-precreate-errors`: failed data-set and object creates are counted, not fatal.
    pub ignore_precreate_errors: bool,
    /// `--process-reports`: a line per rank after every phase.
    pub process_reports: bool,
    /// `--print-detailed-stats`: tab-separated counts per phase instead of the lines.
    pub detailed_stats: bool,
    /// `-q`
    pub quiet: bool,
    /// `-v` count.
    pub verbose: u32,
    /// `--run-info-file`: where a run without cleanup stores its position (`pos: N`) and a
    /// run without precreate reads it.
    pub run_info_file: PathBuf,
}

impl Default for MdWorkbenchParams {
    fn default() -> Self {
        MdWorkbenchParams {
            engine: EngineConfig::default(),
            dir: PathBuf::from("./out"),
            offset: 1,
            objects_per_set: 1000,
            precreate_per_set: 3000,
            data_sets: 10,
            object_size: 3901,
            iterations: 3,
            seed: None,
            waiting_factor: 0.0,
            adaptive_waiting: false,
            phases: Phases::default(),
            stonewall_s: 0.0,
            wear_out: false,
            verify_read: false,
            data_packet: DataPacket::Incompressible,
            start_item: None,
            read_only: false,
            ignore_precreate_errors: false,
            process_reports: false,
            detailed_stats: false,
            quiet: false,
            verbose: 0,
            run_info_file: PathBuf::from("md-workbench.status"),
        }
    }
}

impl MdWorkbenchParams {
    /// md-workbench's `total objects` line: D * (I * R + P) * ranks.
    pub fn total_objects(&self, ranks: u64) -> u64 {
        let per_set = self
            .objects_per_set
            .saturating_mul(u64::from(self.iterations))
            .saturating_add(self.precreate_per_set);
        self.data_sets.saturating_mul(per_set).saturating_mul(ranks)
    }

    /// md-workbench's working set: ranks * D * P * S bytes.
    pub fn working_set_bytes(&self, ranks: u64) -> u64 {
        ranks
            .saturating_mul(self.data_sets)
            .saturating_mul(self.precreate_per_set)
            .saturating_mul(self.object_size)
    }

    /// The waiting factors of one iteration's benchmark phases: `-t`, then with `-T` seven
    /// more (0.0625, 0.125, ..., 4), after a first one without waiting.
    pub fn waiting_factors(&self) -> Vec<f64> {
        if !self.adaptive_waiting {
            return vec![self.waiting_factor];
        }
        let mut v = vec![0.0];
        v.extend((0..7).map(|r| 0.0625 * f64::from(1u32 << r)));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_as_md_workbench_prints_them() {
        // md-workbench -P 2000 -I 1000 -D 10 -R 2 on 2 ranks: 80000 objects, 148.811 MiB.
        let p = MdWorkbenchParams {
            precreate_per_set: 2000,
            objects_per_set: 1000,
            iterations: 2,
            ..Default::default()
        };
        assert_eq!(p.total_objects(2), 80_000);
        let mib = p.working_set_bytes(2) as f64 / 1048576.0;
        assert_eq!(format!("{mib:.3}"), "148.811");
        assert_eq!(p.waiting_factors(), [0.0]);
        let t = MdWorkbenchParams {
            adaptive_waiting: true,
            ..Default::default()
        };
        assert_eq!(
            t.waiting_factors(),
            [0.0, 0.0625, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0]
        );
    }
}
