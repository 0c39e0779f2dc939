//! Host and file-system facts recorded with every result, so a number can be traced to the
//! machine, kernel and mount that produced it. Capture never fails: unknown facts become
//! `"unknown"` or 0.

use engine::{Engine, TargetInfo};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::ffi::CStr;
use std::path::Path;

const UNKNOWN: &str = "unknown";

#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Environment {
    pub hostname: String,
    /// `uname -r`
    pub kernel: String,
    /// `uname -s`
    pub os: String,
    /// `uname -m`
    pub arch: String,
    /// Available parallelism (respects affinity masks and cgroup quotas).
    pub cpus: u64,
    /// `MemTotal` of `/proc/meminfo`.
    pub memory_bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<FsInfo>,
}

/// The file system under the benchmark's target directory.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct FsInfo {
    /// The target as given.
    pub path: String,
    /// The mount's own type name from mountinfo (`ext4`, `nfs4`, `lustre`), else the name of the
    /// statfs magic, else "unknown".
    pub fs_type: String,
    /// statfs `f_type`, hex.
    pub fs_magic: String,
    pub mount_point: String,
    pub mount_source: String,
    /// Per-mount options, then the super-block options not already listed.
    pub mount_options: String,
    pub capacity_bytes: u64,
    /// Space available to unprivileged users (`f_bavail`), as `df` shows it.
    pub free_bytes: u64,
    pub inodes: u64,
    pub free_inodes: u64,
}

/// Captures the host, and, as `engine` tells it, the file system holding the target path (or
/// its nearest existing ancestor, since the run directory is often created later).
pub fn capture(target: Option<(&dyn Engine, &Path)>) -> Environment {
    let u = uname();
    Environment {
        hostname: hostname(),
        kernel: u.release,
        os: u.sysname,
        arch: u.machine,
        cpus: std::thread::available_parallelism().map_or(0, |n| n.get() as u64),
        memory_bytes: mem_total(),
        target: target.map(|(engine, path)| fs_info(engine, path)),
    }
}

/// Facts about the file system holding `path`, from `engine`; "unknown" and 0 for what it
/// cannot tell.
pub fn fs_info(engine: &dyn Engine, path: &Path) -> FsInfo {
    let facts = engine.target_info(engine.target(path)).unwrap_or_default();
    fs_info_from(path, &facts)
}

/// The document's form of what an engine said about `path`.
pub fn fs_info_from(path: &Path, facts: &TargetInfo) -> FsInfo {
    let known = |v: &Option<String>| v.clone().unwrap_or_else(|| UNKNOWN.to_string());
    let space = facts.space.unwrap_or_default();
    FsInfo {
        path: path.display().to_string(),
        fs_type: known(&facts.fs_type),
        // `0x` and eight hex digits, as the magic numbers are usually written.
        fs_magic: facts
            .fs_magic
            .map_or(UNKNOWN.to_string(), |m| format!("{m:#010x}")),
        mount_point: known(&facts.mount_point),
        mount_source: known(&facts.mount_source),
        mount_options: known(&facts.mount_options),
        capacity_bytes: space.total_bytes,
        free_bytes: space.avail_bytes,
        inodes: space.total_inodes,
        free_inodes: space.free_inodes,
    }
}

struct Uname {
    sysname: String,
    release: String,
    machine: String,
}

fn uname() -> Uname {
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: `u` is a valid, writable utsname; uname only fills it.
    if unsafe { libc::uname(&mut u) } != 0 {
        return Uname {
            sysname: UNKNOWN.to_string(),
            release: UNKNOWN.to_string(),
            machine: std::env::consts::ARCH.to_string(),
        };
    }
    Uname {
        sysname: c_field(&u.sysname),
        release: c_field(&u.release),
        machine: c_field(&u.machine),
    }
}

/// A NUL-terminated `c_char` array as a String ("unknown" if empty or unterminated).
fn c_field(chars: &[libc::c_char]) -> String {
    let bytes: Vec<u8> = chars.iter().map(|&c| c as u8).collect();
    match CStr::from_bytes_until_nul(&bytes) {
        Ok(s) if !s.to_bytes().is_empty() => s.to_string_lossy().into_owned(),
        _ => UNKNOWN.to_string(),
    }
}

/// This machine's host name (as `environment.hostname` records it).
pub fn hostname() -> String {
    let mut buf = [0 as libc::c_char; 256];
    // SAFETY: the buffer is valid for buf.len() bytes; the last byte stays NUL, so the result is
    // terminated even if the name was truncated.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr(), buf.len() - 1) };
    if rc != 0 {
        return UNKNOWN.to_string();
    }
    c_field(&buf)
}

/// This host's memory (`MemTotal`), bytes; 0 when unknown.
pub fn mem_total() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| parse_mem_total(&t))
        .unwrap_or(0)
}

/// `MemTotal:  16314304 kB` → bytes.
fn parse_mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut it = line["MemTotal:".len()..].split_whitespace();
    let n: u64 = it.next()?.parse().ok()?;
    let scale = match it.next() {
        Some("kB") => 1024,
        None => 1,
        Some(_) => return None,
    };
    Some(n.saturating_mul(scale))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{DummyEngine, PosixEngine};

    static POSIX: PosixEngine = PosixEngine::new(false);

    #[test]
    fn host_facts() {
        let e = capture(None);
        assert!(e.target.is_none());
        assert!(e.cpus >= 1);
        assert_ne!(e.hostname, "");
        assert_ne!(e.arch, UNKNOWN);
        if cfg!(target_os = "linux") {
            assert_eq!(e.os, "Linux");
            assert!(e.memory_bytes > 0);
            assert_ne!(e.kernel, UNKNOWN);
        }
    }

    #[test]
    fn meminfo_parsing() {
        let t = "MemFree: 1 kB\nMemTotal:       24684096 kB\n";
        assert_eq!(parse_mem_total(t), Some(24_684_096 * 1024));
        assert_eq!(parse_mem_total("nothing"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn tmp_and_missing_descendant() {
        let e = capture(Some((&POSIX, Path::new("/tmp/iogauge-does-not-exist/a/b"))));
        let t = e.target.unwrap();
        assert_eq!(t.path, "/tmp/iogauge-does-not-exist/a/b");
        assert_ne!(t.fs_type, UNKNOWN);
        assert_ne!(t.mount_point, UNKNOWN);
        assert!(Path::new("/tmp").starts_with(&t.mount_point));
        assert!(t.capacity_bytes > 0 && t.capacity_bytes >= t.free_bytes);
        assert!(t.fs_magic.starts_with("0x"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn dev_shm_is_tmpfs() {
        if !Path::new("/dev/shm").is_dir() {
            return; // not every container mounts it
        }
        let t = fs_info(&POSIX, Path::new("/dev/shm"));
        assert_eq!(t.fs_type, "tmpfs");
        assert_eq!(t.fs_magic, "0x01021994");
        assert_eq!(t.mount_point, "/dev/shm");
        assert!(t.mount_options.contains("rw"));
        assert!(t.capacity_bytes > 0);
    }

    #[test]
    fn relative_and_unknown_paths_do_not_fail() {
        let t = fs_info(&POSIX, Path::new("some/relative/dir"));
        assert_ne!(t.mount_point, "");
        let _ = fs_info(&POSIX, Path::new(""));
    }

    #[test]
    fn an_engine_without_a_file_system_says_so() {
        let dummy = DummyEngine::new(Default::default(), 0);
        let t = fs_info(&dummy, Path::new("/tmp"));
        assert_eq!(t.fs_type, "dummy");
        assert_eq!(
            (t.fs_magic.as_str(), t.mount_point.as_str()),
            (UNKNOWN, UNKNOWN)
        );
        assert_eq!(t.capacity_bytes, 0);
    }
}
