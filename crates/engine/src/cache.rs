//! The operating system's page cache around an engine's files: how much of the data a phase
//! is about to read is already resident (`mincore` over a mapping of the file, which reads
//! nothing and faults nothing in), and dropping it, for the whole node (root:
//! `/proc/sys/vm/drop_caches` after `sync`) or per file (`fsync`, then
//! `posix_fadvise(POSIX_FADV_DONTNEED)`, which drops only clean pages).
//!
//! Only for engines whose [`Caps::page_cache`](crate::Caps::page_cache) is set; the caller
//! decides by that flag. Everything here runs outside the timed windows.

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::path::Path;

/// A piece of a file: `len` bytes from `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    pub offset: u64,
    pub len: u64,
}

/// The part of a file a rank will read: `count` pieces of `len` bytes, the first at `first`,
/// each `stride` bytes after the one before (IOR's segments; one piece for a whole file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strided {
    pub first: u64,
    pub len: u64,
    pub stride: u64,
    pub count: u64,
}

impl Strided {
    /// One piece.
    pub fn whole(offset: u64, len: u64) -> Strided {
        Strided {
            first: offset,
            len,
            stride: len,
            count: 1,
        }
    }

    pub fn bytes(&self) -> u64 {
        self.len.saturating_mul(self.count)
    }
}

/// What a residency check saw, in bytes of whole pages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Residency {
    pub resident_bytes: u64,
    pub checked_bytes: u64,
}

impl Residency {
    pub fn add(&mut self, other: Residency) {
        self.resident_bytes += other.resident_bytes;
        self.checked_bytes += other.checked_bytes;
    }

    /// Resident share of what was checked; `None` when nothing was.
    pub fn fraction(&self) -> Option<f64> {
        (self.checked_bytes > 0).then(|| self.resident_bytes as f64 / self.checked_bytes as f64)
    }
}

/// At most this much of a rank's data is checked page by page; more is sampled.
pub const CHECK_BUDGET_BYTES: u64 = 256 << 20;
/// ... and in at most this many pieces (one `mincore` call each).
pub const MAX_WINDOWS: usize = 1024;

/// The pieces of `set` to check: all of them when they fit the budget
/// ([`CHECK_BUDGET_BYTES`] in at most [`MAX_WINDOWS`] pieces), else [`MAX_WINDOWS`] windows
/// spread evenly over the pieces laid end to end, each clipped to its piece. The flag says
/// whether this is a sample.
pub fn plan_windows(set: &Strided, page: u64) -> (Vec<Extent>, bool) {
    let total = set.bytes();
    if total == 0 {
        return (Vec::new(), false);
    }
    let at = |i: u64, into: u64, len: u64| Extent {
        offset: set.first + i * set.stride + into,
        len,
    };
    if total <= CHECK_BUDGET_BYTES && set.count <= MAX_WINDOWS as u64 {
        return ((0..set.count).map(|i| at(i, 0, set.len)).collect(), false);
    }
    let n = MAX_WINDOWS as u64;
    let width = (CHECK_BUDGET_BYTES / n).max(page);
    let windows = (0..n)
        .map(|w| {
            let pos = (w as u128 * total as u128 / n as u128) as u64;
            let (i, into) = (pos / set.len, pos % set.len);
            at(i, into, width.min(set.len - into))
        })
        .collect();
    (windows, true)
}

/// The system's page size.
pub fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as u64
    } else {
        4096
    }
}

/// Resident pages of `path` under `windows` (from [`plan_windows`]); parts beyond the end of
/// the file are not counted. Reads no data.
pub fn residency(path: &Path, windows: &[Extent]) -> io::Result<Residency> {
    let file = File::open(path)?;
    let size = file.metadata()?.len();
    let page = page_size();
    let mut seen = Residency::default();
    if size == 0 || windows.is_empty() {
        return Ok(seen);
    }
    let map = Mapping::new(&file, size)?;
    let mut vec = Vec::new();
    for w in windows {
        let start = (w.offset / page) * page;
        let end = w.offset.saturating_add(w.len).min(size);
        if end <= start {
            continue;
        }
        let pages = (end - start).div_ceil(page) as usize;
        vec.clear();
        vec.resize(pages, 0u8);
        map.mincore(start, pages as u64 * page, &mut vec)?;
        // Bit 0 of each byte: resident. A sum the compiler vectorizes (it runs per page).
        let resident: u64 = vec.iter().map(|&b| u64::from(b & 1)).sum();
        seen.add(Residency {
            resident_bytes: resident * page,
            checked_bytes: pages as u64 * page,
        });
    }
    Ok(seen)
}

/// A read-only shared mapping of a whole file, for `mincore`.
struct Mapping {
    addr: *mut libc::c_void,
    len: usize,
}

impl Mapping {
    fn new(file: &File, size: u64) -> io::Result<Mapping> {
        let len = usize::try_from(size)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "file too large to map"))?;
        // SAFETY: a fresh read-only shared mapping of an open file; nothing is read through it.
        let addr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                0,
            )
        };
        if addr == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Mapping { addr, len })
    }

    /// `offset` is page-aligned and `offset + len` within the mapping's pages.
    fn mincore(&self, offset: u64, len: u64, vec: &mut [u8]) -> io::Result<()> {
        // SAFETY: the range lies within this mapping (the caller clips it to the file's size,
        // rounded up to a page, which the mapping covers) and `vec` has one byte per page.
        let rc = unsafe {
            libc::mincore(
                (self.addr as *mut u8).add(offset as usize) as *mut libc::c_void,
                len as usize,
                vec.as_mut_ptr(),
            )
        };
        if rc == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `new`.
        unsafe { libc::munmap(self.addr, self.len) };
    }
}

/// Flushes `path`'s dirty data and asks the kernel to drop its cached pages (the whole file).
pub fn drop_file(path: &Path) -> io::Result<()> {
    let file = File::open(path)?;
    // DONTNEED drops only clean pages: write the dirty ones out first.
    file.sync_data()?;
    // SAFETY: a valid descriptor; offset 0 and length 0 mean the whole file.
    let rc = unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(rc))
    }
}

/// The whole node's clean page cache, dentries and inodes: `sync`, then `3` into
/// `/proc/sys/vm/drop_caches`. Needs root.
pub fn drop_system() -> io::Result<()> {
    // SAFETY: sync has no preconditions.
    unsafe { libc::sync() };
    std::fs::write("/proc/sys/vm/drop_caches", b"3\n")
}

/// Whether this process may drop the whole node's caches (it runs as root).
pub fn may_drop_system() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Whether `path` (or its nearest existing ancestor) is on a file system that keeps its data
/// in memory (tmpfs, ramfs): its pages are the data and cannot be dropped.
#[allow(clippy::unnecessary_cast)] // statfs field widths differ between architectures
pub fn in_memory_fs(path: &Path) -> bool {
    const TMPFS: i64 = 0x0102_1994;
    const RAMFS: i64 = 0x8584_58f6;
    let mut p = path.to_path_buf();
    while !p.exists() && p.pop() {}
    let Ok(c) = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()) else {
        return false;
    };
    // SAFETY: an all-zero statfs is a valid value to be overwritten.
    let mut s: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is NUL-terminated and `s` is a valid, writable statfs.
    if unsafe { libc::statfs(c.as_ptr(), &mut s) } != 0 {
        return false;
    }
    matches!(s.f_type as i64, TMPFS | RAMFS)
}

#[cfg(test)]
#[path = "cache_tests.rs"]
mod tests;
