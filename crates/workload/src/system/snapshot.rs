//! One reading of every system source a phase's figures come from, taken outside the timed
//! window (at the phase's start event, by the sampler, at the phase's end). A source that
//! cannot be read is `None`: the figures then name it absent, never zero.

use measure::now_ns;
use sysstat::cpu::CpuTicks;
use sysstat::disk::DiskStats;
use sysstat::mem::DirtyBytes;
use sysstat::net::NetDev;
use sysstat::procio::ProcIo;

use super::target::Target;

#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// `measure::now_ns` when taken.
    pub at_ns: u64,
    /// The process's user and system CPU seconds (`getrusage(RUSAGE_SELF)`).
    pub rusage: Option<(f64, f64)>,
    pub cpu: Option<CpuTicks>,
    /// CPUs `/proc/stat` lists (`cpuN` lines).
    pub node_cpus: u64,
    pub io: Option<ProcIo>,
    pub net: Option<Vec<NetDev>>,
    /// The target's devices, in `Target::devices`' order (`None`: gone from diskstats).
    pub disks: Vec<Option<DiskStats>>,
    pub dirty: Option<DirtyBytes>,
    pub nfs: Option<sysstat::nfs::NfsMountStats>,
    pub lustre: Option<sysstat::lustre::LliteStats>,
}

impl Snapshot {
    /// Everything, for a phase's start or end.
    pub fn full(target: &Target) -> Snapshot {
        let mut s = Snapshot::light(target);
        s.io = sysstat::procio::read_self().ok();
        s.net = sysstat::net::read().ok();
        s.nfs = target.nfs_mount.as_deref().and_then(read_nfs);
        s.lustre = target
            .lustre
            .as_ref()
            .and_then(|(_, path)| std::fs::read_to_string(path).ok())
            .and_then(|t| sysstat::lustre::parse_llite(&t));
        s
    }

    /// What a series point needs: CPU, the target's devices, the dirty bytes.
    pub fn light(target: &Target) -> Snapshot {
        let at_ns = now_ns();
        let stat = std::fs::read_to_string("/proc/stat").ok();
        let disks = match target.devices.is_empty() {
            true => Vec::new(),
            false => read_disks(target),
        };
        Snapshot {
            at_ns,
            rusage: rusage_self(),
            cpu: stat.as_deref().and_then(sysstat::cpu::parse),
            node_cpus: stat.as_deref().map_or(0, count_cpus),
            disks,
            dirty: sysstat::mem::read().ok(),
            ..Snapshot::default()
        }
    }
}

fn read_disks(target: &Target) -> Vec<Option<DiskStats>> {
    let all = std::fs::read_to_string("/proc/diskstats")
        .map(|t| sysstat::disk::parse(&t))
        .unwrap_or_default();
    target
        .devices
        .iter()
        .map(|d| {
            all.iter()
                .find(|s| s.major == d.major && s.minor == d.minor)
                .cloned()
        })
        .collect()
}

fn read_nfs(mount_point: &str) -> Option<sysstat::nfs::NfsMountStats> {
    let text = sysstat::nfs::read_mountstats().ok()?;
    let all = sysstat::nfs::parse_mountstats(&text);
    sysstat::nfs::for_mount(&all, mount_point).cloned()
}

/// `cpuN` lines of `/proc/stat`'s text.
pub fn count_cpus(text: &str) -> u64 {
    text.lines()
        .filter(|l| {
            l.strip_prefix("cpu")
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count() as u64
}

pub fn rusage_self() -> Option<(f64, f64)> {
    // SAFETY: getrusage writes into the zeroed struct it is given and nothing else.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    (rc == 0).then(|| (secs(ru.ru_utime), secs(ru.ru_stime)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpus_are_the_numbered_lines() {
        assert_eq!(
            count_cpus("cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu1 1 2 3 4\nintr 5\n"),
            2
        );
    }

    #[test]
    fn this_process_has_cpu_time() {
        let (u, s) = rusage_self().unwrap();
        assert!(u + s > 0.0);
    }
}
