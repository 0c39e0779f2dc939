//! [`TargetInfo`] for a path, as the file engines (POSIX, MMAP) answer
//! [`Engine::target_info`](crate::Engine::target_info): lstat and stat of the name, access(2),
//! statfs(2) and `/proc/self/mountinfo` of the file system that holds it (or would hold it:
//! the nearest existing ancestor of a path that does not exist). Never fails: what cannot be
//! found out stays `None`.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::fstype::name_of_magic;
use crate::mountinfo::{self, MountEntry};
use crate::{FileKind, Space, TargetInfo};

/// The mount table, read at the first question an engine is asked and kept for its life: a
/// check of every test file of a run asks once per file, and the table does not change
/// between them.
#[derive(Debug, Default)]
pub struct Mounts(OnceLock<Vec<MountEntry>>);

impl Mounts {
    pub const fn new() -> Self {
        Mounts(OnceLock::new())
    }

    fn get(&self) -> &[MountEntry] {
        self.0.get_or_init(mountinfo::read_self)
    }
}

/// The facts about `path` and the file system that holds it.
pub fn path_info(path: &Path, mounts: &Mounts) -> TargetInfo {
    let kind = std::fs::symlink_metadata(path)
        .ok()
        .map(|m| FileKind::from(m.file_type()));
    let followed = std::fs::metadata(path).ok();
    let resolved = followed
        .as_ref()
        .and_then(|_| std::fs::canonicalize(path).ok());
    let holder = resolved.clone().or_else(|| nearest_existing(path));
    let fs = holder.as_deref().and_then(statfs);
    let mounts = mounts.get();
    let mount = holder
        .as_deref()
        .and_then(|p| mountinfo::find_mount(mounts, p));
    let fs_type = match (mount, fs.and_then(|(magic, _)| name_of_magic(magic))) {
        (Some(m), _) if !m.fs_type.is_empty() => Some(m.fs_type.clone()),
        (_, Some(n)) => Some(n.to_string()),
        _ => None,
    };
    TargetInfo {
        kind,
        exists: followed.is_some(),
        is_dir: followed.as_ref().is_some_and(|m| m.is_dir()),
        is_file: followed.as_ref().is_some_and(|m| m.is_file()),
        writable: followed.is_some() && writable(path),
        mount_root: resolved
            .as_deref()
            .is_some_and(|r| is_mount_root(r, mounts)),
        resolved,
        fs_type,
        fs_magic: fs.map(|(magic, _)| magic).filter(|&m| m != 0),
        mount_point: mount.map(|m| m.mount_point.clone()),
        mount_source: mount.map(|m| m.source.clone()),
        mount_options: mount.map(|m| m.combined_options()),
        space: fs.map(|(_, space)| space),
    }
}

/// `real` (canonical) is a mount point; without `/proc`, a directory on another device
/// than its parent is one.
fn is_mount_root(real: &Path, mounts: &[MountEntry]) -> bool {
    if !mounts.is_empty() {
        return mounts.iter().any(|m| Path::new(&m.mount_point) == real);
    }
    let parent = real.parent().unwrap_or(Path::new("/"));
    let dev = |p: &Path| std::fs::metadata(p).map(|m| m.dev()).ok();
    dev(real).is_some() && dev(real) != dev(parent)
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

fn writable(path: &Path) -> bool {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a valid NUL-terminated path; access(2) only reads it.
    unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) == 0 }
}

/// The magic number and the space of the file system holding `path`.
#[cfg(target_os = "linux")]
#[allow(clippy::unnecessary_cast)] // statfs field widths differ between architectures
fn statfs(path: &Path) -> Option<(u64, Space)> {
    let c = CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: a zeroed statfs is a valid output buffer; `c` is NUL-terminated.
    let mut s: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(c.as_ptr(), &mut s) } != 0 {
        return None;
    }
    // f_frsize is the unit of the block counts; old kernels leave it 0 and use f_bsize (as
    // glibc's statvfs does).
    let unit = if s.f_frsize > 0 {
        s.f_frsize as u64
    } else {
        s.f_bsize as u64
    };
    let space = Space {
        total_bytes: (s.f_blocks as u64).saturating_mul(unit),
        free_bytes: (s.f_bfree as u64).saturating_mul(unit),
        avail_bytes: (s.f_bavail as u64).saturating_mul(unit),
        total_inodes: s.f_files as u64,
        free_inodes: s.f_ffree as u64,
    };
    // Masked: on 32-bit targets f_type is signed and would sign-extend (e.g. CIFS).
    Some(((s.f_type as u64) & 0xFFFF_FFFF, space))
}

#[cfg(not(target_os = "linux"))]
fn statfs(_path: &Path) -> Option<(u64, Space)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(path: &Path) -> TargetInfo {
        path_info(path, &Mounts::new())
    }

    #[test]
    fn a_directory_a_file_and_a_missing_path() {
        let d = tempfile::tempdir().unwrap();
        let dir = info(d.path());
        assert_eq!(dir.kind, Some(FileKind::Dir));
        assert!(dir.exists && dir.is_dir && !dir.is_file && dir.writable && !dir.mount_root);
        assert_eq!(
            dir.resolved.as_deref(),
            Some(std::fs::canonicalize(d.path()).unwrap().as_path())
        );
        if cfg!(target_os = "linux") {
            assert!(dir.fs_type.is_some() && dir.mount_point.is_some());
            let space = dir.space.unwrap();
            assert!(space.total_bytes >= space.free_bytes);
            assert!(space.free_bytes >= space.avail_bytes);
        }
        let f = d.path().join("f");
        std::fs::write(&f, b"x").unwrap();
        let file = info(&f);
        assert!(file.exists && file.is_file && file.kind == Some(FileKind::File));
        // A missing path: nothing there, the file system of its nearest ancestor.
        let missing = info(&d.path().join("no/such"));
        assert!(!missing.exists && missing.kind.is_none() && !missing.writable);
        assert_eq!(missing.resolved, None);
        assert_eq!(missing.fs_type, dir.fs_type);
        assert_eq!(missing.mount_point, dir.mount_point);
        // A dangling symbolic link is there, and does not exist.
        let l = d.path().join("l");
        std::os::unix::fs::symlink(d.path().join("gone"), &l).unwrap();
        let link = info(&l);
        assert_eq!(link.kind, Some(FileKind::Symlink));
        assert!(!link.exists);
    }

    #[test]
    fn roots_of_mounts() {
        assert!(info(Path::new("/")).mount_root);
        if Path::new("/proc/self").exists() {
            assert!(info(Path::new("/proc")).mount_root);
        }
        let _ = info(Path::new(""));
        let _ = info(Path::new("some/relative/dir"));
    }
}
