//! What the machine did while a phase ran (`docs/system.md`): the run's CPU, the process's own
//! I/O, the network, the block devices behind the target, the page cache's dirty data and the
//! client file system's counters, each a delta over the phase's window read outside it. A
//! source that does not apply or cannot be read is named in `absent` with the reason, never
//! recorded as zero.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The system's side of one phase, measured on the node of the process that reports (rank 0's).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default, JsonSchema)]
pub struct SystemFigures {
    /// The node the figures are from (rank 0's host).
    pub host: String,
    /// The ranks on this node, where the run has several nodes (empty: every rank).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<u64>,
    /// Seconds between the snapshot before the phase's opening barrier and the one after its
    /// end: slightly wider than `times.total_s`, which it contains.
    pub window_s: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuFigures>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process_io: Option<ProcessIo>,
    /// Bytes per network interface that moved any (the loopback included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<BTreeMap<String, NetBytes>>,
    /// The block devices behind the target: the one the file system submits to first, then
    /// the devices below it (device-mapper and md slaves, a loop device's backing file's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<DeviceFigures>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_cache: Option<DirtyFigures>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nfs: Option<NfsFigures>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lustre: Option<LustreFigures>,
    /// The sources with no figures and why: `devices` (`none: tmpfs has no block device`),
    /// `nfs` (`not an NFS mount`), `lustre`, `cpu`, `process_io`, `network`, `page_cache`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub absent: BTreeMap<String, String>,
    /// Per sampler interval (1 s; neighbours merged past [`MAX_POINTS`]): how CPU, device
    /// traffic and dirty data moved inside the phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<SystemPoint>,
    /// The other nodes' figures (an MPI job over several nodes), each read by its first rank
    /// over the same phase; this block is rank 0's node's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_nodes: Vec<SystemFigures>,
}

/// The run's CPU over the window (iozone's "CPU utilization") and the node's.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Default, JsonSchema)]
pub struct CpuFigures {
    /// User and system CPU seconds of the reporting process (`getrusage(RUSAGE_SELF)`: every
    /// thread rank, and the tool's own sampler threads).
    pub user_s: f64,
    pub system_s: f64,
    /// `100 × (user_s + system_s) / window_s`: above 100 on several CPUs, as iozone's.
    pub utilization_pct: f64,
    /// CPUs this process may use (affinity and quota).
    pub cpus_available: u64,
    /// The node's CPUs (`/proc/stat`).
    pub node_cpus: u64,
    /// The node's busy share of all its CPUs (user, nice, system, irq, softirq), 0 to 1.
    pub node_busy: f64,
    /// Shares of the node's CPU time in iowait and taken by a hypervisor (steal).
    pub node_iowait: f64,
    pub node_steal: f64,
}

/// `/proc/self/io` over the window: what the process's I/O caused at the storage layer.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Default, JsonSchema)]
pub struct ProcessIo {
    /// Bytes passed to read and write system calls (storage touched or not).
    pub rchar: u64,
    pub wchar: u64,
    /// Bytes fetched from storage for this process: 0 in a read phase served from the cache.
    pub read_bytes: u64,
    /// Bytes this process dirtied for storage (counted when dirtied, not when written back).
    pub write_bytes: u64,
    /// Dirty bytes dropped before write-back (truncate, unlink).
    pub cancelled_write_bytes: u64,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Default, JsonSchema)]
pub struct NetBytes {
    pub rx_bytes: u64,
    pub tx_bytes: u64,
}

/// One block device's `/proc/diskstats` deltas over the window. Counters are the whole
/// device's: other traffic on it counts too.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default, JsonSchema)]
pub struct DeviceFigures {
    /// Kernel name (`vda`, `loop0`, `dm-1`) and `major:minor`.
    pub name: String,
    pub dev: String,
    /// `target` (what the file system submits to), `slave` (below device mapper or md) or
    /// `backing` (the device under a loop device's backing file).
    pub role: String,
    pub reads: u64,
    pub read_merges: u64,
    pub read_bytes: u64,
    pub writes: u64,
    pub write_merges: u64,
    pub write_bytes: u64,
    /// Cache flushes sent to the device (an fsync's mark where the device has a write cache).
    pub flushes: u64,
    /// Δbytes / Δrequests; absent with no requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg_read_request_bytes: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg_write_request_bytes: Option<f64>,
    /// Mean time a request spent queued and served, ms (iostat's await).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_await_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_await_ms: Option<f64>,
    /// Requests in the queue on average (iostat's aqu-sz) and the share of the window with any.
    pub queue_depth: f64,
    pub utilization: f64,
    /// The largest request the device takes (`queue/max_sectors_kb`), where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_request_bytes: Option<u64>,
    /// Where the request sizes come from: only the average, from `/proc/diskstats`; this
    /// kernel offers no cheap histogram (docs/system.md says why).
    pub request_size_source: String,
}

/// `/proc/meminfo`'s `Dirty` and `Writeback` (the whole node) at the window's start, end and
/// the highest sampled.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Default, JsonSchema)]
pub struct DirtyFigures {
    pub dirty_start_bytes: u64,
    pub dirty_end_bytes: u64,
    pub dirty_peak_bytes: u64,
    pub writeback_start_bytes: u64,
    pub writeback_end_bytes: u64,
    pub writeback_peak_bytes: u64,
}

/// The NFS client's counters for the target's mount (`/proc/self/mountstats`), over the window.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default, JsonSchema)]
pub struct NfsFigures {
    pub mount_point: String,
    pub server: String,
    /// Bytes through read/write (`normal*`), O_DIRECT (`direct*`) and in READ/WRITE RPCs
    /// (`server*`, what crossed the wire).
    pub normal_read_bytes: u64,
    pub normal_write_bytes: u64,
    pub direct_read_bytes: u64,
    pub direct_write_bytes: u64,
    pub server_read_bytes: u64,
    pub server_write_bytes: u64,
    /// Per RPC: calls and mean round trip, ms (`READ`, `WRITE`, `COMMIT`, `GETATTR`, ...);
    /// only those called in the window.
    pub ops: BTreeMap<String, RpcFigures>,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Default, JsonSchema)]
pub struct RpcFigures {
    pub calls: u64,
    pub rtt_ms_mean: f64,
    pub bytes_sent: u64,
    pub bytes_received: u64,
}

/// The Lustre client's `llite` counters for the target's file system, over the window.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default, JsonSchema)]
pub struct LustreFigures {
    pub instance: String,
    /// Counter name → samples and, where the counter has them, their sum (`read_bytes`,
    /// `write_bytes`: calls and bytes through the VFS, cache hits included).
    pub counters: BTreeMap<String, LustreCounter>,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Default, JsonSchema)]
pub struct LustreCounter {
    pub samples: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sum: Option<u64>,
}

/// One sampler interval of a phase; `t_s` from the window's start.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Default, JsonSchema)]
pub struct SystemPoint {
    pub t_s: f64,
    /// Seconds the point covers.
    pub width_s: f64,
    /// The run's CPU seconds (user + system) in the interval.
    pub cpu_s: f64,
    /// The node's busy share in the interval.
    pub node_busy: f64,
    /// The target devices' bytes in the interval.
    pub device_read_bytes: u64,
    pub device_write_bytes: u64,
    /// The node's dirty and write-back bytes at the interval's end.
    pub dirty_bytes: u64,
    pub writeback_bytes: u64,
}

/// The most points a phase's system series keeps: past it, neighbours merge.
pub const MAX_POINTS: usize = 4096;

/// Merges neighbouring points pairwise until at most `max` are left: sums add, the node's
/// busy share is weighted by width, the dirty bytes are the later point's.
pub fn bound_series(points: &mut Vec<SystemPoint>, max: usize) {
    let max = max.max(1);
    while points.len() > max {
        let merged: Vec<SystemPoint> = points
            .chunks(2)
            .map(|pair| match pair {
                [a, b] => merge_points(a, b),
                [a] => *a,
                _ => unreachable!("chunks(2)"),
            })
            .collect();
        *points = merged;
    }
}

fn merge_points(a: &SystemPoint, b: &SystemPoint) -> SystemPoint {
    let width = a.width_s + b.width_s;
    let busy = if width > 0.0 {
        (a.node_busy * a.width_s + b.node_busy * b.width_s) / width
    } else {
        0.0
    };
    SystemPoint {
        t_s: a.t_s,
        width_s: width,
        cpu_s: a.cpu_s + b.cpu_s,
        node_busy: busy,
        device_read_bytes: a.device_read_bytes + b.device_read_bytes,
        device_write_bytes: a.device_write_bytes + b.device_write_bytes,
        dirty_bytes: b.dirty_bytes,
        writeback_bytes: b.writeback_bytes,
    }
}

impl SystemFigures {
    /// The target's device (the first), where the target has one.
    pub fn target_device(&self) -> Option<&DeviceFigures> {
        self.devices.iter().find(|d| d.role == "target")
    }

    /// Adds the CPU seconds of the run's other processes on this node (MPI ranks), so that
    /// `cpu` covers every rank on the node.
    pub fn add_cpu(&mut self, user_s: f64, system_s: f64) {
        if let Some(c) = &mut self.cpu {
            c.user_s += user_s;
            c.system_s += system_s;
            if self.window_s > 0.0 {
                c.utilization_pct = 100.0 * (c.user_s + c.system_s) / self.window_s;
            }
        }
    }

    /// This node's figures, then the other nodes'.
    pub fn nodes(&self) -> impl Iterator<Item = &SystemFigures> {
        std::iter::once(self).chain(self.other_nodes.iter())
    }

    /// The bytes the ranks on this node moved in phase `p` (every rank's when `ranks` is
    /// empty), from the phase's per-rank figures where it has them.
    pub fn node_bytes(&self, p: &crate::PhaseResult) -> u64 {
        if self.ranks.is_empty() || p.per_rank.is_empty() {
            return p.bytes;
        }
        p.per_rank
            .iter()
            .filter(|r| self.ranks.contains(&r.rank))
            .map(|r| r.bytes)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_million_points_merge_to_the_bound_without_losing_bytes() {
        let mut pts: Vec<SystemPoint> = (0..1_000_000)
            .map(|i| SystemPoint {
                t_s: i as f64,
                width_s: 1.0,
                cpu_s: 0.5,
                node_busy: if i % 2 == 0 { 1.0 } else { 0.0 },
                device_write_bytes: 3,
                dirty_bytes: i,
                ..Default::default()
            })
            .collect();
        bound_series(&mut pts, MAX_POINTS);
        assert!(pts.len() <= MAX_POINTS);
        let bytes: u64 = pts.iter().map(|p| p.device_write_bytes).sum();
        assert_eq!(bytes, 3_000_000);
        let width: f64 = pts.iter().map(|p| p.width_s).sum();
        assert_eq!(width, 1_000_000.0);
        assert_eq!(pts[0].t_s, 0.0);
        assert!((pts[0].node_busy - 0.5).abs() < 1e-9);
        assert_eq!(pts.last().unwrap().dirty_bytes, 999_999);
    }

    #[test]
    fn a_short_series_is_left_alone() {
        let mut pts = vec![SystemPoint::default(); 3];
        bound_series(&mut pts, 4);
        assert_eq!(pts.len(), 3);
    }
}
