//! DLIO's checkpoint workload measured: one checkpoint written or read is a phase; its
//! duration is the slowest rank's (MLPerf Storage: "the maximum time across all GPUs") and its
//! throughput the checkpoint's size over that duration, in GiB/s (DLIO's "GB"). The run's
//! figures are DLIO's summary.json names: the mean and population standard deviation over the
//! checkpoints of each direction.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use measure::{IntervalSeries, LatencyHistogram, Stats};

use crate::model::{PhaseResult, PhaseTimes, RankTimes};
use crate::{mib_per_s, per_s, Operation, PageCache};

/// The operation kinds of a checkpoint phase, in recorder order: one `shard` per file (open,
/// every write or read, fsync when asked, close) and one `transfer` per write or read call.
pub const CHECKPOINT_KINDS: [&str; 2] = ["shard", "transfer"];

const GIB: f64 = (1u64 << 30) as f64;

/// Written (DLIO's save) or read back (load).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    #[default]
    Save,
    Load,
}

/// One rank's part of a checkpoint.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckpointRank {
    pub rank: u64,
    /// Whose shards it wrote or read (another rank's under `recovery_rank_shift`).
    pub source_rank: u64,
    pub node: u64,
    /// Wall clock at its start and end, seconds since the Unix epoch.
    pub start_unix_s: f64,
    pub end_unix_s: f64,
    /// Its time, from the barrier every rank leaves together to its last shard closed (or
    /// the barrier after them, with `rank_sync`).
    pub seconds: f64,
    pub bytes: u64,
    pub files: u64,
}

/// One checkpoint, every rank's part on rank 0.
#[derive(Debug, Clone)]
pub struct CheckpointOutcome {
    pub direction: Direction,
    /// 1-based: the checkpoint `global_epoch1_step{index}`.
    pub index: u64,
    pub ranks: Vec<CheckpointRank>,
    /// Per shard file (ns).
    pub latency: LatencyHistogram,
    /// Per write or read call (ns).
    pub transfer_latency: LatencyHistogram,
    pub series: IntervalSeries,
    pub page_cache: Option<PageCache>,
    /// Each shard was fsynced before it was closed (writes).
    pub fsync: bool,
    pub odirect: bool,
    /// A signal stopped the ranks before the checkpoint was whole.
    pub stopped: bool,
}

impl CheckpointOutcome {
    /// The slowest rank's time.
    pub fn seconds(&self) -> f64 {
        self.ranks.iter().map(|r| r.seconds).fold(0.0, f64::max)
    }

    pub fn bytes(&self) -> u64 {
        self.ranks.iter().map(|r| r.bytes).sum()
    }

    pub fn files(&self) -> u64 {
        self.ranks.iter().map(|r| r.files).sum()
    }

    /// DLIO's checkpoint throughput: size over the slowest rank's time, GiB/s.
    pub fn gib_per_second(&self) -> f64 {
        let t = self.seconds();
        if t > 0.0 {
            self.bytes() as f64 / GIB / t
        } else {
            0.0
        }
    }

    pub fn operation(&self) -> Operation {
        self.direction.operation()
    }
}

impl Direction {
    /// The document's operation of a checkpoint in this direction.
    pub fn operation(self) -> Operation {
        match self {
            Direction::Save => Operation::DlioCheckpointWrite,
            Direction::Load => Operation::DlioCheckpointRead,
        }
    }
}

/// The document's phase of a checkpoint: `ops` its shard files, `bytes` its size, the time
/// the slowest rank's, `latency` per shard; the counters the files and the transfers.
pub fn checkpoint_result(c: &CheckpointOutcome) -> PhaseResult {
    let t = c.seconds();
    let mut p = PhaseResult::new(c.operation(), c.index as u32);
    p.bytes = c.bytes();
    p.ops = c.files();
    p.times = PhaseTimes::window(t);
    p.bandwidth_mib_s = mib_per_s(p.bytes, t);
    p.iops = per_s(p.ops as f64, t);
    p.latency = c.latency.summary();
    p.series = c.series.summary();
    p.per_rank = c
        .ranks
        .iter()
        .map(|r| {
            let mut t = RankTimes::bracket(r.rank, 0.0, r.seconds, r.seconds, r.bytes, r.files);
            t.counters = [("files", r.files), ("source_rank", r.source_rank)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            t
        })
        .collect();
    p.counters = [
        ("files".to_string(), p.ops),
        ("transfers".to_string(), c.transfer_latency.count()),
    ]
    .into();
    p.page_cache = c.page_cache.clone();
    p.flushed = (c.direction == Direction::Save).then_some(c.fsync);
    p.interrupted = c.stopped;
    p
}

/// One checkpoint's figures in the document's `dlio` block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CheckpointFigures {
    pub direction: Direction,
    /// 1-based; the phase `dlio-checkpoint-write` or `-read` with this iteration.
    pub index: u64,
    /// The slowest rank's time.
    pub duration_seconds: f64,
    /// Size over that time, GiB/s (DLIO's "GB/s").
    #[serde(rename = "throughput_GiB_per_second")]
    pub throughput_gib_per_second: f64,
    pub bytes: u64,
    pub files: u64,
    /// The fastest rank's time, for the spread.
    pub fastest_rank_seconds: f64,
}

pub fn checkpoint_entry(c: &CheckpointOutcome) -> CheckpointFigures {
    CheckpointFigures {
        direction: c.direction,
        index: c.index,
        duration_seconds: c.seconds(),
        throughput_gib_per_second: c.gib_per_second(),
        bytes: c.bytes(),
        files: c.files(),
        fastest_rank_seconds: c.ranks.iter().map(|r| r.seconds).fold(f64::MAX, f64::min),
    }
}

/// summary.json's checkpoint `metric` (DLIO's names; "GB" there is GiB): means and population
/// standard deviations over the finished checkpoints of each direction; the load fields are
/// absent when none was read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CheckpointMetric {
    #[serde(
        rename = "save_checkpoint_io_mean_GB_per_second",
        skip_serializing_if = "Option::is_none"
    )]
    pub save_io_mean: Option<f64>,
    #[serde(
        rename = "save_checkpoint_io_stdev_GB_per_second",
        skip_serializing_if = "Option::is_none"
    )]
    pub save_io_stdev: Option<f64>,
    #[serde(
        rename = "save_checkpoint_duration_mean_seconds",
        skip_serializing_if = "Option::is_none"
    )]
    pub save_duration_mean: Option<f64>,
    #[serde(
        rename = "save_checkpoint_duration_stdev_seconds",
        skip_serializing_if = "Option::is_none"
    )]
    pub save_duration_stdev: Option<f64>,
    #[serde(
        rename = "load_checkpoint_io_mean_GB_per_second",
        skip_serializing_if = "Option::is_none"
    )]
    pub load_io_mean: Option<f64>,
    #[serde(
        rename = "load_checkpoint_io_stdev_GB_per_second",
        skip_serializing_if = "Option::is_none"
    )]
    pub load_io_stdev: Option<f64>,
    #[serde(
        rename = "load_checkpoint_duration_mean_seconds",
        skip_serializing_if = "Option::is_none"
    )]
    pub load_duration_mean: Option<f64>,
    #[serde(
        rename = "load_checkpoint_duration_stdev_seconds",
        skip_serializing_if = "Option::is_none"
    )]
    pub load_duration_stdev: Option<f64>,
    /// One checkpoint's size, GiB.
    #[serde(rename = "checkpoint_size_GB")]
    pub checkpoint_size_gb: f64,
}

/// The metric over `done` (interrupted checkpoints left out); `None` without any.
pub fn checkpoint_metric(done: &[CheckpointFigures]) -> Option<CheckpointMetric> {
    let done: Vec<&CheckpointFigures> = done.iter().collect();
    if done.is_empty() {
        return None;
    }
    let mut m = CheckpointMetric {
        checkpoint_size_gb: done.iter().map(|c| c.bytes).max().unwrap_or(0) as f64 / GIB,
        ..CheckpointMetric::default()
    };
    for dir in [Direction::Save, Direction::Load] {
        let these: Vec<&&CheckpointFigures> = done.iter().filter(|c| c.direction == dir).collect();
        if these.is_empty() {
            continue;
        }
        let io: Vec<f64> = these.iter().map(|c| c.throughput_gib_per_second).collect();
        let t: Vec<f64> = these.iter().map(|c| c.duration_seconds).collect();
        // Population standard deviations, as DLIO's numpy.
        let (io, t) = (Stats::of(&io), Stats::of(&t));
        let ((io_m, io_s), (t_m, t_s)) = (
            (io.mean, io.stddev_population),
            (t.mean, t.stddev_population),
        );
        let slots = match dir {
            Direction::Save => (
                &mut m.save_io_mean,
                &mut m.save_io_stdev,
                &mut m.save_duration_mean,
                &mut m.save_duration_stdev,
            ),
            Direction::Load => (
                &mut m.load_io_mean,
                &mut m.load_io_stdev,
                &mut m.load_duration_mean,
                &mut m.load_duration_stdev,
            ),
        };
        *slots.0 = Some(io_m);
        *slots.1 = Some(io_s);
        *slots.2 = Some(t_m);
        *slots.3 = Some(t_s);
    }
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(rank: u64, seconds: f64, bytes: u64) -> CheckpointRank {
        CheckpointRank {
            rank,
            source_rank: rank,
            seconds,
            bytes,
            files: 2,
            ..CheckpointRank::default()
        }
    }

    fn checkpoint(direction: Direction, index: u64, slowest: f64) -> CheckpointOutcome {
        CheckpointOutcome {
            direction,
            index,
            ranks: vec![rank(0, 1.0, 1 << 30), rank(1, slowest, 1 << 30)],
            latency: LatencyHistogram::new(),
            transfer_latency: LatencyHistogram::new(),
            series: IntervalSeries::new(1_000_000_000, 0),
            page_cache: None,
            fsync: true,
            odirect: false,
            stopped: false,
        }
    }

    #[test]
    fn the_slowest_rank_sets_the_duration_and_the_throughput() {
        let c = checkpoint(Direction::Save, 3, 4.0);
        assert_eq!(c.seconds(), 4.0);
        assert_eq!(c.gib_per_second(), 0.5);
        let p = checkpoint_result(&c);
        assert_eq!(
            (p.operation, p.iteration, p.ops),
            (Operation::DlioCheckpointWrite, 3, 4)
        );
        assert_eq!(p.bandwidth_mib_s, 512.0);
        assert_eq!(p.flushed, Some(true));
        assert_eq!(p.per_rank[1].xfer_stop_s, 4.0);
    }

    #[test]
    fn the_metric_has_dlios_names_and_leaves_out_an_unread_direction() {
        let saves = [
            checkpoint(Direction::Save, 1, 2.0),
            checkpoint(Direction::Save, 2, 4.0),
        ];
        let figures: Vec<CheckpointFigures> = saves.iter().map(checkpoint_entry).collect();
        let m = checkpoint_metric(&figures).unwrap();
        assert_eq!(m.save_io_mean, Some(0.75));
        assert_eq!(m.save_io_stdev, Some(0.25));
        assert_eq!(m.save_duration_mean, Some(3.0));
        assert_eq!(m.checkpoint_size_gb, 2.0);
        let json = serde_json::to_value(&m).unwrap();
        assert!(json.get("save_checkpoint_io_mean_GB_per_second").is_some());
        assert!(json.get("load_checkpoint_io_mean_GB_per_second").is_none());
        assert!(checkpoint_metric(&[]).is_none());
    }
}
