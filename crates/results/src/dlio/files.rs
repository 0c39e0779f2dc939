//! The files DLIO writes at the end of a run, with its field names and order, so that tools
//! written for DLIO's output read ours: `summary.json` (rank 0) and
//! `<rank>_per_epoch_stats.json` and `<rank>_output.json` (every rank). Timestamps are DLIO's `utcnow()`, which despite
//! its name is local time, `%Y-%m-%dT%H:%M:%S.%f`; durations are strings with two decimals.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::checkpoint::CheckpointMetric;
use super::stats::TrainMetric;

/// summary.json.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub start: String,
    pub num_accelerators: u64,
    pub num_hosts: u64,
    pub hostname: String,
    pub metric: SummaryMetric,
    pub num_files_train: u64,
    pub num_files_eval: u64,
    pub num_samples_per_file: u64,
    /// Per node.
    pub host_cpu_count: Vec<u64>,
    pub host_processor_name: String,
    /// Per node: 1 where the node's memory exceeds the data it reads (caching possible).
    pub potential_caching: Vec<u8>,
    /// `/proc/cpuinfo` of rank 0's host as DLIO folds it (`proc_fields`).
    pub host_cpuinfo: Map<String, Value>,
    pub host_meminfo: Map<String, Value>,
    /// Per node, GiB (DLIO's "GB").
    #[serde(rename = "host_memory_GB")]
    pub host_memory_gb: Vec<f64>,
    /// Bytes each host reads per epoch in GiB: ranks per node x files x samples per file /
    /// ranks x record length.
    #[serde(rename = "data_size_per_host_GB")]
    pub data_size_per_host_gb: f64,
    pub epochs: u64,
    pub end: String,
}

/// summary.json's `metric`: the training figures of a training run, the checkpoint figures
/// of a checkpoint run, as DLIO fills it by what the workflow does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryMetric {
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub train: Option<TrainMetric>,
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<CheckpointMetric>,
}

/// One checkpoint of `<rank>_per_epoch_stats.json` (`save_ckpt1`, `load_ckpt1`): this rank's
/// time as a number (not a text, unlike a block's) and the checkpoint's size over it, GiB/s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckpointStats {
    pub start: String,
    pub end: String,
    pub duration: f64,
    pub throughput: f64,
}

/// An entry of an epoch: a training block or a checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EpochEntry {
    Block(BlockStats),
    Checkpoint(CheckpointStats),
}

/// One block of `<rank>_per_epoch_stats.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockStats {
    pub start: String,
    pub end: String,
    pub duration: String,
}

/// One epoch of `<rank>_per_epoch_stats.json`: start, `block1`... (or `save_ckpt1`...), end,
/// duration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpochStats {
    pub start: String,
    #[serde(flatten)]
    pub blocks: BTreeMap<String, EpochEntry>,
    pub end: String,
    pub duration: String,
}

/// `<rank>_per_epoch_stats.json`: epochs by number (JSON keys "1", "2", ...).
pub type PerEpochStats = BTreeMap<u64, EpochStats>;

/// `<rank>_output.json`: the host's facts, then per epoch (JSON keys "1", "2", ...) the
/// block's per-step times and figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankOutput {
    /// GiB (DLIO's "GB").
    #[serde(rename = "host_memory_GB")]
    pub host_memory_gb: f64,
    pub host_cpu_count: u64,
    pub host_processor_name: String,
    /// 1 where the host's memory holds the data it reads per epoch.
    pub potential_caching: u8,
    pub host_cpuinfo: Map<String, Value>,
    pub host_meminfo: Map<String, Value>,
    #[serde(flatten)]
    pub epochs: BTreeMap<String, RankEpoch>,
}

/// One epoch of `<rank>_output.json`: per block (`block1`), the per-step `load` (wait for the
/// batch), `proc` (wait and computation) and `compute` seconds, the block's `throughput`
/// (samples/s) and `au` (percent); `/proc/meminfo` at the epoch's start; the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankEpoch {
    pub load: BTreeMap<String, Vec<f64>>,
    pub proc: BTreeMap<String, Vec<f64>>,
    pub throughput: BTreeMap<String, f64>,
    pub au: BTreeMap<String, f64>,
    pub compute: BTreeMap<String, Vec<f64>>,
    pub host_meminfo: Map<String, Value>,
    pub end: String,
}

/// DLIO's duration text: seconds with two decimals.
pub fn duration_text(seconds: f64) -> String {
    format!("{seconds:.2}")
}

/// DLIO's timestamp of `at`, in the host's local time zone.
pub fn timestamp(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs() as libc::time_t;
    // SAFETY: localtime_r writes only into `tm`, which lives for the call.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let ok = unsafe { !libc::localtime_r(&secs, &mut tm).is_null() };
    if !ok {
        return String::new();
    }
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}",
        tm.tm_year + 1900,
        tm.tm_mon + 1,
        tm.tm_mday,
        tm.tm_hour,
        tm.tm_min,
        tm.tm_sec,
        since.subsec_micros()
    )
}

/// `/proc/cpuinfo` or `/proc/meminfo` folded as DLIO folds it: `key: value` lines, trimmed;
/// a later key replaces an earlier one (so cpuinfo keeps the last processor's fields); the
/// `processor` key is left out; a line that is not one `key: value` pair repeats the pair before.
pub fn proc_fields(text: &str) -> Map<String, Value> {
    let mut fields = Map::new();
    let mut pair: Option<(String, String)> = None;
    for line in text.split('\n') {
        let parts: Vec<&str> = line.split(':').collect();
        if parts.len() == 2 {
            pair = Some((parts[0].trim().to_string(), parts[1].trim().to_string()));
        }
        if let Some((key, value)) = &pair {
            if key != "processor" {
                fields.insert(key.clone(), Value::String(value.clone()));
            }
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_epoch_stats_keep_dlios_keys_and_order() {
        let block = BlockStats {
            start: "a".into(),
            end: "b".into(),
            duration: duration_text(12.345),
        };
        let epoch = EpochStats {
            start: "s".into(),
            blocks: BTreeMap::from([("block1".to_string(), EpochEntry::Block(block))]),
            end: "e".into(),
            duration: duration_text(13.0),
        };
        let stats: PerEpochStats = BTreeMap::from([(1, epoch)]);
        let json = serde_json::to_string(&stats).unwrap();
        assert_eq!(
            json,
            r#"{"1":{"start":"s","block1":{"start":"a","end":"b","duration":"12.35"},"end":"e","duration":"13.00"}}"#
        );
        let back: PerEpochStats = serde_json::from_str(&json).unwrap();
        assert_eq!(back, stats);
    }

    #[test]
    fn proc_fields_fold_like_dlio() {
        let text =
            "processor\t: 0\nmodel name\t: A\n\nprocessor\t: 1\nmodel name\t: B\nflags\t: x y\n";
        let fields = proc_fields(text);
        let keys: Vec<&str> = fields.keys().map(String::as_str).collect();
        assert_eq!(keys, vec!["model name", "flags"]);
        assert_eq!(fields["model name"], "B");
    }

    #[test]
    fn timestamps_have_microseconds() {
        let t = timestamp(UNIX_EPOCH + std::time::Duration::from_micros(1_700_000_000_123_456));
        assert_eq!(t.len(), 26, "{t}");
        assert!(t.ends_with(".123456"), "{t}");
    }
}
