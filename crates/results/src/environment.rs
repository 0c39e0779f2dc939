//! Host and file-system facts recorded with every result, so a number can be traced to the
//! machine, kernel and mount that produced it. Capture never fails: unknown facts become
//! `"unknown"` or 0.

use crate::fstype::{magic_hex, name_of_magic};
use crate::mountinfo;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::ffi::CStr;
use std::path::{Path, PathBuf};

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

/// Captures the host, and the file system holding `target` (or its nearest existing ancestor,
/// since the run directory is often created later).
pub fn capture(target: Option<&Path>) -> Environment {
    let u = uname();
    Environment {
        hostname: hostname(),
        kernel: u.release,
        os: u.sysname,
        arch: u.machine,
        cpus: std::thread::available_parallelism().map_or(0, |n| n.get() as u64),
        memory_bytes: mem_total(),
        target: target.map(fs_info),
    }
}

/// Facts about the file system holding `path`.
pub fn fs_info(path: &Path) -> FsInfo {
    let existing = nearest_existing(path);
    let st = existing.as_deref().and_then(statfs);
    let mounts = mountinfo::read_self();
    let mount = existing
        .as_deref()
        .and_then(|p| mountinfo::find_mount(&mounts, p));
    let magic_name = st.as_ref().and_then(|s| name_of_magic(s.magic));
    let fs_type = match (mount, magic_name) {
        (Some(m), _) if !m.fs_type.is_empty() => m.fs_type.clone(),
        (_, Some(n)) => n.to_string(),
        _ => UNKNOWN.to_string(),
    };
    let st = st.unwrap_or_default();
    FsInfo {
        path: path.display().to_string(),
        fs_type,
        fs_magic: if st.magic == 0 {
            UNKNOWN.to_string()
        } else {
            magic_hex(st.magic)
        },
        mount_point: mount.map_or(UNKNOWN.to_string(), |m| m.mount_point.clone()),
        mount_source: mount.map_or(UNKNOWN.to_string(), |m| m.source.clone()),
        mount_options: mount.map_or(UNKNOWN.to_string(), |m| m.combined_options()),
        capacity_bytes: st.capacity_bytes,
        free_bytes: st.free_bytes,
        inodes: st.inodes,
        free_inodes: st.free_inodes,
    }
}

/// The canonical form of `path` or of its closest ancestor that exists.
fn nearest_existing(path: &Path) -> Option<PathBuf> {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    abs.ancestors().find_map(|p| std::fs::canonicalize(p).ok())
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

fn mem_total() -> u64 {
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

#[derive(Default)]
struct FsStat {
    magic: u64,
    capacity_bytes: u64,
    free_bytes: u64,
    inodes: u64,
    free_inodes: u64,
}

#[cfg(target_os = "linux")]
#[allow(clippy::unnecessary_cast)] // statfs field widths differ between architectures
fn statfs(path: &Path) -> Option<FsStat> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let mut s: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is NUL-terminated and `s` is a valid, writable statfs.
    if unsafe { libc::statfs(c.as_ptr(), &mut s) } != 0 {
        return None;
    }
    // f_frsize is the unit of the block counts; old kernels leave it 0 and use f_bsize.
    let unit = if s.f_frsize > 0 {
        s.f_frsize as u64
    } else {
        s.f_bsize as u64
    };
    Some(FsStat {
        // Masked: on 32-bit targets f_type is signed and would sign-extend (e.g. CIFS).
        magic: (s.f_type as u64) & 0xFFFF_FFFF,
        capacity_bytes: (s.f_blocks as u64).saturating_mul(unit),
        free_bytes: (s.f_bavail as u64).saturating_mul(unit),
        inodes: s.f_files as u64,
        free_inodes: s.f_ffree as u64,
    })
}

#[cfg(not(target_os = "linux"))]
fn statfs(_path: &Path) -> Option<FsStat> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let e = capture(Some(Path::new("/tmp/iogauge-does-not-exist/a/b")));
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
        let t = fs_info(Path::new("/dev/shm"));
        assert_eq!(t.fs_type, "tmpfs");
        assert_eq!(t.fs_magic, "0x01021994");
        assert_eq!(t.mount_point, "/dev/shm");
        assert!(t.mount_options.contains("rw"));
        assert!(t.capacity_bytes > 0);
    }

    #[test]
    fn relative_and_unknown_paths_do_not_fail() {
        let t = fs_info(Path::new("some/relative/dir"));
        assert_ne!(t.mount_point, "");
        let _ = fs_info(Path::new(""));
    }
}
