//! A phase's system figures (`results::system`, docs/system.md) as the reports show them:
//! the same cells for the terminal's `show` and the HTML page, so both say the same thing.

use crate::fmt;
use results::system::{CpuFigures, DeviceFigures, LustreFigures, NfsFigures, SystemFigures};
use results::RunResult;
use serde::Serialize;

/// One phase's figures; the per-interval series is left out (the document has it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseSystem {
    pub phase: String,
    pub iteration: u32,
    pub system: SystemFigures,
}

impl PhaseSystem {
    /// `write, iteration 0`.
    pub fn label(&self) -> String {
        format!("{}, iteration {}", self.phase, self.iteration)
    }
}

/// Every phase that has system figures, in the document's order.
pub fn phase_systems(doc: &RunResult) -> Vec<PhaseSystem> {
    doc.phases
        .iter()
        .filter_map(|p| {
            let mut system = p.system.clone()?;
            system.series.clear();
            Some(PhaseSystem {
                phase: crate::phases::phase_key(p),
                iteration: p.iteration,
                system,
            })
        })
        .collect()
}

/// The columns of [`main_cells`].
pub const MAIN_HEADER: [&str; 6] = [
    "window",
    "CPU user + sys",
    "CPU",
    "node busy",
    "dirty start → end (peak)",
    "process I/O read / write",
];

/// CPU, page cache and the process's own I/O.
pub fn main_cells(f: &SystemFigures) -> Vec<String> {
    let none = || "—".to_string();
    let cpu = f.cpu.as_ref();
    vec![
        format!("{:.2} s", f.window_s),
        cpu.map_or_else(none, |c| format!("{:.2} s + {:.2} s", c.user_s, c.system_s)),
        cpu.map_or_else(none, |c| format!("{:.1} %", c.utilization_pct)),
        cpu.map_or_else(none, node_busy),
        f.page_cache.map_or_else(none, |d| {
            format!(
                "{} → {} (peak {})",
                fmt::bytes(d.dirty_start_bytes),
                fmt::bytes(d.dirty_end_bytes),
                fmt::bytes(d.dirty_peak_bytes)
            )
        }),
        f.process_io.map_or_else(none, |io| {
            format!(
                "{} / {}",
                fmt::bytes(io.read_bytes),
                fmt::bytes(io.write_bytes)
            )
        }),
    ]
}

/// The node's busy share, with iowait where there was any (a device the CPUs waited on).
fn node_busy(c: &CpuFigures) -> String {
    let busy = format!("{:.1} %", c.node_busy * 100.0);
    if c.node_iowait >= 0.001 {
        format!("{busy} (iowait {:.1} %)", c.node_iowait * 100.0)
    } else {
        busy
    }
}

/// The columns of [`device_cells`].
pub const DEVICE_HEADER: [&str; 5] = [
    "device",
    "read / write",
    "avg request read / write",
    "await read / write",
    "queue",
];

/// One block device: `vda (target)`, bytes, average request sizes, await, queue depth.
pub fn device_cells(d: &DeviceFigures) -> Vec<String> {
    let size = |b: Option<f64>| b.map_or("—".to_string(), |b| fmt::bytes(b.round() as u64));
    let wait = |ms: Option<f64>| ms.map_or("—".to_string(), |ms| fmt::duration_ns(ms * 1e6));
    vec![
        format!("{} ({})", d.name, d.role),
        format!(
            "{} / {}",
            fmt::bytes(d.read_bytes),
            fmt::bytes(d.write_bytes)
        ),
        format!(
            "{} / {}",
            size(d.avg_read_request_bytes),
            size(d.avg_write_request_bytes)
        ),
        format!("{} / {}", wait(d.read_await_ms), wait(d.write_await_ms)),
        fmt::number(d.queue_depth),
    ]
}

/// The client file system's counters (NFS, Lustre) of each phase that has them, one line each.
pub fn client_fs_notes(phases: &[PhaseSystem]) -> Vec<String> {
    let mut out = Vec::new();
    for p in phases {
        if let Some(n) = &p.system.nfs {
            out.push(format!("{}: {}", p.label(), nfs_text(n)));
        }
        if let Some(l) = &p.system.lustre {
            out.push(format!("{}: {}", p.label(), lustre_text(l)));
        }
    }
    out
}

fn nfs_text(n: &NfsFigures) -> String {
    let b = fmt::bytes;
    let mut rpcs: Vec<(&String, &results::system::RpcFigures)> = n.ops.iter().collect();
    rpcs.sort_by_key(|r| std::cmp::Reverse(r.1.calls));
    let rpcs: Vec<String> = rpcs
        .iter()
        .take(6)
        .map(|(name, r)| {
            format!(
                "{name} {} × {}",
                r.calls,
                fmt::duration_ns(r.rtt_ms_mean * 1e6)
            )
        })
        .collect();
    let mut text = format!(
        "NFS {} on {}: read {} / write {} (O_DIRECT {} / {}), on the wire {} / {}",
        n.server,
        n.mount_point,
        b(n.normal_read_bytes),
        b(n.normal_write_bytes),
        b(n.direct_read_bytes),
        b(n.direct_write_bytes),
        b(n.server_read_bytes),
        b(n.server_write_bytes)
    );
    if !rpcs.is_empty() {
        text += &format!("; RPCs {}", rpcs.join(", "));
    }
    text
}

fn lustre_text(l: &LustreFigures) -> String {
    let mut counters: Vec<_> = l.counters.iter().collect();
    counters.sort_by_key(|c| std::cmp::Reverse(c.1.samples));
    let shown: Vec<String> = counters
        .iter()
        .take(8)
        .map(|(name, c)| match c.sum {
            Some(sum) if name.ends_with("_bytes") => {
                format!("{name} {} ({})", c.samples, fmt::bytes(sum))
            }
            _ => format!("{name} {}", c.samples),
        })
        .collect();
    format!("Lustre {}: {}", l.instance, shown.join(", "))
}

/// The sources with no figures and why, each once: `absent: nfs (not an NFS mount)`, with the
/// phases named where not every phase lacks it.
pub fn absent_notes(phases: &[PhaseSystem]) -> Vec<String> {
    let mut seen: Vec<(&str, &str, Vec<String>)> = Vec::new();
    for p in phases {
        for (source, why) in &p.system.absent {
            match seen.iter_mut().find(|(s, w, _)| s == source && w == why) {
                Some((_, _, at)) => at.push(p.label()),
                None => seen.push((source, why, vec![p.label()])),
            }
        }
    }
    seen.into_iter()
        .map(|(source, why, at)| {
            if at.len() == phases.len() {
                format!("absent: {source} ({why})")
            } else {
                format!("absent: {source} ({why}) in {}", at.join("; "))
            }
        })
        .collect()
}

/// `rank 0's node node7` (or `nodes a, b` should phases report from different ones).
pub fn hosts_text(phases: &[PhaseSystem]) -> String {
    let mut hosts: Vec<&str> = Vec::new();
    for p in phases {
        if !hosts.contains(&p.system.host.as_str()) {
            hosts.push(&p.system.host);
        }
    }
    format!("measured on rank 0's node {}", hosts.join(", "))
}
