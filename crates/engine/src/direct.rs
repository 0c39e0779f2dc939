//! The alignment O_DIRECT needs where a run does its I/O, so that a transfer size the file
//! system takes is not refused by a blanket rule (tsqosperf's 1 KiB reads work on a disk of
//! 512-byte sectors) and one it refuses fails before any I/O, not with EINVAL mid-run.
//!
//! Asked in this order: the file system about an existing file (`statx` with
//! `STATX_DIOALIGN`, Linux 6.1 and later); a tmpfs takes any (its O_DIRECT goes through
//! memory); the logical block size of the block device that holds the directory
//! (`/sys/dev/block/MAJ:MIN`); else 4096 is assumed, which every common device accepts.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// The smallest alignment any device has (a 512-byte sector): the rule a plan can be checked
/// against before the file system is known.
pub const MIN_DIRECT_ALIGN: u64 = 512;

/// What is assumed where nothing says otherwise.
pub const ASSUMED_DIRECT_ALIGN: u64 = 4096;

/// The offset and length alignment O_DIRECT needs, and where the figure comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirectAlign {
    Bytes {
        bytes: u64,
        from: String,
    },
    /// The file system says it does not do O_DIRECT on this file.
    Unsupported,
}

/// The alignment for I/O to `file` (which may not exist yet) in directory `dir`.
pub fn direct_alignment(file: &Path, dir: &Path) -> DirectAlign {
    match dio_align(file) {
        Some(0) => return DirectAlign::Unsupported,
        Some(bytes) => {
            return DirectAlign::Bytes {
                bytes: u64::from(bytes),
                from: format!("the file system's for {}", file.display()),
            }
        }
        None => {}
    }
    if is_tmpfs(dir) {
        // tmpfs takes O_DIRECT (Linux 6.6 and later) through memory, at any alignment.
        return DirectAlign::Bytes {
            bytes: MIN_DIRECT_ALIGN,
            from: format!("{} is a tmpfs, which takes any", dir.display()),
        };
    }
    if let Some((bytes, dev)) = std::fs::metadata(dir)
        .ok()
        .and_then(|m| logical_block_size(m.dev()))
    {
        return DirectAlign::Bytes {
            bytes,
            from: format!(
                "the logical block size of {dev}, which holds {}",
                dir.display()
            ),
        };
    }
    DirectAlign::Bytes {
        bytes: ASSUMED_DIRECT_ALIGN,
        from: format!("assumed: the file system of {} does not say", dir.display()),
    }
}

fn is_tmpfs(dir: &Path) -> bool {
    const TMPFS_MAGIC: i64 = 0x0102_1994;
    let Ok(c) = CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a zeroed statfs is a valid output buffer; the path is NUL-terminated.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::statfs(c.as_ptr(), &mut st) };
    rc == 0 && st.f_type as i64 == TMPFS_MAGIC
}

/// `stx_dio_offset_align` of an existing regular file, if the kernel and file system report
/// it (0: no O_DIRECT on this file).
fn dio_align(file: &Path) -> Option<u32> {
    let c = CString::new(file.as_os_str().as_bytes()).ok()?;
    // SAFETY: a zeroed statx is a valid output buffer; the path is NUL-terminated.
    let mut st: libc::statx = unsafe { std::mem::zeroed() };
    let rc = unsafe {
        libc::statx(
            libc::AT_FDCWD,
            c.as_ptr(),
            libc::AT_STATX_SYNC_AS_STAT,
            libc::STATX_DIOALIGN | libc::STATX_TYPE,
            &mut st,
        )
    };
    let regular = u32::from(st.stx_mode) & libc::S_IFMT == libc::S_IFREG;
    (rc == 0 && regular && st.stx_mask & libc::STATX_DIOALIGN != 0)
        .then_some(st.stx_dio_offset_align)
}

/// The logical block size of device `dev` (a partition's is its disk's), with the device's
/// name.
fn logical_block_size(dev: u64) -> Option<(u64, String)> {
    let base = format!("/sys/dev/block/{}:{}", libc::major(dev), libc::minor(dev));
    let read = |p: &str| -> Option<u64> { std::fs::read_to_string(p).ok()?.trim().parse().ok() };
    let size = read(&format!("{base}/queue/logical_block_size"))
        .or_else(|| read(&format!("{base}/../queue/logical_block_size")))?;
    let name = std::fs::read_link(&base)
        .ok()
        .and_then(|l| l.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or(base.clone());
    (size > 0).then_some((size, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_for_every_directory() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        match direct_alignment(&f, d.path()) {
            DirectAlign::Bytes { bytes, from } => {
                assert!(
                    bytes.is_power_of_two() && bytes >= MIN_DIRECT_ALIGN,
                    "{bytes} {from}"
                );
            }
            DirectAlign::Unsupported => panic!("a file that does not exist has no answer"),
        }
        // An existing file: the file system's own answer where it gives one.
        std::fs::write(&f, b"x").unwrap();
        if let Some(a) = dio_align(&f) {
            let got = direct_alignment(&f, d.path());
            if a > 0 {
                assert_eq!(
                    got,
                    DirectAlign::Bytes {
                        bytes: u64::from(a),
                        from: format!("the file system's for {}", f.display())
                    }
                );
            }
        }
    }
}
