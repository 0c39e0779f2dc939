//! The warnings that rest on what the system did in a phase (`PhaseResult::system`): written
//! bytes that never reached the device inside the phase, device requests much smaller than the
//! transfers, a client CPU near saturation, a read the device did not serve. Device warnings
//! apply only where the target has a block device (not tmpfs, NFS or an object store).

use crate::alert::{Alert, AlertId, Thresholds};
use crate::system::{DeviceFigures, SystemFigures};
use crate::warnings::phase_label;
use crate::{Operation, PhaseResult};

/// Below this many bytes a phase's device figures are mostly the journal's and metadata's.
const MIN_BYTES: u64 = 1 << 20;
/// Fewer device requests than this say little about their size.
const MIN_REQUESTS: u64 = 16;
const MIB: f64 = 1_048_576.0;
/// The CPU warning looks at windows of at least this many seconds.
const MIN_CPU_WINDOW_S: f64 = 1.0;

pub fn system_alerts(p: &PhaseResult, t: &Thresholds) -> Vec<Alert> {
    let Some(all) = &p.system else {
        return Vec::new();
    };
    // Each node against the bytes of its own ranks; the first node that raises an id speaks.
    let mut out: Vec<Alert> = Vec::new();
    for s in all.nodes() {
        let node = Node {
            bytes: s.node_bytes(p),
            at: match all.other_nodes.is_empty() {
                true => String::new(),
                false => format!(" on {}", s.host),
            },
        };
        let found = [
            write_not_on_device(p, s, &node, t),
            small_device_requests(p, s, &node, t),
            client_cpu_saturated(p, s, &node, t),
            read_not_from_device(p, s, &node, t),
        ];
        for a in found.into_iter().flatten() {
            if !out.iter().any(|b| b.id == a.id) {
                out.push(a);
            }
        }
    }
    out
}

/// The node a figure is from: the bytes its ranks moved, and ` on HOST` where there are
/// several nodes.
struct Node {
    bytes: u64,
    at: String,
}

fn writes(op: Operation) -> bool {
    matches!(
        op,
        Operation::Write
            | Operation::FileCreate
            | Operation::DlioGenerate
            | Operation::DlioCheckpointWrite
    )
}

fn reads(op: Operation) -> bool {
    matches!(
        op,
        Operation::Read
            | Operation::FileRead
            | Operation::DlioEpoch
            | Operation::DlioCheckpointRead
    )
}

fn mib(b: u64) -> String {
    format!("{:.1} MiB", b as f64 / MIB)
}

fn write_not_on_device(
    p: &PhaseResult,
    s: &SystemFigures,
    n: &Node,
    t: &Thresholds,
) -> Option<Alert> {
    let min = t.get(AlertId::WriteNotOnDevice)?;
    let d = s.target_device()?;
    let bytes = n.bytes;
    if !writes(p.operation) || bytes < MIN_BYTES {
        return None;
    }
    let share = d.write_bytes as f64 / bytes as f64;
    if share >= min {
        return None;
    }
    let left = bytes.saturating_sub(d.write_bytes);
    let dirty = s.page_cache.map(|c| c.dirty_end_bytes);
    let dirty_text = dirty
        .map(|b| format!("; the node held {} dirty at the end", mib(b)))
        .unwrap_or_default();
    let mut a = Alert::new(
        AlertId::WriteNotOnDevice,
        format!(
            "{}: only {} of the {} written ({:.0} %) reached {}{} before the phase ended, {} \
             left in the page cache{dirty_text}: the figure measures memory more than the \
             device; IOR -e (fsync), -B (O_DIRECT) or more data than memory measure the storage",
            phase_label(p),
            mib(d.write_bytes),
            mib(bytes),
            share * 100.0,
            d.name,
            n.at,
            mib(left)
        ),
    )
    .with("device", d.name.as_str())
    .with("host", s.host.as_str())
    .with("device_write_bytes", d.write_bytes)
    .with("bytes", bytes)
    .with("share", share)
    .with("bytes_not_on_device", left)
    .with("threshold", min);
    if let Some(b) = dirty {
        a = a.with("dirty_end_bytes", b);
    }
    Some(a)
}

/// The device's requests of the phase's direction against its transfers (bytes / ops), capped
/// at the device's largest request.
fn small_device_requests(
    p: &PhaseResult,
    s: &SystemFigures,
    n: &Node,
    t: &Thresholds,
) -> Option<Alert> {
    let ratio = t.get(AlertId::SmallDeviceRequests)?;
    let d = s.target_device()?;
    let (requests, avg, what) = match (writes(p.operation), reads(p.operation)) {
        (true, _) => (d.writes, d.avg_write_request_bytes?, "write"),
        (_, true) => (d.reads, d.avg_read_request_bytes?, "read"),
        _ => return None,
    };
    if p.ops == 0 || n.bytes < MIN_BYTES || requests < MIN_REQUESTS {
        return None;
    }
    let transfer = p.bytes as f64 / p.ops as f64;
    let expected = d
        .max_request_bytes
        .map_or(transfer, |m| transfer.min(m as f64));
    if avg * ratio >= expected {
        return None;
    }
    Some(
        Alert::new(
            AlertId::SmallDeviceRequests,
            format!(
                "{}: {} {what} requests averaged {:.0} KiB on {}{}, {:.1}× smaller than the \
                 {:.0} KiB expected (the transfers, up to the device's largest request): \
                 the storage saw small I/O (page-sized writeback, mmap, a small block \
                 size somewhere in the stack)",
                phase_label(p),
                requests,
                avg / 1024.0,
                d.name,
                n.at,
                expected / avg.max(1.0),
                expected / 1024.0
            ),
        )
        .with("device", d.name.as_str())
        .with("device_requests", requests)
        .with("avg_request_bytes", avg)
        .with("transfer_bytes", transfer)
        .with("max_request_bytes", d.max_request_bytes)
        .with("threshold", ratio),
    )
}

fn client_cpu_saturated(
    p: &PhaseResult,
    s: &SystemFigures,
    n: &Node,
    t: &Thresholds,
) -> Option<Alert> {
    let max = t.get(AlertId::ClientCpuSaturated)?;
    let c = s.cpu?;
    // /proc/stat counts in 10 ms ticks: a shorter window's busy share is a few ticks' noise.
    if s.window_s < MIN_CPU_WINDOW_S || c.cpus_available == 0 {
        return None;
    }
    let process = (c.user_s + c.system_s) / (s.window_s * c.cpus_available as f64);
    if process < max && c.node_busy < max {
        return None;
    }
    Some(
        Alert::new(
            AlertId::ClientCpuSaturated,
            format!(
                "{}: the run used {:.0} % of the {} CPUs available to it and the node{} was \
                 {:.0} % busy: the figure may measure the client's CPU, not the storage \
                 (under MPI, ranks waiting in a barrier spin and count as busy)",
                phase_label(p),
                process * 100.0,
                c.cpus_available,
                n.at,
                c.node_busy * 100.0
            ),
        )
        .with("process_cpu_share", process)
        .with("node_busy", c.node_busy)
        .with("cpus_available", c.cpus_available)
        .with("threshold", max),
    )
}

fn read_not_from_device(
    p: &PhaseResult,
    s: &SystemFigures,
    n: &Node,
    t: &Thresholds,
) -> Option<Alert> {
    let min = t.get(AlertId::ReadNotFromDevice)?;
    let d: &DeviceFigures = s.target_device()?;
    let bytes = n.bytes;
    if !reads(p.operation) || bytes < MIN_BYTES {
        return None;
    }
    let share = d.read_bytes as f64 / bytes as f64;
    (share < min).then(|| {
        Alert::new(
            AlertId::ReadNotFromDevice,
            format!(
                "{}: {} read, {} of it ({:.1} %) from {}{}: the page cache served the phase; \
                 --drop-caches, O_DIRECT or more data than memory measure the storage",
                phase_label(p),
                mib(bytes),
                mib(d.read_bytes),
                share * 100.0,
                d.name,
                n.at
            ),
        )
        .with("device", d.name.as_str())
        .with("device_read_bytes", d.read_bytes)
        .with("bytes", bytes)
        .with("share", share)
        .with("threshold", min)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::{CpuFigures, DirtyFigures};

    fn phase(op: Operation, bytes: u64, ops: u64, dev: DeviceFigures) -> PhaseResult {
        let mut p = PhaseResult::new(op, 0);
        p.bytes = bytes;
        p.ops = ops;
        p.system = Some(SystemFigures {
            window_s: 2.0,
            devices: vec![dev],
            page_cache: Some(DirtyFigures {
                dirty_end_bytes: 60 << 20,
                ..Default::default()
            }),
            cpu: Some(CpuFigures {
                user_s: 0.2,
                system_s: 0.2,
                cpus_available: 2,
                node_busy: 0.3,
                ..Default::default()
            }),
            ..Default::default()
        });
        p
    }

    fn dev(write_bytes: u64, writes: u64) -> DeviceFigures {
        DeviceFigures {
            name: "loop0".into(),
            role: "target".into(),
            write_bytes,
            writes,
            avg_write_request_bytes: (writes > 0).then(|| write_bytes as f64 / writes as f64),
            max_request_bytes: Some(1280 << 10),
            ..Default::default()
        }
    }

    fn ids(p: &PhaseResult) -> Vec<String> {
        system_alerts(p, &Thresholds::default())
            .into_iter()
            .map(|a| a.id)
            .collect()
    }

    #[test]
    fn a_write_left_in_the_page_cache_names_the_device_and_the_dirty_bytes() {
        let p = phase(Operation::Write, 64 << 20, 64, dev(4 << 20, 4));
        let a = system_alerts(&p, &Thresholds::default());
        assert_eq!(a.len(), 1, "{a:?}");
        assert_eq!(a[0].id, "write-not-on-device");
        assert!(a[0].message.contains("loop0"), "{}", a[0].message);
        assert!(a[0].message.contains("60.0 MiB dirty"), "{}", a[0].message);
        assert_eq!(a[0].evidence["bytes_not_on_device"], 60u64 << 20);
        let synced = phase(Operation::Write, 64 << 20, 64, dev(65 << 20, 52));
        assert!(ids(&synced).is_empty());
    }

    #[test]
    fn small_requests_against_large_transfers() {
        // 1 MiB transfers went out as 4 KiB requests.
        let p = phase(Operation::Write, 64 << 20, 64, dev(64 << 20, 16384));
        assert_eq!(ids(&p), ["small-device-requests"]);
        // 4 KiB transfers as 4 KiB requests are what was asked for.
        let q = phase(Operation::Write, 64 << 20, 16384, dev(64 << 20, 16384));
        assert!(ids(&q).is_empty());
    }

    #[test]
    fn reads_from_memory_and_a_busy_client() {
        let mut p = phase(Operation::Read, 64 << 20, 64, dev(0, 0));
        assert_eq!(ids(&p), ["read-not-from-device"]);
        let s = p.system.as_mut().unwrap();
        s.cpu.as_mut().unwrap().user_s = 3.5;
        assert_eq!(ids(&p), ["client-cpu-saturated", "read-not-from-device"]);
        let mut t = Thresholds::default();
        t.set("read-not-from-device=off").unwrap();
        t.set("client-cpu-saturated=99%").unwrap();
        assert!(system_alerts(&p, &t).is_empty());
    }

    #[test]
    fn each_node_against_its_own_ranks_bytes() {
        use crate::RankTimes;
        // Two nodes, two ranks each, 32 MiB per rank: node 0's device took all of its
        // 64 MiB, node b's none of its.
        let mut p = phase(Operation::Write, 128 << 20, 128, dev(64 << 20, 64));
        p.per_rank = (0..4)
            .map(|r| RankTimes {
                rank: r,
                bytes: 32 << 20,
                ..Default::default()
            })
            .collect();
        let s = p.system.as_mut().unwrap();
        s.ranks = vec![0, 1];
        let mut b = s.clone();
        b.host = "b".into();
        b.ranks = vec![2, 3];
        b.devices = vec![dev(0, 0)];
        s.other_nodes.push(b);
        let a = system_alerts(&p, &Thresholds::default());
        assert_eq!(a.len(), 1, "{a:?}");
        assert!(
            a[0].message.contains("reached loop0 on b"),
            "{}",
            a[0].message
        );
        assert_eq!(a[0].evidence["bytes"], 64u64 << 20);
        assert_eq!(a[0].evidence["host"], "b");
    }

    #[test]
    fn no_device_no_device_warnings() {
        let mut p = phase(Operation::Write, 64 << 20, 64, dev(0, 0));
        p.system.as_mut().unwrap().devices.clear();
        assert!(ids(&p).is_empty());
        p.system = None;
        assert!(ids(&p).is_empty());
    }
}
