//! A phase's system figures from its start and end snapshots and the sampler's points: pure
//! arithmetic over the counters (`docs/system.md` gives each formula).

use std::collections::BTreeMap;

use results::system::{
    CpuFigures, DeviceFigures, DirtyFigures, LustreCounter, LustreFigures, NetBytes, NfsFigures,
    ProcessIo, RpcFigures, SystemFigures, SystemPoint,
};
use sysstat::disk::DiskStats;

use super::snapshot::Snapshot;
use super::target::{Device, Target};

/// Where the request sizes come from: this kernel offers no cheap histogram of them.
pub const REQUEST_SIZE_SOURCE: &str = "/proc/diskstats: the average only (a histogram needs \
     tracing each request as root, not cheap at high IOPS)";

/// The run's facts that do not change between phases.
#[derive(Debug, Clone, Default)]
pub struct Node {
    pub host: String,
    pub cpus_available: u64,
}

/// The figures of the window from `a` to `b`; `points` are the sampler's, `peak` the dirty
/// and write-back bytes' highest reading in between.
pub fn figures(
    node: &Node,
    target: &Target,
    a: &Snapshot,
    b: &Snapshot,
    peak: (u64, u64),
    points: Vec<SystemPoint>,
) -> SystemFigures {
    let window_s = measure::secs(b.at_ns.saturating_sub(a.at_ns));
    let mut absent = BTreeMap::new();
    let mut missing = |source: &str, why: &str| {
        absent.insert(source.to_string(), why.to_string());
    };
    let cpu = cpu(node, a, b, window_s);
    if cpu.is_none() {
        missing("cpu", "getrusage or /proc/stat could not be read");
    }
    let process_io = match (&a.io, &b.io) {
        (Some(x), Some(y)) => Some(process_io(&y.since(x))),
        _ => {
            missing(
                "process_io",
                "/proc/self/io could not be read (CONFIG_TASK_IO_ACCOUNTING)",
            );
            None
        }
    };
    let network = match (&a.net, &b.net) {
        (Some(x), Some(y)) => Some(network(x, y)),
        _ => {
            missing("network", "/proc/net/dev could not be read");
            None
        }
    };
    let devices: Vec<DeviceFigures> = target
        .devices
        .iter()
        .enumerate()
        .filter_map(|(i, d)| {
            let (x, y) = (a.disks.get(i)?.as_ref()?, b.disks.get(i)?.as_ref()?);
            Some(device(d, &y.since(x), window_s))
        })
        .collect();
    if let Some(why) = &target.no_devices {
        missing("devices", why);
    } else if devices.is_empty() {
        missing("devices", "the target's devices are not in /proc/diskstats");
    }
    let page_cache = match (a.dirty, b.dirty) {
        (Some(x), Some(y)) => Some(DirtyFigures {
            dirty_start_bytes: x.dirty,
            dirty_end_bytes: y.dirty,
            dirty_peak_bytes: peak.0.max(x.dirty).max(y.dirty),
            writeback_start_bytes: x.writeback,
            writeback_end_bytes: y.writeback,
            writeback_peak_bytes: peak.1.max(x.writeback).max(y.writeback),
        }),
        _ => {
            missing("page_cache", "/proc/meminfo could not be read");
            None
        }
    };
    let nfs = match (&a.nfs, &b.nfs) {
        (Some(x), Some(y)) => Some(nfs(x, y)),
        _ => {
            let why = match &target.nfs_mount {
                Some(m) => format!("{m}: not in /proc/self/mountstats"),
                None => format!("not an NFS mount ({})", fs_type(target)),
            };
            missing("nfs", &why);
            None
        }
    };
    let lustre = match (&a.lustre, &b.lustre, &target.lustre) {
        (Some(x), Some(y), Some((instance, _))) => Some(lustre(instance, x, y)),
        _ => {
            let why = match target.fs_type.as_str() {
                "lustre" => {
                    "no llite stats found for the mount (root and debugfs from 2.12)".to_string()
                }
                _ => format!("not a Lustre mount ({})", fs_type(target)),
            };
            missing("lustre", &why);
            None
        }
    };
    let mut series = points;
    results::system::bound_series(&mut series, results::system::MAX_POINTS);
    SystemFigures {
        host: node.host.clone(),
        window_s,
        cpu,
        process_io,
        network,
        devices,
        page_cache,
        nfs,
        lustre,
        absent,
        series,
        ranks: Vec::new(),
        other_nodes: Vec::new(),
    }
}

fn fs_type(t: &Target) -> &str {
    match t.fs_type.is_empty() {
        true => "no local target",
        false => &t.fs_type,
    }
}

fn cpu(node: &Node, a: &Snapshot, b: &Snapshot, window_s: f64) -> Option<CpuFigures> {
    let ((u0, s0), (u1, s1)) = (a.rusage?, b.rusage?);
    let ticks = b.cpu?.since(&a.cpu?);
    let total = ticks.total().max(1) as f64;
    let (user_s, system_s) = ((u1 - u0).max(0.0), (s1 - s0).max(0.0));
    Some(CpuFigures {
        user_s,
        system_s,
        utilization_pct: match window_s > 0.0 {
            true => 100.0 * (user_s + system_s) / window_s,
            false => 0.0,
        },
        cpus_available: node.cpus_available,
        node_cpus: b.node_cpus,
        node_busy: ticks.busy_fraction(),
        node_iowait: ticks.iowait as f64 / total,
        node_steal: ticks.steal as f64 / total,
    })
}

fn process_io(d: &sysstat::procio::ProcIo) -> ProcessIo {
    ProcessIo {
        rchar: d.rchar,
        wchar: d.wchar,
        read_bytes: d.read_bytes,
        write_bytes: d.write_bytes,
        cancelled_write_bytes: d.cancelled_write_bytes,
    }
}

fn network(a: &[sysstat::net::NetDev], b: &[sysstat::net::NetDev]) -> BTreeMap<String, NetBytes> {
    b.iter()
        .filter_map(|y| {
            let x = a.iter().find(|x| x.name == y.name)?;
            let d = y.since(x);
            (d.rx_bytes + d.tx_bytes > 0).then(|| {
                (
                    d.name.clone(),
                    NetBytes {
                        rx_bytes: d.rx_bytes,
                        tx_bytes: d.tx_bytes,
                    },
                )
            })
        })
        .collect()
}

fn device(dev: &Device, d: &DiskStats, window_s: f64) -> DeviceFigures {
    let per = |x: u64, n: u64| (n > 0).then(|| x as f64 / n as f64);
    let window_ms = window_s * 1000.0;
    let share = |ms: u64| match window_ms > 0.0 {
        true => ms as f64 / window_ms,
        false => 0.0,
    };
    DeviceFigures {
        name: dev.name.clone(),
        dev: format!("{}:{}", dev.major, dev.minor),
        role: dev.role.to_string(),
        reads: d.reads,
        read_merges: d.reads_merged,
        read_bytes: d.bytes_read(),
        writes: d.writes,
        write_merges: d.writes_merged,
        write_bytes: d.bytes_written(),
        flushes: d.flushes,
        avg_read_request_bytes: per(d.bytes_read(), d.reads),
        avg_write_request_bytes: per(d.bytes_written(), d.writes),
        read_await_ms: per(d.read_ms, d.reads),
        write_await_ms: per(d.write_ms, d.writes),
        queue_depth: share(d.weighted_ms),
        utilization: share(d.io_ms).min(1.0),
        max_request_bytes: dev.max_request_bytes,
        request_size_source: REQUEST_SIZE_SOURCE.to_string(),
    }
}

fn nfs(a: &sysstat::nfs::NfsMountStats, b: &sysstat::nfs::NfsMountStats) -> NfsFigures {
    let d = b.since(a);
    NfsFigures {
        mount_point: b.mount_point.clone(),
        server: b.device.clone(),
        normal_read_bytes: d.bytes.normal_read,
        normal_write_bytes: d.bytes.normal_write,
        direct_read_bytes: d.bytes.direct_read,
        direct_write_bytes: d.bytes.direct_write,
        server_read_bytes: d.bytes.server_read,
        server_write_bytes: d.bytes.server_write,
        ops: d
            .ops
            .iter()
            .filter(|(_, op)| op.ops > 0)
            .map(|(name, op)| {
                let rpc = RpcFigures {
                    calls: op.ops,
                    rtt_ms_mean: op.avg_rtt_ms(),
                    bytes_sent: op.bytes_sent,
                    bytes_received: op.bytes_recv,
                };
                (name.clone(), rpc)
            })
            .collect(),
    }
}

fn lustre(
    instance: &str,
    a: &sysstat::lustre::LliteStats,
    b: &sysstat::lustre::LliteStats,
) -> LustreFigures {
    let d = b.since(a);
    LustreFigures {
        instance: instance.to_string(),
        counters: d
            .counters
            .iter()
            .filter(|(_, c)| c.samples > 0)
            .map(|(name, c)| {
                let sum = (c.unit == "bytes" || c.sum > 0).then_some(c.sum);
                (
                    name.clone(),
                    LustreCounter {
                        samples: c.samples,
                        sum,
                    },
                )
            })
            .collect(),
    }
}

/// The sampler's point for the interval from `a` to `b`.
pub fn point(start_ns: u64, a: &Snapshot, b: &Snapshot) -> SystemPoint {
    let (cpu_s, node_busy) = match (a.rusage, b.rusage, a.cpu, b.cpu) {
        (Some((u0, s0)), Some((u1, s1)), Some(x), Some(y)) => {
            ((u1 + s1 - u0 - s0).max(0.0), y.since(&x).busy_fraction())
        }
        _ => (0.0, 0.0),
    };
    let target = |s: &Snapshot| s.disks.first().cloned().flatten();
    let (rd, wr) = match (target(a), target(b)) {
        (Some(x), Some(y)) => {
            let d = y.since(&x);
            (d.bytes_read(), d.bytes_written())
        }
        _ => (0, 0),
    };
    let dirty = b.dirty.unwrap_or_default();
    SystemPoint {
        t_s: measure::secs(a.at_ns.saturating_sub(start_ns)),
        width_s: measure::secs(b.at_ns.saturating_sub(a.at_ns)),
        cpu_s,
        node_busy,
        device_read_bytes: rd,
        device_write_bytes: wr,
        dirty_bytes: dirty.dirty,
        writeback_bytes: dirty.writeback,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sysstat::cpu::CpuTicks;
    use sysstat::mem::DirtyBytes;

    fn snap(at_s: u64, cpu_s: f64, ticks: u64, sectors: u64, dirty: u64) -> Snapshot {
        Snapshot {
            at_ns: at_s * 1_000_000_000,
            rusage: Some((cpu_s, 0.0)),
            cpu: Some(CpuTicks {
                user: ticks,
                idle: 1000,
                ..CpuTicks::default()
            }),
            node_cpus: 2,
            disks: vec![Some(DiskStats {
                writes: sectors / 2048,
                sectors_written: sectors,
                write_ms: sectors / 100,
                weighted_ms: sectors / 100,
                ..DiskStats::default()
            })],
            dirty: Some(DirtyBytes {
                dirty,
                writeback: 0,
            }),
            ..Snapshot::default()
        }
    }

    fn target() -> Target {
        Target {
            devices: vec![Device {
                major: 7,
                minor: 0,
                name: "loop0".into(),
                role: "target",
                max_request_bytes: Some(1 << 20),
            }],
            fs_type: "ext4".into(),
            ..Target::default()
        }
    }

    #[test]
    fn deltas_over_the_window() {
        let node = Node {
            host: "h".into(),
            cpus_available: 2,
        };
        let (a, b) = (snap(10, 1.0, 100, 2048, 5), snap(12, 2.5, 300, 2048 * 9, 7));
        let f = figures(
            &node,
            &target(),
            &a,
            &b,
            (9, 0),
            vec![point(a.at_ns, &a, &b)],
        );
        assert_eq!(f.window_s, 2.0);
        let cpu = f.cpu.unwrap();
        assert_eq!((cpu.user_s, cpu.utilization_pct), (1.5, 75.0));
        assert_eq!(cpu.node_busy, 200.0 / 200.0);
        let d = &f.devices[0];
        assert_eq!((d.writes, d.write_bytes), (8, 8 << 20));
        assert_eq!(d.avg_write_request_bytes, Some(1048576.0));
        assert_eq!(d.avg_read_request_bytes, None);
        let pc = f.page_cache.unwrap();
        assert_eq!(
            (
                pc.dirty_start_bytes,
                pc.dirty_end_bytes,
                pc.dirty_peak_bytes
            ),
            (5, 7, 9)
        );
        assert_eq!(f.series[0].device_write_bytes, 8 << 20);
        // Sources not read are absent with a reason, never zero.
        assert!(f.process_io.is_none());
        assert!(f.absent["process_io"].contains("/proc/self/io"));
        assert!(f.absent["nfs"].contains("not an NFS mount (ext4)"));
        assert!(f.absent["lustre"].contains("not a Lustre mount"));
        assert!(!f.absent.contains_key("devices"));
    }

    /// The NFS and Lustre blocks from two readings of the fixtures `crates/sysstat` parses.
    #[test]
    fn client_file_system_counters_over_the_window() {
        let fixture = |name: &str| {
            let path = format!(
                "{}/../sysstat/tests/fixtures/{name}",
                env!("CARGO_MANIFEST_DIR")
            );
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
        };
        let nfs = |name: &str| {
            let all = sysstat::nfs::parse_mountstats(&fixture(name));
            sysstat::nfs::for_mount(&all, "/mnt/nfs/test").cloned()
        };
        let llite = sysstat::lustre::parse_llite(&fixture("llite_stats.usecs")).unwrap();
        let mut later = llite.clone();
        for c in later.counters.values_mut() {
            c.samples += 2;
            c.sum += 2 << 20;
        }
        let mut a = snap(1, 0.0, 0, 0, 0);
        let mut b = snap(2, 0.0, 0, 0, 0);
        (a.nfs, b.nfs) = (nfs("mountstats"), nfs("mountstats.later"));
        (a.lustre, b.lustre) = (Some(llite), Some(later));
        let t = Target {
            nfs_mount: Some("/mnt/nfs/test".into()),
            lustre: Some(("lustrefs-ffff88082d691000".into(), "stats".into())),
            no_devices: Some("none: a network file system".into()),
            fs_type: "nfs4".into(),
            ..Target::default()
        };
        let f = figures(&Node::default(), &t, &a, &b, (0, 0), Vec::new());
        let n = f.nfs.expect("nfs figures");
        assert_eq!(n.mount_point, "/mnt/nfs/test");
        let (x, y) = (a.nfs.as_ref().unwrap(), b.nfs.as_ref().unwrap());
        assert_eq!(
            n.server_write_bytes,
            y.bytes.server_write - x.bytes.server_write
        );
        let write = &n.ops["WRITE"];
        assert_eq!(write.calls, y.ops["WRITE"].ops - x.ops["WRITE"].ops);
        assert!(write.rtt_ms_mean > 0.0);
        assert!(n.ops.values().all(|o| o.calls > 0), "only RPCs called");
        let l = f.lustre.expect("lustre figures");
        assert_eq!(l.counters["write_bytes"].samples, 2);
        assert_eq!(l.counters["write_bytes"].sum, Some(2 << 20));
        assert!(!f.absent.contains_key("nfs") && !f.absent.contains_key("lustre"));
        assert_eq!(f.absent["devices"], "none: a network file system");
    }

    #[test]
    fn no_devices_is_recorded_with_its_reason() {
        let t = Target {
            no_devices: Some("none: /dev/shm is tmpfs".into()),
            ..Target::default()
        };
        let a = snap(1, 0.0, 0, 0, 0);
        let f = figures(&Node::default(), &t, &a, &a, (0, 0), Vec::new());
        assert!(f.devices.is_empty());
        assert_eq!(f.absent["devices"], "none: /dev/shm is tmpfs");
    }
}
