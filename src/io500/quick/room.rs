//! Measures the room a `--quick` run has: free space and inodes of the data directory's file
//! system (of its nearest existing ancestor, before the run creates it) and the machine's
//! memory. Under MPI rank 0 measures its own node.

use std::path::Path;

use super::sizes::Room;

pub fn measure(dir: &Path) -> Room {
    let fs = statvfs(dir);
    Room {
        free_bytes: fs.map(|(bytes, _)| bytes),
        free_inodes: fs.and_then(|(_, inodes)| inodes),
        memory_bytes: memory_bytes(),
    }
}

/// Free bytes and inodes for an unprivileged user; the inodes are None where the file system
/// does not count them (btrfs reports 0 in all); None when statvfs fails.
fn statvfs(dir: &Path) -> Option<(u64, Option<u64>)> {
    use std::os::unix::ffi::OsStrExt;
    let mut p = dir.to_path_buf();
    while !p.exists() {
        if !p.pop() {
            return None;
        }
    }
    let c = std::ffi::CString::new(p.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs fills the zeroed struct; the path is NUL-terminated.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    let bytes = st.f_bavail as u64 * st.f_frsize as u64;
    let inodes = (st.f_files > 0).then_some(st.f_favail as u64);
    Some((bytes, inodes))
}

/// Physical memory; None when the system does not say.
fn memory_bytes() -> Option<u64> {
    // SAFETY: sysconf only reads system constants.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages > 0 && size > 0).then(|| pages as u64 * size as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_directory_is_measured_at_its_nearest_ancestor() {
        let d = tempfile::tempdir().unwrap();
        let here = measure(d.path());
        let below = measure(&d.path().join("not/yet/there"));
        assert!(here.free_bytes.is_some() && below.free_bytes.is_some());
        assert!(here.memory_bytes.unwrap() > 0);
        assert_eq!(here.memory_bytes, below.memory_bytes);
    }
}
